import { createClient, NotFoundError } from '@railyard/client';
import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { afterEach, describe, expect, it } from 'vitest';

// In process there is no server: what the client and the engine say must not send a newcomer looking for one at the
// standalone default address. Where a request has an origin of its own (msw, a browser page), that origin is named.

const STANDALONE_DEFAULT = '127.0.0.1:4100';
const engine = createEngine();
afterEach(() => engine.sandbox().reset());

const rejection = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e as Error);

describe('messages of an in-process sandbox', () => {
  it('a client on engine.fetch with no base URL names the path of a failed request, not the standalone address', async () => {
    const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, maxRetries: 0 });
    const error = await rejection(client.customers.retrieve('Customer:missing'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('404 USER_NOT_FOUND: Customer Customer:missing was not found (GET /2025-10-13/customers/Customer%3Amissing)');
  });

  it('a client given a base URL still names it, as the origin its requests go to', async () => {
    const client = createClient({ fetch: engine.fetch, baseUrl: 'https://api.sandbox.example.test/2025-10-13', ...DEFAULT_CREDENTIALS, maxRetries: 0 });
    const error = await rejection(client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'p', birthDate: 'yesterday' }));
    expect(error.message).toMatch(/^400 INVALID_INPUT: .* \(POST https:\/\/api\.sandbox\.example\.test\/2025-10-13\/customers\)$/);
  });

  it('the OpenAPI document served at an origin names that origin as its server', async () => {
    const client = createClient({ fetch: engine.fetch, baseUrl: 'https://api.sandbox.example.test/2025-10-13', ...DEFAULT_CREDENTIALS });
    const document = (await client.sandbox.openapi()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: 'https://api.sandbox.example.test/2025-10-13' }]);
    expect(JSON.stringify(document)).not.toContain(STANDALONE_DEFAULT);
    // The engine's own copy is unchanged by what was served.
    expect((engine.openapi() as { servers: { url: string }[] }).servers).toEqual([{ url: `http://${STANDALONE_DEFAULT}/2025-10-13` }]);
  });

  it('a hosted verification link names the origin the request came to', async () => {
    const client = createClient({ fetch: engine.fetch, baseUrl: 'https://api.sandbox.example.test/2025-10-13', ...DEFAULT_CREDENTIALS });
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const link = await client.customers.createKycLink(customer.id, { redirectUri: 'https://platform.example.test/done' });
    expect(new URL(link.kycUrl).origin).toBe('https://api.sandbox.example.test');
  });
});
