#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createEngine } from './engine.js';
import { DEFAULT_CREDENTIALS } from './platforms/registry.js';
import { startServer } from './server/server.js';

const USAGE = `Usage: railyard serve [--port 4100] [--host 127.0.0.1] [--clock real|virtual] [--regulated] [--skip-paperwork] [--strict]

Starts the Railyard sandbox over HTTP. --strict refuses request fields the API does not know (listing each one) and
account identifiers that fail their checksums; by default both are accepted, as the reference service does. The default platform's credentials come from
RAILYARD_CLIENT_ID / RAILYARD_CLIENT_SECRET (defaults: ${DEFAULT_CREDENTIALS.clientId} / ${DEFAULT_CREDENTIALS.clientSecret}).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (command !== 'serve') {
    console.error(`Unknown command ${command}\n\n${USAGE}`);
    return 1;
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        port: { type: 'string', default: '4100' },
        host: { type: 'string', default: '127.0.0.1' },
        clock: { type: 'string', default: 'real' },
        regulated: { type: 'boolean', default: false },
        'skip-paperwork': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a port number, not ${values.port}`);
    return 1;
  }
  if (values.clock !== 'real' && values.clock !== 'virtual') {
    console.error(`--clock must be real or virtual, not ${values.clock}`);
    return 1;
  }
  const clientId = process.env.RAILYARD_CLIENT_ID || DEFAULT_CREDENTIALS.clientId;
  const clientSecret = process.env.RAILYARD_CLIENT_SECRET || DEFAULT_CREDENTIALS.clientSecret;
  const engine = createEngine({
    clock: values.clock,
    platform: { clientId, clientSecret, regulated: values.regulated, skipPaperwork: values['skip-paperwork'], strict: values.strict },
  });
  // Listen for signals before announcing readiness, so a signal right after the banner still shuts down cleanly.
  const stopped = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const server = await startServer(engine, { port, host: values.host });
  console.log(`Railyard sandbox listening on ${server.baseUrl}`);
  console.log(`  client id:     ${clientId}`);
  console.log(`  client secret: ${clientSecret}`);
  console.log(`  clock: ${values.clock}  regulated: ${values.regulated}  skip paperwork: ${values['skip-paperwork']}  strict: ${values.strict}`);
  console.log(`  OpenAPI: ${server.baseUrl}/_sandbox/openapi.json`);

  console.log(`Received ${await stopped}, shutting down`);
  await server.close();
  console.log('Stopped');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
