// Servers of one sandbox shared over PostgreSQL, in this process: what `railyard serve --database` runs, each an engine
// with its SharedSandbox behind a real HTTP server (so requests are passed between them over sockets).
import { createEngine, type Engine, type EngineOptions } from '@railyard/engine';
import { LEASE_TTL_MS, openPostgresStore, type PostgresStore, SharedSandbox } from '@railyard/engine/postgres';
import { startServer } from '@railyard/engine/server';

/** One server of a shared sandbox. */
export interface SharedServer {
  readonly engine: Engine;
  readonly store: PostgresStore;
  readonly shared: SharedSandbox;
  readonly baseUrl: string;
  /** Lets its platforms go, stops the server and closes the engine (as SIGTERM does). */
  close(): Promise<void>;
}

/** Options of {@link startSharedServer}: the engine's, and the sharing's. */
export interface SharedServerOptions extends Omit<EngineOptions, 'durable' | 'store' | 'secretKey'> {
  readonly secretKey?: string;
  readonly idleMs?: number;
  readonly leaseTtlMs?: number;
}

/** Starts a server of the sandbox kept in the database at `url`. */
export async function startSharedServer(url: string, options: SharedServerOptions = {}): Promise<SharedServer> {
  const { idleMs, leaseTtlMs = LEASE_TTL_MS, secretKey, ...engineOptions } = options;
  const store = await openPostgresStore(url, { ...(secretKey === undefined ? {} : { secretKey }), leaseTtlMs });
  const engine = createEngine({ ...engineOptions, durable: store, secretKey: store.secretKey });
  await engine.sharing!.stored();
  await store.started();
  const shared = new SharedSandbox(engine, store, { realClock: options.clock === 'real', leaseTtlMs, ...(idleMs === undefined ? {} : { idleMs }) });
  const server = await startServer({ handle: (incoming) => shared.handle(incoming), close: () => undefined }, { port: 0 });
  await shared.start(new URL(server.baseUrl).origin);
  let closed = false;
  return {
    engine, store, shared, baseUrl: server.baseUrl,
    async close() {
      if (closed) return;
      closed = true;
      await shared.close();
      await server.close();
      engine.close();
    },
  };
}

/** A fetch that sends each request to the next of `baseUrls` in turn (a round-robin load balancer). */
export function roundRobin(baseUrls: () => readonly string[]): typeof fetch {
  let next = 0;
  const balanced = async (input: string | URL | Request, init?: RequestInit) => {
    const targets = baseUrls();
    const target = new URL(targets[next++ % targets.length]!);
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    url.protocol = target.protocol;
    url.host = target.host;
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return fetch(url, { method: request.method, headers: request.headers, body, redirect: 'manual', signal: request.signal });
  };
  return balanced as typeof fetch;
}
