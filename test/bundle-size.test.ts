import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GZIP_TARGETS, KB, type BrowserBundleSize, formatBundleSize, measureBrowserBundle, packageOfInput } from './support/bundle-size.mjs';

// What each package adds to a browser app, bundled from dist/ as an app's bundler would (run `pnpm build` first). The
// targets come from the issue "A newcomer installs Railyard in their own project" (client 138 KB and wallet 124 KB
// gzipped before); each package reaches the contract through a zod-free entry.

describe.each([
  { name: '@railyard/client', dist: 'packages/client/dist/index.js', contractEntry: 'routes' },
  { name: '@railyard/wallet', dist: 'packages/wallet/dist/index.js', contractEntry: 'wallet-crypto' },
])('$name in a browser bundle', ({ name, dist, contractEntry }) => {
  const target = GZIP_TARGETS[name]!;
  let bundle: BrowserBundleSize;
  beforeAll(async () => {
    bundle = await measureBrowserBundle(name);
    console.log(formatBundleSize(bundle, { packages: 4 }));
  });

  it(`is at most ${target / KB} KB minified and gzipped`, () => {
    expect(bundle.inputs).toContain(dist);
    expect(bundle.gzipBytes).toBeGreaterThan(0);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(target);
  });

  it(`bundles no zod: the contract comes in through its zod-free ${contractEntry} entry`, () => {
    expect(new Set(bundle.inputs.map(packageOfInput)).has('zod')).toBe(false);
    expect(bundle.inputs).toContain(`packages/contract/dist/${contractEntry}.js`);
    expect(bundle.inputs).not.toContain('packages/contract/dist/index.js');
  });
});

describe('@railyard/wallet declarations', () => {
  it("name neither zod nor the contract's main entry", () => {
    const declarations = readFileSync(new URL('../packages/wallet/dist/index.d.ts', import.meta.url), 'utf8');
    expect(declarations).toContain("from '@railyard/contract/wallet-crypto'");
    expect(declarations).not.toMatch(/from '(zod|@railyard\/contract)'/);
  });
});

describe('packageOfInput', () => {
  it('names the package a bundled file belongs to', () => {
    expect(packageOfInput('node_modules/.pnpm/zod@4.6.7/node_modules/zod/v4/core/util.js')).toBe('zod');
    expect(packageOfInput('node_modules/.pnpm/@simplewebauthn+browser@14.0.0/node_modules/@simplewebauthn/browser/esm/index.js')).toBe('@simplewebauthn/browser');
    expect(packageOfInput('packages/contract/dist/wallet-crypto.js')).toBe('@railyard/contract');
    expect(packageOfInput('<stdin>')).toBe('<stdin>');
  });
});
