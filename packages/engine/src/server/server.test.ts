import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { rawExchange, rawRequest, type RawReply } from '../testing/raw-http.js';
import { formatRequestLogLine, startServer, type RequestLogEntry, type RunningServer } from './server.js';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer(createEngine(), { port: 0 });
});
afterAll(() => server.close());

/** Sends raw bytes and returns the status line's code. */
function raw(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
}

const auth = `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`;

describe('standalone server', () => {
  it('serves the API over real sockets', async () => {
    const response = await fetch(`${server.baseUrl}/customers`, { headers: { authorization: auth } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('answers odd request targets and hosts without a 5xx', async () => {
    expect(await raw(`GET http://elsewhere.test/2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`)).toBe(200);
    expect(await raw('GET //2025-10-13/customers HTTP/1.1\r\nHost: x\r\n\r\n')).toBe(404);
    expect(await raw('GET /2025-10-13/customers HTTP/1.1\r\nHost: bad host name\r\n\r\n')).toBe(401);
    // The Host header does not take part in routing.
    expect(await raw(`GET /x HTTP/1.1\r\nHost: a/2025-10-13/customers?\r\nAuthorization: ${auth}\r\n\r\n`)).toBe(404);
  });

  it('a 413 reaches a client that sends the rest of the body before it reads, and the connection serves the next request', async () => {
    // A client still sending when the 413 comes (it reads only once it has sent everything, as many do): were the
    // connection closed with its data unread, the kernel would reset it and the client would see EPIPE, not the 413.
    const length = 8 * 1024 * 1024;
    const head = (path: string, more: string) => `POST /2025-10-13${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n${more}\r\n`;
    const exchange = (first: string, chunks: number, chunk: string, last: string) => new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', async () => {
        socket.pause();
        socket.write(first);
        for (let i = 0; i < chunks; i++) {
          if (!socket.write(chunk)) await new Promise((drained) => socket.once('drain', drained));
        }
        socket.write(last);
        socket.resume();
      });
      let data = '';
      socket.on('data', (c) => {
        data += c;
        if (/HTTP\/1\.1 200[\s\S]*\r\n\r\n\{"data"/.test(data)) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', (error) => reject(new Error(`${error.message} after reading ${JSON.stringify(data.slice(0, 40))}`)));
      setTimeout(() => reject(new Error(`no second answer within 5 s: ${data.slice(0, 300)}`)), 5000).unref();
    });
    const next = `GET /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`;
    const declared = await exchange(head('/customers', `Content-Length: ${length}\r\n`), length / 65536, 'x'.repeat(65536), next);
    const piece = 'x'.repeat(65536);
    const chunked = await exchange(head('/customers', 'Transfer-Encoding: chunked\r\n'), 128, `${piece.length.toString(16)}\r\n${piece}\r\n`, `0\r\n\r\n${next}`);
    for (const reply of [declared, chunked]) {
      expect(reply).toMatch(/^HTTP\/1\.1 413 /);
      expect(reply.toLowerCase()).not.toContain('connection: close');
      expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4, reply.indexOf('HTTP/1.1 200')))).toMatchObject({ status: 413, code: 'INVALID_INPUT', details: { maxBodyBytes: 1024 * 1024 } });
    }
  });

  it('closes the connection after a 413 when the rest of the body is more than it drops (declared, or sent)', async () => {
    const head = `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\n`;
    const declared = await rawRequest(server.port, `${head}Content-Length: ${100 * 1024 * 1024}\r\n\r\n{`);
    expectErrorBody(declared, 413, 'INVALID_INPUT');
    expect(declared.headers.connection).toBe('close');
    expect(declared.closed).toBe(true);
    // Chunked: the length shows only as it comes; past 64 MiB dropped, the connection is closed.
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect(server.port, '127.0.0.1', async () => {
        socket.write(`${head}Transfer-Encoding: chunked\r\n\r\n`);
        const piece = 'x'.repeat(1024 * 1024);
        for (let i = 0; i < 80 && !socket.destroyed; i++) {
          if (!socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`)) await new Promise((drained) => socket.once('drain', drained));
        }
      });
      socket.on('data', () => undefined);
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 5000).unref();
    });
    expect(closed).toBe(true);
  });

  it('keeps the connection of a request it read in full', async () => {
    const response = await fetch(`${server.baseUrl}/customers`, {
      method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Kept Alive' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('connection')).toBe('keep-alive');
    const read = await fetch(`${server.baseUrl}/customers`, { headers: { authorization: auth } });
    expect(read.headers.get('connection')).toBe('keep-alive');
  });

  it('refuses an oversized declared body with 413 without reading it', async () => {
    const reply = await rawRequest(server.port, `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{`);
    expectErrorBody(reply, 413, 'INVALID_INPUT');
  });

  it('refuses a streamed body that grows past the limit with 413', async () => {
    const big = new ReadableStream({
      start(controller) {
        const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const response = await fetch(`${server.baseUrl}/customers`, {
      method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: big, duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ status: 413, code: 'INVALID_INPUT', details: { errors: [{ field: 'body' }] } });
  });
});

/** The reply is the SPEC §2.4 error object, as JSON, with this status and code. */
function expectErrorBody(reply: RawReply, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('application/json');
  const body = JSON.parse(reply.body);
  expect(body).toMatchObject({ status, code });
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(10);
}

const customerJson = JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });

describe('replies Node gives before a request reaches the engine carry the error object', () => {
  it('400 INVALID_REQUEST_FORMAT for a request line that is not HTTP', async () => {
    const reply = await rawRequest(server.port, 'GET /2025-10-13/customers HTTP/1.1 nonsense\r\nHost: x\r\n\r\n');
    expectErrorBody(reply, 400, 'INVALID_REQUEST_FORMAT');
    expect(reply.closed).toBe(true);
  });

  it('400 INVALID_REQUEST_FORMAT for a header line that is not a header, and for a bad chunk size', async () => {
    expectErrorBody(await rawRequest(server.port, 'GET /2025-10-13/customers HTTP/1.1\r\nHost x\r\n\r\n'), 400, 'INVALID_REQUEST_FORMAT');
    const chunked = `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`;
    expectErrorBody(await rawRequest(server.port, chunked), 400, 'INVALID_REQUEST_FORMAT');
  });

  it('431 INVALID_INPUT for headers over the size limit', async () => {
    const reply = await rawRequest(server.port, `GET /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectErrorBody(reply, 431, 'INVALID_INPUT');
    expect(JSON.parse(reply.body).details).toMatchObject({ errors: [{ field: 'headers' }] });
  });

  it('413 INVALID_INPUT for chunk extensions over the size limit', async () => {
    const chunked = `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`;
    expectErrorBody(await rawRequest(server.port, chunked), 413, 'INVALID_INPUT');
  });

  it('417 INVALID_REQUEST_FORMAT for an Expect other than 100-continue', async () => {
    const reply = await rawRequest(server.port, `GET /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nExpect: teapot\r\n\r\n`);
    expectErrorBody(reply, 417, 'INVALID_REQUEST_FORMAT');
    expect(JSON.parse(reply.body).message).toContain('teapot');
  });

  it('Expect: 100-continue: 100 once the body is wanted, and a refusal without asking for a body it will not read', async () => {
    const head = (length: number) =>
      `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;
    const created = await rawExchange(server.port, (socket) => {
      socket.write(head(Buffer.byteLength(customerJson)));
      socket.once('data', (chunk) => {
        expect(chunk.toString('latin1')).toMatch(/^HTTP\/1\.1 100 Continue\r\n/);
        socket.write(customerJson);
      });
    });
    expect(created.interim).toEqual([100]);
    expect(created.status).toBe(201);

    const tooLarge = await rawRequest(server.port, head(50_000_000));
    expect(tooLarge.interim).toEqual([]);
    expectErrorBody(tooLarge, 413, 'INVALID_INPUT');
    const unauthorized = await rawRequest(server.port, head(10).replace(/Authorization: .*\r\n/, ''));
    expect(unauthorized.interim).toEqual([]);
    expectErrorBody(unauthorized, 401, 'UNAUTHORIZED');
    // The client never sent the body it held back, so the connection cannot carry its next request.
    expect(unauthorized.headers.connection).toBe('close');
    expect(unauthorized.closed).toBe(true);
  });
});

describe('408 for a request that does not arrive in time', () => {
  let slow: RunningServer;
  beforeAll(async () => {
    slow = await startServer(createEngine(), { port: 0, headersTimeoutMs: 300, requestTimeoutMs: 600 });
  });
  afterAll(() => slow.close());

  it('headers sent a byte at a time, slower than the headers timeout', async () => {
    const reply = await rawExchange(slow.port, (socket) => {
      const text = 'GET /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nX-Slow: ';
      let at = 0;
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write(text[at++ % text.length]!)), 50);
    });
    expectErrorBody(reply, 408, 'INVALID_REQUEST_FORMAT');
    expect(reply.closed).toBe(true);
  });

  it('a body that stops short of its Content-Length', async () => {
    const reply = await rawRequest(slow.port,
      `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"customerType"`);
    expectErrorBody(reply, 408, 'INVALID_REQUEST_FORMAT');
  });

  it('a connection that never sends a byte', async () => {
    const reply = await rawExchange(slow.port, () => undefined);
    expectErrorBody(reply, 408, 'INVALID_REQUEST_FORMAT');
  });
});

describe('timeouts turned off', () => {
  it('with both timeouts 0, a slow request is waited for, and others are answered meanwhile', async () => {
    const patient = await startServer(createEngine(), { port: 0, headersTimeoutMs: 0, requestTimeoutMs: 0 });
    try {
      const slow = rawExchange(patient.port, (socket) => {
        socket.write('GET /2025-10-13/customers HTTP/1.1\r\nHost: x\r\n');
        setTimeout(() => socket.write(`Authorization: ${auth}\r\n\r\n`), 500);
      });
      expect((await fetch(`${patient.baseUrl}/customers`, { headers: { authorization: auth } })).status).toBe(200);
      expect((await slow).status).toBe(200);
    } finally {
      await patient.close();
    }
  });
});

describe('the request log', () => {
  it('reports each answered request once: method, path without the query (origin- or absolute-form), status, ms, request id', async () => {
    const entries: RequestLogEntry[] = [];
    const logging = await startServer(createEngine(), { port: 0, onRequestLogged: (entry) => entries.push(entry) });
    try {
      const listed = await fetch(`${logging.baseUrl}/customers?limit=2`, { headers: { authorization: auth } });
      const status = await new Promise<number>((resolve, reject) => {
        const socket = connect(logging.port, '127.0.0.1', () => socket.write('GET http://elsewhere.example/_sandbox/health?x=1 HTTP/1.1\r\nhost: elsewhere.example\r\nconnection: close\r\n\r\n'));
        socket.on('data', (chunk) => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(String(chunk))?.[1])));
        socket.on('error', reject);
      });
      expect(status).toBe(200);
      await expect.poll(() => entries.length).toBe(2);
      expect(entries[0]).toEqual({ method: 'GET', path: '/2025-10-13/customers', status: 200, durationMs: expect.any(Number), requestId: listed.headers.get('x-request-id') });
      expect(entries[1]).toMatchObject({ method: 'GET', path: '/_sandbox/health', status: 200, requestId: expect.stringMatching(/^req_/) });
      expect(entries.every((entry) => entry.durationMs >= 0)).toBe(true);
      expect(formatRequestLogLine({ method: 'POST', path: '/2025-10-13/customers', status: 201, durationMs: 3.14159, requestId: 'req_a1' }))
        .toBe('POST /2025-10-13/customers 201 3.1ms req_a1');
    } finally {
      await logging.close();
    }
  });
});

describe('the request log leaves out bearer secrets', () => {
  it('shows a device code, a KYC link token and a card reveal token by name, in every path that carries one', async () => {
    const entries: RequestLogEntry[] = [];
    const logging = await startServer(createEngine({ platform: { regulated: true } }), { port: 0, onRequestLogged: (entry) => entries.push(entry) });
    const headers = { authorization: auth, 'content-type': 'application/json' };
    const call = async (method: string, url: string | URL, body?: unknown, withAuth = true) => {
      const response = await fetch(url, { method, headers: withAuth ? headers : {}, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
      const text = await response.text();
      return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
    };
    try {
      const api = logging.baseUrl;
      const customer = (await call('POST', `${api}/customers`, { customerType: 'INDIVIDUAL', fullName: 'Card Holder', currencies: ['USD'] })).body;

      const agent = await call('POST', `${api}/agents`, {
        name: 'Bookkeeper', customerId: customer.id,
        policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } },
      });
      expect(agent.status).toBe(201);
      const code = agent.body.deviceCode.code as string;
      expect((await call('GET', `${api}/agents/device-codes/${code}/status`)).status).toBe(200);
      expect((await call('POST', `${api}/agents/device-codes/${code}/redeem`, undefined, false)).status).toBe(200);
      expect((await call('POST', `${api}/agents/device-codes/${code}/redeem`, undefined, false)).status).toBe(400); // used up
      expect((await call('DELETE', `${api}/agents/device-codes/${code}/redeem`)).status).toBe(405);

      const link = await call('POST', `${api}/customers/${encodeURIComponent(customer.id)}/kyc-link`, { redirectUri: 'https://platform.example/done' });
      expect(link.status).toBe(201);
      const kycUrl = new URL(link.body.kycUrl as string);
      const token = link.body.token as string;
      expect(kycUrl.pathname.endsWith(`/kyc/${token}`)).toBe(true);
      expect((await call('GET', kycUrl, undefined, false)).status).toBe(200);
      expect((await call('GET', `${api}${kycUrl.pathname}`, undefined, false)).status).toBe(200); // under the base path too
      // Sent raw, as no fetch would: dot segments, which the engine resolves before it routes (to a path with a trailing
      // slash, which no route has: a 404 that still carries the token).
      const dotted = await rawRequest(logging.port, `GET /_sandbox/hosted/./x/../${kycUrl.pathname.split('/')[3]}/kyc/${token}/. HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
      expect(dotted.status).toBe(404);
      expect((await call('POST', `${kycUrl}/complete`, undefined, false)).status).toBe(303);

      const accounts = (await call('GET', `${api}/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)).body.data as { id: string }[];
      const card = await call('POST', `${api}/cards`, { cardholderId: customer.id, form: 'VIRTUAL', fundingSources: [accounts[0]!.id] });
      expect(card.status).toBe(201);
      const revealed = await call('POST', `${api}/cards/${encodeURIComponent(card.body.id)}/reveal`);
      expect(revealed.status).toBe(200);
      const revealUrl = new URL(revealed.body.panEmbedUrl as string);
      const revealToken = revealUrl.pathname.split('/').pop()!;
      expect((await call('GET', revealUrl, undefined, false)).status).toBe(200);


      await expect.poll(() => entries.length).toBe(15);
      const platform = kycUrl.pathname.split('/')[3]!;
      expect(entries.slice(2).map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
        'GET /2025-10-13/agents/device-codes/{code}/status 200',
        'POST /2025-10-13/agents/device-codes/{code}/redeem 200',
        'POST /2025-10-13/agents/device-codes/{code}/redeem 400',
        'DELETE /2025-10-13/agents/device-codes/{code}/redeem 405',
        'POST /2025-10-13/customers/' + encodeURIComponent(customer.id) + '/kyc-link 201',
        `GET /_sandbox/hosted/${platform}/kyc/{token} 200`,
        `GET /2025-10-13/_sandbox/hosted/${platform}/kyc/{token} 200`,
        `GET /_sandbox/hosted/${platform}/kyc/{token}/ 404`,
        `POST /_sandbox/hosted/${platform}/kyc/{token}/complete 303`,
        expect.stringMatching(/^GET \/2025-10-13\/customers\/internal-accounts 200$/),
        'POST /2025-10-13/cards 201',
        expect.stringMatching(/^POST \/2025-10-13\/cards\/[^/]+\/reveal 200$/),
        `GET /_sandbox/hosted/${revealUrl.pathname.split('/')[3]}/cards/{token} 200`,
      ]);
      const logged = entries.map((entry) => entry.path).join('\n');
      for (const secret of [code, token, revealToken]) expect(logged).not.toContain(secret);
    } finally {
      await logging.close();
    }
  });

  it('does not show a target that is not a URL: it could hold anything, credentials too', async () => {
    const entries: RequestLogEntry[] = [];
    const logging = await startServer(createEngine(), { port: 0, onRequestLogged: (entry) => entries.push(entry) });
    try {
      const reply = await rawRequest(logging.port, 'GET http://user:dc_secret@[::1/agents/device-codes/dc_secret/redeem HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
      expect(reply.status).toBe(400);
      await expect.poll(() => entries.length).toBe(1);
      expect(entries[0]).toMatchObject({ path: '(not a URL)', status: 400 });
    } finally {
      await logging.close();
    }
  });
});
