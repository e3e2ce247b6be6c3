import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GZIP_TARGETS, KB, type BrowserBundleSize, formatBundleSize, measureBrowserBundle, packageOfInput } from './support/bundle-size.mjs';

// What each package adds to a browser app, bundled from dist/ as an app's bundler would (run `pnpm build` first).

const WALLET_TARGET_GZIP = GZIP_TARGETS['@railyard/wallet']!;

describe('browser bundle sizes', () => {
  let wallet: BrowserBundleSize;
  beforeAll(async () => {
    wallet = await measureBrowserBundle('@railyard/wallet');
    console.log(formatBundleSize(wallet, { packages: 4 }));
  });

  it(`@railyard/wallet is at most ${WALLET_TARGET_GZIP / KB} KB gzipped`, () => {
    expect(wallet.inputs).toContain('packages/wallet/dist/index.js');
    expect(wallet.gzipBytes).toBeGreaterThan(0);
    expect(wallet.gzipBytes).toBeLessThanOrEqual(WALLET_TARGET_GZIP);
  });

  it('@railyard/wallet bundles no zod: the contract comes in through its zod-free wallet-crypto entry', () => {
    const packages = new Set(wallet.inputs.map(packageOfInput));
    expect(packages.has('zod')).toBe(false);
    expect(wallet.inputs).toContain('packages/contract/dist/wallet-crypto.js');
    expect(wallet.inputs).not.toContain('packages/contract/dist/index.js');
  });

  it("@railyard/wallet's declarations name neither zod nor the contract's main entry", () => {
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
