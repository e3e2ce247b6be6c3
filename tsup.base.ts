import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

/** The version in the package.json of the package being built (tsup runs in the package's folder). */
const packageVersion = (): string => (JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The build every package shares: ESM + CJS + d.ts for Node 20, one bundle per entry. `bundle` names ESM-only
 * dependencies to inline, so the CJS build works under `require` too. Quiet unless something fails. `RAILYARD_VERSION`
 * in the code becomes the package's version (`railyard --version`, the health check, the client's User-Agent).
 */
export const packageBuild = (entries: string[], bundle: (string | RegExp)[] = []) =>
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
    define: { RAILYARD_VERSION: JSON.stringify(packageVersion()) },
  });
