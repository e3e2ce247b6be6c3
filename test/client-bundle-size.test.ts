import { beforeAll, describe, expect, it } from 'vitest';
import { GZIP_TARGETS, KB, type BrowserBundleSize, formatBundleSize, measureBrowserBundle, packageOfInput } from './support/bundle-size.mjs';

// What @railyard/client adds to a browser app, bundled from dist/ as an app's bundler would (run `pnpm build` first).
// The target comes from the issue "A newcomer installs Railyard in their own project" (it was 138 KB gzipped).

const CLIENT_TARGET_GZIP = GZIP_TARGETS['@railyard/client']!;

describe('@railyard/client in a browser bundle', () => {
  let client: BrowserBundleSize;
  beforeAll(async () => {
    client = await measureBrowserBundle('@railyard/client');
    console.log(formatBundleSize(client, { packages: 4 }));
  });

  it(`is at most ${CLIENT_TARGET_GZIP / KB} KB minified and gzipped`, () => {
    expect(client.inputs).toContain('packages/client/dist/index.js');
    expect(client.gzipBytes).toBeGreaterThan(0);
    expect(client.gzipBytes).toBeLessThanOrEqual(CLIENT_TARGET_GZIP);
  });

  it('bundles no zod: the contract comes in through its zod-free routes entry', () => {
    expect(new Set(client.inputs.map(packageOfInput)).has('zod')).toBe(false);
    expect(client.inputs).toContain('packages/contract/dist/routes.js');
    expect(client.inputs).not.toContain('packages/contract/dist/index.js');
  });
});
