import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The client's cost in a browser app: its built ESM bundled as an app would bundle it, minified and gzipped.
// Runs against dist/ (build first). The target comes from the issue "A newcomer installs Railyard in their own project".

const MAX_GZIPPED_BYTES = 40 * 1024;

describe('@railyard/client in a browser bundle', () => {
  it(`is at most ${MAX_GZIPPED_BYTES / 1024} KB minified and gzipped, and carries no zod`, async () => {
    const result = await build({
      stdin: {
        contents: "export * from '@railyard/client';",
        resolveDir: new URL('.', import.meta.url).pathname,
        loader: 'ts',
      },
      bundle: true,
      write: false,
      minify: true,
      format: 'esm',
      platform: 'browser',
      metafile: true,
      logLevel: 'silent',
      // Resolve through the packages' exports maps (dist/), not the repo's tsconfig paths to the sources.
      tsconfigRaw: '{}',
    });
    const code = result.outputFiles[0]!.contents;
    const gzipped = gzipSync(code, { level: 9 }).byteLength;
    const inputs = Object.keys(result.metafile.inputs);
    console.log(`@railyard/client browser bundle: ${(code.byteLength / 1024).toFixed(1)} KB minified, ${(gzipped / 1024).toFixed(1)} KB gzipped, ${inputs.length} inputs`);

    expect(inputs.some((path) => path.includes('packages/client/dist/'))).toBe(true);
    expect(inputs.filter((path) => /[\\/]zod[\\/@]|node_modules[\\/]zod/.test(path))).toEqual([]);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
  });
});
