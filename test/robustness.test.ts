import fc from 'fast-check';
import { ApiErrorBody, endpoints } from '@railyard/contract';
import { createEngine } from '@railyard/engine';
import { describe, expect, it } from 'vitest';

// No request, however malformed, yields a 5xx; every error has the SPEC §2.4 shape.

const engine = createEngine();
// A fixed seed keeps CI repeatable; FC_SEED=<n> explores other inputs.
const seed = Number(process.env.FC_SEED ?? 20261122);
const auth = `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`;
const paths = Object.values(endpoints).map((e) => e.path.replace(/\{[^}]+\}/g, 'Customer:00000000-0000-4000-8000-000000000001'));

const method = fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD');
const path = fc.oneof(
  fc.constantFrom(...paths),
  fc.constantFrom(...paths).chain((p) => fc.string({ maxLength: 12 }).map((junk) => `${p}/${encodeURIComponent(junk)}`)),
  fc.webPath(),
);
const query = fc.oneof(fc.constant(''), fc.dictionary(fc.constantFrom('limit', 'cursor', 'customerType', 'createdAfter', 'isIncludingDeleted', 'x'), fc.string({ maxLength: 20 })).map((q) => `?${new URLSearchParams(q)}`));
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.record({ customerType: fc.constantFrom('INDIVIDUAL', 'BUSINESS', 'X'), fullName: fc.anything(), address: fc.anything(), businessInfo: fc.anything(), currencies: fc.anything(), idType: fc.anything(), identifier: fc.anything() }, { requiredKeys: ['customerType'] }).map((v) => JSON.stringify(v)),
);
const contentType = fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'multipart/form-data', '');

async function check(response: Response, method = 'POST') {
  expect(response.status).toBeLessThan(500);
  // A HEAD answer is the GET's without the body (HTTP semantics), errors included.
  if (method === 'HEAD') {
    expect(await response.text()).toBe('');
    return;
  }
  // The hosted pages answer people with HTML; every API error is the §2.4 object.
  if (response.status >= 400 && !response.headers.get('content-type')?.startsWith('text/html')) {
    const parsed = ApiErrorBody.safeParse(JSON.parse(await response.text()));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.status).toBe(response.status);
  }
}

describe('malformed requests', () => {
  it('never produce a 5xx through fetch', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, body, contentType, fc.boolean(), async (m, p, q, b, type, withAuth) => {
        const headers: Record<string, string> = type ? { 'content-type': type } : {};
        if (withAuth) headers.authorization = auth;
        const hasBody = b !== undefined && m !== 'GET' && m !== 'HEAD';
        const response = await engine.fetch(new Request(`http://x.test/2025-10-13${p}${q}`, { method: m, headers, ...(hasBody ? { body: b } : {}) }));
        await check(response, m);
      }),
      { numRuns: 400, seed },
    );
  });

  it('never produce a 5xx for odd credentials and keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), fc.string({ maxLength: 300 }), async (authorization, key) => {
        const headers: Record<string, string> = { authorization: `Basic ${authorization}`, 'content-type': 'application/json' };
        try {
          headers['idempotency-key'] = key;
          new Headers(headers);
        } catch {
          delete headers['idempotency-key'];
        }
        const response = await engine.fetch(new Request('http://x.test/2025-10-13/customers', { method: 'POST', headers, body: '{}' }).clone());
        await check(response);
      }),
      { numRuns: 200, seed },
    );
  });
});
