import { replyJson } from './json.js';
import {
  BASE_PATH, IN_MEMORY_DISPATCH, missingPermissions, requiredPermissions, type ApiTokenPermission, type BodyOf, type Endpoint, type ParamsOf, type QueryOf, type ResponseOf, type WireReply, type WireRequest,
} from '@railyard/contract';
import type { FieldError } from '@railyard/contract';
import { ApiError, invalidInput, payloadTooLarge } from '../core/errors.js';
import type { TenantContext } from '../core/context.js';
import type { IdempotencyKeys } from '../core/idempotency.js';
import type { Platform } from '../platforms/registry.js';
import { routerFor } from './router.js';
import { compiledForValidInput, type SafeParser } from './valid-case.js';
import { nodeCrypto } from '../core/native.js';
import { dedupeFieldErrors, toFieldErrors, UNKNOWN_FIELD_MESSAGE, unknownFieldsOf } from '../core/field-errors.js';
import { isStreaming, readableOf, ReplyStream, type StreamingReply } from './stream.js';

/** Largest JSON body accepted; multipart uploads have their own limit. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** What a handler receives: validated input and the platform's context. */
export interface RouteContext<E extends Endpoint> {
  readonly params: ParamsOf<E>;
  readonly query: QueryOf<E>;
  readonly body: BodyOf<E>;
  readonly tenant: TenantContext;
  readonly request: Incoming;
  /** The request as signed operations fingerprint it: method, path and the exact body text. */
  readonly signable: string;
  /** The agent an AgentAuth request acts as (`auth: 'agent'` endpoints). */
  readonly agentId?: string;
  /**
   * The permissions of the API token the request came with; undefined for the platform's own credentials, which hold
   * every permission. Operations that grant permissions (tokens, agents, a restore) may grant only these.
   */
  readonly permissions?: readonly ApiTokenPermission[];
  /** The API token the request came with (its id), when it came with one: a stream it opens ends with the token. */
  readonly tokenId?: string;
}

/**
 * A request as the HTTP layer sees it, whether it came as a WHATWG Request or over the in-memory wire. Areas that need
 * the raw body stream (multipart uploads) ask for `toRequest`.
 */
export interface Incoming {
  readonly method: string;
  readonly url: string;
  /**
   * The size in bytes over which the request line is refused (431), for the transports whose HTTP parser does not
   * refuse it first: in process, Node's default limit, so a request target too long for the standalone server is
   * refused there too. Node's parser applies its limit to the standalone server's requests.
   */
  readonly headLimit?: number;
  /** The peer's address, where the transport knows one (the standalone server): brute-force limits count per source. */
  readonly remoteAddress?: string;
  header(name: string): string | null;
  /** Every header, names in lower case (where the transport lists them: to pass a request on to another server). */
  headerList?(): [name: string, value: string][];
  /** The body as text, refusing more than `limit` bytes. */
  text(limit: number): Promise<string>;
  /** The body as bytes, refusing more than `limit` bytes (413) without reading further. */
  bytes(limit: number): Promise<Uint8Array>;
  toRequest(): Request;
}

/**
 * Node's default `maxHeaderSize` (16 KiB), over which the standalone server refuses a request line and headers:
 * in process, the engine refuses a request line over it the same way.
 */
const IN_PROCESS_HEAD_LIMIT = 16_384;

/** 431 INVALID_INPUT: the request line and headers over `limit` bytes (what Node's parser refuses over HTTP). */
export function headersTooLarge(limit: number): ApiError {
  const message = `are larger than ${limit} bytes, the limit of this server`;
  return new ApiError(431, 'INVALID_INPUT', `The request's headers ${message}`, {
    maxHeaderBytes: limit, errors: [{ field: 'headers', message, constraint: { maximum: limit } }],
  });
}

/** The length of `METHOD /path?query HTTP/1.1` for an absolute `url`, as the request line goes over the wire. */
function requestLineLength(method: string, url: string): number {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return method.length + 1 + (pathStart < 0 ? 1 : url.length - pathStart) + ' HTTP/1.1'.length;
}

function incomingFromRequest(request: Request): Incoming {
  return {
    method: request.method,
    url: request.url,
    headLimit: IN_PROCESS_HEAD_LIMIT,
    header: (name) => request.headers.get(name),
    text: async (limit) => decodeUtf8(await bodyBytes(request.body, request.headers.get('content-length'), limit)),
    bytes: (limit) => bodyBytes(request.body, request.headers.get('content-length'), limit),
    toRequest: () => request,
  };
}

function incomingFromWire(wire: WireRequest): Incoming {
  const headers: Record<string, string> = {};
  // Trimmed as fetch's Headers and node:http trim them, so a value means the same over every transport.
  for (const name in wire.headers) headers[name.toLowerCase()] = wire.headers[name]!.trim();
  return {
    method: wire.method,
    url: wire.url,
    headLimit: IN_PROCESS_HEAD_LIMIT,
    header: (name) => headers[name] ?? null,
    text: async (limit) => {
      const text = wire.body ?? '';
      // A UTF-16 length bounds the UTF-8 byte length from below; measure exactly only when it matters.
      if (text.length * 3 > limit && utf8Length(text) > limit) throw tooLarge(limit);
      return text;
    },
    bytes: async (limit) => {
      const bytes = new TextEncoder().encode(wire.body ?? '');
      if (bytes.byteLength > limit) throw tooLarge(limit);
      return bytes;
    },
    toRequest: () => new Request(wire.url, { method: wire.method, headers, ...(wire.body === undefined ? {} : { body: wire.body }) }),
  };
}

/**
 * A response other than the endpoint's declared success (e.g. a 202 signed-retry challenge). A string body with a
 * non-JSON `content-type` header (an HTML page) is sent as it is; a {@link ReplyStream} body is streamed.
 */
export class HttpResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /**
     * False for an answer an Idempotency-Key must not replay: a signed-retry challenge, whose signed retry carries the
     * same key and must reach the operation.
     */
    readonly replayable = true,
  ) {}
}

/** Replies the idempotency store must not keep (see {@link HttpResult.replayable}). */
const unreplayable = new WeakSet<WireReply>();

export type Handler<E extends Endpoint> = (ctx: RouteContext<E>) => ResponseOf<E> | HttpResult | Promise<ResponseOf<E> | HttpResult>;

/**
 * Domain checks that need state (the platform's currencies, the stored record a PATCH merges into). They get the raw,
 * unvalidated input and run even when the schema already failed, so one 400 lists every invalid field.
 */
export type Check = (ctx: { tenant: TenantContext; params: Record<string, string>; body: unknown }) => FieldError[];

/** An endpoint of the contract together with the domain call that serves it, as a platform. */
export interface ScopedBinding {
  readonly endpoint: Endpoint;
  readonly handler: Handler<Endpoint>;
  readonly check?: Check;
}

/** An endpoint served as no platform, before any credentials are looked at (see {@link bindUnscoped}). */
export interface UnscopedBinding {
  readonly endpoint: Endpoint & { readonly auth: 'none' };
  readonly unscoped: () => unknown;
}

/** What the HTTP surface serves: each endpoint of the contract with the call that answers it. */
export type Binding = ScopedBinding | UnscopedBinding;

/** Binds a handler to an endpoint, typing its input and output from the contract. */
export const bind = <E extends Endpoint>(endpoint: E, handler: Handler<E>, check?: Check): Binding => ({
  endpoint,
  handler: handler as unknown as Handler<Endpoint>,
  ...(check ? { check } : {}),
});

/**
 * Binds an endpoint that acts as no platform: no credentials are read, and the answer may depend on nothing a platform
 * holds (the health check). Only an endpoint the contract declares `auth: 'none'` without path parameters may be bound
 * so, so that the OpenAPI document says it is open, and nothing else is opened by mistake.
 */
export const bindUnscoped = <E extends Endpoint & { readonly auth: 'none'; readonly params?: undefined }>(
  endpoint: E, answer: () => ResponseOf<E>,
): Binding => ({ endpoint, unscoped: answer });

/**
 * Who a request acts as: a platform, with its own credentials (may do everything) or an API token's (`permissions`
 * says what it may do).
 */
export interface Principal {
  readonly platform: Platform;
  readonly permissions?: readonly ApiTokenPermission[];
  /** The API token the request came with (its id), when it came with one. */
  readonly tokenId?: string;
  /** An agent, for AgentAuth requests. */
  readonly agentId?: string;
}

/** What the HTTP layer needs from the engine: authentication, tenant contexts and idempotency storage. */
export interface HttpHost {
  /** The principal of an `Authorization` header, or a 401 (429 while brute-force limits hold `source` or the credential). */
  authenticate(authorization: string | null, source: string | undefined): Principal;
  /** The agent of an AgentAuth `Authorization: Bearer …` header, or a 401 (or 429, as above). */
  authenticateAgent(authorization: string | null, source: string | undefined): Principal;
  /** For `auth: 'none'` endpoints: the platform that issued the credential in the path (an agent's device code). */
  platformOfCredential(params: Record<string, string>, source: string | undefined): Platform | undefined;
  tenant(platform: Platform): TenantContext;
  /** The platform with this id, for public endpoints that name it in their path. */
  platformById(platformId: string): Platform | undefined;
  /** How a public endpoint (a page a person opens) shows an error; JSON when absent. */
  publicError?(error: ApiError): WireReply;
  /** Runs the follow-up work a request queued, once its reply is built (see `TenantContext.afterResponse`). */
  afterRequest?(): void;
  /** Told of each request a platform's credentials made, once answered (the platform's log: `railyard logs --follow`). */
  answered?(platformId: string, incoming: Incoming, reply: WireReply, durationMs: number): void;
  /**
   * Runs a request's work (once its body is read) as one unit of the platform's state: a durable engine runs a
   * platform's requests one at a time and answers once their changes are stored. Absent: the work runs as it is.
   */
  unit?<T>(tenant: TenantContext, work: () => Promise<T>): Promise<T>;
  readonly idempotency: IdempotencyKeys;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A function with the global `fetch`'s signature (spelled as @types/node declares it, so it needs no DOM typings), so
 * it can stand wherever `typeof fetch` is asked for. `preconnect`
 * is there for runtimes whose `fetch` type declares it (Bun's); with nothing to connect to, it does nothing.
 */
export type FetchFunction = ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) & {
  preconnect(url: string | URL, options?: unknown): void;
};

/** The engine's HTTP surface: a WHATWG fetch handler that also carries the in-memory dispatch. */
export type FetchHandler = FetchFunction & { [IN_MEMORY_DISPATCH]: (request: WireRequest) => Promise<WireReply> };

/** The three ways into the HTTP surface: WHATWG fetch, the in-memory wire, and any {@link Incoming} (the Node server). */
export interface HttpSurface {
  readonly fetch: FetchHandler;
  readonly handle: (incoming: Incoming) => Promise<WireReply>;
  /** The endpoint a request would reach and its path parameters, without serving it (undefined: no such route). */
  readonly route: (method: string, url: string) => { readonly endpoint: Endpoint; readonly params: Record<string, string> } | undefined;
}

/**
 * The whole HTTP surface: route, authenticate, read the body, apply Idempotency-Key, validate, call the domain, and map
 * every error to the API's error shape in one place. It holds no business rules. Served as a WHATWG fetch handler and,
 * for in-process clients, as a dispatch of plain objects (see `IN_MEMORY_DISPATCH` in the contract).
 */
export function createHttpSurface(bindings: readonly Binding[], host: HttpHost): HttpSurface {
  const router = routerFor(bindings.map((binding) => binding.endpoint));
  // Request ids: a random prefix per surface and a counter, unique without drawing randomness per request.
  const requestIdPrefix = `req_${Math.random().toString(36).slice(2, 10)}`;
  let requestCounter = 0;

  async function handle(incoming: Incoming): Promise<WireReply> {
    const requestId = `${requestIdPrefix}${(++requestCounter).toString(36)}`;
    const startedAt = host.answered === undefined ? 0 : performance.now();
    const route: { public: boolean; platformId?: string } = { public: false };
    let reply: WireReply;
    try {
      reply = await dispatch(incoming, route);
    } catch (error) {
      reply = route.public && error instanceof ApiError && host.publicError ? host.publicError(error) : errorReply(error);
    } finally {
      // The reply is built (its body serialized): now the work it started may finish, before anyone reads again.
      host.afterRequest?.();
    }
    if (incoming.method.toUpperCase() === 'HEAD') reply = withoutBody(reply);
    reply.headers['x-request-id'] = requestId;
    if (route.platformId !== undefined) host.answered?.(route.platformId, incoming, reply, performance.now() - startedAt);
    return reply;
  }

  async function dispatch(incoming: Incoming, route: { public: boolean; platformId?: string }): Promise<WireReply> {
    if (incoming.headLimit !== undefined && requestLineLength(incoming.method, incoming.url) > incoming.headLimit) {
      throw headersTooLarge(incoming.headLimit);
    }
    let url: URL;
    try {
      url = new URL(incoming.url);
    } catch {
      throw new ApiError(400, 'INVALID_REQUEST_FORMAT', `The request target is not a valid URL: ${incoming.url.slice(0, 200)}`);
    }
    const path = apiPath(url.pathname);
    if (path === undefined) {
      throw new ApiError(404, 'REFERENCE_NOT_FOUND', `No route ${url.pathname}: API paths start with ${BASE_PATH}`);
    }
    const method = incoming.method.toUpperCase();
    // HEAD is GET without the body (HTTP semantics): a health check or a link checker may send it.
    const match = router.find(method === 'HEAD' ? 'GET' : method, path);
    if ('allowed' in match) {
      if (match.allowed.length === 0) throw new ApiError(404, 'REFERENCE_NOT_FOUND', `No route ${method} ${path}`);
      // HEAD is served wherever GET is.
      const allow = (match.allowed.includes('GET') ? [...match.allowed, 'HEAD'] : match.allowed).join(', ');
      return jsonReply(405, new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allow}`).toBody(), { allow });
    }
    const binding = bindings[match.value]!;
    if (method === 'HEAD' && binding.endpoint.createsState === true) {
      return jsonReply(405, new ApiError(405, 'METHOD_NOT_ALLOWED', `HEAD is not allowed on ${path}, whose GET creates a resource; use GET`).toBody(), { allow: 'GET' });
    }
    if ('unscoped' in binding) return jsonReply(binding.endpoint.response.status, binding.unscoped());
    const { endpoint, handler, check } = binding;
    route.public = endpoint.public === true;
    const principal = principalOf(host, endpoint, match.params, incoming.header('authorization'), incoming.remoteAddress);
    // Made with the platform's credentials (its own, a token's, an agent's): its log shows the request, whatever it is
    // answered. A page anyone may open, or a device-code redeem, names a platform but is not the platform's doing.
    if (!endpoint.public && endpoint.auth !== 'none') route.platformId = principal.platform.id;
    if (principal.permissions !== undefined) requirePermission(principal.permissions, endpoint);
    const { platform } = principal;
    const tenant = host.tenant(platform);
    const rawBody = MUTATING.has(method) ? await readBody(incoming, endpoint) : undefined;
    // A multipart body is read here (bounded) so the idempotency fingerprint covers it; the area parses the same bytes.
    const request = rawBody?.bytes ? withBody(incoming, rawBody.bytes) : incoming;

    const key = incoming.header('idempotency-key');
    const run = async (): Promise<WireReply> => {
      const { input, errors, knownBody } = validate(endpoint, match.params, url, rawBody, platform.strict);
      if (endpoint.idempotencyKey === 'required' && key === null) {
        errors.push({ field: 'Idempotency-Key', message: 'is a required header of this operation (1 to 255 characters)', constraint: { required: true, maxLength: 255 } });
      }
      if (check) {
        const found = check({ tenant, params: match.params, body: knownBody });
        // A field the schema already refused is reported once, with the schema's reason.
        if (found.length > 0) {
          const refused = new Set(errors.map((e) => e.field));
          for (const error of found) if (!refused.has(error.field)) errors.push(error);
        }
      }
      if (errors.length > 0) throw invalidInput(dedupeFieldErrors(errors));
      // Built field by field: a conditional spread costs a microsecond on every request (see docs/benchmarks.md).
      const context: { -readonly [K in keyof RouteContext<Endpoint>]: RouteContext<Endpoint>[K] } = {
        params: input.params, query: input.query, body: input.body, tenant, request, signable: `${method} ${path}\u0000${rawBody?.text ?? ''}`,
      };
      if (principal.agentId !== undefined) context.agentId = principal.agentId;
      if (principal.permissions !== undefined) context.permissions = principal.permissions;
      if (principal.tokenId !== undefined) context.tokenId = principal.tokenId;
      // Most handlers answer at once; awaiting a value that is not a promise would still cost a promise and a tick.
      const answer = handler(context);
      const result = answer instanceof Promise ? await answer : answer;
      // A record's JSON is kept for reads only: what a write answers with is rarely asked for again at once.
      if (!(result instanceof HttpResult)) return jsonReply(endpoint.response.status, endpoint.response.schema ? result : undefined, undefined, method === 'GET' || method === 'HEAD');
      if (result.body instanceof ReplyStream) {
        const streaming: StreamingReply = { status: result.status, headers: { ...result.headers }, body: null, stream: result.body };
        return streaming;
      }
      const type = result.headers['content-type'];
      const reply = typeof result.body === 'string' && type !== undefined && !type.includes('json')
        ? { status: result.status, headers: { ...result.headers }, body: result.body }
        : jsonReply(result.status, result.body, result.headers);
      if (!result.replayable) unreplayable.add(reply);
      return reply;
    };

    const perform = (): Promise<WireReply> => {
      if (key === null || !(MUTATING.has(method) || endpoint.createsState === true)) return run();
      // A credential's keys are its own: the same key from the platform, a token or an agent is another request (so a
      // replay, which answers without running the operation, answers only the credential that made it).
      return withIdempotency(host, tenant, key, principal.agentId ?? principal.tokenId, endpoint.secrets, `${method} ${path}?${url.search}\u0000${rawBody?.text ?? ''}\u0000${rawBody?.bytes ? hashBytes(rawBody.bytes, boundaryOf(incoming.header('content-type'))) : ''}`, run);
    };
    return host.unit === undefined ? perform() : host.unit(tenant, perform);
  }

  // Called as the global fetch is: a Request, or a URL with its init. A Request alone is served as it is (no copy).
  const fetchHandler = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return toResponse(await handle(incomingFromRequest(request)));
  };
  const fetch: FetchHandler = Object.assign(fetchHandler, {
    preconnect: () => undefined,
    [IN_MEMORY_DISPATCH]: (wire: WireRequest) => handle(incomingFromWire(wire)),
  });
  const route = (method: string, target: string) => {
    let path: string | undefined;
    try {
      path = apiPath(new URL(target).pathname);
    } catch {
      return undefined;
    }
    const upper = method.toUpperCase();
    const match = path === undefined ? undefined : router.find(upper === 'HEAD' ? 'GET' : upper, path);
    if (match === undefined || 'allowed' in match) return undefined;
    const binding = bindings[match.value]!;
    return 'unscoped' in binding ? undefined : { endpoint: binding.endpoint as Endpoint, params: match.params };
  };
  return { fetch, handle, route };
}

/** Who a request acts as, by how its endpoint authenticates. */
function principalOf(host: HttpHost, endpoint: Endpoint, params: Record<string, string>, authorization: string | null, source: string | undefined): Principal {
  if (endpoint.public) return { platform: publicPlatform(host, params) };
  if (endpoint.auth === 'agent') return host.authenticateAgent(authorization, source);
  if (endpoint.auth === 'none') {
    const platform = host.platformOfCredential(params, source);
    // The credential in the path is a secret: the answer does not repeat it.
    if (!platform) throw new ApiError(404, 'REFERENCE_NOT_FOUND', 'No such code: it was never issued, or its agent was deleted');
    return { platform };
  }
  return host.authenticate(authorization, source);
}

/**
 * 403 FORBIDDEN for an API token without every permission the operation needs (the contract's ACCESS table):
 * `details.requiredPermission` names the first one missing, `requiredPermissions` all the operation needs.
 */
function requirePermission(permissions: readonly ApiTokenPermission[], endpoint: Endpoint): void {
  const needed = requiredPermissions(endpoint);
  const missing = missingPermissions(permissions, needed);
  if (missing.length > 0) {
    const details = needed.length === 1 ? { requiredPermission: missing[0]! } : { requiredPermission: missing[0]!, requiredPermissions: needed };
    throw new ApiError(403, 'FORBIDDEN', `This API token has ${permissions.join(', ')}; ${endpoint.operationId} needs ${needed.join(' and ')}`, details);
  }
}

/** The platform a public endpoint's path names; an unknown one is a plain 404, like any unknown page. */
function publicPlatform(host: HttpHost, params: Record<string, string>): Platform {
  const platform = params.platformId === undefined ? undefined : host.platformById(params.platformId);
  if (!platform) throw new ApiError(404, 'REFERENCE_NOT_FOUND', 'No such page');
  return platform;
}

/** The path below the base path; control-plane paths are also served at the root. */
function apiPath(pathname: string): string | undefined {
  if (pathname.startsWith(BASE_PATH) && (pathname.length === BASE_PATH.length || pathname.charCodeAt(BASE_PATH.length) === 47)) {
    return pathname.slice(BASE_PATH.length) || '/';
  }
  return pathname.startsWith('/_sandbox/') ? pathname : undefined;
}

interface RawBody {
  readonly text: string;
  readonly json: unknown;
  /** A multipart body, read but not parsed. */
  readonly bytes?: Uint8Array;
}

/** The same request, with its body already read. */
export function withBody(incoming: Incoming, bytes: Uint8Array): Incoming {
  return {
    ...incoming,
    header: (name) => incoming.header(name),
    text: async (limit) => {
      if (bytes.byteLength > limit) throw tooLarge(limit);
      return decodeUtf8(bytes);
    },
    bytes: async (limit) => {
      if (bytes.byteLength > limit) throw tooLarge(limit);
      return bytes;
    },
    toRequest: () => new Request(incoming.url, { method: incoming.method, headers: { 'content-type': incoming.header('content-type') ?? '' }, body: bytes as Uint8Array<ArrayBuffer> }),
  };
}

async function readBody(incoming: Incoming, endpoint: Endpoint): Promise<RawBody | undefined> {
  if (endpoint.multipart) {
    // Always handed on, even empty: the stream is consumed, so the area must get these bytes, not the stream.
    const bytes = await incoming.bytes(endpoint.maxBodyBytes ?? MAX_JSON_BODY_BYTES);
    return { text: '', json: undefined, bytes };
  }
  const text = await incoming.text(endpoint.maxBodyBytes ?? MAX_JSON_BODY_BYTES);
  if (text.trim() === '') return undefined;
  const type = incoming.header('content-type') ?? '';
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', `Content-Type must be application/json for ${endpoint.method} ${endpoint.path}, not ${type || 'none'}`);
  }
  try {
    return { text, json: JSON.parse(text) };
  } catch (error) {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads a body, refusing a declared or actual size above `limit` (413) without reading further. */
function bodyBytes(
  stream: ReadableStream<Uint8Array> | null,
  declaredLength: string | string[] | null | undefined,
  limit: number,
): Promise<Uint8Array> {
  if (Number(declaredLength ?? NaN) > limit) return Promise.reject(tooLarge(limit));
  return stream ? readLimited(stream, limit) : Promise.resolve(new Uint8Array(0));
}

/** Reads a body stream, refusing more than `limit` bytes. */
async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: { done: boolean; value?: Uint8Array | undefined };
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body: nobody is left to answer, and it is not a sandbox failure.
      throw new ApiError(400, 'INVALID_REQUEST_FORMAT', 'The request body could not be read to its end');
    }
    const { done, value } = chunk;
    if (done || value === undefined) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: some streams (msw's interceptor) never settle a cancel.
      void reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : concat(chunks, size);
}

/** UTF-8 text of a body; invalid UTF-8 is a 400. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', 'The body is not valid UTF-8');
  }
}

/** A minimal reader over an async iterable (a Node IncomingMessage). */
function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export const tooLarge = (limit: number) => payloadTooLarge(limit, `The body is larger than ${limit} bytes, the limit for this request`);


/** Uses of a schema before it is compiled: compiling costs a few milliseconds, which a schema used once never repays. */
const COMPILE_AFTER_USES = 16;

/**
 * The parser for valid input: the schema itself for its first uses, then its compiled parser (generated code for the
 * valid case; see valid-case.ts for schemas whose refinements also run on invalid input).
 */
const parsers = new WeakMap<object, SafeParser | number>();
function parserOf(schema: NonNullable<Endpoint['params'] | Endpoint['body']>): SafeParser {
  const known = parsers.get(schema) ?? 0;
  if (typeof known !== 'number') return known;
  if (known < COMPILE_AFTER_USES) {
    parsers.set(schema, known + 1);
    return schema;
  }
  const compiled = compiledForValidInput(schema);
  parsers.set(schema, compiled);
  return compiled;
}

/**
 * Validates params, query and body together and returns every problem, so one 400 lists every invalid field. Fields
 * the endpoint does not know are ignored (as the reference does), or listed when the platform is `strict`;
 * `knownBody` is the raw body without them, for the domain checks.
 */
function validate(endpoint: Endpoint, params: Record<string, string>, url: URL, raw: RawBody | undefined, strict: boolean) {
  const errors: FieldError[] = [];
  const parse = (schema: Endpoint['params'] | Endpoint['body'], value: unknown, prefix?: string) => {
    if (!schema) return undefined;
    // Valid input takes the compiled parser when zod can compile the schema, and never passes parse options (zod
    // copies them into each parse's context by spread, which keeps the parse's objects alive past the next
    // young-generation collection). Refused input is parsed again by the full parser, reporting each input.
    const fast = parserOf(schema).safeParse(value);
    if (fast.success) return fast.data;
    const result = schema.safeParse(value, { reportInput: true });
    if (result.success) return result.data;
    errors.push(...toFieldErrors(result.error.issues, prefix));
    return undefined;
  };
  const parsedParams = parse(endpoint.params, params);
  // Most requests have no query: skip building URLSearchParams for them.
  const query = url.search === '' ? {} : queryObject(url.searchParams);
  if (strict) {
    for (const name of Object.keys(query)) {
      if (!endpoint.query || !Object.hasOwn(endpoint.query.shape, name)) errors.push({ field: name, message: UNKNOWN_FIELD_MESSAGE });
    }
  }
  const parsedQuery = parse(endpoint.query, query);
  let body: unknown;
  let knownBody: unknown = raw?.json;
  if (endpoint.multipart) {
    // The area serving a form parses and validates it.
  } else if (endpoint.body) {
    if (raw === undefined && !endpoint.bodyOptional) errors.push({ field: 'body', message: 'is required: send a JSON body', constraint: { required: true } });
    else if (raw !== undefined) {
      const unknown = unknownFieldsOf(endpoint.body, raw.json);
      knownBody = unknown.known;
      if (strict) errors.push(...unknown.errors);
      body = parse(endpoint.body, knownBody);
    }
  } else if (raw !== undefined && !isEmptyObject(raw.json) && strict) {
    // A body where none is taken is ignored, unless the platform asked to hear about it.
    errors.push({ field: 'body', message: `${endpoint.method} ${endpoint.path} takes no body` });
  }
  return { input: { params: parsedParams as never, query: parsedQuery as never, body: body as never }, errors, knownBody };
}

const isEmptyObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

/**
 * The query as an object: a repeated name gives a list. Gathered in a Map, so names such as `__proto__` or
 * `constructor` are own fields like any other (an object would have found Object's members, or set a prototype).
 */
function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const gathered = new Map<string, string | string[]>();
  for (const [key, value] of search) {
    const existing = gathered.get(key);
    gathered.set(key, existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]);
  }
  return Object.fromEntries(gathered);
}

async function withIdempotency(
  host: HttpHost, tenant: TenantContext, sentKey: string, scope: string | undefined, secrets: Endpoint['secrets'], request: string,
  run: () => Promise<WireReply>,
): Promise<WireReply> {
  if (sentKey.length === 0 || sentKey.length > 255) {
    throw new ApiError(400, 'INVALID_INPUT', 'Idempotency-Key must be 1 to 255 characters', { errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters', constraint: { minLength: 1, maxLength: 255 } }] });
  }
  const key = scope === undefined ? sentKey : `${scope}\u0000${sentKey}`;
  const fingerprint = fingerprintOf(request);
  const tenantId = tenant.platform.id;
  for (;;) {
    const found = host.idempotency.lookup(tenant.store, tenantId, key, fingerprint, tenant.clock.now());
    if (found.kind === 'mismatch') {
      throw new ApiError(409, 'CONFLICT', `Idempotency-Key ${sentKey} was already used with a different request; use a new key for a new request`, { idempotencyKey: sentKey });
    }
    if (found.kind === 'replay') return openedForReplay(tenant, `${key}\u0000${fingerprint}`, found.response, found.sealed);
    if (found.kind === 'in-flight') {
      // The first request may be waiting on the network with the platform free (a durable engine): wait the same way.
      await tenant.outsideUnit(() => found.done);
      continue;
    }
    break;
  }
  const finish = host.idempotency.begin(tenantId, key, fingerprint);
  try {
    let reply: WireReply;
    try {
      reply = await run();
    } catch (error) {
      reply = errorReply(error);
    }
    // Requests refused before doing anything (validation, credentials, a permission or a policy, a limit that will
    // lift) and 5xx are not remembered, so a corrected or later retry can reuse the key.
    if (reply.status < 500 && reply.status !== 400 && reply.status !== 401 && reply.status !== 403 && reply.status !== 429 && !unreplayable.has(reply)) {
      const kept = sealedForReplay(tenant, `${key}\u0000${fingerprint}`, reply, secrets);
      host.idempotency.save(tenant.store, key, fingerprint, kept.reply, tenant.clock.now(), kept.sealed);
    }
    return reply;
  } finally {
    finish();
  }
}

/**
 * A reply as an Idempotency-Key keeps it: a copy, with the secrets the operation declares sealed with the platform's
 * sealer (so the record, and a snapshot of it, holds none in the clear), for the context of this credential's key and
 * request only, and those shown once left out. Returns the reply and the paths sealed.
 */
function sealedForReplay(tenant: TenantContext, context: string, reply: WireReply, secrets: Endpoint['secrets']): { reply: WireReply; sealed: string[] } {
  const copy = { ...reply, headers: { ...reply.headers } };
  const body = secrets === undefined || reply.status >= 300 ? undefined : parsedJson(reply.body);
  if (body === undefined || secrets === undefined) return { reply: copy, sealed: [] };
  const once = (secrets.once ?? []).filter((path) => deletePath(body, path.split('.')));
  // Any JSON value (a list too), as its JSON text.
  const sealed = (secrets.response ?? []).filter((path) => replaceAt(body, path.split('.'), (value) => tenant.secrets.seal(JSON.stringify(value), `idempotency:${context}:${path}`)));
  if (once.length > 0) copy.headers['withheld-fields'] = once.join(', ');
  return sealed.length === 0 && once.length === 0 ? { reply: copy, sealed } : { reply: { ...copy, body: JSON.stringify(body) }, sealed };
}

/**
 * A stored reply as a replay answers it: its sealed secrets opened (the caller that made them asks again). One this
 * engine cannot open (a snapshot restored under another secret key) is left out and named in `withheld-fields`.
 */
function openedForReplay(tenant: TenantContext, context: string, reply: WireReply, sealed: readonly string[]): WireReply {
  const headers: Record<string, string> = { ...reply.headers, 'idempotent-replayed': 'true' };
  const body = sealed.length === 0 ? undefined : parsedJson(reply.body);
  if (body === undefined) return { ...reply, headers };
  const withheld = sealed.filter((path) => !replaceAt(body, path.split('.'), (value) => {
    const opened = typeof value === 'string' ? tenant.secrets.open(value, `idempotency:${context}:${path}`) : undefined;
    return opened === undefined ? undefined : JSON.parse(opened);
  }));
  for (const path of withheld) deletePath(body, path.split('.'));
  const named = [headers['withheld-fields'], ...withheld].filter((field) => field !== undefined && field !== '').join(', ');
  return { ...reply, headers: named === '' ? headers : { ...headers, 'withheld-fields': named }, body: JSON.stringify(body) };
}

const parsedJson = (text: string | null): unknown => {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Replaces the field at `path` of a parsed JSON value with `change(value)`; false when there is none, or no change. */
function replaceAt(value: unknown, path: readonly string[], change: (value: unknown) => unknown): boolean {
  const parent = parentOf(value, path);
  const last = path[path.length - 1]!;
  if (parent === undefined || !Object.hasOwn(parent, last)) return false;
  const changed = change(parent[last]);
  if (changed === undefined) return false;
  parent[last] = changed;
  return true;
}

/** The object holding the field at `path`, or undefined. */
function parentOf(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let node = value;
  for (const name of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, name)) return undefined;
    node = (node as Record<string, unknown>)[name];
  }
  return typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}

/** Deletes the field at `path` of a parsed JSON value; whether there was one. */
function deletePath(value: unknown, path: readonly string[]): boolean {
  const parent = parentOf(value, path);
  const last = path[path.length - 1]!;
  if (parent === undefined || !Object.hasOwn(parent, last)) return false;
  delete parent[last];
  return true;
}

/** The multipart boundary of a content type: it differs per request, so it is left out of fingerprints. */
function boundaryOf(contentType: string | null): Uint8Array | undefined {
  const boundary = contentType ? /boundary="?([^";]+)"?/i.exec(contentType)?.[1] : undefined;
  return boundary ? new TextEncoder().encode(boundary) : undefined;
}

/** The same 53-bit hash over bytes (a multipart body), skipping every occurrence of its boundary. */
function hashBytes(bytes: Uint8Array, skip: Uint8Array | undefined): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    if (skip && bytes[i] === skip[0] && startsAt(bytes, skip, i)) {
      i += skip.length - 1;
      continue;
    }
    h1 = Math.imul(h1 ^ bytes[i]!, 2654435761);
    h2 = Math.imul(h2 ^ bytes[i]!, 1597334677);
  }
  return `${bytes.length}:${mix(h1, h2)}`;
}

function startsAt(bytes: Uint8Array, part: Uint8Array, at: number): boolean {
  if (at + part.length > bytes.length) return false;
  for (let j = 1; j < part.length; j++) if (bytes[at + j] !== part[j]) return false;
  return true;
}

function mix(a: number, b: number): string {
  const h1 = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  const h2 = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * A hash that tells two requests apart without storing them: SHA-1 in native code for a long body on Node (a snapshot
 * restore sends megabytes), else a 53-bit string hash (cyrb53).
 */
function fingerprintOf(text: string): string {
  if (nodeCrypto && text.length > 4096) return `${text.length}:${nodeCrypto.createHash('sha1').update(text).digest('base64url')}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return `${text.length}:${mix(h1, h2)}`;
}

/** A JSON reply with the given status; an `undefined` body gives an empty reply (204). */
export function jsonReply(status: number, body: unknown, headers?: Record<string, string>, keepJson = true): WireReply {
  if (body === undefined || status === 204) return { status, headers: { ...headers }, body: null };
  // Most replies add no header: a literal then, not a spread (see listPage).
  const replyHeaders: Record<string, string> = headers === undefined ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', ...headers };
  return { status, headers: replyHeaders, body: replyJson(body, keepJson) };
}

/** The answer to a HEAD request: the GET's status and headers, with the length of the body it leaves out. */
function withoutBody(reply: WireReply): WireReply {
  // A stream has no length to announce, and is never opened.
  if (isStreaming(reply)) {
    reply.stream.discard();
    return { status: reply.status, headers: { ...reply.headers }, body: null };
  }
  return { status: reply.status, headers: { ...reply.headers, 'content-length': String(utf8Length(reply.body ?? '')) }, body: null };
}

/** Bytes of `text` in UTF-8, counted without encoding it (a large body would be copied just to be counted). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair is one code point
      i++;
    } else bytes += 3; // the rest of the BMP, and a lone surrogate (written as U+FFFD, three bytes)
  }
  return bytes;
}

/** The reply to an error: the API's error object of an {@link ApiError}; anything else is a bug, answered 500. */
export function errorReply(error: unknown): WireReply {
  if (error instanceof ApiError) {
    // Generated clients retry 408, 409, 429 and 5xx unless told otherwise; a 409 refuses the request for the state
    // things are in, so a retry cannot change it. (Areas add the header to other answers a retry cannot help.)
    return jsonReply(error.status, error.toBody(), error.status === 409 ? { ...error.headers, 'x-should-retry': 'false' } : error.headers);
  }
  // A bug, not a client mistake: say so without leaking internals.
  console.error('[railyard] internal error', error);
  return jsonReply(500, { status: 500, code: 'INTERNAL_ERROR', message: 'The sandbox hit an internal error; this is a Railyard bug' });
}

const toResponse = (reply: WireReply): Response =>
  new Response(isStreaming(reply) ? readableOf(reply.stream) : reply.body, { status: reply.status, headers: reply.headers });
