#!/usr/bin/env node
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { DEFAULT_CREDENTIALS } from './platforms/default-credentials.js';
import { DEFAULT_MAX_PLATFORMS } from './platforms/limits.js';
import { serverThreadLimits, type ServeBundle, type ServeCommand, type ServeReport, type ServeSettings } from './server/thread.js';
import { ENGINE_VERSION } from './version.js';

/** The shortest `RAILYARD_CLIENT_SECRET` a `--public` server takes: `openssl rand -hex 12` is 24 characters, 96 bits. */
const PUBLIC_SECRET_MIN_LENGTH = 24;

/**
 * Milliseconds the server thread has to stop after a signal (the server gives open requests a second, then closes
 * their connections). A thread still running then is busy in a computation that does not return to its event loop,
 * where the stop request cannot reach it: it is terminated, which interrupts the code running on it.
 */
const STOP_GRACE_MS = 3_000;

const USAGE = `Usage: railyard serve [--port 4100] [--host 127.0.0.1] [--clock real|virtual] [--regulated] [--skip-paperwork] [--strict] [--public] [--log] [--log-format text|json] [--max-platforms 10000]
                     [--data DIR] [--data-sync full|normal] [--database postgres://… [--advertise URL]]
       railyard --version | --help

Starts the Railyard sandbox over HTTP. --strict refuses request fields the API does not know (listing each one) and
account identifiers that fail their checksums; by default both are accepted, as the reference service does.
--public is for a sandbox shared over the internet: webhooks go to public addresses only (an endpoint on loopback,
localhost, a private, link-local or other non-public address is refused with a 400, and a host name that resolves to
one is never contacted), and a test send shows the receiver's status, not its answer. --log prints a line per request
(method, path, status, milliseconds, request id) and per webhook delivery attempt (event type, endpoint without its
query, status or why it was not reached, milliseconds, event id, attempt), as does RAILYARD_LOG=1; a path parameter
that is a secret (a device code, a KYC link or card reveal token) is shown as its name, e.g. {code}. --log-format json
(or RAILYARD_LOG_FORMAT=json; it turns the log on) writes each as one JSON object a line, with "kind" (request or
webhook) and "at" first. GET /_sandbox/health answers 200
without credentials, for container health checks. The default platform's credentials come from RAILYARD_CLIENT_ID /
RAILYARD_CLIENT_SECRET (defaults: ${DEFAULT_CREDENTIALS.clientId} / ${DEFAULT_CREDENTIALS.clientSecret}); --public refuses to start on the
defaults: it needs both set, the secret at least ${PUBLIC_SECRET_MIN_LENGTH} characters long. The banner prints a secret only when it is the
documented default. --max-platforms (or RAILYARD_MAX_PLATFORMS) caps the platforms the server holds (default
${DEFAULT_MAX_PLATFORMS}; POST /_sandbox/platforms past it is 409). RAILYARD_SECRET_KEY (at least 32 bytes of random text) is
the key card numbers, wallet mnemonics and TOTP secrets are sealed under in the state; without it each start draws
one, and secrets in a snapshot from another start are drawn anew when next shown. --data DIR (or RAILYARD_DATA) keeps
the state in SQLite in DIR (created if missing): a restart, a crash included, gives back every platform, record, token,
clock and pending job, and every answered write is on disk before its answer leaves; without RAILYARD_SECRET_KEY the
key is made once into DIR/secret.key. A DIR another server holds is refused. An answered write survives the server being
killed; --data-sync full (or RAILYARD_DATA_SYNC=full) also waits for the disk, so it survives a power cut (default
normal). --database postgres://user:password@host/db (or RAILYARD_DATABASE_URL) keeps the state in PostgreSQL instead, shared
by every server started on it (behind any load balancer): each platform is served by one server at a time, which the
others pass its requests to (at --advertise URL, or RAILYARD_ADVERTISE_URL: where they reach this one, default its own
address); a killed server's platforms move to another within seconds. Every server of one sandbox needs the same
RAILYARD_SECRET_KEY (without one, a key kept in the database is used) and the same --clock. SIGTERM or SIGINT stops the server: open requests get a second, and a server thread still busy
after ${STOP_GRACE_MS / 1000} s is terminated.`;

/**
 * Why `--public` cannot start with these credentials, or undefined when it can. A sandbox shared over the internet on
 * the documented defaults is open to anyone who has read the README.
 */
function publicCredentialsRefusal(env: NodeJS.ProcessEnv): string | undefined {
  const id = env.RAILYARD_CLIENT_ID ?? '';
  const secret = env.RAILYARD_CLIENT_SECRET ?? '';
  const wrong: string[] = [];
  if (id === '' || id === DEFAULT_CREDENTIALS.clientId) wrong.push(id === '' ? 'RAILYARD_CLIENT_ID is not set' : `RAILYARD_CLIENT_ID is the documented default ${DEFAULT_CREDENTIALS.clientId}`);
  if (secret === '') wrong.push('RAILYARD_CLIENT_SECRET is not set');
  else if (secret === DEFAULT_CREDENTIALS.clientSecret) wrong.push('RAILYARD_CLIENT_SECRET is the documented default');
  else if (secret.length < PUBLIC_SECRET_MIN_LENGTH) wrong.push(`RAILYARD_CLIENT_SECRET is shorter than ${PUBLIC_SECRET_MIN_LENGTH} characters`);
  if (wrong.length === 0) return undefined;
  return `--public refuses to start: ${wrong.join('; ')}. A sandbox shared over the internet needs credentials of its own: ` +
    `set RAILYARD_CLIENT_ID (not ${DEFAULT_CREDENTIALS.clientId}) and RAILYARD_CLIENT_SECRET (at least ${PUBLIC_SECRET_MIN_LENGTH} characters, ` +
    'not the default), e.g. RAILYARD_CLIENT_SECRET=$(openssl rand -hex 24).';
}

/** `RAILYARD_LOG` turns the request log on unless unset, empty, `0`, `false` or `off` (any case). */
const requestLogFromEnvironment = (value: string | undefined): boolean =>
  value !== undefined && !['', '0', 'false', 'off'].includes(value.trim().toLowerCase());

/** The flags of `railyard serve` as settings, or the message that refuses them. */
function parseServeFlags(args: string[]): ServeSettings | string {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: '4100' },
        host: { type: 'string', default: '127.0.0.1' },
        clock: { type: 'string', default: 'real' },
        regulated: { type: 'boolean', default: false },
        'skip-paperwork': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        public: { type: 'boolean', default: false },
        log: { type: 'boolean', default: false },
        'log-format': { type: 'string' },
        'max-platforms': { type: 'string', default: process.env.RAILYARD_MAX_PLATFORMS || String(DEFAULT_MAX_PLATFORMS) },
        data: { type: 'string' },
        'data-sync': { type: 'string', default: process.env.RAILYARD_DATA_SYNC || 'normal' },
        database: { type: 'string' },
        advertise: { type: 'string' },
      },
    }));
  } catch (error) {
    return `${(error as Error).message}\n\n${USAGE}`;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return `--port must be a port number, not ${values.port}`;
  if (values.clock !== 'real' && values.clock !== 'virtual') return `--clock must be real or virtual, not ${values.clock}`;
  const maxPlatforms = Number(values['max-platforms']);
  if (!Number.isInteger(maxPlatforms) || maxPlatforms < 1) return `--max-platforms must be a whole number of at least 1, not ${values['max-platforms']}`;
  const logFormat = values['log-format'] ?? (process.env.RAILYARD_LOG_FORMAT || undefined);
  if (logFormat !== undefined && logFormat !== 'text' && logFormat !== 'json') return `--log-format must be text or json, not ${logFormat}`;
  const data = values.data ?? (process.env.RAILYARD_DATA || undefined);
  if (data === '') return '--data needs a directory';
  const dataSync = values['data-sync'];
  if (dataSync !== 'full' && dataSync !== 'normal') return `--data-sync must be full or normal, not ${dataSync}`;
  const database = values.database ?? (process.env.RAILYARD_DATABASE_URL || undefined);
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database)) return `--database takes a PostgreSQL URL (postgres://user:password@host:5432/database), not ${database.replace(/\/\/[^@/]*@/, '//…@')}`;
  if (database !== undefined && data !== undefined) return '--data and --database are two places for the state: give one';
  const advertise = values.advertise ?? (process.env.RAILYARD_ADVERTISE_URL || undefined);
  if (advertise !== undefined && !/^https?:\/\/[^/]+\/?$/.test(advertise)) return `--advertise takes the origin the other servers reach this one at (http://host:port), not ${advertise}`;
  if (advertise !== undefined && database === undefined) return '--advertise is for servers sharing a --database';
  const secretKey = process.env.RAILYARD_SECRET_KEY || undefined;
  if (secretKey !== undefined && new TextEncoder().encode(secretKey).length < 32) {
    return 'RAILYARD_SECRET_KEY must be at least 32 bytes of random text, e.g. RAILYARD_SECRET_KEY=$(openssl rand -base64 32)';
  }
  if (values.public) {
    const refusal = publicCredentialsRefusal(process.env);
    if (refusal !== undefined) return refusal;
  }
  return {
    port,
    host: values.host,
    clock: values.clock,
    clientId: process.env.RAILYARD_CLIENT_ID || DEFAULT_CREDENTIALS.clientId,
    clientSecret: process.env.RAILYARD_CLIENT_SECRET || DEFAULT_CREDENTIALS.clientSecret,
    regulated: values.regulated,
    skipPaperwork: values['skip-paperwork'],
    strict: values.strict,
    public: values.public,
    // A log format asked for on the command line turns the log on.
    log: values.log || values['log-format'] !== undefined || requestLogFromEnvironment(process.env.RAILYARD_LOG),
    logFormat: logFormat ?? 'text',
    maxPlatforms,
    ...(secretKey === undefined ? {} : { secretKey }),
    ...(data === undefined ? {} : { data, dataSync }),
    ...(database === undefined ? {} : { database }),
    ...(advertise === undefined ? {} : { advertise: advertise.replace(/\/$/, '') }),
  };
}

/** Where the state lives, for the banner (a database's password is not shown). */
function stateLine(settings: ServeSettings): string {
  if (settings.database !== undefined) return `${settings.database.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@')} (PostgreSQL, shared)`;
  if (settings.data !== undefined) return `${settings.data} (SQLite, sync ${settings.dataSync})`;
  return 'in memory (gone when the server stops; --data DIR or --database URL keeps it)';
}

/** Runs the server thread until a signal stops it; resolves with the exit code. */
function serve(settings: ServeSettings): Promise<number> {
  const thread = new Worker(join(__dirname, 'serve-worker.cjs'), {
    workerData: settings,
    resourceLimits: serverThreadLimits(),
  });
  // Read while the thread boots (the reading code, and Node's crypto it hashes with, load only now, not before the
  // thread starts), and sent before anything else can be: a stop comes later, from a signal handler.
  const bundleSent = import('./server/code-cache.js').then(({ readCodeCacheFiles, transferablesOf }) => {
    const files = readCodeCacheFiles(join(__dirname, 'serve-thread.cjs'));
    thread.postMessage({ kind: 'bundle', files } satisfies ServeBundle, transferablesOf(files));
  });
  // A log reader that goes away (the terminal or pipe closed, e.g. a test runner that launched us and exited) must not
  // take the server down with an unhandled EPIPE: the banner and stop lines are lost, the server goes on.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  return new Promise((resolve) => {
    bundleSent.catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      void thread.terminate();
      resolve(1);
    });
    let stopping = false;
    // Listen for signals before the thread announces readiness, so a signal right after the banner still shuts down
    // cleanly. The stop follows the bundle: the thread takes its first message to be the bundle. A thread that has not
    // stopped by the end of the grace period is terminated. Signals after the first change nothing (a terminal's Ctrl+C
    // reaches both `pnpm serve` and this process, which `pnpm serve` forwards it to): the stop is under way, and bounded.
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`Received ${signal}, shutting down`);
      void bundleSent.then(() => thread.postMessage({ kind: 'stop' } satisfies ServeCommand), () => {});
      setTimeout(() => {
        console.error(`The server thread did not stop within ${STOP_GRACE_MS / 1000} s (busy in a computation that does not return): terminated it`);
        void thread.terminate().then(() => resolve(1), () => resolve(1));
      }, STOP_GRACE_MS).unref();
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    thread.on('message', (message: ServeReport) => {
      if (message.kind === 'listening') {
        console.log(`Railyard sandbox listening on ${message.baseUrl}`);
        console.log(`  client id:     ${settings.clientId}`);
        // The documented default is public knowledge; a secret of one's own stays where it was put.
        console.log(`  client secret: ${settings.clientSecret === DEFAULT_CREDENTIALS.clientSecret ? settings.clientSecret : '(from RAILYARD_CLIENT_SECRET, not shown)'}`);
        console.log(`  clock: ${settings.clock}  regulated: ${settings.regulated}  skip paperwork: ${settings.skipPaperwork}  strict: ${settings.strict}  public: ${settings.public}`);
        console.log(`  OpenAPI: ${message.baseUrl}/_sandbox/openapi.json`);
        console.log(`  state: ${stateLine(settings)}`);
      } else if (message.kind === 'failed') {
        console.error(message.message);
        resolve(1);
      } else {
        console.log('Stopped');
        resolve(0);
      }
    });
    thread.once('error', (error) => {
      console.error(error instanceof Error ? error.message : error);
      resolve(1);
    });
    thread.once('exit', (code) => resolve(code === 0 && stopping ? 0 : 1));
  });
}

/** `railyard --help`: `serve`, then the commands that drive a running sandbox (loaded only when asked for). */
async function fullUsage(): Promise<string> {
  const { COMMANDS_HELP } = await import('./cli/commands.js');
  return `${USAGE}

Commands that drive a running sandbox (railyard <command> --help shows its flags and an example):
${COMMANDS_HELP}
They reach http://127.0.0.1:4100/2025-10-13 as the default platform unless --base-url, --client-id and --client-secret
(or RAILYARD_BASE_URL, RAILYARD_CLIENT_ID, RAILYARD_CLIENT_SECRET) say otherwise; --json prints the answer for scripts.
Exit codes: 0 done, 1 the sandbox refused the request, 2 the command line is wrong, 3 no sandbox answers at the
address, 4 the sandbox refused the credentials.`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v' || (command === 'serve' && rest.some((arg) => arg === '--version' || arg === '-v'))) {
    console.log(ENGINE_VERSION);
    return 0;
  }
  const help = (arg: string) => arg === '--help' || arg === '-h';
  if (command === 'serve' && rest.some(help)) {
    console.log(USAGE);
    return 0;
  }
  if (command === undefined || help(command) || command === 'help') {
    console.log(await fullUsage());
    return command === undefined ? 2 : 0;
  }
  if (command !== 'serve') {
    const { commandOf, runCommand } = await import('./cli/commands.js');
    const found = commandOf(argv);
    if (found !== undefined) return runCommand(found, argv, process.env);
    console.error(`Unknown command ${argv.filter((arg) => !arg.startsWith('-')).join(' ')}\n\n${await fullUsage()}`);
    return 2;
  }
  const settings = parseServeFlags(rest);
  if (typeof settings === 'string') {
    console.error(settings);
    return 1;
  }
  return serve(settings);
}

Promise.resolve(main(process.argv.slice(2))).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
