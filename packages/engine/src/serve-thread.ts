// The server thread of `railyard serve` (see server/thread.ts): builds the engine, listens, reports back, and stops
// when the launcher asks.
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type Engine } from './engine.js';
import { ENGINE_VERSION } from './version.js';
import { formatRequestLogLine, startServer, type RunningServer } from './server/server.js';
import { publicOnlyWebhookFetch } from './webhooks/public-delivery.js';
import type { ServeCommand, ServeReport, ServeSettings } from './server/thread.js';

const port = parentPort!;
const settings = workerData as ServeSettings;
const report = (message: ServeReport) => port.postMessage(message);

/**
 * The engine, on the data directory when `--data` names one (its SQLite store is loaded only then). A directory that
 * cannot be used throws a one-line reason, reported as the start's failure.
 */
function engineFor(): Engine {
  const durable = settings.data === undefined ? undefined
    : (require('./durability/sqlite.js') as typeof import('./durability/sqlite.js')).openSqliteStore(settings.data, {
      ...(settings.secretKey === undefined ? {} : { secretKey: settings.secretKey }), sync: settings.dataSync ?? 'normal', version: ENGINE_VERSION,
    });
  const secretKey = durable?.secretKey ?? settings.secretKey;
  try {
    return createEngine({
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
      ...(settings.public ? { webhooks: { publicEndpointsOnly: true, fetch: publicOnlyWebhookFetch } } : {}),
    });
  } catch (error) {
    durable?.close();
    throw error;
  }
}

let engine: Engine | undefined;
const started: Promise<RunningServer | undefined> = Promise.resolve()
  .then(() => {
    engine = engineFor();
    return startServer(engine, {
      port: settings.port,
      host: settings.host,
      ...(settings.log ? { onRequestLogged: (entry) => console.log(formatRequestLogLine(entry)) } : {}),
    });
  })
  .then(
    (server) => {
      report({ kind: 'listening', baseUrl: server.baseUrl });
      return server;
    },
    (error: unknown) => {
      engine?.close();
      report({ kind: 'failed', message: `railyard: ${error instanceof Error ? error.message : String(error)}` });
      return undefined;
    },
  );
// A stop may come before the server listens (a signal right at start): it closes the server once there is one.
port.once('message', (command: ServeCommand) => {
  if (command.kind !== 'stop') return;
  void started.then(async (server) => {
    await server?.close();
    // Closes the data store too, once the last request is answered.
    engine?.close();
    report({ kind: 'stopped' });
  });
});
