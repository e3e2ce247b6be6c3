import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPublicOnlyFetch, publicOnlyWebhookFetch, type Resolve } from './public-delivery.js';

// The transport of a public sandbox against a real receiver on loopback: nothing non-public is ever contacted, and
// the connection goes to the address that was checked.

let receiver: Server;
let port: number;
let requests: { url: string; headers: IncomingHttpHeaders; body: string }[];
/** What the receiver answers: a status and a body, or a redirect. */
let answer: { status: number; body: string; location?: string };

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      requests.push({ url: req.url!, headers: req.headers, body });
      res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
beforeEach(() => {
  requests = [];
  answer = { status: 200, body: 'ok' };
});

const post = (fetch: typeof publicOnlyWebhookFetch, url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":"TEST"}' });
const refusedWith = async (promise: Promise<Response>) => {
  const error = await promise.then(() => undefined, (e: Error & { code?: string }) => e);
  expect(error?.code).toBe('ERR_NON_PUBLIC_ADDRESS');
  return error!.message;
};

describe('publicOnlyWebhookFetch', () => {
  it('never contacts a loopback receiver, however its address is written', async () => {
    for (const host of ['127.0.0.1', '[::1]', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]']) {
      expect(await refusedWith(post(publicOnlyWebhookFetch, `http://${host}:${port}/hook`)), host).toMatch(/: not contacted$/);
    }
    expect(requests).toEqual([]);
  });

  it('never contacts a name that resolves to loopback (localhost through the resolver)', async () => {
    expect(await refusedWith(post(publicOnlyWebhookFetch, `http://localhost:${port}/hook`))).toMatch(/^localhost resolves to (127\.0\.0\.1|::1) \(loopback\): not contacted$/);
    expect(requests).toEqual([]);
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const resolve: Resolve = async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }];
    expect(await refusedWith(post(createPublicOnlyFetch({ resolve }), `http://mixed.example:${port}/`))).toBe('mixed.example resolves to 10.0.0.7 (private (RFC 1918)): not contacted');
    expect(requests).toEqual([]);
  });

  it('refuses schemes other than http and https', async () => {
    expect(await refusedWith(post(publicOnlyWebhookFetch, 'file:///etc/passwd'))).toBe('file: is not http: or https:');
  });
});

describe('createPublicOnlyFetch, with the test receiver let through', () => {
  // Only the test receiver's address counts as public here, so the rest of the path can be seen working.
  let resolutions: number;
  const toReceiver = () => {
    resolutions = 0;
    return createPublicOnlyFetch({
      resolve: async () => {
        resolutions++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
      refuse: (address) => (address === '127.0.0.1' ? undefined : 'not the test receiver'),
    });
  };

  it('connects to the address it resolved and checked, once, keeping the name as the Host', async () => {
    const response = await post(toReceiver(), `http://hooks.platform.example:${port}/webhooks?x=1`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok');
    expect(resolutions).toBe(1);
    expect(requests).toEqual([expect.objectContaining({ url: '/webhooks?x=1', body: '{"type":"TEST"}' })]);
    expect(requests[0]!.headers.host).toBe(`hooks.platform.example:${port}`);
    expect(requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('does not follow a redirect (to anywhere, a private address included)', async () => {
    answer = { status: 302, body: '', location: 'http://169.254.169.254/latest/meta-data/' };
    const response = await post(toReceiver(), `http://hooks.platform.example:${port}/webhooks`);
    expect(response.status).toBe(302);
    expect(requests).toHaveLength(1);
  });

  it('reads at most 64 KiB of an answer', async () => {
    answer = { status: 200, body: 'x'.repeat(1024 * 1024) };
    const response = await post(toReceiver(), `http://hooks.platform.example:${port}/webhooks`);
    expect((await response.text()).length).toBe(64 * 1024);
  });

  it('gives a 204 answer without a body', async () => {
    answer = { status: 204, body: '' };
    expect((await post(toReceiver(), `http://hooks.platform.example:${port}/webhooks`)).status).toBe(204);
  });
});
