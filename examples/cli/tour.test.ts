import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createEngine } from '@railyard/engine';
import { startServer } from '@railyard/engine/server';
import { expect, it } from 'vitest';
import { runCliTour, type Railyard, type RailyardInBackground } from './tour.js';

const bin = createRequire(import.meta.url).resolve('@railyard/engine/package.json').replace(/package\.json$/, 'dist/cli.cjs');
const railyard: Railyard = (args, env = {}) => new Promise((resolve) => {
  execFile(process.execPath, [bin, ...args], { env: { ...process.env, RAILYARD_CLIENT_ID: '', RAILYARD_CLIENT_SECRET: '', ...env } }, (error, stdout) => {
    resolve({ code: error === null ? 0 : Number((error as { code?: number }).code ?? 1), out: stdout });
  });
});

const inBackground: RailyardInBackground = (args, env = {}) => {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, RAILYARD_CLIENT_ID: '', RAILYARD_CLIENT_SECRET: '', ...env } });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  return { stderr: () => stderr, stop: () => (child.kill('SIGINT'), exited) };
};

it('creates a platform, moves its clock, saves and loads a snapshot, lists its events, and forwards a triggered event to a local receiver with the railyard commands', async () => {
  const engine = createEngine({ clock: 'virtual' });
  const server = await startServer(engine, { port: 0 });
  try {
    expect(await runCliTour(railyard, inBackground, server.baseUrl, () => undefined)).toEqual([
      'platforms create: a regulated platform (true)',
      'snapshot save: the empty platform kept in a file',
      'a customer created over the API: 201',
      'clock advance 6m: 6 minutes later on its virtual clock',
      'events: CUSTOMER.KYC_APPROVED',
      'snapshot load: back as saved, 0 events',
      'listen: forwarding OUTGOING_PAYMENT.COMPLETED to a local receiver',
      expect.stringMatching(/^trigger OUTGOING_PAYMENT\.COMPLETED: made (\w+, )*customer(, \w+)*$/),
      'listen: the receiver got OUTGOING_PAYMENT.COMPLETED, signed by the sandbox (verify: 204)',
    ]);
  } finally {
    await server.close();
    engine.close();
  }
});
