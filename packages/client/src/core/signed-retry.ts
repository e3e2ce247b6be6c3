/**
 * The signed-retry pattern from the client's side.
 *
 * A wallet operation is sent without signature headers; the service answers 202 with `payloadToSign`, a single-use
 * `requestId` and `expiresAt`. A {@link WalletStamper} stamps the payload byte for byte, and the identical request
 * (same method, path and body) goes again with `Service-Wallet-Signature` and `Request-Id`. A 200
 * `{status: 'PROCESSING'}` means accepted but not settled: the identical request (same body, stamp and Request-Id) is
 * re-sent with backoff until a terminal answer. The client never holds key material: the stamper does (a
 * `@railyard/wallet` `SessionKey`, a browser the backend forwards `payloadToSign` to, an HSM…).
 * @module
 */
import { customerEndpoints, authEndpoints, delegatedKeyEndpoints, REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER, type Route, type HttpMethod } from '@railyard/contract/routes';
import type { SignedRetryChallenge } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import { buildPath, type ResultOf } from './endpoint.js';
import { APIUserAbortError, RailyardError, SignatureRequiredError, WalletOperationTimeoutError } from './errors.js';
import { backoffDelay, parseRetryAfter } from './retry.js';
import type { RequestOptions } from './types.js';

/**
 * Anything that stamps a `payloadToSign`: a `@railyard/wallet` `SessionKey` satisfies it, and so does your own object
 * (the client depends on no wallet code).
 */
export interface WalletStamper {
  /** The public half of the stamping key, compressed hex (`02`/`03` + X). Optional and informational: the client never needs it. */
  readonly publicKeyCompressedHex?: string;
  /** Signs the exact UTF-8 bytes of `payload` and returns the `Service-Wallet-Signature` header value. */
  stamp(payload: string): Promise<string>;
}

/**
 * How a 200 answer reads. `status`: a 200 is the success unless its body's `status` is `PROCESSING`
 * (verify, challenge, export; and `PATCH /internal-accounts`, whose terminal answer is a 200 too). `processing`: the
 * success is a 201 or 204, so a 200 always means still processing (add credential, refresh, revoke credential, revoke
 * session).
 */
type Reading200 = 'status' | 'processing';

/**
 * The operations the runner sends, with their endpoint and how their 200 reads; `stampedLegs`: how many signed retries
 * the operation takes, each answered by a new challenge until the last (1 when absent).
 */
const WALLET_OPERATIONS = {
  createAuthCredential: { endpoint: authEndpoints.createAuthCredential, on200: 'processing' },
  challengeAuthCredential: { endpoint: authEndpoints.challengeAuthCredential, on200: 'status' },
  verifyAuthCredential: { endpoint: authEndpoints.verifyAuthCredential, on200: 'status' },
  deleteAuthCredential: { endpoint: authEndpoints.deleteAuthCredential, on200: 'processing' },
  deleteAuthSession: { endpoint: authEndpoints.deleteAuthSession, on200: 'processing' },
  refreshAuthSession: { endpoint: authEndpoints.refreshAuthSession, on200: 'processing' },
  exportWallet: { endpoint: authEndpoints.exportWallet, on200: 'status' },
  updateInternalAccount: { endpoint: authEndpoints.updateInternalAccount, on200: 'status' },
  // A customer's email tied to EMAIL_OTP wallet credentials changes by a signed retry (SPEC §4.2).
  updateCustomer: { endpoint: customerEndpoints.updateCustomer, on200: 'status' },
  // A delegated key takes two stamped legs: its signer, then its policy.
  createDelegatedKey: { endpoint: delegatedKeyEndpoints.createDelegatedKey, on200: 'processing', stampedLegs: 2 },
} as const satisfies Record<string, { endpoint: Route; on200: Reading200; stampedLegs?: number }>;

/** Every wallet operation the runner sends (its contract `operationId`). */
export type WalletOperationId = keyof typeof WALLET_OPERATIONS;
/** The wallet operations that may answer 202 and need a stamp: all but `challengeAuthCredential`. */
export type SignedOperationId = Exclude<WalletOperationId, 'challengeAuthCredential'>;
/** The terminal result of a wallet operation, typed from its contract endpoint (`void` for the 204s). */
export type WalletOperationResult<Op extends WalletOperationId> = ResultOf<(typeof WALLET_OPERATIONS)[Op]['endpoint']>;
/** The operations with more than one stamped leg: a signed retry may be answered by the next challenge. */
export type MultiLegOperationId = { [Op in WalletOperationId]: (typeof WALLET_OPERATIONS)[Op] extends { stampedLegs: number } ? Op : never }[WalletOperationId];

/** Milliseconds a wallet operation is re-sent for while it answers PROCESSING, by default (the sum of the waits). */
export const DEFAULT_PROCESSING_TIMEOUT_MS = 60_000;

/**
 * A signed operation's request, exactly as its first leg was sent: the retry repeats it. Plain JSON, so a backend can
 * keep it (in a session store, say) while a browser stamps `payloadToSign`.
 */
export interface SignedRequest<Op extends SignedOperationId = SignedOperationId> {
  /** The contract operation, which types the result of {@link SignedRetry.complete}. */
  readonly operationId: Op;
  readonly method: HttpMethod;
  /** Path below the base URL, encoded (e.g. `/auth/credentials`). */
  readonly path: string;
  /** The JSON body of the first leg; the retry sends the same bytes. */
  readonly body?: unknown;
}

/** A signed operation waiting for its stamp: the 202 of its first leg. Finish it with {@link SignedRetry.complete}. */
export interface SignatureRequired<Op extends SignedOperationId = SignedOperationId> {
  readonly status: 'SIGNATURE_REQUIRED';
  /** The 202 body: stamp `payloadToSign` byte for byte before `expiresAt`; `requestId` is single use. */
  readonly challenge: SignedRetryChallenge;
  /** The request to repeat, identical, with the stamp. */
  readonly request: SignedRequest<Op>;
}

/** A wallet operation that reached its terminal answer. */
export interface SignedCompleted<T> {
  readonly status: 'COMPLETED';
  readonly data: T;
}

/**
 * What a signed operation called without a stamper resolves with: `SIGNATURE_REQUIRED` (the usual case: stamp
 * `challenge.payloadToSign` and call {@link SignedRetry.complete}) or `COMPLETED` (the service needed no signature).
 * `SignedResult` alone is the result of any signed operation.
 */
export type SignedResult<Op extends SignedOperationId = SignedOperationId> = Op extends SignedOperationId
  ? SignatureRequired<Op> | SignedCompleted<WalletOperationResult<Op>>
  : never;

/** The shortest wait between two re-sends of an operation that answered PROCESSING. */
export const MIN_PROCESSING_DELAY_MS = 250;

/** How long the runner re-sends an operation that answers PROCESSING. */
export interface ProcessingOptions {
  /**
   * Milliseconds the re-sends may wait in all before rejecting with {@link WalletOperationTimeoutError}. Default 60000.
   * Waits follow the answer's `Retry-After`, else back off from 0.5 s doubling to 8 s.
   */
  processingTimeout?: number;
}

/**
 * Options of a signed wallet operation: the usual {@link RequestOptions} (applied to every request it sends),
 * the PROCESSING budget, and the `stamper` that makes it one call.
 *
 * Idempotency keys: each request the operation sends (first leg, signed retry, each PROCESSING re-send) has a key of
 * its own, so a lost response is retried safely without the service replaying the 202 to the signed retry. With
 * `idempotencyKey: 'k'` the first leg sends `k` and the signed retry `k:signed` (so repeating the whole call with the
 * same key is safe across processes); `null` sends none.
 */
export interface SignedRequestOptions extends RequestOptions, ProcessingOptions {
  /**
   * Stamps the 202's `payloadToSign`; the call then resolves with the terminal result. Without one, a signed
   * operation resolves with a {@link SignedResult} to finish elsewhere.
   */
  stamper?: WalletStamper;
}

/** {@link SignedRequestOptions} with a stamper: the call resolves with the terminal result. */
export type StampedRequestOptions = SignedRequestOptions & { stamper: WalletStamper };
/** {@link SignedRequestOptions} without a stamper: the call resolves with a {@link SignedResult}. */
export type UnstampedRequestOptions = SignedRequestOptions & { stamper?: undefined };

/** Options of {@link SignedRetry.complete}: request options for the retry and its re-sends, and the PROCESSING budget. */
export type SignedRetryOptions = RequestOptions & ProcessingOptions;

/**
 * What {@link SignedRetry.complete} resolves with: the terminal result or, for an operation of several stamped legs
 * completed with a stamp string, `SIGNATURE_REQUIRED` with the next challenge (complete that one the same way).
 */
export type Completion<Op extends SignedOperationId> = Op extends MultiLegOperationId ? WalletOperationResult<Op> | SignatureRequired<Op> : WalletOperationResult<Op>;

/** How many stamped legs an operation takes (1 for anything that is not a known operation: `complete` refuses it). */
const stampedLegsOf = (operationId: unknown): number => {
  const operations: Readonly<Record<string, { endpoint: Route; stampedLegs?: number }>> = WALLET_OPERATIONS;
  return typeof operationId === 'string' && Object.hasOwn(operations, operationId) ? operations[operationId]!.stampedLegs ?? 1 : 1;
};

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const isChallenge = (value: unknown): value is SignedRetryChallenge =>
  isRecord(value) && typeof value.payloadToSign === 'string' && typeof value.requestId === 'string';

/**
 * Whether a path (below the base URL) is one of the endpoint's, e.g. `/auth/sessions/Session%3Ax/refresh`: a parameter
 * is one segment, with no query, fragment or dot segment (plain or percent-encoded) that could reach another URL.
 */
function pathMatches(template: string, path: string): boolean {
  const pattern = template.split(/\{[^{}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/?#]+');
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return false;
  return new RegExp(`^${pattern}$`).test(path);
}

/** `work`, unless `signal` aborts first (a stamper waiting on a browser may never answer). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new APIUserAbortError());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Splits an `Idempotency-Key` header out of the caller's headers, so each request of an operation gets its own key. */
function takeIdempotencyKey(options: RequestOptions): { key: string | null | undefined; headers: RequestOptions['headers'] } {
  let key = options.idempotencyKey;
  const headers: Record<string, string | null | undefined> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.toLowerCase() === 'idempotency-key') {
      if (key === undefined) key = value ?? null;
    } else headers[name] = value;
  }
  return { key: key === '' ? null : key, headers };
}

/** One answer of the service. */
interface Answer {
  status: number;
  headers: Headers;
  data: unknown;
}

/**
 * The signed-retry runner: `client.signedRetry`. Resources use it for every wallet operation; call
 * {@link SignedRetry.complete} yourself to finish an operation whose `payloadToSign` was stamped elsewhere:
 *
 * ```ts
 * // Backend: start, and hand payloadToSign to the browser that holds the session key
 * const pending = await client.auth.credentials.create({ type: 'SMS_OTP', accountId });
 * if (pending.status === 'SIGNATURE_REQUIRED') {
 *   save(pending);                                                   // plain JSON
 *   respond({ payloadToSign: pending.challenge.payloadToSign });
 * }
 * // Browser: const stamp = await session.stamp(payloadToSign)       (@railyard/wallet)
 * // Backend, with the stamp the browser sent back:
 * const credential = await client.signedRetry.complete(load(), stamp); // AuthMethod
 * ```
 */
export class SignedRetry {
  readonly #client: RailyardClient;
  readonly #wait: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  readonly #random: () => number;

  /**
   * @param client - The client to send with.
   * @param wait - How to wait between PROCESSING re-sends (the client's sleep, abortable).
   * @param random - Jitter source in [0, 1).
   */
  constructor(client: RailyardClient, wait: (ms: number, signal: AbortSignal | undefined) => Promise<void>, random: () => number) {
    this.#client = client;
    this.#wait = wait;
    this.#random = random;
  }

  /**
   * Finishes a signed operation: repeats its request, identical, with `Service-Wallet-Signature` (the stamp of
   * `challenge.payloadToSign`, or a stamper to make it) and `Request-Id`, re-sends it while it answers PROCESSING, and
   * resolves with the terminal result, typed by `request.operationId`. Calling it again with the same stamp sends the
   * identical request again (what a PROCESSING operation needs after {@link WalletOperationTimeoutError}).
   *
   * Rejects with an {@link AuthenticationError} (401) whose `code` says what was wrong: `WALLET_SIGNATURE_MISSING`,
   * `WALLET_SIGNATURE_MALFORMED`, `WALLET_SIGNATURE_BODY_MISMATCH` (the request is not the one challenged),
   * `WALLET_SIGNATURE_INVALID` (a key that may not sign, or a signature that does not verify), `REQUEST_ID_MISSING`,
   * or `UNAUTHORIZED` for a used, unknown or expired `requestId` (start the operation again).
   *
   * An operation of several stamped legs (`createDelegatedKey`): each signed retry but the last is answered by a new
   * challenge. A stamper stamps them all and the call resolves with the result; with a stamp string it resolves with
   * `SIGNATURE_REQUIRED` and the next challenge, to complete in turn.
   */
  complete<Op extends SignedOperationId>(pending: SignatureRequired<Op>, stamp: string | WalletStamper, options: SignedRetryOptions = {}): Promise<Completion<Op>> {
    return this.#complete(pending, stamp, options, stampedLegsOf(isRecord(pending) && isRecord(pending.request) ? pending.request.operationId : undefined) - 1) as Promise<Completion<Op>>;
  }

  /** {@link SignedRetry.complete}, with the number of further challenges the operation may still answer. */
  async #complete<Op extends SignedOperationId>(
    pending: SignatureRequired<Op>, stamp: string | WalletStamper, options: SignedRetryOptions, challengesLeft: number,
  ): Promise<WalletOperationResult<Op> | SignatureRequired<Op>> {
    this.#check(pending);
    const header = typeof stamp === 'string' ? stamp : await untilAborted(stamp.stamp(pending.challenge.payloadToSign), options.signal);
    if (typeof header !== 'string' || header === '') throw new RailyardError('The stamp must be a non-empty string: the Service-Wallet-Signature header value.');
    const { key, headers } = takeIdempotencyKey(options);
    const signedHeaders = { ...headers, [WALLET_SIGNATURE_HEADER]: header, [REQUEST_ID_HEADER]: pending.challenge.requestId };
    const answer = await this.#settle(pending.request.operationId, pending.request, { ...options, headers: signedHeaders }, key, { pending, stamp: header });
    if ('challenge' in answer && challengesLeft > 0) {
      const next: SignatureRequired<Op> = { status: 'SIGNATURE_REQUIRED', challenge: answer.challenge, request: pending.request };
      if (typeof stamp === 'string') return next;
      return this.#complete(next, stamp, { ...options, idempotencyKey: typeof key === 'string' ? `${key}:next` : key }, challengesLeft - 1);
    }
    if ('challenge' in answer) {
      throw new RailyardError(
        `The signed retry of ${pending.request.operationId} was answered with a new challenge (202): the service did not take the ` +
        'stamp as a retry. Was an Idempotency-Key reused from the first leg?',
      );
    }
    return answer.data as WalletOperationResult<Op>;
  }

  /**
   * Runs a wallet operation: the first leg, then, on a 202, the stamper's stamp and {@link SignedRetry.complete}.
   * Without a stamper a 202 resolves as `SIGNATURE_REQUIRED`.
   * @internal
   */
  async run<Op extends WalletOperationId>(
    operationId: Op, args: { params?: Record<string, string>; body?: unknown }, options: SignedRequestOptions = {},
  ): Promise<Op extends SignedOperationId ? SignedResult<Op> : SignedCompleted<WalletOperationResult<Op>>> {
    const { endpoint } = WALLET_OPERATIONS[operationId];
    const request = {
      operationId, method: endpoint.method, path: buildPath(endpoint.path, args.params), ...(args.body === undefined ? {} : { body: args.body }),
    } as SignedRequest<SignedOperationId>;
    const { stamper, ...rest } = options;
    const { key, headers } = takeIdempotencyKey(rest);
    const answer = await this.#settle(operationId, request, { ...rest, headers }, key, undefined);
    type Out = Op extends SignedOperationId ? SignedResult<Op> : SignedCompleted<WalletOperationResult<Op>>;
    if (!('challenge' in answer)) return { status: 'COMPLETED', data: answer.data } as Out;
    const pending: SignatureRequired = { status: 'SIGNATURE_REQUIRED', challenge: answer.challenge, request };
    if (!stamper) return pending as Out;
    const signedKey = typeof key === 'string' ? `${key}:signed` : key;
    // With a stamper, every stamped leg is stamped: the completion is the terminal result.
    const data = await this.complete(pending, stamper, { ...rest, headers, idempotencyKey: signedKey });
    return { status: 'COMPLETED', data } as Out;
  }

  /**
   * Runs a signed operation: with a stamper, its terminal result; without, the {@link SignedResult}.
   * @internal
   */
  async signed<Op extends SignedOperationId>(
    operationId: Op, args: { params?: Record<string, string>; body?: unknown }, options: SignedRequestOptions = {},
  ): Promise<WalletOperationResult<Op> | SignedResult<Op>> {
    if (options.stamper) return this.runToResult(operationId, args, options);
    return (await this.run(operationId, args, options)) as SignedResult<Op>;
  }

  /**
   * Runs a wallet operation and resolves with its terminal result; a 202 without a stamper rejects with
   * {@link SignatureRequiredError}.
   * @internal
   */
  async runToResult<Op extends WalletOperationId>(
    operationId: Op, args: { params?: Record<string, string>; body?: unknown }, options: SignedRequestOptions = {},
  ): Promise<WalletOperationResult<Op>> {
    const result = (await this.run(operationId, args, options)) as SignatureRequired | SignedCompleted<WalletOperationResult<Op>>;
    if (result.status === 'SIGNATURE_REQUIRED') throw new SignatureRequiredError(result);
    return result.data;
  }

  /**
   * Sends a request until it is not PROCESSING: resolves with a 202's challenge, or the terminal data.
   * `key` is the Idempotency-Key of the first send; PROCESSING re-sends get fresh keys (or none when `key` is null).
   */
  async #settle(
    operationId: WalletOperationId, request: SignedRequest<SignedOperationId>, options: SignedRequestOptions, key: string | null | undefined,
    continuation: { pending: SignatureRequired; stamp: string } | undefined,
  ): Promise<{ challenge: SignedRetryChallenge } | { data: unknown }> {
    const budget = options.processingTimeout ?? DEFAULT_PROCESSING_TIMEOUT_MS;
    const { processingTimeout: _budget, stamper: _stamper, ...requestOptions } = options;
    // The budget ends at a wall-clock deadline (the requests count too) or once the waits add up to it (an injected
    // sleep takes no real time), whichever comes first.
    const deadline = Date.now() + budget;
    let waited = 0;
    for (let send = 0; ; send++) {
      const answer = await this.#send(request, { ...requestOptions, idempotencyKey: send === 0 ? key : key === null ? null : undefined });
      if (answer.status === 202) {
        if (!isChallenge(answer.data)) {
          throw new RailyardError(`${request.method} ${request.path} answered 202 without a signed-retry challenge ({payloadToSign, requestId, expiresAt}).`);
        }
        return { challenge: answer.data };
      }
      const processing = answer.status === 200 &&
        (WALLET_OPERATIONS[operationId].on200 === 'processing' || (isRecord(answer.data) && answer.data.status === 'PROCESSING'));
      if (!processing) return { data: answer.data };
      // Never re-send at once: a server answering PROCESSING with Retry-After 0 would make this a busy loop.
      const delay = Math.max(parseRetryAfter(answer.headers) ?? backoffDelay(send, this.#random()), MIN_PROCESSING_DELAY_MS);
      if (waited + delay > budget || Date.now() + delay > deadline) {
        throw new WalletOperationTimeoutError({
          operationId, timeout: budget, sends: send + 1,
          serverMessage: isRecord(answer.data) && typeof answer.data.message === 'string' ? answer.data.message : undefined,
          ...continuation,
        });
      }
      waited += delay;
      await this.#wait(delay, options.signal);
    }
  }

  async #send(request: SignedRequest<SignedOperationId>, options: RequestOptions): Promise<Answer> {
    const { data, response } = await this.#client
      .request<unknown>({ method: request.method, path: request.path, ...(request.body === undefined ? {} : { body: request.body }) }, options)
      .withResponse();
    return { status: response.status, headers: response.headers, data };
  }

  /** Refuses a pending operation that is not one (e.g. restored from storage wrongly) before anything is sent. */
  #check(pending: SignatureRequired): void {
    const operation = isRecord(pending) && isRecord(pending.request) ? WALLET_OPERATIONS[pending.request.operationId as WalletOperationId] : undefined;
    if (!operation || (pending.request.operationId as WalletOperationId) === 'challengeAuthCredential') {
      throw new RailyardError('complete() needs the SIGNATURE_REQUIRED result of a signed wallet operation (its request.operationId is not one).');
    }
    if (pending.status !== 'SIGNATURE_REQUIRED' || !isChallenge(pending.challenge)) {
      throw new RailyardError('complete() needs a SIGNATURE_REQUIRED result with its challenge ({payloadToSign, requestId, expiresAt}).');
    }
    const { endpoint } = operation;
    if (pending.request.method !== endpoint.method || typeof pending.request.path !== 'string' || !pathMatches(endpoint.path, pending.request.path)) {
      throw new RailyardError(`complete(): ${String(pending.request.method)} ${String(pending.request.path)} is not ${endpoint.method} ${endpoint.path}.`);
    }
  }
}
