import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { createEngine } from '@railyard/engine';
import { startServer } from '@railyard/engine/server';
import { expect, it } from 'vitest';
import { runCliTour, type Railyard } from './tour.js';

const bin = createRequire(import.meta.url).resolve('@railyard/engine/package.json').replace(/package\.json$/, 'dist/cli.cjs');
const railyard: Railyard = (args, env = {}) => new Promise((resolve) => {
  execFile(process.execPath, [bin, ...args], { env: { ...process.env, RAILYARD_CLIENT_ID: '', RAILYARD_CLIENT_SECRET: '', ...env } }, (error, stdout) => {
    resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? 1), out: stdout });
  });
});

it('creates a platform, moves its clock, saves and loads a snapshot and lists its events with the railyard commands', async () => {
  const engine = createEngine({ clock: 'virtual' });
  const server = await startServer(engine, { port: 0 });
  try {
    expect(await runCliTour(railyard, server.baseUrl, () => undefined)).toEqual([
      'platforms create: a regulated platform (true)',
      'snapshot save: the empty platform kept in a file',
      'a customer created over the API: 201',
      'clock advance 6m: 6 minutes later on its virtual clock',
      'events: CUSTOMER.KYC_APPROVED',
      'snapshot load: back as saved, 0 events',
    ]);
  } finally {
    await server.close();
    engine.close();
  }
});
