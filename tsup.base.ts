import { defineConfig } from 'tsup';

/**
 * The build every package shares: ESM + CJS + d.ts for Node 20, one bundle per entry. `bundle` names ESM-only
 * dependencies to inline, so the CJS build works under `require` too. Quiet unless something fails.
 */
export const packageBuild = (entries: string[], bundle: string[] = []) =>
  defineConfig({
    noExternal: bundle,
    entry: Object.fromEntries(entries.map((name) => [name, `src/${name}.ts`])),
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    // `pnpm demo` and `pnpm test` build first: only errors are worth printing there (tsup still prints those).
    silent: true,
  });
