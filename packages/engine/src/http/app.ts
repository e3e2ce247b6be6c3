import { BASE_PATH, type Endpoint, type BodyOf, type ParamsOf, type QueryOf, type ResponseOf } from '@railyard/contract';
import type { FieldError } from '@railyard/contract';
import { ApiError, invalidInput } from '../core/errors.js';
import type { TenantContext } from '../core/context.js';
import type { IdempotencyKeys, StoredResponse } from '../core/idempotency.js';
import type { Platform } from '../platforms/registry.js';
import { Router } from './router.js';
import { toFieldErrors } from './validate.js';

/** Largest JSON body accepted; multipart uploads have their own limit. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** What a handler receives: validated input and the platform's context. */
export interface RouteContext<E extends Endpoint> {
  readonly params: ParamsOf<E>;
  readonly query: QueryOf<E>;
  readonly body: BodyOf<E>;
  readonly tenant: TenantContext;
  readonly request: Request;
}

/** A response other than the endpoint's declared success (e.g. a 202 signed-retry challenge). */
export class HttpResult {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export type Handler<E extends Endpoint> = (ctx: RouteContext<E>) => ResponseOf<E> | HttpResult | Promise<ResponseOf<E> | HttpResult>;

/** An endpoint of the contract together with the domain call that serves it. */
export interface Binding {
  readonly endpoint: Endpoint;
  readonly handler: Handler<Endpoint>;
}

/** Binds a handler to an endpoint, typing its input and output from the contract. */
export const bind = <E extends Endpoint>(endpoint: E, handler: Handler<E>): Binding => ({
  endpoint,
  handler: handler as unknown as Handler<Endpoint>,
});

/** What the HTTP layer needs from the engine: authentication, tenant contexts and idempotency storage. */
export interface HttpHost {
  authenticate(authorization: string | null): Platform;
  tenant(platform: Platform): TenantContext;
  readonly idempotency: IdempotencyKeys;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The whole HTTP surface as a WHATWG fetch handler: route, authenticate, read the body, apply Idempotency-Key,
 * validate, call the domain, and map every error to the SPEC §2.4 shape in one place. It holds no business rules.
 */
export function createFetchHandler(bindings: readonly Binding[], host: HttpHost): (request: Request) => Promise<Response> {
  const router = new Router<Binding>();
  for (const binding of bindings) router.add(binding.endpoint, binding);
  let requestCounter = 0;

  return async function handle(request: Request): Promise<Response> {
    const requestId = `req_${(++requestCounter).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    try {
      return withRequestId(await dispatch(request), requestId);
    } catch (error) {
      return withRequestId(errorResponse(error), requestId);
    }
  };

  async function dispatch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const path = apiPath(url.pathname);
    if (path === undefined) {
      throw new ApiError(404, 'NOT_FOUND', `No route ${url.pathname}: API paths start with ${BASE_PATH}`);
    }
    const method = request.method.toUpperCase();
    const match = router.find(method, path);
    if ('allowed' in match) {
      if (match.allowed.length === 0) throw new ApiError(404, 'NOT_FOUND', `No route ${method} ${path}`);
      const allow = match.allowed.join(', ');
      return jsonResponse(405, new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; use ${allow}`).toBody(), { allow });
    }
    const { endpoint, handler } = match.value;
    const platform = host.authenticate(request.headers.get('authorization'));
    const tenant = host.tenant(platform);
    const rawBody = MUTATING.has(method) ? await readBody(request, endpoint) : undefined;

    const run = async (): Promise<Response> => {
      const input = validate(endpoint, match.params, url.searchParams, rawBody);
      const result = await handler({ ...input, tenant, request });
      return result instanceof HttpResult
        ? jsonResponse(result.status, result.body, result.headers)
        : jsonResponse(endpoint.response.status, endpoint.response.schema ? result : undefined);
    };

    const key = request.headers.get('idempotency-key');
    if (key === null || !MUTATING.has(method)) return run();
    return withIdempotency(host, tenant, key, `${method} ${path}?${url.search}\u0000${rawBody?.text ?? ''}`, run);
  }
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
}

async function readBody(request: Request, endpoint: Endpoint): Promise<RawBody | undefined> {
  if (endpoint.multipart) return undefined; // the documents area reads its own stream
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  const text = request.body ? await readLimited(request.body, MAX_JSON_BODY_BYTES) : '';
  if (text.trim() === '') return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(type)) {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', `Content-Type must be application/json for ${endpoint.method} ${endpoint.path}, not ${type || 'none'}`);
  }
  try {
    return { text, json: JSON.parse(text) };
  } catch (error) {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks, size);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(400, 'INVALID_REQUEST_FORMAT', 'The body is not valid UTF-8');
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const tooLarge = () =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `The body is larger than ${MAX_JSON_BODY_BYTES} bytes, the limit for JSON requests`);

/** Validates params, query and body together, so one 400 lists every invalid field. */
function validate(endpoint: Endpoint, params: Record<string, string>, search: URLSearchParams, raw: RawBody | undefined) {
  const errors: FieldError[] = [];
  const parse = (schema: Endpoint['params'] | Endpoint['body'], value: unknown, prefix?: string) => {
    if (!schema) return undefined;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    errors.push(...toFieldErrors(result.error.issues, prefix));
    return undefined;
  };
  const parsedParams = parse(endpoint.params, params);
  const parsedQuery = parse(endpoint.query, queryObject(search));
  let body: unknown;
  if (endpoint.body) {
    if (raw === undefined && !endpoint.bodyOptional) errors.push({ field: 'body', message: 'is required: send a JSON body', constraint: { required: true } });
    else if (raw !== undefined) body = parse(endpoint.body, raw.json);
  } else if (raw !== undefined && !isEmptyObject(raw.json)) {
    errors.push({ field: 'body', message: `${endpoint.method} ${endpoint.path} takes no body` });
  }
  if (errors.length > 0) throw invalidInput(errors);
  return { params: parsedParams as never, query: parsedQuery as never, body: body as never };
}

const isEmptyObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of search) {
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

async function withIdempotency(host: HttpHost, tenant: TenantContext, key: string, request: string, run: () => Promise<Response>) {
  if (key.length === 0 || key.length > 255) {
    throw new ApiError(400, 'INVALID_INPUT', 'Idempotency-Key must be 1 to 255 characters', { errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters', constraint: { minLength: 1, maxLength: 255 } }] });
  }
  const fingerprint = fingerprintOf(request);
  const tenantId = tenant.platform.id;
  for (;;) {
    const found = host.idempotency.lookup(tenant.store, tenantId, key, fingerprint, tenant.clock.now());
    if (found.kind === 'mismatch') {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', `Idempotency-Key ${key} was already used with a different request; use a new key for a new request`);
    }
    if (found.kind === 'replay') return replay(found.response);
    if (found.kind === 'in-flight') {
      await found.done;
      continue;
    }
    break;
  }
  const finish = host.idempotency.begin(tenantId, key, fingerprint);
  try {
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      response = errorResponse(error);
    }
    // Requests that failed before doing anything (validation, 5xx) are not remembered, so a corrected retry can reuse the key.
    if (response.status < 500 && response.status !== 400 && response.status !== 401) {
      const stored: StoredResponse = { status: response.status, body: await response.clone().text(), headers: { 'content-type': response.headers.get('content-type') ?? 'application/json' } };
      if (stored.body === '') stored.body = null;
      host.idempotency.save(tenant.store, key, fingerprint, stored, tenant.clock.now());
    }
    return response;
  } finally {
    finish();
  }
}

function replay(stored: StoredResponse): Response {
  return new Response(stored.body, { status: stored.status, headers: { ...stored.headers, 'idempotent-replayed': 'true' } });
}

/** A 53-bit string hash (cyrb53): enough to tell two request bodies apart without storing them. */
function fingerprintOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${text.length}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

/** JSON response with the given status; `undefined` body gives an empty response (204). */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  if (body === undefined || status === 204) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) return jsonResponse(error.status, error.toBody());
  // A bug, not a client mistake: say so without leaking internals.
  console.error('[railyard] internal error', error);
  return jsonResponse(500, { status: 500, code: 'INTERNAL_ERROR', message: 'The sandbox hit an internal error; this is a Railyard bug' });
}

function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set('x-request-id', requestId);
    return response;
  } catch {
    // Headers of some responses are immutable; copy them.
    const headers = new Headers(response.headers);
    headers.set('x-request-id', requestId);
    return new Response(response.body, { status: response.status, headers });
  }
}
