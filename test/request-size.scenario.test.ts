import { expect, it } from 'vitest';
import { basicAuth } from './support/raw-api.js';
import { describeOverTransports } from './support/transports.js';

// Node's HTTP parser refuses a request line and headers over 16 KiB (its default `maxHeaderSize`) before a request
// exists; the standalone server answers that with the error object. In process (a fetch handler, msw, the client's
// in-memory transport) the engine refuses a request line over the same size the same way, so a request that works in
// a test suite in process also works against the server.

describeOverTransports('Request line size', (scope) => {
  const post = (query: string) =>
    scope.transport.raw(`/customers?${query}`, {
      method: 'POST',
      headers: { authorization: basicAuth(scope.platform), 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Line Length' }),
    });

  it('a request line over 16 KiB is refused with 431 INVALID_INPUT and the error object, and creates nothing', async () => {
    const response = await post(`note=${'x'.repeat(17_000)}`);
    expect(response.status).toBe(431);
    expect(await response.json()).toMatchObject({
      status: 431, code: 'INVALID_INPUT',
      details: { maxHeaderBytes: 16_384, errors: [{ field: 'headers', constraint: { maximum: 16_384 } }] },
    });
    expect((await scope.client.customers.list()).totalCount).toBe(0);
  });

  it('a long request line under the limit is served', async () => {
    const response = await post(`note=${'x'.repeat(15_000)}`);
    expect(response.status).toBe(201);
    expect((await scope.client.customers.list()).totalCount).toBe(1);
  });

  it('the client reports the 431 of an id too long for a request line', async () => {
    await expect(scope.client.customers.retrieve('x'.repeat(17_000))).rejects.toMatchObject({ status: 431, code: 'INVALID_INPUT' });
  });
});
