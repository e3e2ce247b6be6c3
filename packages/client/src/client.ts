import { BASE_PATH, inMemoryDispatchOf, withoutTrailingSlashes, type Route, type HttpMethod, type InMemoryDispatch } from '@railyard/contract/routes';
import type { Page as PageEnvelope } from '@railyard/contract/routes';
import ky, { type KyInstance } from 'ky';
import { APIPromise, parseJsonBody, type RawAPIResponse } from './core/api-promise.js';
import { buildPath, type CallArgs, type PageItemOf, type ResultOf } from './core/endpoint.js';
import {
  APIConnectionError, APIConnectionTimeoutError, APIUserAbortError, RailyardError, SandboxOnlyError, makeAPIError,
} from './core/errors.js';
import { generateIdempotencyKey } from './core/idempotency.js';
import { Logger, redactBody, redactHeaders, type DebugLogger, type LevelLogger, type LogLevel } from './core/logger.js';
import { userAgentHeaders } from './core/user-agent.js';
import { Page, PagePromise } from './core/pagination.js';
import { defaultSleep, isRetryableMethod, isRetryableResponse, retryDelay, backoffDelay } from './core/retry.js';
import { sandboxRefusal } from './core/sandbox-guard.js';
import type { APIRequest, RequestArgs, RequestOptions } from './core/types.js';
import { serializeQuery } from './core/endpoint.js';
import { wireFromReply, wireFromResponse, type WireResponse } from './core/wire-response.js';
import { SignedRetry } from './core/signed-retry.js';
import { Auth } from './resources/auth.js';
import { Cards } from './resources/cards.js';
import { StablecoinOperations, StablecoinProviderAccounts, Stablecoins } from './resources/stablecoins.js';
import { Tokens } from './resources/tokens.js';
import { Invitations } from './resources/invitations.js';
import { Agents } from './resources/agents.js';
import { BeneficialOwners } from './resources/beneficial-owners.js';
import { Config } from './resources/config.js';
import { Customers } from './resources/customers.js';
import { InternalAccounts } from './resources/internal-accounts.js';
import { ExternalAccounts, PlatformExternalAccounts } from './resources/external-accounts.js';
import { Quotes } from './resources/quotes.js';
import { Receivers } from './resources/receivers.js';
import { Crypto, Discoveries, UmaProviders, Vasps } from './resources/lookups.js';
import { Sandbox } from './resources/sandbox.js';
import { Transactions } from './resources/transactions.js';
import { Verifications } from './resources/verifications.js';
import { Documents } from './resources/documents.js';
import { ExchangeRates } from './resources/exchange-rates.js';
import { Sca } from './resources/sca.js';
import { Transfers } from './resources/transfers.js';
import { Webhooks } from './resources/webhooks.js';

export { generateIdempotencyKey };

/** The base URL used when none is given: a local `railyard serve`. */
export const DEFAULT_BASE_URL = `http://127.0.0.1:4100${BASE_PATH}`;
/** Default number of retries after a failed attempt. */
export const DEFAULT_MAX_RETRIES = 2;
/** Default per-attempt timeout in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A WHATWG `fetch`: the global one, `engine.fetch` of an in-process sandbox, or any compatible function.
 * The client always calls it with a `Request` (plus an init object that may be ignored).
 */
export type Fetch = (request: Request, init?: RequestInit) => Promise<Response>;

/** Options of {@link createClient} and {@link RailyardClient}. */
export interface ClientOptions {
  /**
   * The API base URL including the version segment, e.g. `https://sandbox.example.com/2025-10-13`.
   * Defaults to env `RAILYARD_BASE_URL` where `process` exists, else `http://127.0.0.1:4100/2025-10-13` (a local
   * `railyard serve`).
   */
  baseUrl?: string;
  /** API client id (HTTP Basic user). Defaults to env `RAILYARD_CLIENT_ID` where `process` exists. */
  clientId?: string;
  /** API client secret (HTTP Basic password). Defaults to env `RAILYARD_CLIENT_SECRET` where `process` exists. */
  clientSecret?: string;
  /**
   * An agent's access token (`gat_…`, from redeeming its device code): requests then authenticate with AgentAuth
   * (`Authorization: Bearer`) instead of Basic credentials. {@link createAgentClient} sets it.
   */
  accessToken?: string;
  /** The `fetch` to send requests with, e.g. `engine.fetch` for an in-process sandbox. Defaults to the global `fetch`. */
  fetch?: Fetch;
  /** Retries after a failed attempt (connection error, timeout, 408, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** Milliseconds to wait for each attempt's response. Default 30000; `Infinity` disables it. */
  timeout?: number;
  /**
   * Debug logging of every request, response and retry, with credentials, `Service-Wallet-Signature` and any
   * `clientSecret` redacted. `true` logs to `console.error`; pass `{ log(line) }` to collect lines yourself.
   * When omitted, env `RAILYARD_DEBUG=1` turns it on.
   */
  debug?: boolean | DebugLogger;
  /**
   * How much to log: `'off'`, `'error'`, `'warn'` (a retry the client will not make, because Retry-After asks for
   * longer than it waits), `'info'` (each retry), `'debug'` (each request and response, as `debug: true`); `'error'`
   * adds a request given up on a connection failure or timeout. Every line is redacted as `debug`'s are. When omitted:
   * `debug` if set, else env `RAILYARD_LOG` where `process` exists (a level name), else `RAILYARD_DEBUG`, else `'off'`.
   */
  logLevel?: LogLevel;
  /**
   * Where lines go, by level (`logger.warn(line)` …): a `console`, pino, winston. Default: the `console` method of the
   * line's level (with `debug` or `RAILYARD_DEBUG`: `console.error`, as before).
   */
  logger?: LevelLogger;
  /**
   * Whether the base URL is a sandbox, which enables `client.sandbox`. By default a loopback host, a host name
   * containing `sandbox`, or a custom `fetch` without a base URL count as sandboxes. `false` always refuses.
   */
  sandbox?: boolean;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>;
  /**
   * How the client waits between retries. Tests pass a recorder that resolves at once.
   * @internal
   */
  sleep?: (ms: number) => Promise<void>;
  /**
   * Source of randomness for backoff jitter, in [0, 1). Tests pass `() => 0` for exact delays.
   * @internal
   */
  random?: () => number;
}

const MUTATING = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);

const readEnv = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] || undefined;

/** Base64 of the UTF-8 bytes of a string (works in Node, browsers, Deno, Bun and workers). */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The reason a signal was aborted with, when it is our timeout marker. */
class TimeoutMarker extends Error {}

/**
 * The Railyard API client.
 *
 * ```ts
 * const client = new RailyardClient({ clientId, clientSecret });
 * const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
 * for await (const c of client.customers.list({ limit: 50 })) console.log(c.id);
 * ```
 *
 * Every method returns an {@link APIPromise}; failures reject with a subclass of {@link RailyardError}.
 */
export class RailyardClient {
  /** The base URL every path is appended to (without a trailing slash). */
  readonly baseUrl: string;
  /** Default retries after a failed attempt. */
  readonly maxRetries: number;
  /** Default per-attempt timeout in milliseconds. */
  readonly timeout: number;

  /** Customers: create, retrieve, update, list, delete, end-user terms. */
  readonly customers: Customers;
  /** Customers' internal accounts; embedded wallets' `export` and `update` are signed operations. */
  readonly internalAccounts: InternalAccounts;
  /**
   * Embedded-wallet authentication: `auth.credentials` (create, list, challenge, verify, delete) and
   * `auth.sessions` (list, revoke, refresh). Signed operations take a `stamper` (e.g. a `@railyard/wallet` SessionKey).
   */
  readonly auth: Auth;
  /**
   * The signed-retry runner of wallet operations: {@link SignedRetry.complete} finishes an
   * operation whose `payloadToSign` was stamped elsewhere (a browser holding the session key).
   */
  readonly signedRetry: SignedRetry;
  /** Customers' external accounts: create, list, retrieve, delete, and ownership proofs. */
  readonly externalAccounts: ExternalAccounts;
  /** The platform's own external accounts, with the same ownership proofs. */
  readonly platformExternalAccounts: PlatformExternalAccounts;
  /** Platform configuration: retrieve and update (fees, currency terms, UMA domain, webhook endpoint). */
  readonly config: Config;
  /** Quotes: price a payment, then execute it. */
  readonly quotes: Quotes;
  /** Transactions: list, retrieve, approve, reject, cancel, confirm, and wait for one to settle. */
  readonly transactions: Transactions;
  /** Receivers to look up before quoting a payment to them, e.g. an UMA address. */
  readonly receivers: Receivers;
  /** Strong customer authentication: the SCA login session that {@link Quotes.authorize} needs. */
  readonly sca: Sca;
  /** Indicative exchange rates, fees included. */
  readonly exchangeRates: ExchangeRates;
  /** The deprecated `POST /transfer-in` and `/transfer-out` (each method is `@deprecated`: use quotes with `immediatelyExecute`). */
  readonly transfers: Transfers;
  /**
   * Webhook deliveries: verify their signature over the raw body, parse them into typed events, and sign test
   * deliveries. Needs no API call (and so no credentials): `new Webhooks()` works alone too.
   */
  readonly webhooks: Webhooks;
  /** Verification packets. */
  readonly verifications: Verifications;
  /** Beneficial owners of business customers. */
  readonly beneficialOwners: BeneficialOwners;
  /** Documents of customers and beneficial owners: multipart upload from a Blob, bytes or a file path. */
  readonly documents: Documents;
  /** Virtual cards: issue, freeze, close, reveal; their network is `sandbox.cards`. */
  readonly cards: Cards;
  /** Stablecoins registered with the service: enablement, mints and burns. */
  readonly stablecoins: Stablecoins;
  /** Links to the platform's accounts at stablecoin providers. */
  readonly stablecoinProviderAccounts: StablecoinProviderAccounts;
  /** Mints and burns by id, and waiting for them. */
  readonly stablecoinOperations: StablecoinOperations;
  /** API tokens: extra credentials of the platform with limited permissions. */
  readonly tokens: Tokens;
  /** UMA invitations. */
  readonly invitations: Invitations;
  /** Agents acting for customers, their policies and approvals; an agent's own client is `createAgentClient`. */
  readonly agents: Agents;
  /** The bank directory: banks to name as `bankName` in external accounts. */
  readonly discoveries: Discoveries;
  /** The VASPs custodial wallet accounts name as `vaspName`. */
  readonly vasps: Vasps;
  /** The UMA providers whose users can be paid. */
  readonly umaProviders: UmaProviders;
  /** Crypto withdrawals: fee estimates. */
  readonly crypto: Crypto;
  /**
   * Railyard's sandbox control plane (`/_sandbox/...`): clock, reset, snapshot and restore, events, platforms, limits;
   * and the sandbox moves of the API (`/sandbox/...`): funding, real-time payments, incoming UMA payments. Every call
   * is refused with {@link SandboxOnlyError}, before anything is sent, unless the client points at a sandbox.
   */
  readonly sandbox: Sandbox;

  readonly #options: ClientOptions;
  readonly #ky: KyInstance;
  /** Set when `fetch` is an in-process engine's: requests then skip Request/Response objects entirely. */
  readonly #dispatch: InMemoryDispatch | undefined;
  /** The fetch function given (or the global one): multipart bodies go through it even in process. */
  readonly #fetch: Fetch;
  readonly #defaultHeaders: Record<string, string>;
  readonly #logger: Logger;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #sandboxRefusal: string | undefined;
  /** The base URL as messages and logs show it: its path alone in process, where its origin is a placeholder. */
  readonly #shownBaseUrl: string;

  constructor(options: ClientOptions = {}) {
    this.#options = { ...options };
    const clientId = options.clientId ?? readEnv('RAILYARD_CLIENT_ID');
    const clientSecret = options.clientSecret ?? readEnv('RAILYARD_CLIENT_SECRET');
    if (options.accessToken === undefined && (!clientId || clientSecret === undefined)) {
      throw new RailyardError(
        'Missing credentials: pass `clientId` and `clientSecret` to createClient (or set RAILYARD_CLIENT_ID and RAILYARD_CLIENT_SECRET).',
      );
    }
    const givenBaseUrl = options.baseUrl ?? readEnv('RAILYARD_BASE_URL');
    const baseUrl = withoutTrailingSlashes(givenBaseUrl ?? DEFAULT_BASE_URL);
    try {
      new URL(baseUrl);
    } catch {
      const from = options.baseUrl === undefined ? ' (from RAILYARD_BASE_URL)' : '';
      throw new RailyardError(`Invalid baseUrl ${JSON.stringify(givenBaseUrl)}${from}: expected an absolute URL such as ${DEFAULT_BASE_URL}.`);
    }
    this.baseUrl = baseUrl;
    // In process (a fetch given, no base URL) the default base URL is only a placeholder no request leaves for:
    // messages name the path alone rather than send a reader looking for a server at http://127.0.0.1:4100.
    this.#shownBaseUrl = options.fetch !== undefined && givenBaseUrl === undefined ? new URL(baseUrl).pathname.replace(/\/$/, '') : baseUrl;
    this.maxRetries = validCount(options.maxRetries, 'maxRetries') ?? DEFAULT_MAX_RETRIES;
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;

    const credentials = options.accessToken ?? base64Utf8(`${clientId}:${clientSecret}`);
    // An empty access token sends no credentials at all: only redeeming a device code takes none.
    const authorization = options.accessToken === undefined ? `Basic ${credentials}` : options.accessToken === '' ? undefined : `Bearer ${options.accessToken}`;
    this.#logger = new Logger(options, [...(clientSecret === undefined ? [] : [clientSecret]), credentials]);
    this.#sleep = options.sleep ?? defaultSleep;
    this.#random = options.random ?? Math.random;
    this.#sandboxRefusal = sandboxRefusal({
      sandbox: options.sandbox,
      baseUrl: givenBaseUrl,
      customFetch: options.fetch !== undefined,
      resolvedBaseUrl: baseUrl,
    });

    const fetchImpl: Fetch = options.fetch ?? ((request, init) => globalThis.fetch(request, init));
    this.#dispatch = inMemoryDispatchOf(options.fetch);
    this.#fetch = fetchImpl;
    const auth: Record<string, string> = authorization === undefined ? {} : { authorization };
    // The SDK's User-Agent comes first, so a `user-agent` in defaultHeaders replaces it.
    const identity = userAgentHeaders();
    this.#defaultHeaders = lowerCaseKeys({ ...identity, ...options.defaultHeaders, ...auth, accept: 'application/json' });
    this.#ky = ky.create({
      prefixUrl: `${baseUrl}/`,
      fetch: fetchImpl as typeof globalThis.fetch, // ky always passes a Request
      // Retries, timeouts and error mapping are ours (see #send): ky would not retry POST with a key, nor reuse it.
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      headers: this.#defaultHeaders, // lower-cased, so a caller's `User-Agent` replaces ours instead of joining it
    });

    this.signedRetry = new SignedRetry(this, (ms, signal) => this.#wait(ms, signal), this.#random);
    this.customers = new Customers(this, (ms, signal) => this.#wait(ms, signal));
    this.internalAccounts = new InternalAccounts(this);
    this.auth = new Auth(this);
    this.externalAccounts = new ExternalAccounts(this);
    this.platformExternalAccounts = new PlatformExternalAccounts(this);
    this.config = new Config(this);
    this.quotes = new Quotes(this);
    this.transactions = new Transactions(this, (ms, signal) => this.#wait(ms, signal));
    this.receivers = new Receivers(this);
    this.discoveries = new Discoveries(this);
    this.vasps = new Vasps(this);
    this.umaProviders = new UmaProviders(this);
    this.crypto = new Crypto(this);
    this.sca = new Sca(this);
    this.exchangeRates = new ExchangeRates(this);
    this.transfers = new Transfers(this);
    this.webhooks = new Webhooks();
    this.verifications = new Verifications(this);
    this.beneficialOwners = new BeneficialOwners(this);
    this.documents = new Documents(this);
    this.cards = new Cards(this, (ms, signal) => this.#wait(ms, signal));
    this.stablecoins = new Stablecoins(this, (ms, signal) => this.#wait(ms, signal));
    this.stablecoinProviderAccounts = new StablecoinProviderAccounts(this);
    this.stablecoinOperations = new StablecoinOperations(this, (ms, signal) => this.#wait(ms, signal));
    this.tokens = new Tokens(this);
    this.invitations = new Invitations(this);
    this.agents = new Agents(this);
    this.sandbox = new Sandbox(this);
  }

  /** A new client with the same options except the given ones (e.g. another platform's credentials). */
  withOptions(options: Partial<ClientOptions>): RailyardClient {
    return new RailyardClient({ ...this.#options, ...options });
  }

  /** Whether `client.sandbox` calls are allowed for this client's base URL and options. */
  get isSandbox(): boolean {
    return this.#sandboxRefusal === undefined;
  }

  // -------------------------------------------------------------------------------------------------------------------
  // Typed calls from contract endpoints

  /**
   * Calls any contract endpoint with typed arguments and result. Resources are thin wrappers over this:
   *
   * ```ts
   * import { customerEndpoints } from '@railyard/contract/routes';
   * const c = await client.call(customerEndpoints.getCustomer, { params: { customerId } });
   * ```
   */
  call<E extends Route>(endpoint: E, args: CallArgs<E>, options?: RequestOptions): APIPromise<ResultOf<E>> {
    const request = this.#endpointRequest(endpoint, args);
    if (request instanceof Error) return new APIPromise(Promise.reject(request), async () => undefined as ResultOf<E>);
    return this.request<ResultOf<E>>(request, options);
  }

  /**
   * Calls a paginated contract endpoint: `await` the result for the first {@link Page}, or iterate it with
   * `for await` for every item across pages (the query and options are reused, `cursor` follows `nextCursor`).
   */
  callPage<E extends Route>(endpoint: E, args: CallArgs<E>, options?: RequestOptions): PagePromise<PageItemOf<E>> {
    const request = this.#endpointRequest(endpoint, args);
    if (request instanceof Error) {
      return new PagePromise(Promise.reject(request), async () => {
        throw request;
      });
    }
    return this.requestPage<PageItemOf<E>>(request, options);
  }

  #endpointRequest(endpoint: Route, args: { params?: unknown; query?: unknown; body?: unknown }): APIRequest | Error {
    try {
      return {
        method: endpoint.method,
        path: buildPath(endpoint.path, args.params as Record<string, unknown> | undefined),
        query: args.query as Record<string, unknown> | undefined,
        body: args.body,
      };
    } catch (error) {
      return error as Error;
    }
  }

  // -------------------------------------------------------------------------------------------------------------------
  // Low-level requests

  /**
   * Sends a request to a path below the base URL and parses the JSON response. Retries, idempotency keys, timeouts,
   * error mapping and logging apply exactly as for resource methods.
   */
  request<T = unknown>(request: APIRequest, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise<T>(this.#send(request, options), async (raw) => (await parseJsonBody(raw.response)) as T);
  }

  /** Like {@link RailyardClient.request} for a paginated list: the result is a {@link PagePromise}. */
  requestPage<Item>(request: APIRequest, options: RequestOptions = {}): PagePromise<Item> {
    const fetchPage = (cursor: string | undefined): PagePromise<Item> => {
      const query = { ...request.query };
      if (cursor !== undefined) query.cursor = cursor;
      const paged = { ...request, query };
      return new PagePromise<Item>(this.#send(paged, options), async (raw) => {
        const envelope = (await parseJsonBody(raw.response)) as PageEnvelope<Item>;
        if (envelope === null || typeof envelope !== 'object' || !Array.isArray(envelope.data)) {
          throw new RailyardError(`Expected a page {data, hasMore, nextCursor, totalCount} from ${raw.method} ${raw.url}.`);
        }
        return new Page<Item>(envelope, (next) => fetchPage(next));
      });
    };
    return fetchPage(undefined);
  }

  /** `GET path` (see {@link RailyardClient.request}). */
  get<T = unknown>(path: string, args: RequestArgs = {}): APIPromise<T> {
    return this.#verb<T>('GET', path, args);
  }
  /** `POST path`; gets a generated `Idempotency-Key` unless `idempotencyKey` says otherwise. */
  post<T = unknown>(path: string, args: RequestArgs = {}): APIPromise<T> {
    return this.#verb<T>('POST', path, args);
  }
  /** `PUT path`. */
  put<T = unknown>(path: string, args: RequestArgs = {}): APIPromise<T> {
    return this.#verb<T>('PUT', path, args);
  }
  /** `PATCH path`. */
  patch<T = unknown>(path: string, args: RequestArgs = {}): APIPromise<T> {
    return this.#verb<T>('PATCH', path, args);
  }
  /** `DELETE path`. */
  delete<T = unknown>(path: string, args: RequestArgs = {}): APIPromise<T> {
    return this.#verb<T>('DELETE', path, args);
  }

  #verb<T>(method: HttpMethod, path: string, { query, body, ...options }: RequestArgs): APIPromise<T> {
    return this.request<T>({ method, path, query, body }, options);
  }

  // -------------------------------------------------------------------------------------------------------------------
  // The send loop

  async #send(request: APIRequest, options: RequestOptions): Promise<RawAPIResponse> {
    const method = request.method.toUpperCase() as HttpMethod;
    const path = request.path.startsWith('/') ? request.path : `/${request.path}`;
    // Judge the path as the server will see it, after `..` and `%2e` segments are resolved.
    if (this.#sandboxRefusal !== undefined && isControlPlanePath(this.baseUrl, path)) {
      throw new SandboxOnlyError(`Refusing ${method} ${path}: sandbox control-plane calls are only allowed against a sandbox, and ${this.#sandboxRefusal}.`);
    }
    const searchParams = serializeQuery(request.query);
    const search = searchParams.toString();
    const url = `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
    const shownUrl = `${this.#shownBaseUrl}${path}${search ? `?${search}` : ''}`;
    const headers = this.#headers(method, options);
    const idempotencyKey = headers.get('idempotency-key') ?? undefined;
    const maxRetries = validCount(options.maxRetries, 'maxRetries') ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    const retryableMethod = isRetryableMethod(method, idempotencyKey !== undefined);
    const signal = options.signal;
    const log = this.#logger;

    for (let retry = 0; ; retry++) {
      if (signal?.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
      const attempt = `${retry + 1}/${maxRetries + 1}`;
      const started = Date.now();
      let response: WireResponse;
      try {
        response = await this.#attempt(path, method, searchParams, headers, request.body, timeout, signal, (sent) => {
          if (!log.enabled) return;
          log.log(`request ${method} ${shownUrl}`, {
            attempt,
            headers: redactHeaders(sent),
            body: request.body === undefined ? undefined : isFormData(request.body) ? describeForm(request.body) : redactBody(request.body),
          });
        });
      } catch (error) {
        if (signal?.aborted) {
          log.log(`aborted ${method} ${shownUrl}`, { attempt, ms: Date.now() - started });
          throw new APIUserAbortError(undefined, { cause: signal.reason });
        }
        const failure = error instanceof TimeoutMarker
          ? new APIConnectionTimeoutError(`Request timed out after ${timeout}ms (${method} ${shownUrl}).`)
          : new APIConnectionError(`Connection error (${method} ${shownUrl}): ${describe(error)}`, { cause: error });
        if (retry < maxRetries && retryableMethod) {
          const delay = backoffDelay(retry, this.#random());
          log.at('info', `retry ${method} ${shownUrl} in ${delay}ms`, { after: failure.message, retry: `${retry + 1}/${maxRetries}` });
          await this.#wait(delay, signal);
          continue;
        }
        log.at('error', `failed ${method} ${shownUrl}`, { attempt, ms: Date.now() - started, error: failure.message });
        throw failure;
      }

      const ms = Date.now() - started;
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.ok) {
        log.log(`response ${response.status} ${method} ${shownUrl}`, { ms, attempt, 'request-id': requestId });
        return { response, method, url, retries: retry };
      }

      const body = await readErrorBody(response);
      log.log(`response ${response.status} ${method} ${shownUrl}`, { ms, attempt, 'request-id': requestId, body: redactBody(body) });
      if (isRetryableResponse(response.status, response.headers, body) && retryableMethod && retry < maxRetries) {
        const delay = retryDelay(retry, response.headers, this.#random());
        if (delay !== undefined) {
          log.at('info', `retry ${method} ${shownUrl} in ${delay}ms`, { after: `status ${response.status}`, retry: `${retry + 1}/${maxRetries}` });
          await this.#wait(delay, signal);
          continue;
        }
        log.at('warn', `not retrying ${method} ${shownUrl}: Retry-After is longer than the client waits`);
      }
      throw makeAPIError({ status: response.status, headers: response.headers, body, method, url: shownUrl });
    }
  }

  /** The headers of one call, identical on every retry (so is its Idempotency-Key). */
  #headers(method: string, options: RequestOptions): Headers {
    const headers = new Headers();
    const removed: string[] = [];
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null || value === undefined) removed.push(name);
      else headers.set(name, value);
    }
    let key: string | null | undefined = options.idempotencyKey;
    if (key === undefined) key = headers.get('idempotency-key') ?? (MUTATING.has(method) ? generateIdempotencyKey() : null);
    if (key === null || key === '') headers.delete('idempotency-key');
    else headers.set('idempotency-key', key);
    // ky removes a default header whose per-request value is the string 'undefined' in a Headers instance.
    for (const name of removed) headers.set(name, 'undefined');
    return headers;
  }

  /** One attempt: resolves with any response, rejects on connection failure, timeout (TimeoutMarker) or abort. */
  async #attempt(
    path: string, method: HttpMethod, searchParams: URLSearchParams, headers: Headers, body: unknown, timeout: number,
    signal: AbortSignal | undefined, onSend: (headers: Headers) => void,
  ): Promise<WireResponse> {
    if (this.#dispatch) return this.#attemptInMemory(this.#dispatch, path, method, searchParams, headers, body, signal, onSend);
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = Number.isFinite(timeout) && timeout > 0
      ? setTimeout(() => controller.abort(new TimeoutMarker('timeout')), timeout)
      : undefined;
    // Settles the attempt on abort even when the fetch implementation ignores its signal.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    try {
      const sending = this.#ky(path.slice(1), {
        method,
        searchParams,
        headers,
        ...(body === undefined ? {} : isFormData(body) ? { body } : { json: body }),
        signal: controller.signal,
        hooks: { beforeRequest: [(sent) => onSend(sent.headers)] },
      });
      return wireFromResponse(await Promise.race([sending, aborted]));
    } catch (error) {
      throw controller.signal.reason instanceof TimeoutMarker ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * One attempt against an in-process engine: plain objects in and out. There is no network to time out; a caller's
   * signal is honoured before the call and when it returns.
   */
  async #attemptInMemory(
    dispatch: InMemoryDispatch, path: string, method: HttpMethod, searchParams: URLSearchParams, headers: Headers, body: unknown,
    signal: AbortSignal | undefined, onSend: (headers: Headers) => void,
  ): Promise<WireResponse> {
    const sent: Record<string, string> = { ...this.#defaultHeaders };
    headers.forEach((value, name) => {
      if (value === 'undefined') delete sent[name]; // a per-request opt-out of a default header (see #headers)
      else sent[name] = value;
    });
    const search = searchParams.size > 0 ? `?${searchParams.toString()}` : '';
    if (isFormData(body)) {
      // The in-memory wire carries text only: a multipart form goes to the engine's fetch as a real Request.
      delete sent['content-type'];
      if (this.#logger.enabled) onSend(new Headers(sent));
      if (signal?.aborted) throw signal.reason;
      const init: RequestInit = { method, headers: sent, body, ...(signal ? { signal } : {}) };
      return wireFromResponse(await this.#fetch(new Request(`${this.baseUrl}${path}${search}`, init)));
    }
    let text: string | undefined;
    if (body !== undefined) {
      text = JSON.stringify(body);
      sent['content-type'] = 'application/json';
    }
    if (this.#logger.enabled) onSend(new Headers(sent));
    if (signal?.aborted) throw signal.reason;
    const reply = await dispatch({ method, url: `${this.baseUrl}${path}${search}`, headers: sent, ...(text === undefined ? {} : { body: text }) });
    if (signal?.aborted) throw signal.reason;
    return wireFromReply(reply);
  }

  /**
   * Waits `ms` with the client's sleep; an abort of `signal` ends it with {@link APIUserAbortError}. For resources that
   * poll (built outside this class).
   * @internal
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.#wait(ms, signal);
  }

  /** Waits between retries; a caller abort ends the wait with {@link APIUserAbortError}. */
  async #wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
    if (!signal) return this.#sleep(ms);
    if (signal.aborted) throw new APIUserAbortError(undefined, { cause: signal.reason });
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(new APIUserAbortError(undefined, { cause: signal.reason }));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.#sleep(ms), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}

/** Whether a request body is a multipart form (sent as multipart/form-data rather than JSON). */
const isFormData = (body: unknown): body is FormData => typeof FormData !== 'undefined' && body instanceof FormData;

/** A form as the debug log shows it: text fields as they are, files as their name, type and size. */
function describeForm(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  form.forEach((value, name) => {
    out[name] = typeof value === 'string' ? value : `<file ${value.name}, ${value.type || 'no type'}, ${value.size} bytes>`;
  });
  return redactBody(out) as Record<string, unknown>;
}

/** Reads an error response's body: JSON when it parses, else its text, `undefined` when empty or unreadable. */
async function readErrorBody(response: WireResponse): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch {
    return undefined;
  }
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether a path below the base URL lands on the `/_sandbox/` control plane or the spec's `/sandbox/` moves, once normalized. */
function isControlPlanePath(baseUrl: string, path: string): boolean {
  let resolved: string;
  try {
    resolved = new URL(`${baseUrl}${path}`).pathname;
  } catch {
    return path.includes('_sandbox');
  }
  return resolved.startsWith('/_sandbox/') || resolved.includes(`${BASE_PATH}/_sandbox/`) || resolved.endsWith('/_sandbox') ||
    resolved.includes(`${BASE_PATH}/sandbox/`);
}

function lowerCaseKeys(headers: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

function validCount(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new RailyardError(`${name} must be a non-negative integer, got ${value}.`);
  return value;
}

/**
 * Creates a {@link RailyardClient}. Credentials and the base URL default to `RAILYARD_CLIENT_ID`, `RAILYARD_CLIENT_SECRET`
 * and `RAILYARD_BASE_URL` where `process` exists; `fetch: engine.fetch` talks to an in-process sandbox.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { createClient } from '@railyard/client';
 * import { createEngine } from '@railyard/engine';
 *
 * const engine = createEngine();
 * const client = createClient({ fetch: engine.fetch, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
 * const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
 * assert.equal(customer.customerType, 'INDIVIDUAL');
 * for await (const listed of client.customers.list()) assert.equal(listed.id, customer.id); // every page
 * ```
 */
export function createClient(options: ClientOptions = {}): RailyardClient {
  return new RailyardClient(options);
}
