import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (pkg: string, file = 'index.ts') => fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

// Tests import the packages' sources, so a test run never depends on a stale build.
// The build smoke test (test/build-output.test.ts) is the one place that checks dist/.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@railyard\/contract$/, replacement: src('contract') },
      { find: /^@railyard\/contract\/routes$/, replacement: src('contract', 'routes.ts') },
      { find: /^@railyard\/contract\/wallet-crypto$/, replacement: src('contract', 'wallet-crypto/index.ts') },
      { find: /^@railyard\/engine\/msw$/, replacement: src('engine', 'msw.ts') },
      { find: /^@railyard\/engine\/server$/, replacement: src('engine', 'server.ts') },
      { find: /^@railyard\/engine\/sqlite$/, replacement: src('engine', 'sqlite.ts') },
      { find: /^@railyard\/engine\/postgres$/, replacement: src('engine', 'postgres.ts') },
      { find: /^@railyard\/engine$/, replacement: src('engine') },
      { find: /^@railyard\/client$/, replacement: src('client') },
      { find: /^@railyard\/wallet$/, replacement: src('wallet') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 20_000,
    globalSetup: ['./test/support/postgres-global.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
