import { defineConfig } from 'tsup';

/** The build every package shares: ESM + CJS + d.ts for Node 20, one bundle per entry. */
export const packageBuild = (entries: string[]) =>
  defineConfig({
    entry: Object.fromEntries(entries.map((name) => [name, `src/${name}.ts`])),
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
  });
