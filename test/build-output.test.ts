import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Proves the built packages load from both `import` and `require` through their exports maps.
// Runs against dist/ (the root `test` script builds first).

const packageDir = (name: string) => fileURLToPath(new URL(`../packages/${name}`, import.meta.url));

const cases = [
  { pkg: 'contract', specifier: '@railyard/contract', exportName: 'customerEndpoints' },
  { pkg: 'contract', specifier: '@railyard/contract/wallet-crypto', exportName: 'decodeWalletStamp' },
  { pkg: 'contract', specifier: '@railyard/contract/routes', exportName: 'customerEndpoints' },
  { pkg: 'engine', specifier: '@railyard/engine', exportName: 'createEngine' },
  { pkg: 'engine', specifier: '@railyard/engine/msw', exportName: 'createHandlers' },
  { pkg: 'engine', specifier: '@railyard/engine/server', exportName: 'startServer' },
  { pkg: 'client', specifier: '@railyard/client', exportName: 'createClient' },
  { pkg: 'wallet', specifier: '@railyard/wallet', exportName: 'WALLET_SIGNATURE_HEADER' },
];

function run(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  return { code: result.status, out: result.stdout.trim(), err: result.stderr };
}

describe('built packages', () => {
  for (const { pkg, specifier, exportName } of cases) {
    it(`${specifier} loads with require()`, () => {
      const { code, out, err } = run(packageDir(pkg), ['-e', `console.log(typeof require(${JSON.stringify(specifier)}).${exportName})`]);
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).not.toBe('undefined');
    });

    it(`${specifier} loads with import`, () => {
      const { code, out, err } = run(packageDir(pkg), [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(specifier)}); console.log(typeof m.${exportName});`,
      ]);
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(out).not.toBe('undefined');
    });
  }

  // The two contract entries share one chunk, so an error from either is an instance of the other's class.
  it('@railyard/contract/wallet-crypto hands out the main entry\'s WalletCryptoError, under require() and import', () => {
    const same = "a.WalletCryptoError === b.WalletCryptoError && a.decodeWalletStamp === b.decodeWalletStamp";
    const required = run(packageDir('contract'), ['-e', `const a = require('@railyard/contract'), b = require('@railyard/contract/wallet-crypto'); console.log(${same})`]);
    const imported = run(packageDir('contract'), [
      '--input-type=module',
      '-e',
      `const a = await import('@railyard/contract'), b = await import('@railyard/contract/wallet-crypto'); console.log(${same})`,
    ]);
    expect([required.err, imported.err]).toEqual(['', '']);
    expect([required.out, imported.out]).toEqual(['true', 'true']);
  });

  it('a client made under require() talks to an engine made under require()', () => {
    const script = `
      const { createEngine } = require('@railyard/engine');
      const { createClient } = require('@railyard/client');
      const engine = createEngine();
      const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
      client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Req Uire' }).then((c) => { console.log(c.fullName); engine.close(); });`;
    const { code, out, err } = run(packageDir('client'), ['-e', script]);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe('Req Uire');
  });

  it('the engine CLI prints its usage', () => {
    const { code, out } = run(packageDir('engine'), ['dist/cli.cjs', '--help']);
    expect(code).toBe(0);
    expect(out).toContain('railyard serve');
  });
});
