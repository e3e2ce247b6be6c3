import type { AdvanceSandboxClockBody, CreateSandboxPlatformBody, GetOpenApiDocumentResult, ListSandboxEventsQuery, SandboxClock, SandboxEnclaveKey, SandboxHealth, SandboxLimits as SandboxLimitsRequest, SandboxLimitsInForce, SandboxPlatform, SandboxSendRequest, SandboxSnapshot, SandboxUmaReceiveRequest, SandboxWalletProcessing, SandboxWebhookKey } from '@railyard/contract/routes';
import { controlPlaneEndpoints, dashboardEndpoints, internalAccountEndpoints, invitationEndpoints, paymentEndpoints, umaEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, PageItemOf, QueryParams, ResultOf } from '../core/endpoint.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import type { InternalAccount } from './internal-accounts.js';
import type { IncomingTransaction, Transaction } from './transactions.js';
import { APIResource } from './resource.js';
import { SandboxCards } from './cards.js';
import { SandboxStablecoins } from './stablecoins.js';
import { SandboxSca } from './sca.js';


/** The engine's clock: `{ now, mode }` where mode is `virtual` or `real`. */
export type { SandboxClock };
/** A platform's whole state as JSON, from {@link Sandbox.snapshot}, accepted by {@link Sandbox.restore}. */
export type { SandboxSnapshot };
/** An emitted event with its webhook delivery attempts. */
export type SandboxEvent = PageItemOf<typeof controlPlaneEndpoints.listSandboxEvents>;
/** Query of {@link SandboxEvents.list}: `type`, `limit`, `cursor`. */
export type SandboxEventListParams = ListSandboxEventsQuery;
/** Options of a new sandbox platform: `name`, `regulated`, `skipPaperwork`, and optionally fixed credentials. */
export type SandboxPlatformCreateParams = CreateSandboxPlatformBody;
/** A new sandbox platform and its credentials. */
export type { SandboxPlatform };
/** The OpenAPI 3.1 document the sandbox serves. */
export type OpenApiDocument = GetOpenApiDocumentResult;
/** Whether the sandbox serves: `{ status: 'ok', version, apiVersion, uptimeSeconds }`, from {@link Sandbox.health}. */
export type { SandboxHealth };
/** The platform's webhook signing public key: `{ publicKeyPem }` (SPKI PEM), for {@link Webhooks.verify}. */
export type { SandboxWebhookKey };
/** The sandbox's enclave signing key: `{ publicKeyHex }` (uncompressed hex), to pin in a wallet. */
export type { SandboxEnclaveKey };
/** Body of {@link Sandbox.setWalletProcessing}: `{ retries }`, how many signed retries answer 200 PROCESSING first (0–100). */
export type SandboxWalletProcessingParams = SandboxWalletProcessing;
/** The body of {@link SandboxClockResource.advance}. */
export type ClockAdvanceParams = AdvanceSandboxClockBody;

/** Body of {@link Sandbox.send}: `quoteId`, `currencyCode` (the quote's sending currency), optional `currencyAmount`. */
export type SandboxSendParams = SandboxSendRequest;
/**
 * Body of {@link Sandbox.receiveUma}: `senderUmaAddress`, the receiving customer (`receiverUmaAddress` or `customerId`,
 * exactly one), `receivingCurrencyCode` and `receivingCurrencyAmount` (minor units).
 */
export type SandboxUmaReceiveParams = SandboxUmaReceiveRequest;
/**
 * Body of {@link SandboxLimitsResource.set}: `{ dailyVolume: { USD: 500_000, EUR: null } }` and/or
 * `{ liveCards: { perPlatform, perCardholder } }` (`null` removes a limit).
 */
export type SandboxLimitsParams = SandboxLimitsRequest;
/** The limits now in force: daily volume per sending currency in minor units, and live cards. */
export type SandboxLimits = SandboxLimitsInForce;

/** The sandbox's clock. Advancing a virtual clock runs every job that falls due, in order. */
export class SandboxClockResource extends APIResource {
  /** The engine's current time and clock mode. */
  get(options?: RequestOptions): APIPromise<SandboxClock> {
    return this._client.call(controlPlaneEndpoints.getSandboxClock, {}, options);
  }

  /**
   * Moves a virtual clock forward by `ms` milliseconds (a number or `{ ms }`), running due transitions such as
   * pending payments completing. Rejects with a {@link ConflictError} on a real clock.
   */
  advance(ms: number | ClockAdvanceParams, options?: RequestOptions): APIPromise<SandboxClock> {
    const body: ClockAdvanceParams = typeof ms === 'number' ? { ms } : ms;
    return this._client.call(controlPlaneEndpoints.advanceSandboxClock, { body }, options);
  }
}

/** Events the sandbox emitted and what happened to their webhook deliveries. */
export class SandboxEvents extends APIResource {
  /** Lists emitted events, newest first; iterate with `for await` for every event across pages. */
  list(query: SandboxEventListParams = {}, options?: RequestOptions): PagePromise<SandboxEvent> {
    return this._client.callPage(controlPlaneEndpoints.listSandboxEvents, { query }, options);
  }

  /** One event: its delivery attempts, the JSON body every delivery sends (`payload`) and that body's `signature` header. */
  retrieve(eventId: string, options?: RequestOptions): APIPromise<ResultOf<typeof controlPlaneEndpoints.getSandboxEvent>> {
    return this._client.call(controlPlaneEndpoints.getSandboxEvent, { params: { eventId } }, options);
  }

  /** Sends an event again, now, to the webhook endpoint; resolves with the event once the endpoint answered. */
  redeliver(eventId: string, options?: RequestOptions): APIPromise<ResultOf<typeof controlPlaneEndpoints.redeliverSandboxEvent>> {
    return this._client.call(controlPlaneEndpoints.redeliverSandboxEvent, { params: { eventId } }, options);
  }
}

/** The platform's pending timed jobs: what advancing the clock will run. */
export class SandboxJobs extends APIResource {
  /** The soonest `limit` jobs (default 20), those due by `dueBefore` when given, with `totalCount`. */
  list(query: QueryParams<typeof controlPlaneEndpoints.listSandboxJobs> = {}, options?: RequestOptions): APIPromise<ResultOf<typeof controlPlaneEndpoints.listSandboxJobs>> {
    return this._client.call(controlPlaneEndpoints.listSandboxJobs, { query }, options);
  }
}

/** Platforms (tenants) of the sandbox, each with its own credentials and data. */
export class SandboxPlatforms extends APIResource {
  /**
   * Creates a platform and returns its credentials. Use them with `client.withOptions({ clientId, clientSecret })`
   * to act as that platform.
   */
  create(body: SandboxPlatformCreateParams = {}, options?: RequestOptions): APIPromise<SandboxPlatform> {
    return this._client.call(controlPlaneEndpoints.createSandboxPlatform, { body }, options);
  }
}

/** The platform's sandbox limits on money movement and on live cards. */
export class SandboxLimitsResource extends APIResource {
  /**
   * Sets the daily volume each payer (a customer, or the platform) may send per sending currency, merged by currency
   * (`null` removes one). Applies from the next payment: one that would pass the limit rejects with a
   * {@link RateLimitError} (`DAILY_VOLUME_LIMIT_EXCEEDED`) until the next UTC day. `liveCards` sets how many cards
   * not CLOSED the platform and each cardholder may hold: the next issuance past one rejects with a
   * {@link ConflictError} (`CARD_LIMIT_REACHED`).
   */
  set(body: SandboxLimitsParams, options?: RequestOptions): APIPromise<SandboxLimits> {
    return this._client.call(controlPlaneEndpoints.setSandboxLimits, { body }, options);
  }
}

/**
 * Railyard's sandbox control plane (`/_sandbox/...` below the base URL) and the API's sandbox moves (`/sandbox/...`:
 * funding, real-time payments, incoming UMA payments). Every call is refused with a {@link SandboxOnlyError}, before
 * anything is sent, when the client does not point at a sandbox.
 */
export class Sandbox extends APIResource {
  /** The engine clock. */
  readonly clock: SandboxClockResource;
  /** Emitted events and webhook deliveries. */
  readonly events: SandboxEvents;
  /** Sandbox platforms (tenants). */
  readonly platforms: SandboxPlatforms;
  /** Limits on money movement (daily volume) and live cards. */
  readonly limits: SandboxLimitsResource;
  /** The card network: authorizations, clearings, returns and the other simulated card events. */
  readonly cards: SandboxCards;
  /** The stablecoin operator and provider: enablement, link statuses, provider outages, funds an operation waits for. */
  readonly stablecoins: SandboxStablecoins;
  /** Strong customer authentication: the liveness check of a factor reset. */
  readonly sca: SandboxSca;
  /** Pending timed jobs. */
  readonly jobs: SandboxJobs;

  constructor(client: RailyardClient) {
    super(client);
    this.clock = new SandboxClockResource(client);
    this.events = new SandboxEvents(client);
    this.platforms = new SandboxPlatforms(client);
    this.limits = new SandboxLimitsResource(client);
    this.cards = new SandboxCards(client);
    this.stablecoins = new SandboxStablecoins(client);
    this.sca = new SandboxSca(client);
    this.jobs = new SandboxJobs(client);
  }

  /** Who the client's credentials are: the platform, or an API token with its permissions. */
  whoami(options?: RequestOptions): APIPromise<ResultOf<typeof dashboardEndpoints.getSandboxWhoami>> {
    return this._client.call(dashboardEndpoints.getSandboxWhoami, {}, options);
  }

  /** The platform's invitations, newest first; iterate with `for await` for every one across pages. */
  invitations(query: QueryParams<typeof invitationEndpoints.listSandboxInvitations> = {}, options?: RequestOptions): PagePromise<PageItemOf<typeof invitationEndpoints.listSandboxInvitations>> {
    return this._client.callPage(invitationEndpoints.listSandboxInvitations, { query }, options);
  }

  /** Erases the platform's data: customers, accounts, events and idempotency records. */
  reset(options?: RequestOptions): APIPromise<void> {
    return this._client.call(controlPlaneEndpoints.resetSandbox, {}, options);
  }

  /** The platform's whole state as JSON, to restore later with {@link Sandbox.restore}. */
  snapshot(options?: RequestOptions): APIPromise<SandboxSnapshot> {
    return this._client.call(controlPlaneEndpoints.getSandboxSnapshot, {}, options);
  }

  /** Replaces the platform's state with a snapshot taken by {@link Sandbox.snapshot}. */
  restore(snapshot: SandboxSnapshot, options?: RequestOptions): APIPromise<void> {
    return this._client.call(controlPlaneEndpoints.restoreSandbox, { body: snapshot }, options);
  }

  /**
   * Credits an internal account from the outside world at once (`POST /sandbox/internal-accounts/{id}/fund`), e.g. to
   * give a customer money to send.
   */
  fundInternalAccount(accountId: string, amount: number, options?: RequestOptions): APIPromise<InternalAccount> {
    return this._client.call(internalAccountEndpoints.fundSandboxInternalAccount, { params: { accountId }, body: { amount } }, options);
  }

  /**
   * Pays a real-time-funding quote as its payer would, by sending the money to its `paymentInstructions`
   * (`POST /sandbox/send`); the payment then executes and settles. `currencyCode` must be the quote's sending currency
   * (else a {@link BadRequestError}, `INVALID_CURRENCY`); `currencyAmount` defaults to the quote's
   * `totalSendingAmount`, and any other amount fails the payment with FUNDING_AMOUNT_MISMATCH (the money is sent back).
   * A quote already paid or expired rejects with a {@link ConflictError}, an account-funded one too (execute it instead).
   *
   * ```ts
   * const quote = await client.quotes.create({ source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId }, ... });
   * const transaction = await client.sandbox.send({ quoteId: quote.id, currencyCode: 'USD' });
   * ```
   */
  send(body: SandboxSendParams, options?: RequestOptions): APIPromise<Transaction> {
    return this._client.call(paymentEndpoints.sandboxSend, { body }, options);
  }

  /**
   * An UMA payment from elsewhere arrives for a customer of the platform (`POST /sandbox/uma/receive`). It completes at
   * once, or, when the platform has a `webhookEndpoint`, waits PENDING for the platform's decision: its answer to the
   * `INCOMING_PAYMENT.PENDING` webhook, or {@link Transactions.approve} / {@link Transactions.reject}. An unknown
   * receiver rejects with a {@link NotFoundError}.
   */
  receiveUma(body: SandboxUmaReceiveParams, options?: RequestOptions): APIPromise<IncomingTransaction> {
    return this._client.call(umaEndpoints.sandboxUmaReceive, { body }, options);
  }

  /**
   * The public key the platform's webhook deliveries are signed with (`GET /_sandbox/webhook-key`), as SPKI PEM: give
   * it to {@link Webhooks.verify} or {@link Webhooks.unwrap}. Each sandbox platform has its own key.
   *
   * ```ts
   * const { publicKeyPem } = await client.sandbox.webhookKey();
   * const event = await client.webhooks.unwrap(rawBody, request.headers, publicKeyPem);
   * ```
   */
  webhookKey(options?: RequestOptions): APIPromise<SandboxWebhookKey> {
    return this._client.call(controlPlaneEndpoints.getSandboxWebhookKey, {}, options);
  }

  /**
   * The enclave signing key of the sandbox (`GET /_sandbox/enclave-key`): it signs OTP target bundles and wallet export
   * bundles. Wallets pin it (`pinnedEnclaveKey` of `encryptOtp` / `decryptExportBundle` in `@railyard/wallet`) and
   * refuse bundles signed by any other key. It is a documented sandbox key, the same for every platform; against
   * production pin the production key instead, never one fetched at run time.
   */
  enclaveKey(options?: RequestOptions): APIPromise<SandboxEnclaveKey> {
    return this._client.call(controlPlaneEndpoints.getSandboxEnclaveKey, {}, options);
  }

  /**
   * Makes the platform's next `retries` signed retries of wallet operations answer 200 `{status: 'PROCESSING'}` (accepted,
   * not settled) before settling (`PUT /_sandbox/wallet-processing`), as a busy service does: the
   * signed-retry runner then re-sends the identical request with backoff. For testing that path; `0` turns it off.
   */
  setWalletProcessing(retries: number | SandboxWalletProcessingParams, options?: RequestOptions): APIPromise<SandboxWalletProcessingParams> {
    const body: SandboxWalletProcessingParams = typeof retries === 'number' ? { retries } : retries;
    return this._client.call(controlPlaneEndpoints.setSandboxWalletProcessing, { body }, options);
  }

  /**
   * Whether the sandbox is up (`GET /_sandbox/health`): `status` is `'ok'`, with the engine's `version`, the
   * `apiVersion` it serves and its `uptimeSeconds`. The sandbox answers it without credentials and reads no platform's
   * data; a script that starts `railyard serve` can wait on it before its first call.
   */
  health(options?: RequestOptions): APIPromise<SandboxHealth> {
    return this._client.call(controlPlaneEndpoints.getSandboxHealth, {}, options);
  }

  /** The OpenAPI 3.1 document of the API, as the sandbox serves it. */
  openapi(options?: RequestOptions): APIPromise<OpenApiDocument> {
    return this._client.call(controlPlaneEndpoints.getOpenApiDocument, {}, options);
  }
}
