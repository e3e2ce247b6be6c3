import type { Options } from 'tsup';
import { packageBuild } from '../../tsup.base.js';

export default <Options[]>[
  packageBuild(['index', 'msw']),
  // The command line starts a process per run. The launcher (cli) is small; the server thread it starts (serve-thread)
  // inlines the contract and zod, which Node would otherwise load as some hundred module files (cold start to first
  // response ~230 → ~200 ms). Dependencies the engine loads on first use (WebAuthn, wallet verifiers, BIP-39) stay
  // outside, so they are not parsed at start. Both are ES modules only: they are run, not imported.
  { ...packageBuild(['cli', 'serve-thread'], ['@railyard/contract', 'zod']), format: ['esm'], dts: false, clean: false },
];
