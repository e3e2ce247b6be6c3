// What a package costs a browser app: its built entry bundled with esbuild as an app's bundler would (platform browser,
// ES modules, minified), then gzipped. Shared by test/bundle-size.test.ts (the targets) and `pnpm bench` (the report), so
// both measure the same thing. Resolves the packages' dist/ through their exports maps: run `pnpm build` first.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Bytes in 1 KB, as the size targets count them. */
export const KB = 1024;

/**
 * Gzipped size targets, checked by test/bundle-size.test.ts (the client and the wallet)
 * and shown in `pnpm bench`.
 */
export const GZIP_TARGETS = { '@railyard/wallet': 25 * KB, '@railyard/client': 40 * KB };

/** The packages `pnpm bench` reports on. */
export const REPORTED_PACKAGES = ['@railyard/wallet', '@railyard/client'];

/** The npm package a bundled file belongs to: the last `node_modules/<name>` in its path, or `@railyard/<dir>` for a workspace package. */
export function packageOfInput(path) {
  const inNodeModules = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(path);
  if (inNodeModules) return inNodeModules[1];
  const inWorkspace = /(?:^|\/)packages\/([^/]+)\//.exec(path);
  return inWorkspace ? `@railyard/${inWorkspace[1]}` : path;
}

/**
 * Bundles `export * from '<specifier>'` for the browser, minified, and measures it.
 * Returns the minified and gzipped sizes in bytes, every input file (paths relative to the repository root) and the
 * minified bytes each package contributes, largest first.
 */
export async function measureBrowserBundle(specifier) {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: repoRoot, loader: 'js' },
    absWorkingDir: repoRoot,
    // The repository's tsconfig maps the packages to their sources; an app gets their dist/, so measure that.
    tsconfigRaw: {},
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const byPackage = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (path === '<stdin>') continue; // the one-line entry itself
    const name = packageOfInput(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return {
    specifier,
    minifiedBytes: code.byteLength,
    gzipBytes: gzipSync(code).byteLength,
    inputs: Object.keys(result.metafile.inputs),
    packages: [...byPackage].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
  };
}

/** One report line: `@railyard/wallet  12.3 KB gzipped (40.1 KB minified)`, then the `packages` largest packages (minified) when asked. */
export function formatBundleSize(size, { packages = 0 } = {}) {
  const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
  const largest = size.packages.slice(0, packages).map((p) => `${p.name} ${kb(p.bytes)}`).join(', ');
  return `${size.specifier.padEnd(20)} ${kb(size.gzipBytes).padStart(9)} gzipped (${kb(size.minifiedBytes)} minified)${largest ? `; minified by package: ${largest}` : ''}`;
}
