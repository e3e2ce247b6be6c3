import type { ListStablecoinOperationsQuery, ListStablecoinProviderAccountsQuery, ListStablecoinsQuery, SignedRetryChallenge, Stablecoin, StablecoinBurnRequest, StablecoinMintRequest, StablecoinOperation, StablecoinProviderAccount, StablecoinProviderAccountLinkRequest, StablecoinRegisterRequest } from '@railyard/contract/routes';
import { REQUEST_ID_HEADER, stablecoinControlEndpoints, stablecoinEndpoints, WALLET_SIGNATURE_HEADER } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import { buildPath, type BodyParams, type QueryParams, type ResultOf } from '../core/endpoint.js';
import { RailyardError, SignatureRequiredError, StablecoinWaitTimeoutError, WalletOperationTimeoutError } from '../core/errors.js';
import { requireIdempotencyKey } from '../core/idempotency.js';
import { backoffDelay, parseRetryAfter } from '../core/retry.js';
import { DEFAULT_PROCESSING_TIMEOUT_MS, MIN_PROCESSING_DELAY_MS, type SignatureRequired, type SignedRetryOptions, type StampedRequestOptions, type WalletStamper } from '../core/signed-retry.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import { pollUntil, type WaitForOptions } from './wait-for-transaction.js';

/** The platform's link to its account at a stablecoin provider; the secret is never returned. */
export type { StablecoinProviderAccount };
/** Body of {@link StablecoinProviderAccounts.link}: `provider: 'BRALE'`, `apiClientId`, `apiClientSecret`, optional `providerAccountId`. */
export type StablecoinProviderAccountLinkParams = StablecoinProviderAccountLinkRequest;
/** Query of {@link StablecoinProviderAccounts.list}: `provider`, `status`, `limit`, `cursor`. */
export type StablecoinProviderAccountListParams = ListStablecoinProviderAccountsQuery;
/** A registered stablecoin: `issuanceStatus`, `serviceOperationsStatus`, `decimals`, and `currency` once enabled. */
export type { Stablecoin };
/** Body of {@link Stablecoins.register}: `providerTokenIdentifier`, `networkTokenIdentifier`, `network: 'SPARK'`, optional `stablecoinProviderAccountId`. */
export type StablecoinRegisterParams = StablecoinRegisterRequest;
/** Query of {@link Stablecoins.list}: `issuanceStatus`, `serviceOperationsStatus`, `provider`, `limit`, `cursor`. */
export type StablecoinListParams = ListStablecoinsQuery;
/** Body of {@link Stablecoins.mint}: `amount` (digits in the token's smallest unit), `fundingSource`, `destination`, `description`. */
export type StablecoinMintParams = StablecoinMintRequest;
/** Where a mint's fiat comes from: `WIRE`, `ACH_DEBIT` / `SAME_DAY_ACH_DEBIT` (a bank account), `SERVICE_INTERNAL_ACCOUNT`, `PROVIDER_INTERNAL_BALANCE`. */
export type StablecoinMintFundingSource = StablecoinMintParams['fundingSource'];
/** Body of {@link Stablecoins.burn}: `amount`, `source`, `destination` (a bank account and a rail), `description`. */
export type StablecoinBurnParams = StablecoinBurnRequest;
/** Where a burn's tokens come from: `EXTERNAL_ACCOUNT` (any wallet, to the deposit address), `SERVICE_INTERNAL_ACCOUNT`, `PROVIDER_INTERNAL_BALANCE`. */
export type StablecoinBurnSource = StablecoinBurnParams['source'];
/** A mint or burn as it moves CREATED → PENDING_FUNDING → PENDING_PROVIDER → PROCESSING → COMPLETED (or FAILED, EXPIRED). */
export type { StablecoinOperation };
/**
 * A burn from an embedded wallet waiting for the wallet's stamp: the 202 of its first leg, and the request to repeat.
 * Plain JSON, so a backend can keep it while the browser holding the session key stamps `challenge.payloadToSign`;
 * finish it with {@link Stablecoins.completeBurn}.
 */
export interface StablecoinBurnSignatureRequired {
  readonly status: 'SIGNATURE_REQUIRED';
  /** Stamp `payloadToSign` byte for byte before `expiresAt`; `requestId` is single use. */
  readonly challenge: SignedRetryChallenge;
  /** The burn exactly as its first leg was sent: the signed retry repeats it. */
  readonly request: { readonly operationId: 'createStablecoinBurn'; readonly method: 'POST'; readonly path: string; readonly body: StablecoinBurnParams };
}
/** Query of {@link Stablecoins.listOperations}: `operationType` (`MINT` or `BURN`; omit for both), `limit`, `cursor`. */
export type StablecoinOperationListParams = ListStablecoinOperationsQuery;
/** Options of {@link StablecoinOperations.waitFor}: as {@link WaitForOptions}, with `until` reading the operation. */
export type StablecoinOperationWaitForOptions = Omit<WaitForOptions, 'until'> & { until?: (operation: StablecoinOperation) => boolean };
/** Options of {@link Stablecoins.waitFor}: as {@link WaitForOptions}, with `until` reading the coin. */
export type StablecoinWaitForOptions = Omit<WaitForOptions, 'until'> & { until?: (stablecoin: Stablecoin) => boolean };

type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

/** Operation statuses that do not move on by themselves. */
const FINAL_OPERATION_STATUSES: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'EXPIRED']);
/** Issuance statuses that do not move on by themselves. */
const FINAL_ISSUANCE_STATUSES: ReadonlySet<string> = new Set(['PROVISIONED', 'REJECTED', 'FAILED']);

/** The request of a burn, as its signed retry repeats it. */
const burnRequest = (stablecoinId: string, body: StablecoinBurnParams): StablecoinBurnSignatureRequired['request'] => ({
  operationId: 'createStablecoinBurn', method: 'POST', path: buildPath(stablecoinEndpoints.createStablecoinBurn.path, { stablecoinId }), body,
});

/** The {@link SignatureRequiredError} of a wallet's burn called without a stamper, pointing to {@link Stablecoins.completeBurn}. */
function burnSignatureRequired(pending: StablecoinBurnSignatureRequired): SignatureRequiredError {
  const error = new SignatureRequiredError(pending as unknown as SignatureRequired);
  error.message = `${pending.request.method} ${pending.request.path} burns from an embedded wallet, a signed action of the wallet (202): pass a ` +
    'stamper (a session key of that wallet), or stamp pending.challenge.payloadToSign and call client.stablecoins.completeBurn(pending, stamp).';
  return error;
}

/** Refuses a pending burn that is not one (restored from storage wrongly, or edited to reach another URL) before anything is sent. */
function checkPendingBurn(pending: StablecoinBurnSignatureRequired): void {
  const request = pending?.request;
  const challenge = pending?.challenge;
  if (pending?.status !== 'SIGNATURE_REQUIRED' || typeof challenge?.payloadToSign !== 'string' || typeof challenge.requestId !== 'string') {
    throw new RailyardError('completeBurn() needs the SIGNATURE_REQUIRED result of a burn, with its challenge ({payloadToSign, requestId, expiresAt}).');
  }
  // One path segment for the coin: no query, fragment or dot segment (plain or percent-encoded) that could reach another URL.
  const path = typeof request?.path === 'string' ? request.path : '';
  if (request.operationId !== 'createStablecoinBurn' || request.method !== 'POST' || !/^\/stablecoins\/[^/?#]+\/burns$/.test(path) || /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) {
    throw new RailyardError(`completeBurn(): ${String(request?.method)} ${String(request?.path)} is not POST /stablecoins/{stablecoinId}/burns.`);
  }
}

/**
 * Links to the platform's accounts at stablecoin providers. Every link is sent with an
 * `Idempotency-Key` (generated unless you pass one), as the API requires.
 */
export class StablecoinProviderAccounts extends APIResource {
  /**
   * Links an account: the provider checks the credentials now. Rejects with a {@link BadRequestError}
   * `STABLECOIN_PROVIDER_ACCOUNT_INVALID` when it refuses them, or `INVALID_INPUT` on `providerAccountId` when they
   * reach several accounts and none is named; a {@link ConflictError} when the account is linked already.
   */
  link(body: StablecoinProviderAccountLinkParams, options?: RequestOptions): APIPromise<StablecoinProviderAccount> {
    return this._client.call(stablecoinEndpoints.linkStablecoinProviderAccount, { body }, requireIdempotencyKey(options));
  }

  /** Lists the links, newest first; iterate with `for await` for every one across pages. */
  list(query: StablecoinProviderAccountListParams = {}, options?: RequestOptions): PagePromise<StablecoinProviderAccount> {
    return this._client.callPage(stablecoinEndpoints.listStablecoinProviderAccounts, { query }, options);
  }

  /** A link by id; a {@link NotFoundError} `STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND` for an unknown one. */
  retrieve(stablecoinProviderAccountId: string, options?: RequestOptions): APIPromise<StablecoinProviderAccount> {
    return this._client.call(stablecoinEndpoints.getStablecoinProviderAccount, { params: { stablecoinProviderAccountId } }, options);
  }
}

/**
 * Stablecoins issued at a provider and registered with the service: register one,
 * ask for its enablement, then mint and burn its tokens. Creates are sent with an `Idempotency-Key` (generated unless
 * you pass one).
 *
 * ```ts
 * const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1…', network: 'SPARK' });
 * await client.stablecoins.requestEnablement(coin.id);
 * const mint = await client.stablecoins.mint(coin.id, { amount: '25000000', fundingSource: { type: 'WIRE' }, destination: { accountId } });
 * ```
 */
export class Stablecoins extends APIResource {
  readonly #sleep: Sleep;

  /** @param sleep - How {@link Stablecoins.waitFor} sleeps between reads; the client passes its own. */
  constructor(client: RailyardClient, sleep: Sleep) {
    super(client);
    this.#sleep = sleep;
  }

  /**
   * Registers a token that exists at the provider: PENDING_REVIEW, then PROVISIONING and PROVISIONED (or REJECTED,
   * FAILED). The link may be left out when one ACTIVE link exists; with several, a {@link BadRequestError}
   * `STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED`.
   */
  register(body: StablecoinRegisterParams, options?: RequestOptions): APIPromise<Stablecoin> {
    return this._client.call(stablecoinEndpoints.registerStablecoin, { body }, requireIdempotencyKey(options));
  }

  /** Lists registered coins, newest first; iterate with `for await` for every one across pages. */
  list(query: StablecoinListParams = {}, options?: RequestOptions): PagePromise<Stablecoin> {
    return this._client.callPage(stablecoinEndpoints.listStablecoins, { query }, options);
  }

  retrieve(stablecoinId: string, options?: RequestOptions): APIPromise<Stablecoin> {
    return this._client.call(stablecoinEndpoints.getStablecoin, { params: { stablecoinId } }, options);
  }

  /**
   * Asks the operator to enable mints and burns: NOT_ENABLED becomes PENDING_APPROVAL; asking again while
   * pending is fine. From ENABLING, ENABLED or DISABLED it rejects with a {@link ConflictError}
   * `STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE`.
   */
  requestEnablement(stablecoinId: string, options?: RequestOptions): APIPromise<Stablecoin> {
    return this._client.call(stablecoinEndpoints.requestStablecoinEnablement, { params: { stablecoinId } }, options);
  }

  /**
   * Mints tokens against fiat funding. The operation answers CREATED; a WIRE mint then waits for the wire
   * (`fundingInstructions`, until `expiresAt`), the others go to the provider. Rejects with a 503
   * `SERVICE_UNAVAILABLE` {@link APIError} when the provider is down.
   */
  mint(stablecoinId: string, body: StablecoinMintParams, options?: RequestOptions): APIPromise<StablecoinOperation> {
    return this._client.call(stablecoinEndpoints.createStablecoinMint, { params: { stablecoinId }, body }, requireIdempotencyKey(options));
  }

  /**
   * Burns tokens and redeems their fiat to a bank account. Tokens of the service's wallets are taken at once; an
   * `EXTERNAL_ACCOUNT` source waits for them at the deposit address in `fundingInstructions`.
   *
   * A burn from an embedded wallet (`source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId }`) is a signed action of
   * that wallet, and pays out only to a bank account of the wallet's owner. Pass `{ stamper }` (a session key of the
   * wallet, e.g. `@railyard/wallet`'s SessionKey) and the 202 → stamp → signed retry runs in this one call; a
   * `PROCESSING` answer is re-sent until the burn is created. The first leg sends your `idempotencyKey` (or a generated
   * one) and the signed retry the same key with `:signed` appended.
   *
   * Without a stamper such a burn rejects with a {@link SignatureRequiredError}: its `pending` is a
   * `StablecoinBurnSignatureRequired`; stamp `pending.challenge.payloadToSign` and call
   * {@link Stablecoins.completeBurn}. Burns from the other sources need no stamp, with or without one.
   *
   * ```ts
   * const burn = await client.stablecoins.burn(coinId, {
   *   amount: '30000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: walletId },
   *   destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: ownersBankId, rail: 'RTP_CREDIT' },
   * }, { stamper: session });
   * ```
   */
  burn(stablecoinId: string, body: StablecoinBurnParams, options: StampedRequestOptions): Promise<StablecoinOperation>;
  burn(stablecoinId: string, body: StablecoinBurnParams, options?: RequestOptions): APIPromise<StablecoinOperation>;
  burn(stablecoinId: string, body: StablecoinBurnParams, options?: RequestOptions | StampedRequestOptions): Promise<StablecoinOperation> {
    if (options !== undefined && 'stamper' in options && options.stamper !== undefined) return this.#burnStamped(stablecoinId, body, options);
    const request = burnRequest(stablecoinId, body);
    return this._client.call(stablecoinEndpoints.createStablecoinBurn, { params: { stablecoinId }, body }, requireIdempotencyKey(options))._thenUnwrap((data, raw) => {
      // 202: the wallet must sign; say so instead of handing the challenge back as an operation.
      if (raw.response.status !== 202) return data;
      throw burnSignatureRequired({ status: 'SIGNATURE_REQUIRED', challenge: data as unknown as SignedRetryChallenge, request });
    });
  }

  /**
   * Finishes a burn from an embedded wallet whose challenge was stamped elsewhere: repeats its request, identical,
   * with `Service-Wallet-Signature` (the stamp, or a stamper to make it) and `Request-Id`, re-sends it while it
   * answers PROCESSING, and resolves with the burn. Rejects with an {@link AuthenticationError} (401) whose `code`
   * says what was wrong (`WALLET_SIGNATURE_INVALID` for a key that is no active session of that wallet,
   * `UNAUTHORIZED` for a used, unknown or expired `requestId`: burn again), and with a
   * {@link WalletOperationTimeoutError} after `processingTimeout` (call this again with the same stamp to go on).
   */
  async completeBurn(pending: StablecoinBurnSignatureRequired, stamp: string | WalletStamper, options: SignedRetryOptions = {}): Promise<StablecoinOperation> {
    checkPendingBurn(pending);
    const header = typeof stamp === 'string' ? stamp : await stamp.stamp(pending.challenge.payloadToSign);
    if (typeof header !== 'string' || header === '') throw new RailyardError('The stamp must be a non-empty string: the Service-Wallet-Signature header value.');
    const { processingTimeout, ...rest } = options;
    const keyed = requireIdempotencyKey(rest);
    const signed = { ...keyed, headers: { ...keyed.headers, [WALLET_SIGNATURE_HEADER]: header, [REQUEST_ID_HEADER]: pending.challenge.requestId } };
    const budget = processingTimeout ?? DEFAULT_PROCESSING_TIMEOUT_MS;
    let waited = 0;
    // A PROCESSING answer is never kept under the Idempotency-Key, so each re-send carries the same key and request.
    for (let send = 0; ; send++) {
      const { data, response } = await this._client.request<unknown>({ method: 'POST', path: pending.request.path, body: pending.request.body }, signed).withResponse();
      if (response.status === 202) {
        throw new RailyardError('The signed retry of the burn was answered with a new challenge (202): the service did not take the stamp as a retry. Was the Idempotency-Key of the first leg reused after a 202 was replayed?');
      }
      const processing = response.status === 200 && typeof data === 'object' && data !== null && (data as { status?: unknown }).status === 'PROCESSING';
      if (!processing) return data as StablecoinOperation;
      const delay = Math.max(parseRetryAfter(response.headers) ?? backoffDelay(send), MIN_PROCESSING_DELAY_MS);
      if (waited + delay > budget) {
        const message = (data as { message?: unknown }).message;
        throw new WalletOperationTimeoutError({
          operationId: 'createStablecoinBurn', timeout: budget, sends: send + 1, serverMessage: typeof message === 'string' ? message : undefined,
          pending: pending as unknown as SignatureRequired, stamp: header,
        });
      }
      waited += delay;
      await this.#sleep(delay, options.signal);
    }
  }

  /** {@link Stablecoins.burn} with a stamper: the first leg, and for a wallet's burn the stamped retry. */
  async #burnStamped(stablecoinId: string, body: StablecoinBurnParams, options: StampedRequestOptions): Promise<StablecoinOperation> {
    const { stamper, processingTimeout, ...rest } = options;
    const keyed = requireIdempotencyKey(rest);
    const { data, response } = await this._client.call(stablecoinEndpoints.createStablecoinBurn, { params: { stablecoinId }, body }, keyed).withResponse();
    if (response.status !== 202) return data;
    const pending: StablecoinBurnSignatureRequired = { status: 'SIGNATURE_REQUIRED', challenge: data as unknown as SignedRetryChallenge, request: burnRequest(stablecoinId, body) };
    return this.completeBurn(pending, stamper, { ...rest, ...(processingTimeout === undefined ? {} : { processingTimeout }), idempotencyKey: `${keyed.idempotencyKey}:signed` });
  }

  /** The coin's mints and burns, newest first; iterate with `for await` for every one across pages. */
  listOperations(stablecoinId: string, query: StablecoinOperationListParams = {}, options?: RequestOptions): PagePromise<StablecoinOperation> {
    return this._client.callPage(stablecoinEndpoints.listStablecoinOperations, { params: { stablecoinId }, query }, options);
  }

  /**
   * Resolves with the coin once its issuance is final (PROVISIONED, REJECTED or FAILED), or once `options.until`
   * holds. With `advanceClock`, a sandbox's virtual clock is moved instead of waiting. Rejects with a
   * {@link StablecoinWaitTimeoutError} after `timeout`.
   */
  waitFor(stablecoinId: string, options: StablecoinWaitForOptions = {}): Promise<Stablecoin> {
    return pollUntil(this._client, {
      read: (request) => this.retrieve(stablecoinId, request),
      done: options.until ?? ((coin) => FINAL_ISSUANCE_STATUSES.has(coin.issuanceStatus)),
      timedOut: (coin, timeout, advancedClock) => new StablecoinWaitTimeoutError({ resourceId: stablecoinId, resource: coin, timeout, advancedClock }),
    }, options, this.#sleep);
  }
}

/** Mints and burns by id. */
export class StablecoinOperations extends APIResource {
  readonly #sleep: Sleep;

  /** @param sleep - How {@link StablecoinOperations.waitFor} sleeps between reads; the client passes its own. */
  constructor(client: RailyardClient, sleep: Sleep) {
    super(client);
    this.#sleep = sleep;
  }

  retrieve(stablecoinOperationId: string, options?: RequestOptions): APIPromise<StablecoinOperation> {
    return this._client.call(stablecoinEndpoints.getStablecoinOperation, { params: { stablecoinOperationId } }, options);
  }

  /**
   * Resolves with the operation once it is COMPLETED, FAILED or EXPIRED (or once `options.until` holds, e.g.
   * `(o) => o.status === 'PENDING_FUNDING'`). With `advanceClock`, a sandbox's virtual clock is moved instead of
   * waiting. Rejects with a {@link StablecoinWaitTimeoutError} after `timeout`.
   */
  waitFor(stablecoinOperationId: string, options: StablecoinOperationWaitForOptions = {}): Promise<StablecoinOperation> {
    return pollUntil(this._client, {
      read: (request) => this.retrieve(stablecoinOperationId, request),
      done: options.until ?? ((operation) => FINAL_OPERATION_STATUSES.has(operation.status)),
      timedOut: (operation, timeout, advancedClock) => new StablecoinWaitTimeoutError({ resourceId: stablecoinOperationId, resource: operation, timeout, advancedClock }),
    }, options, this.#sleep);
  }
}

/**
 * The sandbox's stand-ins for the operator and the provider (`/_sandbox/...`): enable a coin, invalidate or revoke a
 * link, take the provider down, and deliver the wire or the tokens an operation waits for.
 */
export class SandboxStablecoins extends APIResource {
  /** Acts as the operator: sets the coin's `serviceOperationsStatus` (ENABLING, ENABLED, DISABLED, …). */
  setOperationsStatus(stablecoinId: string, serviceOperationsStatus: Stablecoin['serviceOperationsStatus'], options?: RequestOptions): APIPromise<Stablecoin> {
    return this._client.call(stablecoinControlEndpoints.setStablecoinOperationsStatus, { params: { stablecoinId }, body: { serviceOperationsStatus } }, options);
  }

  /** Acts as the provider: marks a link's credentials INVALID or REVOKED, or ACTIVE again. */
  setProviderAccountStatus(stablecoinProviderAccountId: string, status: StablecoinProviderAccount['status'], options?: RequestOptions): APIPromise<StablecoinProviderAccount> {
    return this._client.call(stablecoinControlEndpoints.setStablecoinProviderAccountStatus, { params: { stablecoinProviderAccountId }, body: { status } }, options);
  }

  /** Takes the provider down (mints and burns answer 503 `SERVICE_UNAVAILABLE`) or brings it back. */
  setProviderAvailability(available: boolean, options?: RequestOptions): APIPromise<{ available: boolean }> {
    return this._client.call(stablecoinControlEndpoints.setStablecoinProviderAvailability, { body: { available } }, options);
  }

  /**
   * Delivers what a WIRE mint or an EXTERNAL_ACCOUNT burn waits for (the wire, or the tokens): it moves to
   * PENDING_PROVIDER. Another `amount` than the operation's fails it (`FUNDING_AMOUNT_MISMATCH`).
   */
  fundOperation(stablecoinOperationId: string, body: { amount?: string } = {}, options?: RequestOptions): APIPromise<StablecoinOperation> {
    return this._client.call(stablecoinControlEndpoints.fundStablecoinOperation, { params: { stablecoinOperationId }, body }, options);
  }
}
