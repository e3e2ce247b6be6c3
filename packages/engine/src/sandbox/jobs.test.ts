import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { callApi } from '../testing/requests.js';

// GET /_sandbox/jobs: what the clock will run, soonest first, and only the platform's own.

describe('the pending jobs', () => {
  it('lists a quote’s expiry and invitation expiries soonest first, narrowed by dueBefore, with the count', async () => {
    const engine = createEngine();
    const now = Date.parse((await callApi(engine, 'GET', '/_sandbox/clock')).body.now);
    for (const minutes of [30, 10, 20]) {
      const made = await callApi(engine, 'POST', '/invitations', { inviterUma: '$ada@railyard.example', expiresAt: new Date(now + minutes * 60_000).toISOString() });
      expect(made.status).toBe(201);
    }
    const all = await callApi(engine, 'GET', '/_sandbox/jobs');
    expect(all.status).toBe(200);
    const expiries = all.body.data.filter((job: { kind: string }) => job.kind === 'invitations.expire');
    expect(expiries.map((job: { runAt: string }) => Date.parse(job.runAt) - now)).toEqual([600_000, 1_200_000, 1_800_000]);
    const due = await callApi(engine, 'GET', `/_sandbox/jobs?dueBefore=${new Date(now + 15 * 60_000).toISOString()}`);
    expect(due.body.data.filter((job: { kind: string }) => job.kind === 'invitations.expire')).toHaveLength(1);
    const first = await callApi(engine, 'GET', '/_sandbox/jobs?limit=1');
    expect(first.body).toMatchObject({ hasMore: true, totalCount: all.body.totalCount });
    expect(first.body.data).toEqual([all.body.data[0]]);
    // Another platform sees none of them.
    const other = engine.createPlatform();
    expect((await callApi(engine, 'GET', '/_sandbox/jobs', undefined, undefined, other)).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await callApi(engine, 'GET', '/_sandbox/jobs?limit=0')).status).toBe(400);
    engine.close();
  });
});

describe('the platform’s invitations and who a credential is', () => {
  it('lists invitations newest first, and tells the platform from a token by its permissions', async () => {
    const engine = createEngine();
    for (const name of ['Ada', 'Bo']) await callApi(engine, 'POST', '/invitations', { inviterUma: '$ada@railyard.example', firstName: name });
    const listed = await callApi(engine, 'GET', '/_sandbox/invitations?limit=1');
    expect(listed.body).toMatchObject({ hasMore: true, totalCount: 2 });
    expect(listed.body.data[0].firstName).toBe('Bo');
    expect(listed.body.data[0].id).toBeUndefined();

    expect((await callApi(engine, 'GET', '/_sandbox/whoami')).body).toEqual({
      platformId: engine.defaultPlatform.id, credential: 'platform', id: 'sandbox-client-id', permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
    });
    const token = (await callApi(engine, 'POST', '/tokens', { name: 'payouts', permissions: ['TRANSACT'] })).body;
    const asToken = await callApi(engine, 'GET', '/_sandbox/whoami', undefined, undefined, { clientId: token.clientId, clientSecret: token.clientSecret });
    expect(asToken.body).toEqual({ platformId: engine.defaultPlatform.id, credential: 'token', id: token.id, permissions: ['TRANSACT'] });
    expect((await callApi(engine, 'GET', '/_sandbox/whoami', undefined, undefined, { clientId: 'sandbox-client-id', clientSecret: 'wrong-secret' })).status).toBe(401);
    engine.close();
  });
});
