import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqliteStore } from '@railyard/engine/sqlite';
import { IN_MEMORY_DISPATCH, type WireRequest } from '@railyard/contract';
import { createClient, type ClientOptions, type RailyardClient } from '@railyard/client';
import { createEngine, type Engine } from '@railyard/engine';
import { createHandlers } from '@railyard/engine/msw';
import { setupServer } from 'msw/node';
import { freshDatabase } from './postgres.mjs';
import { roundRobin, type SharedServer, startSharedServer } from './shared-servers.js';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';

/** Credentials of the platform every transport starts with. */
export const ROOT_CREDENTIALS = { clientId: 'scenario-root', clientSecret: 'scenario-root-secret' };

/**
 * One way of reaching the sandbox. `start` brings it up; `clientFor` makes a client for a platform's credentials.
 * Scenarios create a fresh platform per test, so tests never see each other's data.
 */
export interface Transport {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  clientFor(credentials: { clientId: string; clientSecret: string }): RailyardClient;
  /** How a client reaches this transport (base URL, fetch): for clients built otherwise, such as an agent's. */
  clientOptions(): Pick<ClientOptions, 'baseUrl' | 'fetch' | 'sandbox'>;
  /** A raw request below the base URL, for what a typed client never sends (bad JSON, wrong methods). */
  raw(path: string, init: RequestInit): Promise<Response>;
  /** The engine, when it runs in this process (in-process and msw): e.g. to await `engine.webhooks.settled()`. */
  readonly engine?: Engine;
}

/** Where the in-process transport puts the API (its base URL). */
const IN_PROCESS_BASE = 'http://in-process.test/2025-10-13';

/** Raw requests to an engine in this process, below the base URL (for raw calls as any of its platforms). */
export const inProcessRaw = (engine: Engine): Pick<Transport, 'raw'> => ({
  raw: (path, init) => engine.fetch(new Request(`${IN_PROCESS_BASE}${path}`, init)),
});

/** `createClient({ fetch: engine.fetch })`: no sockets. */
export function inProcess(): Transport {
  const engine = createEngine({ platform: ROOT_CREDENTIALS });
  return {
    name: 'in-process',
    engine,
    start: async () => undefined,
    stop: async () => engine.close(),
    clientFor: (credentials) => createClient({ baseUrl: IN_PROCESS_BASE, ...credentials, fetch: engine.fetch, sandbox: true }),
    clientOptions: () => ({ baseUrl: IN_PROCESS_BASE, fetch: engine.fetch, sandbox: true }),
    ...inProcessRaw(engine),
  };
}

/** The engine's platforms' snapshots, by platform id, as JSON would carry them (without the time each was taken). */
function snapshotsOf(engine: Engine): Map<string, unknown> {
  return new Map(engine.platforms().map((platform) => [platform.id, JSON.parse(JSON.stringify({ ...engine.sandbox(platform).snapshot(), takenAt: undefined }))]));
}

/** The path of the first place two JSON values differ, with both values there; undefined when they are equal. */
function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
    return JSON.stringify(a) === JSON.stringify(b) ? undefined : `${path || '(root)'}: ${JSON.stringify(a)?.slice(0, 300)} became ${JSON.stringify(b)?.slice(0, 300)}`;
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const key of keys) {
    const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`);
    if (found !== undefined) return found;
  }
  // Records keep their keys' order (replies are compared as text); which collection a snapshot lists first does not matter.
  if (path !== '.collections' && JSON.stringify(Object.keys(a)) !== JSON.stringify(Object.keys(b))) return `${path}: keys ${Object.keys(a).join(',')} became ${Object.keys(b).join(',')}`;
  return undefined;
}

/**
 * In process, on a SQLite data directory (the store of `railyard serve --data`). When the suite ends the engine is
 * closed and started again from the directory, and every platform's state must come back exactly as it was.
 */
export function inProcessOnSqlite(): Transport {
  let dir: string | undefined;
  let engine: Engine | undefined;
  const open = () => {
    const store = openSqliteStore(dir!, { sync: 'normal' });
    return createEngine({ platform: ROOT_CREDENTIALS, durable: store, secretKey: store.secretKey });
  };
  // The engine changes when the suite ends; the clients made before reach whichever is running, as in-process ones do.
  const fetchOf = Object.assign((input: string | URL | Request, init?: RequestInit) => engine!.fetch(input, init), {
    [IN_MEMORY_DISPATCH]: (wire: WireRequest) => (engine!.fetch as unknown as Record<symbol, (wire: WireRequest) => Promise<unknown>>)[IN_MEMORY_DISPATCH]!(wire),
  });
  return {
    name: 'sqlite',
    get engine() {
      return engine;
    },
    async start() {
      dir = mkdtempSync(join(tmpdir(), 'railyard-scenarios-'));
      engine = open();
    },
    async stop() {
      if (!engine) return;
      try {
        await engine.webhooks.settled();
        const before = snapshotsOf(engine);
        engine.close();
        engine = open();
        const after = snapshotsOf(engine);
        engine.close();
        engine = undefined;
        for (const [id, snapshot] of before) {
          const difference = firstDifference(snapshot, after.get(id), '');
          if (difference !== undefined) throw new Error(`platform ${id} did not come back from the data directory as it was: at ${difference}`);
        }
        if (after.size !== before.size) throw new Error(`${before.size} platforms were stored, ${after.size} came back`);
      } finally {
        rmSync(dir!, { recursive: true, force: true });
      }
    },
    clientFor: (credentials) => createClient({ baseUrl: IN_PROCESS_BASE, ...credentials, fetch: fetchOf, sandbox: true }),
    clientOptions: () => ({ baseUrl: IN_PROCESS_BASE, fetch: fetchOf, sandbox: true }),
    raw: (path, init) => engine!.fetch(new Request(`${IN_PROCESS_BASE}${path}`, init)),
  };
}

/** msw's `setupServer` intercepts the global fetch; the client is a plain HTTP client that never knows. */
export function viaMsw(): Transport {
  const engine = createEngine({ platform: ROOT_CREDENTIALS });
  const origin = 'https://api.sandbox.msw.test';
  const server = setupServer(...createHandlers(engine, { origin }));
  // The engine delivers webhooks with the global fetch, which msw intercepts: let deliveries to a receiver the test
  // runs on loopback through, and refuse anything else unhandled.
  const onUnhandledRequest = (request: Request, print: { error(): void }) => {
    if (!/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(request.url)) print.error();
  };
  return {
    name: 'msw',
    engine,
    start: async () => server.listen({ onUnhandledRequest }),
    stop: async () => {
      server.close();
      engine.close();
    },
    clientFor: (credentials) => createClient({ baseUrl: `${origin}/2025-10-13`, ...credentials }),
    clientOptions: () => ({ baseUrl: `${origin}/2025-10-13` }),
    raw: (path, init) => fetch(`${origin}/2025-10-13${path}`, init),
  };
}

/** A `railyard serve` child process (the built bin), listening. */
export interface BuiltServer {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  readonly port: number;
  /** SIGTERM, and resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Starts the built `railyard serve` (packages/engine/dist/cli.cjs) on a free port with `args` after `serve`. The child
 * runs with its open-files limit raised to the hard limit where the shell allows it, for checks that hold many
 * connections.
 */
export async function startBuiltServer(args: string[] = [], env: Record<string, string> = {}): Promise<BuiltServer> {
  const cli = fileURLToPath(new URL('../../packages/engine/dist/cli.cjs', import.meta.url));
  const child = spawn('/bin/sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', process.execPath, cli, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`railyard serve exited ${code}: ${output}`)));
  });
  return {
    child, baseUrl, port: Number(new URL(baseUrl).port),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** The built `railyard serve` bin in a child process, over real sockets. */
export function overHttp(): Transport {
  let server: BuiltServer | undefined;
  return {
    name: 'http',
    async start() {
      server = await startBuiltServer(['--clock', 'virtual'], { RAILYARD_CLIENT_ID: ROOT_CREDENTIALS.clientId, RAILYARD_CLIENT_SECRET: ROOT_CREDENTIALS.clientSecret });
    },
    stop: async () => server?.stop(),
    clientFor: (credentials) => createClient({ baseUrl: server!.baseUrl, ...credentials }),
    clientOptions: () => ({ baseUrl: server!.baseUrl }),
    raw: (path, init) => fetch(`${server!.baseUrl}${path}`, init),
  };
}

/**
 * Two servers of one sandbox shared over PostgreSQL (`railyard serve --database`), behind a round-robin balancer: every
 * other request reaches the server that does not hold its platform and is passed on. When the suite ends both let go
 * of their platforms, and a third server, started afresh on the database, must find every platform as it was.
 */
export function sharedOnPostgres(): Transport {
  let cluster: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let servers: SharedServer[] = [];
  const fetchOf = roundRobin(() => servers.map((server) => server.baseUrl));
  const baseUrl = () => servers[0]!.baseUrl;
  return {
    name: 'postgres',
    async start() {
      cluster = await freshDatabase();
      servers = [];
      for (let i = 0; i < 2; i++) servers.push(await startSharedServer(cluster.url, { clock: 'virtual', platform: ROOT_CREDENTIALS }));
    },
    async stop() {
      if (!cluster) return;
      try {
        const before = new Map<string, unknown>();
        for (const server of servers) {
          await server.engine.webhooks.settled();
          for (const platform of server.engine.platforms()) {
            if (server.engine.sharing!.serving(platform.id)) before.set(platform.id, JSON.parse(JSON.stringify({ ...server.engine.sandbox(platform).snapshot(), takenAt: undefined })));
          }
        }
        for (const server of servers) await server.close();
        servers = [];
        const again = await startSharedServer(cluster.url, { clock: 'virtual', platform: ROOT_CREDENTIALS });
        try {
          for (const [id, snapshot] of before) {
            if (!again.engine.sharing!.serving(id)) {
              const taken = await again.store.acquire(id);
              if (!taken.acquired) throw new Error(`platform ${id} is still held after its server stopped`);
              again.engine.sharing!.serve(await again.store.load(id));
            }
            const after = JSON.parse(JSON.stringify({ ...again.engine.sandbox(id).snapshot(), takenAt: undefined }));
            const difference = firstDifference(snapshot, after, '');
            if (difference !== undefined) throw new Error(`platform ${id} did not come back from PostgreSQL as it was: at ${difference}`);
          }
        } finally {
          await again.close();
        }
      } finally {
        for (const server of servers) await server.close().catch(() => undefined);
        await cluster.destroy();
        cluster = undefined;
      }
    },
    clientFor: (credentials) => createClient({ baseUrl: baseUrl(), ...credentials, fetch: fetchOf }),
    clientOptions: () => ({ baseUrl: baseUrl(), fetch: fetchOf }),
    raw: (path, init) => fetchOf(`${baseUrl()}${path}`, init),
  };
}

/** Every transport, for `describe.each`. */
export const TRANSPORTS: (() => Transport)[] = [inProcess, viaMsw, overHttp, inProcessOnSqlite, sharedOnPostgres];

/** The reliability checks' transports: the engine itself, and the built server over real sockets (msw adds nothing there). */
export const ENGINE_AND_SERVER: (() => Transport)[] = [inProcess, overHttp];

/** What a scenario sees: the transport, and a client for a platform made fresh for each test. */
export interface TransportScope {
  readonly transport: Transport;
  readonly client: RailyardClient;
  readonly platform: { clientId: string; clientSecret: string };
}

/**
 * Runs the same scenarios over every transport: the transport starts once per suite, and each test gets a platform of
 * its own (so tests never see each other's data) with a client for it.
 */
export function describeOverTransports(title: string, define: (scope: TransportScope) => void): void {
  describe.each(TRANSPORTS.map((make) => [make().name, make] as const))(`${title} over %s`, (_name, make) => {
    const scope = {} as { transport: Transport; client: RailyardClient; platform: { clientId: string; clientSecret: string } };
    beforeAll(async () => {
      scope.transport = make();
      await scope.transport.start();
    });
    afterAll(() => scope.transport.stop());
    beforeEach(async () => {
      scope.platform = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: title });
      scope.client = scope.transport.clientFor(scope.platform);
    });
    define(scope);
  });
}
