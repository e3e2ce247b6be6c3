import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import { startServer, type RunningServer } from '../server/server.js';
import { CLI_PATH, NO_CREDENTIALS } from '../testing/cli.js';

// `railyard listen` and `railyard events --follow` as a user runs them: the built bin, a sandbox on a real socket,
// reached through a proxy the test can cut (a dropped stream), and a receiver on another port.
const AUTH = { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}`, 'content-type': 'application/json' };

/** A TCP proxy to `port` that can drop every connection and refuse new ones until it is let through again. */
async function cuttableProxy(port: number) {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createTcpServer((client) => {
    if (refusing) return client.destroy();
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    mend() {
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A webhook receiver that keeps what it got, answering with `status()` each time. */
async function receiver(status: () => number = () => 200) {
  const received: { body: string; signature: string | undefined }[] = [];
  const server: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-service-signature'] as string | undefined });
      res.writeHead(status()).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The CLI as a child process, with what it printed so far and a way to wait for a line. */
function railyard(args: string[], env: Record<string, string | undefined> = {}) {
  const child: ChildProcess = spawn(process.execPath, [CLI_PATH, ...args], { env: { ...process.env, ...NO_CREDENTIALS, ...env } });
  const printed = { out: '', err: '' };
  child.stdout!.on('data', (chunk) => (printed.out += chunk));
  child.stderr!.on('data', (chunk) => (printed.err += chunk));
  const exited = once(child, 'exit').then(([code]) => code as number);
  return { child, printed, exited };
}

/** A port nothing listens on (one the system just gave out and took back). */
async function closedPort(): Promise<number> {
  const server = createTcpServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits for `check` to hold, polling (the child and the receiver work on their own). */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let sandbox: RunningServer;
let accountId: string;
beforeAll(async () => {
  sandbox = await startServer(createEngine(), { port: 0 });
  const accounts = await (await fetch(`${sandbox.baseUrl}/platform/internal-accounts`, { headers: AUTH })).json() as { data: { id: string }[] };
  accountId = accounts.data[0]!.id;
});
afterAll(() => sandbox.close());

/** Credits the platform's first account: an INTERNAL_ACCOUNT.BALANCE_UPDATED (then an INCOMING_PAYMENT.COMPLETED). */
async function fund(amount: number): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/internal-accounts/${accountId}/fund`, { method: 'POST', headers: AUTH, body: JSON.stringify({ amount }) });
  expect(response.status).toBe(200);
}

const balanceOf = (body: string) => (JSON.parse(body) as { data: { balance: { amount: number } } }).data.balance.amount;

describe('railyard listen --forward-to', () => {
  it('delivers each event signed as the sandbox signs it, prints each delivery, and resumes after a dropped stream without losing or repeating one', async () => {
    const proxy = await cuttableProxy(sandbox.port);
    let answer = 200;
    const hooks = await receiver(() => answer);
    const listen = railyard(['listen', '--forward-to', hooks.url, '--events', 'INTERNAL_ACCOUNT.BALANCE_UPDATED', '--base-url', proxy.url]);
    try {
      await until(() => listen.printed.err.includes('Ready: forwarding'), 'the ready line');
      expect(listen.printed.err).toContain(`to ${hooks.url}`);
      await fund(100);
      await until(() => hooks.received.length === 1, 'the first delivery');
      answer = 500;
      await fund(20);
      await until(() => hooks.received.length === 2, 'two deliveries');
      await until(() => listen.printed.out.split('\n').length > 2, 'two printed lines');
      const lines = listen.printed.out.trim().split('\n');
      expect(lines[0]).toMatch(/^\S+Z {2}INTERNAL_ACCOUNT\.BALANCE_UPDATED +Webhook:\S+ {2}-> 200 in [\d.]+ ms$/);
      expect(lines[1]).toMatch(/-> 500 in [\d.]+ ms$/);
      // Verified as a receiver verifies a real delivery: the sandbox's own signature over these exact bytes.
      for (const delivery of hooks.received) {
        const verified = await fetch(`${sandbox.baseUrl}/_sandbox/webhook-key/verify`, { method: 'POST', headers: { ...AUTH, 'x-service-signature': delivery.signature! }, body: delivery.body });
        expect(verified.status).toBe(204);
      }

      // The stream drops; events emitted meanwhile come once it is back, in order, and none twice.
      answer = 200;
      proxy.cut();
      await fund(3);
      await fund(4);
      await until(() => listen.printed.err.includes('Lost the stream'), 'the drop to be noticed');
      proxy.mend();
      await until(() => listen.printed.err.includes('Reconnected'), 'the reconnect');
      await until(() => hooks.received.length >= 4, 'the events emitted during the drop');
      await fund(5);
      await until(() => hooks.received.length >= 5, 'an event after the reconnect');
      await new Promise((resolve) => setTimeout(resolve, 200)); // room for a duplicate to show up, were one sent
      const ids = hooks.received.map((delivery) => (JSON.parse(delivery.body) as { id: string }).id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(hooks.received.map((delivery) => balanceOf(delivery.body))).toEqual([100, 120, 123, 127, 132]);
      listen.child.kill('SIGINT');
      expect(await listen.exited).toBe(0);
    } finally {
      listen.child.kill('SIGKILL');
      await proxy.close();
      await hooks.close();
    }
  });

  it('--json prints a JSON line per delivery; an endpoint that is down is reported, not retried', async () => {
    const down = `http://127.0.0.1:${await closedPort()}/hooks`;
    const listen = railyard(['listen', '--forward-to', down, '--json', '--base-url', sandbox.baseUrl]);
    try {
      await until(() => listen.printed.err.includes('Ready'), 'the ready line');
      await fund(1);
      await until(() => listen.printed.out.trim().split('\n').filter(Boolean).length === 2, 'two JSON lines');
      const [balance, payment] = listen.printed.out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(balance).toMatchObject({ type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', url: down, error: 'ECONNREFUSED' });
      expect(balance!.status).toBeUndefined();
      expect(payment).toMatchObject({ type: 'INCOMING_PAYMENT.COMPLETED', error: 'ECONNREFUSED' });
      listen.child.kill('SIGTERM');
      expect(await listen.exited).toBe(0);
    } finally {
      listen.child.kill('SIGKILL');
    }
  });

  it('refuses what it cannot do with an exit code and what to do: no --forward-to, no sandbox, wrong credentials, an unknown event type', async () => {
    const missing = railyard(['listen', '--base-url', sandbox.baseUrl]);
    expect(await missing.exited).toBe(2);
    expect(missing.printed.err).toContain('--forward-to URL is required');
    const nobody = railyard(['listen', '--forward-to', 'http://127.0.0.1:9/', '--base-url', `http://127.0.0.1:${await closedPort()}`]);
    expect(await nobody.exited).toBe(3);
    expect(nobody.printed.err).toContain('start one with `railyard serve`');
    const wrong = railyard(['listen', '--forward-to', 'http://127.0.0.1:9/', '--base-url', sandbox.baseUrl, '--client-secret', 'not-it']);
    expect(await wrong.exited).toBe(4);
    const typo = railyard(['listen', '--forward-to', 'http://127.0.0.1:9/', '--base-url', sandbox.baseUrl, '--events', 'OUTGOING_PAYMENT.COMPLETE']);
    expect(await typo.exited).toBe(1);
    expect(typo.printed.err).toContain('OUTGOING_PAYMENT.COMPLETE, which is not an event type');
  });
});

describe('railyard events --follow', () => {
  it('prints the recent events oldest first, then each new one as it happens', async () => {
    await fund(7);
    const follow = railyard(['events', '--follow', '--limit', '2', '--base-url', sandbox.baseUrl]);
    try {
      await until(() => follow.printed.err.includes('Following the events'), 'the ready line');
      const listed = follow.printed.out.trim().split('\n');
      expect(listed.map((line) => line.split(/\s+/)[1])).toEqual(['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'INCOMING_PAYMENT.COMPLETED']);
      await fund(8);
      await until(() => follow.printed.out.trim().split('\n').length === 4, 'the new events');
      const lines = follow.printed.out.trim().split('\n');
      expect(lines.slice(2).map((line) => line.split(/\s+/)[1])).toEqual(['INTERNAL_ACCOUNT.BALANCE_UPDATED', 'INCOMING_PAYMENT.COMPLETED']);
      expect(new Set(lines.map((line) => line.split(/\s+/)[2])).size).toBe(4);
      follow.child.kill('SIGINT');
      expect(await follow.exited).toBe(0);
    } finally {
      follow.child.kill('SIGKILL');
    }
  });
});

describe('railyard logs --follow', () => {
  it("prints the platform's requests and webhook attempts as they happen, and nothing of another platform's", async () => {
    const hooks = await receiver();
    const other = await (await fetch(`${sandbox.baseUrl}/_sandbox/platforms`, { method: 'POST', headers: AUTH, body: JSON.stringify({ name: 'Other' }) })).json() as { clientId: string; clientSecret: string };
    const logs = railyard(['logs', '--follow', '--json', '--base-url', sandbox.baseUrl]);
    const text = railyard(['logs', '--follow', '--base-url', sandbox.baseUrl]);
    try {
      await until(() => logs.printed.err.includes('Following the log') && text.printed.err.includes('Following the log'), 'the ready lines');
      await fetch(`${sandbox.baseUrl}/_sandbox/clock`, { headers: { authorization: `Basic ${btoa(`${other.clientId}:${other.clientSecret}`)}` } });
      expect((await fetch(`${sandbox.baseUrl}/config`, { method: 'PATCH', headers: AUTH, body: JSON.stringify({ webhookEndpoint: hooks.url }) })).status).toBe(200);
      await fund(2);
      await until(() => hooks.received.length >= 2, 'the deliveries');
      await until(() => logs.printed.out.trim().split('\n').filter((line) => line.includes('"kind":"webhook"')).length >= 2, 'the webhook lines');
      const records = logs.printed.out.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      const requests = records.filter((record) => record.kind === 'request');
      expect(requests.map((record) => [record.method, record.path, record.status])).toEqual(expect.arrayContaining([
        ['PATCH', '/2025-10-13/config', 200],
        ['POST', `/2025-10-13/sandbox/internal-accounts/${accountId}/fund`, 200],
      ]));
      // The other platform's request is not in this platform's log.
      expect(requests.some((record) => record.path === '/_sandbox/clock')).toBe(false);
      expect(records.find((record) => record.kind === 'webhook')).toMatchObject({ eventType: expect.any(String), url: hooks.url, status: 200, attempt: 1 });
      expect(records.every((record) => typeof record.at === 'string')).toBe(true);
      await until(() => text.printed.out.includes('webhook '), 'the text webhook line');
      expect(text.printed.out).toMatch(/^\S+Z {2}POST \/2025-10-13\/sandbox\/internal-accounts\/\S+\/fund 200 [\d.]+ms req_\S+$/m);
      expect(text.printed.out).toMatch(/^\S+Z {2}webhook \S+ -> http:\/\/127\.0\.0\.1:\d+\/hooks 200 [\d.]+ms Webhook:\S+ attempt 1$/m);
      for (const follower of [logs, text]) follower.child.kill('SIGINT');
      expect([await logs.exited, await text.exited]).toEqual([0, 0]);
    } finally {
      for (const follower of [logs, text]) follower.child.kill('SIGKILL');
      await hooks.close();
    }
  });

  it('needs --follow: the log has no history', async () => {
    const once = railyard(['logs', '--base-url', sandbox.baseUrl]);
    expect(await once.exited).toBe(2);
    expect(once.printed.err).toContain('run railyard logs --follow');
  });
});
