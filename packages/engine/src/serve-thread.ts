// The server thread of `railyard serve` (see server/thread.ts): builds the engine, listens, reports back, and stops
// when the launcher asks.
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine } from './engine.js';
import { formatRequestLogLine, startServer, type RunningServer } from './server/server.js';
import { publicOnlyWebhookFetch } from './webhooks/public-delivery.js';
import type { ServeCommand, ServeReport, ServeSettings } from './server/thread.js';

const port = parentPort!;
const settings = workerData as ServeSettings;
const report = (message: ServeReport) => port.postMessage(message);

const engine = createEngine({
  clock: settings.clock,
  platform: {
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    regulated: settings.regulated,
    skipPaperwork: settings.skipPaperwork,
    strict: settings.strict,
  },
  maxPlatforms: settings.maxPlatforms,
  ...(settings.secretKey === undefined ? {} : { secretKey: settings.secretKey }),
  ...(settings.public ? { webhooks: { publicEndpointsOnly: true, fetch: publicOnlyWebhookFetch } } : {}),
});
const started: Promise<RunningServer | undefined> = startServer(engine, {
  port: settings.port,
  host: settings.host,
  ...(settings.log ? { onRequestLogged: (entry) => console.log(formatRequestLogLine(entry)) } : {}),
}).then(
  (server) => {
    report({ kind: 'listening', baseUrl: server.baseUrl });
    return server;
  },
  (error: unknown) => {
    engine.close();
    report({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    return undefined;
  },
);
// A stop may come before the server listens (a signal right at start): it closes the server once there is one.
port.once('message', (command: ServeCommand) => {
  if (command.kind !== 'stop') return;
  void started.then(async (server) => {
    await server?.close();
    report({ kind: 'stopped' });
  });
});
