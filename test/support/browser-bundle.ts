import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

/** The repository root: bundles resolve `@railyard/*` from here, through the root's node_modules. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A browser bundle and esbuild's account of what went into it. */
export interface BrowserBundle {
  readonly code: string;
  readonly metafile: Metafile;
}

/**
 * Bundles `source` (a TypeScript module's text, resolved from the repository root) for the browser as an app's bundler
 * would: `platform: 'browser'`, and the `@railyard/*` packages through their exports maps, so from their built dist/
 * (an empty tsconfig keeps the root's source `paths`, which the tests use, out of it). Throws on any error, such as a
 * Node built-in that cannot be resolved.
 */
export async function bundleForBrowser(source: string): Promise<BrowserBundle> {
  const result = await build({
    stdin: { contents: source, resolveDir: REPO_ROOT, loader: 'ts', sourcefile: 'browser-entry.ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    tsconfigRaw: '{}',
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

const NODE_BUILT_INS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Every Node built-in a bundle's inputs import (resolved or left external), as `importer -> built-in`. */
export function nodeBuiltInImports(metafile: Metafile): string[] {
  return Object.entries(metafile.inputs).flatMap(([input, { imports }]) => [
    ...(NODE_BUILT_INS.has(input) ? [input] : []),
    ...imports.filter((entry) => NODE_BUILT_INS.has(entry.path) || entry.path.startsWith('node:')).map((entry) => `${input} -> ${entry.path}`),
  ]);
}
