// `pnpm test:stress`: the reliability checks (test/reliability and the property tests) with the larger counts of
// test/support/figures.ts `scaled(…)`, same code as in CI. Extra arguments go to vitest (e.g. a file filter).
import { spawnSync } from 'node:child_process';

const files = process.argv.slice(2);
const result = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--testTimeout=1800000', '--hookTimeout=600000', ...(files.length > 0 ? files : ['test/reliability', '.property.test.ts'])],
  { stdio: 'inherit', env: { ...process.env, RAILYARD_STRESS: '1' } },
);
process.exit(result.status ?? 1);
