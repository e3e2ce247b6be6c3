import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rawCaller } from '../support/raw-api.js';
import { startBuiltServer, ROOT_CREDENTIALS, type BuiltServer } from '../support/transports.js';

// Restarts of the built `railyard serve`: a --data server on the real clock runs, at start, the jobs that came due
// while it was down; a --data server refuses a directory another one holds; an in-memory server given back a snapshot
// after a restart takes the platform's tokens and agents again.

const ROOT_ENV = { RAILYARD_CLIENT_ID: ROOT_CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: ROOT_CREDENTIALS.clientSecret };
const POLICY = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 },
};

const servers: BuiltServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const serve = async (args: string[]) => {
  const server = await startBuiltServer(args, ROOT_ENV);
  servers.push(server);
  return { server, call: rawCaller({ raw: (path, init) => fetch(`${server.baseUrl}${path}`, init) }, ROOT_CREDENTIALS) };
};
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'railyard-restart-'));
  dirs.push(dir);
  return dir;
};

describe('restarting railyard serve', () => {
  it('--data on the real clock: jobs that came due while the server was down have run once it answers', async () => {
    const dir = dataDir();
    const first = await serve(['--data', dir]);
    const soon = (ms: number) => new Date(Date.now() + ms).toISOString();
    const codes: string[] = [];
    for (const ms of [2_000, 2_200]) codes.push((await first.call('POST', '/invitations', { body: { inviterUma: '$ada@example.com', expiresAt: soon(ms) } })).json.code);
    const waiting = (await first.call('GET', '/_sandbox/snapshot')).json.collections;
    expect(waiting.jobs.map((job: { kind: string }) => job.kind)).toEqual(['invitations.expire', 'invitations.expire']);
    await first.server.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    const second = await serve(['--data', dir]);
    // The snapshot reads the stored records as they are (a GET of an invitation would expire it on the spot).
    const after = (await second.call('GET', '/_sandbox/snapshot')).json.collections;
    expect(after.jobs ?? []).toEqual([]);
    expect(after.invitations.map((i: { code: string; status: string }) => [i.code, i.status])).toEqual(codes.map((code) => [code, 'EXPIRED']));
  });

  it('--data refuses a directory another server holds, in one line, and exits 1', async () => {
    const dir = dataDir();
    await serve(['--data', dir]);
    await expect(startBuiltServer(['--data', dir], ROOT_ENV)).rejects.toThrow(/exited 1: railyard: the data directory .* is in use by another railyard \(pid \d+\): stop it, or give another --data\n$/);
  });

  it('in memory: a snapshot restored after a restart takes back its API tokens, agents and device codes', async () => {
    const first = await serve([]);
    const token = (await first.call('POST', '/tokens', { body: { name: 'viewer', permissions: ['VIEW'] } })).json;
    const customer = (await first.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] } })).json;
    const connected = (await first.call('POST', '/agents', { body: { name: 'bot', customerId: customer.id, policy: POLICY } })).json;
    const waiting = (await first.call('POST', '/agents', { body: { name: 'later', customerId: customer.id, policy: POLICY } })).json;
    const redeemed = await fetch(`${first.server.baseUrl}/agents/device-codes/${connected.deviceCode.code}/redeem`, { method: 'POST' });
    const { accessToken } = (await redeemed.json()) as { accessToken: string };
    const snapshot = (await first.call('GET', '/_sandbox/snapshot')).json;
    await first.server.stop();

    const second = await serve([]);
    expect((await second.call('POST', '/_sandbox/restore', { body: JSON.stringify(snapshot) })).status).toBe(204);
    const asToken = rawCaller({ raw: (path, init) => fetch(`${second.server.baseUrl}${path}`, init) }, { clientId: token.clientId, clientSecret: token.clientSecret });
    expect((await asToken('GET', '/customers')).json.data.map((c: { id: string }) => c.id)).toEqual([customer.id]);
    const me = await fetch(`${second.server.baseUrl}/agents/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await me.json()) as { id: string }).id).toBe(connected.agent.id);
    expect((await fetch(`${second.server.baseUrl}/agents/device-codes/${waiting.deviceCode.code}/redeem`, { method: 'POST' })).status).toBe(200);
  });
});
