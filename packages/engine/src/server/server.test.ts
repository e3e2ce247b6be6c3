import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { startServer, type RunningServer } from './server.js';

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

  it('closes the connection after a 413, so a client still sending the body is not left waiting', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 20; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let data = '';
      socket.on('data', (c) => (data += c));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
      setTimeout(() => reject(new Error(`still open after 5 s: ${data.slice(0, 200)}`)), 5000).unref();
    });
    expect(reply).toMatch(/^HTTP\/1\.1 413/);
    expect(reply.toLowerCase()).toContain('connection: close');
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
    const status = await raw(`POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{`);
    expect(status).toBe(413);
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
