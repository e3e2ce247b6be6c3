import { ApiErrorBody, endpoints, type Endpoint } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { apiRequest } from '../testing/requests.js';

const engine = createEngine();
const call = async (...args: Parameters<typeof apiRequest>) => {
  const response = await engine.fetch(apiRequest(...args));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
};

describe('HTTP surface', () => {
  it('answers an unknown route with 404 REFERENCE_NOT_FOUND (a listed code) in the §2.4 shape', async () => {
    const { status, body } = await call('GET', '/nothing-here');
    expect(status).toBe(404);
    expect(body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect(typeof body.message).toBe('string');
  });

  it('marks a business-rule 409 x-should-retry: false, so generated clients do not retry it; a 404 carries no advice', async () => {
    const body = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', platformCustomerId: 'retry-advice' };
    expect((await call('POST', '/customers', body)).status).toBe(201);
    const duplicate = await call('POST', '/customers', body);
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    expect(duplicate.headers.get('x-should-retry')).toBe('false');
    expect((await call('GET', '/nothing-here')).headers.get('x-should-retry')).toBeNull();
  });

  it('validates the same once a schema is compiled (after its 16th use): valid queries parse, refused ones list every field', async () => {
    const fresh = createEngine();
    const list = async (query: string) => {
      const response = await fresh.fetch(apiRequest('GET', `/customers?${query}`));
      return { status: response.status, body: await response.json() };
    };
    for (const body of [{ fullName: 'Ada One' }, { fullName: 'Ada Two' }, { fullName: 'Ada Three' }]) {
      expect((await fresh.fetch(apiRequest('POST', '/customers', { customerType: 'INDIVIDUAL', ...body }))).status).toBe(201);
    }
    for (let use = 0; use < 20; use++) expect((await list('limit=2')).body.data).toHaveLength(2);
    const compiled = await list('limit=1&customerType=INDIVIDUAL');
    expect(compiled.status).toBe(200);
    expect(compiled.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(compiled.body.data).toHaveLength(1);
    const refused = await list('limit=0&customerType=ROBOT');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_INPUT');
    expect(JSON.stringify(refused.body)).toContain('limit');
    expect(JSON.stringify(refused.body)).toContain('customerType');
  });

  it('answers a path outside the base path with 404', async () => {
    const response = await engine.fetch(new Request('http://sandbox.test/customers'));
    expect(response.status).toBe(404);
    expect((await response.json()).message).toContain('/2025-10-13');
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const { status, body, headers } = await call('PUT', '/customers');
    expect(status).toBe(405);
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
    expect(headers.get('allow')).toBe('POST, GET, HEAD');
  });

  it('refuses missing and wrong credentials with 401 UNAUTHORIZED', async () => {
    const missing = await engine.fetch(new Request('http://sandbox.test/2025-10-13/customers'));
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(missing.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    const wrong = await call('GET', '/customers', undefined, {}, { clientId: 'sandbox-client-id', clientSecret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('Invalid client id or client secret');
  });

  it('refuses malformed JSON with 400 INVALID_REQUEST_FORMAT', async () => {
    const { status, body } = await call('POST', '/customers', '{"customerType": ');
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_REQUEST_FORMAT');
  });

  it('refuses a non-JSON content type with 400', async () => {
    const { status, body } = await call('POST', '/customers', 'customerType=INDIVIDUAL', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(status).toBe(400);
    expect(body.code).toBe('INVALID_REQUEST_FORMAT');
    expect(body.message).toContain('application/json');
  });

  it('refuses an oversized body with 413 and the listed INVALID_INPUT, naming the body', async () => {
    const big = JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'x'.repeat(1024 * 1024 + 10) });
    const { status, body } = await call('POST', '/customers', big);
    expect(status).toBe(413);
    expect(body).toMatchObject({ status: 413, code: 'INVALID_INPUT', details: { maxBodyBytes: 1024 * 1024, errors: [{ field: 'body' }] } });
  });

  it('requires a body where the endpoint has one', async () => {
    const { status, body } = await call('POST', '/customers');
    expect(status).toBe(400);
    expect(body.details.errors).toEqual([{ field: 'body', message: 'is required: send a JSON body', constraint: { required: true } }]);
  });

  it('puts a request id on every response', async () => {
    const a = await call('GET', '/customers');
    const b = await call('GET', '/nothing');
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
    expect(b.headers.get('x-request-id')).toMatch(/^req_/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('rejects a query parameter of the wrong shape', async () => {
    const { status, body } = await call('GET', '/customers?limit=500&customerType=ROBOT');
    expect(status).toBe(400);
    expect(body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['customerType', 'limit']);
    expect(body.details.errors.find((e: { field: string }) => e.field === 'limit').constraint).toEqual({ maximum: 100 });
  });

  it('accepts only decimal page sizes', async () => {
    for (const limit of ['0x10', '1e1', ' 5', '']) {
      const { status, body } = await call('GET', `/customers?limit=${encodeURIComponent(limit)}`);
      expect(status, limit).toBe(400);
      expect(body.details.errors[0].field).toBe('limit');
    }
    expect((await call('GET', '/customers?limit=7')).status).toBe(200);
  });

  it('rejects a cursor it did not issue', async () => {
    const { status, body } = await call('GET', '/customers?cursor=bogus');
    expect(status).toBe(400);
    expect(body.details.errors[0].field).toBe('cursor');
  });
});

describe('bodies that are not objects, and fields named after Object.prototype members', () => {
  const ID = 'Customer:00000000-0000-4000-8000-000000000001';
  const jsonOperations = (Object.values(endpoints) as Endpoint[]).filter((e) => e.body && !e.multipart);

  /** An agent's access token, for the operations an agent calls itself. */
  async function agentToken(): Promise<string> {
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Agent Owner' })).body;
    const policy = { permissions: [], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1 } };
    const { deviceCode } = (await call('POST', '/agents', { name: 'bot', customerId: customer.id, policy })).body;
    return (await call('POST', `/agents/device-codes/${deviceCode.code}/redeem`)).body.accessToken;
  }

  it('a JSON body of null, an array or a scalar is a 400 "body must be an object" on every operation that takes one', async () => {
    expect(jsonOperations.length).toBeGreaterThan(30);
    const bearer = { authorization: `Bearer ${await agentToken()}` };
    for (const endpoint of jsonOperations) {
      const path = endpoint.path.replace(/\{[^}]+\}/g, ID);
      for (const [text, kind] of [['null', 'null'], ['[]', 'array'], ['7', 'number'], ['"x"', 'string']] as const) {
        const { status, body } = await call(endpoint.method, path, text, endpoint.auth === 'agent' ? bearer : {});
        // Operations whose resource does not exist may answer 404 first; none may fail or accept the body.
        expect([400, 404], `${endpoint.method} ${endpoint.path} ${text}`).toContain(status);
        expect(ApiErrorBody.safeParse(body).success).toBe(true);
        if (status === 400 && body.details?.errors?.[0]?.field === 'body') expect(body.details.errors[0].message).toBe(`must be an object, not ${kind}`);
      }
    }
  });

  it('POST /quotes with the body null is a 400 listing the body (it was a 500)', async () => {
    expect(await call('POST', '/quotes', 'null')).toMatchObject({
      status: 400,
      body: { code: 'INVALID_INPUT', details: { errors: [{ field: 'body', message: 'must be an object, not null' }] } },
    });
  });

  it('a strict platform refuses fields named __proto__, constructor, toString… with INVALID_INPUT naming each one', async () => {
    const strict = createEngine({ platform: { clientId: 'strict-id', clientSecret: 'strict-secret', strict: true } });
    const credentials = { clientId: 'strict-id', clientSecret: 'strict-secret' };
    const names = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];
    for (const name of names) {
      const response = await strict.fetch(apiRequest('PATCH', '/config', `{"${name}":1}`, {}, credentials));
      const body = await response.json();
      expect(response.status, name).toBe(400);
      expect(body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: name, message: expect.stringContaining('is not a field of this request') }] } });
    }
    const all = await strict.fetch(apiRequest('POST', '/customers', `{"customerType":"INDIVIDUAL",${names.map((n) => `"${n}":1`).join(',')}}`, {}, credentials));
    const body = await all.json();
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([...names].sort());
  });

  it('query parameters named __proto__, constructor, toString… are ordinary names, once or repeated', async () => {
    const strict = createEngine({ platform: { clientId: 'strict-id', clientSecret: 'strict-secret', strict: true } });
    const credentials = { clientId: 'strict-id', clientSecret: 'strict-secret' };
    const names = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];
    const plain = await call('GET', '/customers?limit=1');
    for (const query of [names.map((n) => `${n}=a`).join('&'), names.map((n) => `${n}=a&${n}=b`).join('&')]) {
      // A lenient platform ignores them as it ignores any unknown name.
      const lenient = await call('GET', `/customers?limit=1&${query}`);
      expect([lenient.status, lenient.body], query).toEqual([plain.status, plain.body]);
      const refused = await strict.fetch(apiRequest('GET', `/customers?limit=1&${query}`, undefined, {}, credentials));
      const body = await refused.json();
      expect(refused.status, query).toBe(400);
      expect(body.details.errors.map((e: { field: string }) => e.field).sort(), query).toEqual([...names].sort());
    }
    // Repeated, they are lists of strings: nothing inherited joins them.
    const repeated = await strict.fetch(apiRequest('GET', '/customers?constructor=a&constructor=b', undefined, {}, credentials));
    expect((await repeated.json()).details.errors).toHaveLength(1);
    expect(Object.prototype).not.toHaveProperty('a');
  });
});
