import { packageBuild } from '../../tsup.base.js';

export default [
  packageBuild(['index', 'msw']),
  // The command line starts a process per run: its bundle inlines the contract and zod, which Node would otherwise
  // load as some hundred module files (cold start to first response ~230 → ~200 ms). Dependencies the engine loads
  // on first use (WebAuthn, wallet verifiers, BIP-39) stay outside, so they are not parsed at start.
  { ...packageBuild(['cli'], ['@railyard/contract', 'zod']), clean: false },
];
