import { describe, expect, it } from 'vitest';
import { createEngine } from '@railyard/engine';
import { createClient } from '../index.js';
import { setup } from '../test-support.js';
import { CLIENT_VERSION, userAgentHeaders } from './user-agent.js';

describe('User-Agent', () => {
  it('names the SDK version and the runtime on every request, retries included', async () => {
    const { client, requests } = setup([{ status: 503, body: { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' } }, { body: { data: [], hasMore: false } }]);
    await client.customers.list().catch(() => undefined);
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.headers.get('user-agent'))).toEqual(Array(2).fill(`railyard-client/development node/${process.versions.node}`));
    expect(CLIENT_VERSION).toBe('development'); // from source; the build fixes the package's version
  });

  it('reaches an in-process engine too, and a user-agent in defaultHeaders replaces it', async () => {
    const engine = createEngine();
    const seen: (string | null)[] = [];
    const client = (defaultHeaders: Record<string, string> = {}) => createClient({
      fetch: Object.assign(async (request: Request) => {
        seen.push(request.headers.get('user-agent'));
        return engine.fetch(request);
      }), clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret', defaultHeaders,
    });
    await client().customers.list();
    await client({ 'User-Agent': 'my-app/2.0' }).customers.list();
    expect(seen).toEqual([`railyard-client/development node/${process.versions.node}`, 'my-app/2.0']);
  });

  it('names Bun under Bun, and is left out where there is no process (browsers, workers)', () => {
    expect(userAgentHeaders({ node: '1.2.3', bun: '1.1.0' })).toEqual({ 'user-agent': 'railyard-client/development bun/1.1.0' });
    expect(userAgentHeaders({ node: '22.1.0' })).toEqual({ 'user-agent': 'railyard-client/development node/22.1.0' });
    expect(userAgentHeaders({})).toEqual({});
  });
});
