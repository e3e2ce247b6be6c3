import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What @railyard/client costs a newcomer's compiler: a fixed ~70-line consumer (resources, pagination, errors,
// webhooks) type-checked against the built packages (dist/, so build first) with skipLibCheck off, which checks the
// client's declaration files too. The issue "A newcomer installs Railyard in their own project" measured 1.37M
// instantiations (openai and stripe together: 60k); the target is under 200k.

const MAX_INSTANTIATIONS = 200_000;
const project = fileURLToPath(new URL('./fixtures/client-consumer/tsconfig.json', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

describe('type-checking a consumer of @railyard/client', () => {
  it(`takes fewer than ${MAX_INSTANTIATIONS} instantiations, with no error and no zod declaration loaded`, () => {
    const run = spawnSync(process.execPath, [tsc, '-p', project, '--extendedDiagnostics', '--listFiles', '--noEmit', '--strict', '--skipLibCheck', 'false'], {
      encoding: 'utf8',
    });
    const files = run.stdout.split('\n').filter((line) => line.endsWith('.d.ts') || line.endsWith('.d.cts') || line.endsWith('.d.mts'));
    expect(files.some((file) => file.includes('packages/client/dist/'))).toBe(true);
    expect(files.filter((file) => /[\\/]zod[\\/@]|node_modules[\\/]zod/.test(file))).toEqual([]);
    const errors = run.stdout.split('\n').filter((line) => line.includes('error TS'));
    const instantiations = Number(/^Instantiations:\s+(\d+)/m.exec(run.stdout)?.[1]);
    const checkTime = /^Check time:\s+(\S+)/m.exec(run.stdout)?.[1];
    console.log(`consumer of @railyard/client: ${instantiations} instantiations, check time ${checkTime}`);
    expect(errors).toEqual([]);
    expect(run.status).toBe(0);
    expect(instantiations).toBeGreaterThan(0);
    expect(instantiations).toBeLessThan(MAX_INSTANTIATIONS);
  }, 240_000);
});
