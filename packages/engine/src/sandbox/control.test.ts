import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';

describe('control plane over HTTP', () => {
  it('answers at the root and under the base path', async () => {
    const engine = createEngine({ clock: new (await import('../core/clock.js')).VirtualClock(Date.UTC(2026, 0, 1)) });
    const root = await engine.fetch(apiRequest('GET', '/_sandbox/clock'));
    expect(await root.json()).toEqual({ now: '2026-01-01T00:00:00.000Z', mode: 'virtual' });
    const advanced = await engine.fetch(apiRequest('POST', '/_sandbox/clock/advance', { ms: 1500 }));
    expect(await advanced.json()).toEqual({ now: '2026-01-01T00:00:01.500Z', mode: 'virtual' });
    const versioned = await engine.fetch(new Request('http://x/2025-10-13/_sandbox/clock', { headers: apiRequest('GET', '/x').headers }));
    expect((await versioned.json()).now).toBe('2026-01-01T00:00:01.500Z');
  });

  it('refuses to advance a real clock with 409', async () => {
    const engine = createEngine({ clock: 'real' });
    const response = await engine.fetch(apiRequest('POST', '/_sandbox/clock/advance', { ms: 1 }));
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain('--clock virtual');
  });

  it('refuses a broken snapshot with 400 and keeps the state', async () => {
    const engine = createEngine();
    await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Kept Person' }));
    const response = await engine.fetch(apiRequest('POST', '/_sandbox/restore', { format: 'railyard-snapshot@1', takenAt: '2026-01-01T00:00:00Z', collections: { customers: [{ name: 'no id' }] } }));
    expect(response.status).toBe(400);
    expect((await response.json()).details.errors[0].field).toBe('collections.customers');
    const list = await engine.fetch(apiRequest('GET', '/customers'));
    expect((await list.json()).totalCount).toBe(1);
  });

  it('creates a platform whose credentials work and whose data is its own', async () => {
    const engine = createEngine();
    const created = await engine.fetch(apiRequest('POST', '/_sandbox/platforms', { regulated: true, clientId: 'tenant-two', clientSecret: 'secret-two-long' }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ clientId: 'tenant-two', clientSecret: 'secret-two-long', regulated: true, skipPaperwork: false });
    const duplicate = await engine.fetch(apiRequest('POST', '/_sandbox/platforms', { clientId: 'tenant-two' }));
    expect(duplicate.status).toBe(409);
    const as = { clientId: 'tenant-two', clientSecret: 'secret-two-long' };
    await engine.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Tenant Two' }, {}, as));
    const reset = await engine.fetch(apiRequest('POST', '/_sandbox/reset'));
    expect(reset.status).toBe(204);
    expect((await (await engine.fetch(apiRequest('GET', '/customers', undefined, {}, as))).json()).totalCount).toBe(1);
  });
});
