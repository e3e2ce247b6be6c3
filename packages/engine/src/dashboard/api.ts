/**
 * How the dashboard reads and acts: as a client of the sandbox's own HTTP surface, with the signed-in credential. Every
 * page and every action is an API or control-plane call through the same handler a client's request reaches
 * (authentication, the token's permissions, validation, idempotency, the platform's log; on a shared sandbox, passed
 * on to the server that holds the platform), so the dashboard can see and do exactly what its credential may.
 */
import { BASE_PATH, type Route, type RouteTypes, type WireReply } from '@railyard/contract/routes';
import type { Incoming } from '../http/app.js';

/** Serves one request: the engine's (or a shared sandbox's) handler. */
export type Handle = (incoming: Incoming) => Promise<WireReply>;

type TypesOf<R extends Route> = NonNullable<R['types']> & RouteTypes;
/** What a route answers with. */
export type ResultOf<R extends Route> = TypesOf<R>['result'];

/** The parts of a call: path parameters, query (empty values left out) and JSON body. */
export interface CallParts {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  /** A raw body sent as it is (a snapshot file), instead of `body`. */
  readonly rawBody?: string;
}

/** A field the API refused, as its error lists it. */
export interface RefusedField {
  readonly field: string;
  readonly message: string;
}

/** A non-2xx answer of the API: its status, code and message as the error shape carries them. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: readonly RefusedField[] = [],
  ) {
    super(message);
  }

  /** The message with each refused field: what the dashboard shows. */
  describe(): string {
    return this.fields.length === 0 ? this.message : `${this.message}: ${this.fields.map((f) => `${f.field} ${f.message}`).join('; ')}`;
  }
}

/** Fills `{name}` path parameters, each URL-encoded. */
export function pathOf(template: string, params: Readonly<Record<string, string>> | undefined): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = template.indexOf('{', at);
    if (open < 0) return out + template.slice(at);
    const close = template.indexOf('}', open);
    const value = params?.[template.slice(open + 1, close)] ?? '';
    out += template.slice(at, open) + encodeURIComponent(value);
    at = close + 1;
  }
}

const encoder = new TextEncoder();

/** A request for the handler, as a client would send it. */
function internalRequest(from: Incoming, method: string, url: string, authorization: string, body: string | undefined): Incoming {
  const headers: Record<string, string> = { authorization, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const bytes = body === undefined ? new Uint8Array(0) : encoder.encode(body);
  return {
    method,
    url,
    // Failed sign-ins count against the browser's address, as a client's would.
    ...(from.remoteAddress === undefined ? {} : { remoteAddress: from.remoteAddress }),
    header: (name) => headers[name] ?? null,
    headerList: () => Object.entries(headers),
    text: async () => body ?? '',
    bytes: async () => bytes,
    toRequest: () => new Request(url, { method, headers, ...(body === undefined ? {} : { body }) }),
  };
}

/** Reads an answer's JSON, or the refusal it carries. */
function parseAnswer(reply: WireReply): unknown {
  const text = reply.body ?? '';
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (reply.status >= 200 && reply.status < 300) return parsed;
  const error = (parsed ?? {}) as { code?: string; message?: string; details?: { errors?: RefusedField[] } };
  throw new ApiRefusal(reply.status, error.code ?? 'UNKNOWN', error.message ?? `The sandbox answered ${reply.status}`, error.details?.errors ?? []);
}

/** The API as the signed-in credential reaches it. */
export class DashboardApi {
  readonly origin: string;

  constructor(private readonly handle: Handle, private readonly from: Incoming, private readonly authorization: string) {
    this.origin = new URL(from.url).origin;
  }

  /** The URL of a route with its parts. */
  urlOf(route: Route, parts: CallParts = {}): string {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(parts.query ?? {})) if (value !== undefined && value !== '') query.append(name, String(value));
    const search = query.size === 0 ? '' : `?${query}`;
    return `${this.origin}${BASE_PATH}${pathOf(route.path, parts.params)}${search}`;
  }

  /** Calls a route; resolves with its result, rejects with an {@link ApiRefusal} for any non-2xx answer. */
  async call<R extends Route>(route: R, parts: CallParts = {}): Promise<ResultOf<R>> {
    const reply = await this.send(route, parts);
    return parseAnswer(reply) as ResultOf<R>;
  }

  /** Calls a route and hands back its reply as it is (a stream, a download). */
  send(route: Route, parts: CallParts = {}): Promise<WireReply> {
    const body = parts.rawBody ?? (parts.body === undefined ? undefined : JSON.stringify(parts.body));
    return this.handle(internalRequest(this.from, route.method, this.urlOf(route, parts), this.authorization, body));
  }
}

/**
 * Runs a call; a refusal becomes `{refused}` (a section the credential may not see says so). A 401 still throws: the
 * session's credential no longer works, and the whole page ends the session.
 */
export async function attempt<T>(call: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; refused: ApiRefusal }> {
  try {
    return { ok: true, value: await call };
  } catch (error) {
    if (error instanceof ApiRefusal && error.status !== 401) return { ok: false, refused: error };
    throw error;
  }
}
