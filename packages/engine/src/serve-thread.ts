// The server thread of `railyard serve` (see server/thread.ts): builds the engine, listens, reports back, and stops
// when the launcher asks.
import { logRecord, type LogKind } from './event-stream/activity.js';
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type Engine, type EngineOptions } from './engine.js';
import type { DurableBackend } from './durability/backend.js';
import { ENGINE_VERSION } from './version.js';
import { formatRequestLogLine, startServer, type RunningServer } from './server/server.js';
import { formatWebhookLogLine, type WebhookLogEntry } from './webhooks/log.js';
import { publicOnlyWebhookFetch } from './webhooks/public-delivery.js';
import type { ServeCommand, ServeReport, ServeSettings } from './server/thread.js';

const port = parentPort!;
const settings = workerData as ServeSettings;
const report = (message: ServeReport) => port.postMessage(message);

/** The engine's options from the flags, on the given durable store. */
function engineOptions(durable: DurableBackend | undefined, secretKey: string | undefined): EngineOptions {
  return {
    clock: settings.clock,
    platform: {
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      regulated: settings.regulated,
      skipPaperwork: settings.skipPaperwork,
      strict: settings.strict,
    },
    maxPlatforms: settings.maxPlatforms,
    ...(durable === undefined ? {} : { durable }),
    ...(secretKey === undefined ? {} : { secretKey }),
    webhooks: {
      ...(settings.public ? { publicEndpointsOnly: true, fetch: publicOnlyWebhookFetch } : {}),
      ...(settings.log ? { onDelivery: (entry: WebhookLogEntry) => logLine('webhook', entry, formatWebhookLogLine) } : {}),
    },
  };
}

/** Prints one log entry: as text, or (`--log-format json`) as one JSON object with its kind and time first. */
function logLine<T extends object>(kind: LogKind, entry: T, asText: (entry: T) => string): void {
  console.log(settings.logFormat === 'json' ? JSON.stringify(logRecord(kind, entry)) : asText(entry));
}

/** What the server serves, and what its stop closes after the last request is answered. */
interface Served {
  readonly engine: Pick<Engine, 'handle' | 'close'>;
  /** The key dashboard sign-ins are sealed under (the store's secret key), when there is one. */
  readonly secretKey?: string;
  /** Called once the server listens at `baseUrl`. */
  listening(baseUrl: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The engine: on the data directory when `--data` names one, on PostgreSQL with `--database` (each store's module is
 * loaded only then). A store that cannot be used throws a one-line reason, reported as the start's failure.
 */
async function servedFor(): Promise<Served> {
  if (settings.database !== undefined) return sharedOn(settings.database);
  const durable = settings.data === undefined ? undefined
    : (require('./durability/sqlite.js') as typeof import('./durability/sqlite.js')).openSqliteStore(settings.data, {
      ...(settings.secretKey === undefined ? {} : { secretKey: settings.secretKey }), sync: settings.dataSync ?? 'normal', version: ENGINE_VERSION,
    });
  try {
    const engine = createEngine(engineOptions(durable, durable?.secretKey ?? settings.secretKey));
    const secretKey = durable?.secretKey ?? settings.secretKey;
    return { engine, ...(secretKey === undefined ? {} : { secretKey }), listening: async () => undefined, close: async () => engine.close() };
  } catch (error) {
    durable?.close();
    throw error;
  }
}

/** A process of a sandbox shared over PostgreSQL: requests go through its {@link SharedSandbox}. */
async function sharedOn(url: string): Promise<Served> {
  const { openPostgresStore, LEASE_TTL_MS } = require('./durability/postgres.js') as typeof import('./durability/postgres.js');
  const { SharedSandbox } = require('./durability/sharing.js') as typeof import('./durability/sharing.js');
  const store = await openPostgresStore(url, { ...(settings.secretKey === undefined ? {} : { secretKey: settings.secretKey }), version: ENGINE_VERSION });
  let engine: Engine | undefined;
  try {
    engine = createEngine(engineOptions(store, store.secretKey));
    // The default platform a first start creates is stored before another process may start and look for it.
    await engine.sharing!.stored();
    await store.started();
  } catch (error) {
    engine?.close();
    store.close();
    throw error;
  }
  const shared = new SharedSandbox(engine, store, { realClock: settings.clock === 'real', leaseTtlMs: LEASE_TTL_MS });
  const running = engine;
  return {
    engine: { handle: (incoming) => shared.handle(incoming), close: () => undefined },
    secretKey: store.secretKey,
    listening: (baseUrl) => shared.start(settings.advertise ?? new URL(baseUrl).origin.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:')),
    async close() {
      await shared.close();
      running.close();
    },
  };
}

/** What to do when the server cannot listen where it was asked to (the port taken, a host this machine is not). */
function listenFailure(error: unknown): string | undefined {
  const code = (error as { code?: string }).code;
  const where = `${settings.host}:${settings.port}`;
  if (code === 'EADDRINUSE') return `port ${settings.port} on ${settings.host} is in use (another railyard serve?): stop that, or give another --port (--port 0 takes a free one and prints it)`;
  if (code === 'EACCES') return `${where} may not be listened on by this user (ports below 1024 need privileges): give a --port of 1024 or more, or --port 0`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `--host ${settings.host} is not a name or address this machine resolves: give one of its addresses (127.0.0.1, the default; 0.0.0.0 for every interface)`;
  if (code === 'EADDRNOTAVAIL') return `--host ${settings.host} is not an address of this machine: give one of its addresses (127.0.0.1, the default; 0.0.0.0 for every interface)`;
  return undefined;
}

let served: Served | undefined;
const started: Promise<RunningServer | undefined> = Promise.resolve()
  .then(async () => {
    served = await servedFor();
    const server = await startServer(served.engine, {
      port: settings.port,
      host: settings.host,
      ...(settings.log ? { onRequestLogged: (entry) => logLine('request', entry, formatRequestLogLine) } : {}),
      dashboard: served.secretKey === undefined ? {} : { secretKey: served.secretKey },
    });
    await served.listening(server.baseUrl);
    return server;
  })
  .then(
    (server) => {
      report({ kind: 'listening', baseUrl: server.baseUrl });
      return server;
    },
    async (error: unknown) => {
      await served?.close().catch(() => undefined);
      report({ kind: 'failed', message: `railyard: ${listenFailure(error) ?? (error instanceof Error ? error.message : String(error))}` });
      return undefined;
    },
  );
// A stop may come before the server listens (a signal right at start): it closes the server once there is one.
port.once('message', (command: ServeCommand) => {
  if (command.kind !== 'stop') return;
  void started.then(async (server) => {
    await server?.close();
    // Closes the data store too, once the last request is answered.
    await served?.close();
    report({ kind: 'stopped' });
  });
});
