// A small round-robin load balancer for the shared-sandbox tests: each request goes to the next server in turn, as
// nginx in deploy/compose.yaml does; a server that refuses the connection is skipped (nginx's proxy_next_upstream).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running balancer: its base URL (under the API's base path), the servers it spreads over, and close. */
export interface Balancer {
  readonly baseUrl: string;
  /** The servers' origins, in turn (change it to take one out). */
  targets: string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a balancer over `targets` (origins such as http://127.0.0.1:4100) on a free loopback port. */
export async function startBalancer(targets: string[]): Promise<Balancer> {
  let next = 0;
  const balancer = { targets } as { targets: string[] };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      for (let tried = 0; tried < balancer.targets.length; tried++) {
        const target = balancer.targets[next++ % balancer.targets.length]!;
        let response: Response;
        try {
          response = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(body.length > 0 ? { body: new Uint8Array(body) } : {}), redirect: 'manual' });
        } catch {
          continue; // not answering: the next one
        }
        const answer = Buffer.from(await response.arrayBuffer());
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
        });
        res.writeHead(response.status, out).end(answer);
        return;
      }
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 502, code: 'BAD_GATEWAY', message: 'no server answers' }));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(balancer, {
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  });
}
