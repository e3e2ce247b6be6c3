import { expect, it } from 'vitest';
import { basicAuth } from './support/raw-api.js';
import { describeOverTransports } from './support/transports.js';

// HEAD is GET without the body (HTTP semantics): a load balancer's health check or a link checker sends it. The answer
// has the GET's status and headers, the length of the body it leaves out, and no body, over every transport.

describeOverTransports('HEAD requests', (scope) => {
  const both = async (path: string, headers: Record<string, string> = {}) => {
    const get = await scope.transport.raw(path, { headers });
    const getBody = await get.text();
    const head = await scope.transport.raw(path, { method: 'HEAD', headers });
    return { get, getBody, head, headBody: await head.text() };
  };

  it('the health check answers HEAD as GET, without the body and without credentials', async () => {
    const { get, getBody, head, headBody } = await both('/_sandbox/health');
    expect(get.status).toBe(200);
    expect(JSON.parse(getBody)).toMatchObject({ status: 'ok', apiVersion: '2025-10-13' });
    expect(head.status).toBe(200);
    expect(headBody).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(new TextEncoder().encode(getBody).byteLength));
    expect(head.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('a resource answers HEAD as GET: the same status for found, refused and missing, never a body', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Head Request' });
    const authorization = basicAuth(scope.platform);
    const found = await both(`/customers/${encodeURIComponent(customer.id)}`, { authorization });
    expect([found.get.status, found.head.status]).toEqual([200, 200]);
    expect(JSON.parse(found.getBody)).toMatchObject({ id: customer.id, fullName: 'Head Request' });
    expect(found.headBody).toBe('');
    expect(found.head.headers.get('content-length')).toBe(String(new TextEncoder().encode(found.getBody).byteLength));

    const unauthenticated = await both(`/customers/${encodeURIComponent(customer.id)}`);
    expect([unauthenticated.get.status, unauthenticated.head.status]).toEqual([401, 401]);
    expect(unauthenticated.headBody).toBe('');

    const missing = await both('/customers/Customer:00000000-0000-4000-8000-000000000000', { authorization });
    expect([missing.get.status, missing.head.status]).toEqual([404, 404]);
    expect(missing.headBody).toBe('');
  });

  it('a body with characters beyond ASCII is counted in UTF-8 bytes', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Zoë Łukasiewicz 李 𝔘' });
    const { getBody, head } = await both(`/customers/${encodeURIComponent(customer.id)}`, { authorization: basicAuth(scope.platform) });
    expect(getBody).toContain('Zoë Łukasiewicz 李 𝔘');
    expect(head.headers.get('content-length')).toBe(String(new TextEncoder().encode(getBody).byteLength));
  });

  it('a path that serves GET names HEAD among its methods', async () => {
    const response = await scope.transport.raw('/customers', { method: 'PUT', headers: { authorization: basicAuth(scope.platform) } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET, HEAD');
  });

  it('HEAD on a path without GET is 405 naming the methods it has, and changes nothing', async () => {
    const head = await scope.transport.raw('/customers/bulk/csv', { method: 'HEAD', headers: { authorization: basicAuth(scope.platform) } });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
    expect(await head.text()).toBe('');
    expect((await scope.client.customers.list()).totalCount).toBe(0);
  });
});
