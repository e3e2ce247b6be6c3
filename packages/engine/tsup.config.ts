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

/** Server-only stores' drivers: loaded from where they are installed, never bundled (only `--data` / `--database` and their entries need them). */
const external = ['better-sqlite3', 'pg'];

export default <Options[]>[
  { ...packageBuild(['index', 'msw', 'server', 'sqlite', 'postgres']), external },
  // The command line starts a process per run. The launcher (cli) and the worker entry (serve-worker) are small, and
  // CommonJS: an ES module entry starts Node's ES module loader first, in the process and again in the worker (~30 ms
  // of a cold start). The server thread's bundle (serve-thread) inlines the contract and zod, which Node would
  // otherwise load as some hundred module files (cold start to first response ~230 → ~200 ms). It is CommonJS so
  // that the worker entry can run it with V8's code cache (server/code-cache.ts), and so it also inlines the ESM-only
  // noble and scure packages, and loads the dependencies it needs only on first use (WebAuthn, BIP-39) with `require`
  // inside the same promise `import()` gives, so they are not parsed at start.
  {
    ...packageBuild(['cli', 'serve-worker']),
    format: ['cjs'],
    dts: false,
    clean: false,
  },
  {
    ...packageBuild(['serve-thread'], ['@railyard/contract', 'zod', /^@noble\//, '@scure/base']),
    external,
    format: ['cjs'],
    dts: false,
    clean: false,
    esbuildPlugins: [englishZodOnly],
    esbuildOptions(options) {
      options.supported = { ...options.supported, 'dynamic-import': false };
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    },
  },
];
