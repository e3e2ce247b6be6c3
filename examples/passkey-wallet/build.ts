// Bundles the page script (page/app.ts, which imports @railyard/wallet) for the browser with tsup (esbuild).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds `page/app.ts` into one ES module for the browser (`dist/app.js`) and returns its text. `@railyard/wallet` and
 * `@railyard/contract` resolve to their sources through the repository's tsconfig paths, so the page never runs a
 * stale build; `@simplewebauthn/browser` (the real WebAuthn API) is bundled with them.
 */
export async function bundlePage(): Promise<string> {
  await build({
    config: false,
    entry: { app: here('./page/app.ts') },
    outDir: here('./dist'),
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    tsconfig: here('../../tsconfig.json'),
    noExternal: [/.*/],
    splitting: false,
    sourcemap: 'inline',
    clean: true,
    silent: true,
  });
  return readFile(here('./dist/app.js'), 'utf8');
}
