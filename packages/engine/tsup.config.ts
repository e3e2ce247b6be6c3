import type { Options } from 'tsup';
import { dirname } from 'node:path';
import { packageBuild } from '../../tsup.base.js';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * zod's namespace re-exports all of its locales (`z.locales`), some 60 modules that the engine never uses: it speaks
 * English only. The server thread is parsed on every cold start, so its bundle carries the English locale alone.
 */
const englishZodOnly: Plugin = {
  name: 'english-zod-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer) ? { path: args.importer, namespace: 'english-zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'english-zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

export default <Options[]>[
  packageBuild(['index', 'msw', 'server']),
  // The command line starts a process per run. The launcher (cli) is small; the server thread it starts (serve-thread)
  // inlines the contract and zod, which Node would otherwise load as some hundred module files (cold start to first
  // response ~230 → ~200 ms). Dependencies the engine loads on first use (WebAuthn, wallet verifiers, BIP-39) stay
  // outside, so they are not parsed at start. Both are ES modules only: they are run, not imported.
  {
    ...packageBuild(['cli', 'serve-thread'], ['@railyard/contract', 'zod']),
    format: ['esm'],
    dts: false,
    clean: false,
    esbuildPlugins: [englishZodOnly],
  },
];
