/**
 * How the `railyard` commands other than `serve` reach a running sandbox (a local `railyard serve`, or a shared one):
 * its address, the credentials they call as, and errors that say what to do. Plain `fetch` against the documented HTTP
 * API, so the command line loads nothing of the engine.
 */
import { BASE_PATH, withoutTrailingSlashes } from '@railyard/contract/routes';
import { DEFAULT_CREDENTIALS } from '../platforms/default-credentials.js';

/** What a command's exit code means (`railyard --help` lists them). */
export const EXIT = {
  /** Done. */
  ok: 0,
  /** The sandbox refused the request (a 4xx other than 401, or a 5xx): its message is printed. */
  refused: 1,
  /** The command line itself is wrong (an unknown flag, a missing argument). */
  usage: 2,
  /** No sandbox answers at the address. */
  unreachable: 3,
  /** The sandbox refused the credentials (401). */
  credentials: 4,
} as const;

/** A command that cannot go on: the message for stderr and the exit code. */
export class CommandFailure extends Error {
  constructor(message: string, readonly exitCode: number, /** The sandbox's answer, when it answered. */ readonly status?: number) {
    super(message);
  }
}

/** A running sandbox, and the platform a command acts as. */
export interface Remote {
  /** The API's base URL, base path included: `http://127.0.0.1:4100/2025-10-13`. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The flags every remote command takes (for `parseArgs`). */
export const REMOTE_FLAGS = {
  'base-url': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The lines of `--help` that describe {@link REMOTE_FLAGS}. */
export const REMOTE_HELP = `  --base-url URL        the sandbox (default RAILYARD_BASE_URL, else http://127.0.0.1:4100${BASE_PATH}; the base path is added when missing)
  --client-id ID        the platform to act as (default RAILYARD_CLIENT_ID, else ${DEFAULT_CREDENTIALS.clientId})
  --client-secret S     its secret (default RAILYARD_CLIENT_SECRET, else the documented default)
  --json                print the answer as JSON, for scripts`;

/** The sandbox and credentials from the flags, then the environment, then the local defaults. */
export function remoteFrom(values: { 'base-url'?: string; 'client-id'?: string; 'client-secret'?: string }, env: NodeJS.ProcessEnv): Remote {
  const given = values['base-url'] ?? (env.RAILYARD_BASE_URL || `http://127.0.0.1:4100${BASE_PATH}`);
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new CommandFailure(`--base-url must be the sandbox's URL (http://127.0.0.1:4100${BASE_PATH}), not ${given}`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CommandFailure(`--base-url must be an http(s) URL, not ${given}`, EXIT.usage);
  const path = withoutTrailingSlashes(url.pathname);
  return {
    baseUrl: `${url.origin}${path === '' ? BASE_PATH : path}`,
    clientId: values['client-id'] ?? (env.RAILYARD_CLIENT_ID || DEFAULT_CREDENTIALS.clientId),
    clientSecret: values['client-secret'] ?? (env.RAILYARD_CLIENT_SECRET || DEFAULT_CREDENTIALS.clientSecret),
  };
}

/** Options of one {@link callSandbox}. */
export interface CallOptions {
  /** A JSON body (serialized here), or a prepared one (a file being uploaded). */
  readonly body?: unknown;
  /** Reads the answer's body itself (a download, a stream): called with the 2xx response. */
  readonly read?: (response: Response) => Promise<unknown>;
  /** More request headers (`Last-Event-ID`). */
  readonly headers?: Record<string, string>;
  /** The `Authorization` header instead of the remote's Basic credentials; null sends none (a device-code redeem). */
  readonly authorization?: string | null;
  /** Ends the call (a stream the user stopped following). */
  readonly signal?: AbortSignal;
}

/**
 * One call of the sandbox's API at `path` (under the base path). Resolves with the parsed JSON answer (undefined for
 * 204); rejects with a {@link CommandFailure} that says what went wrong and what to do.
 */
export async function callSandbox(remote: Remote, method: string, path: string, options: CallOptions = {}): Promise<unknown> {
  const { body } = options;
  // A stream, bytes or a form is sent as it is (a form with its own multipart content type).
  const prepared = body instanceof ReadableStream || body instanceof Uint8Array || body instanceof FormData;
  const authorization = options.authorization === undefined ? `Basic ${Buffer.from(`${remote.clientId}:${remote.clientSecret}`).toString('base64')}` : options.authorization;
  let response: Response;
  try {
    response = await fetch(`${remote.baseUrl}${path}`, {
      method,
      headers: {
        ...(authorization === null ? {} : { authorization }),
        ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(body === undefined ? {} : { body: prepared ? (body as BodyInit) : JSON.stringify(body) }),
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CommandFailure(`No sandbox answers at ${new URL(remote.baseUrl).origin} (${cause?.code ?? cause?.message ?? (error as Error).message}): ` +
      'start one with `railyard serve`, or point --base-url (or RAILYARD_BASE_URL) at a running one', EXIT.unreachable);
  }
  if (response.ok && options.read !== undefined) return options.read(response);
  const text = await response.text();
  let answer: unknown;
  try {
    answer = text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new CommandFailure(`${remote.baseUrl} answered ${response.status} with something that is not the sandbox's JSON: is --base-url a Railyard sandbox?`, EXIT.refused);
  }
  if (response.status === 401 && options.authorization === undefined) {
    throw new CommandFailure(`The sandbox at ${remote.baseUrl} refused the credentials of client id ${remote.clientId}: ` +
      'pass --client-id and --client-secret (or set RAILYARD_CLIENT_ID and RAILYARD_CLIENT_SECRET) of one of its platforms', EXIT.credentials);
  }
  if (!response.ok) {
    const error = answer as { code?: string; message?: string } | undefined;
    throw new CommandFailure(`The sandbox answered ${response.status} ${error?.code ?? ''}: ${error?.message ?? text}`.replace('  ', ' '), EXIT.refused, response.status);
  }
  return answer;
}
