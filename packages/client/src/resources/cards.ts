import type { Card, CardAuthorizationSimulation, CardBalanceInquirySimulation, CardCreateRequest, CardReturnReversalSimulation, CardRevealResponse, CardSimulationAccepted, CardSimulationResult, CardTransactionAmountSimulation, CardUpdateRequest, ListCardsQuery } from '@railyard/contract/routes';
import { cardControlEndpoints, cardEndpoints } from '@railyard/contract/routes';
import type { RailyardClient } from '../client.js';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, QueryParams, ResultOf } from '../core/endpoint.js';
import { CardWaitTimeoutError } from '../core/errors.js';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';
import type { Transaction } from './transactions.js';
import { pollUntil, type WaitForOptions } from './wait-for-transaction.js';

/** A virtual card: its `state`, funding sources in priority order, and per-transaction limit. */
export type { Card };
/** Body of {@link Cards.create}: `cardholderId`, `form: 'VIRTUAL'`, `fundingSources`, optional `platformCardId`, `maxSpendPerTransaction`. */
export type CardCreateParams = CardCreateRequest;
/** Body of {@link Cards.update}: `state`, `fundingSources` (replaces the list), `maxSpendPerTransaction` (null clears it). */
export type CardUpdateParams = CardUpdateRequest;
/** Query of {@link Cards.list}: `cardholderId`, `accountId`, `platformCardId`, `state`, `sortOrder`, `limit`, `cursor`. */
export type CardListParams = ListCardsQuery;
/** What {@link Cards.reveal} gives: a short-lived `panEmbedUrl` to render in an iframe, and when it expires. */
export type CardReveal = CardRevealResponse;
/** A card purchase, credit or refund, as `GET /transactions` lists it (`type: 'CARD'`). */
export type CardTransaction = Extract<Transaction, { type: 'CARD' }>;
/** Body of the authorization-family simulations: `amount`, `currency: { code }`, `merchant: { descriptor, mcc?, country? }`. */
export type CardAuthorizationSimulationParams = CardAuthorizationSimulation;
/** Body of {@link SandboxCards.simulateBalanceInquiry}: `{ merchant }`. */
export type CardBalanceInquirySimulationParams = CardBalanceInquirySimulation;
/** Body of a clearing, return or authorization advice: `{ cardTransactionId, amount }`. */
export type CardTransactionAmountSimulationParams = CardTransactionAmountSimulation;
/** Body of {@link SandboxCards.simulateReturnReversal}: `{ cardTransactionId }`. */
export type CardReturnReversalSimulationParams = CardReturnReversalSimulation;
/** A simulate call's answer: the issuer's token of the event, to find its result with {@link SandboxCards.simulation}. */
export type { CardSimulationAccepted };
/** What a simulated network event came to: `APPROVED` or `DECLINED` (`declineReason`), and its `cardTransactionId`. */
export type { CardSimulationResult };
/** Options of {@link Cards.waitFor}: as {@link WaitForOptions}, with `until` reading the card. */
export type CardWaitForOptions = Omit<WaitForOptions, 'until'> & { until?: (card: Card) => boolean };

/**
 * Cards: issue virtual cards to KYC-approved customers, freeze, unfreeze and close them,
 * change their funding and limit, and reveal their details. Their purchases are card transactions, listed with every
 * transaction; the sandbox's card network is driven by {@link SandboxCards} (`client.sandbox.cards`).
 *
 * ```ts
 * const card = await client.cards.create({ cardholderId, form: 'VIRTUAL', fundingSources: [accountId] });
 * const active = await client.cards.waitFor(card.id, { advanceClock: true });
 * ```
 */
export class Cards extends APIResource {
  readonly #sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;

  /** @param sleep - How {@link Cards.waitFor} sleeps between reads; the client passes its own. */
  constructor(client: RailyardClient, sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>) {
    super(client);
    this.#sleep = sleep;
  }

  /**
   * Issues a card: it answers PROCESSING, and the issuer then provisions it (ACTIVE) or rejects it (CLOSED,
   * `stateReason: 'ISSUER_REJECTED'`). Rejects with a {@link BadRequestError} `CARDHOLDER_KYC_NOT_APPROVED` or
   * `FUNDING_SOURCE_INELIGIBLE`, a {@link ConflictError} `CARD_LIMIT_REACHED`, or a 501 where cards are off.
   */
  create(body: CardCreateParams, options?: RequestOptions): APIPromise<Card> {
    return this._client.call(cardEndpoints.createCard, { body }, options);
  }

  /** Lists cards, newest first unless `sortOrder: 'asc'`; iterate with `for await` for every card across pages. */
  list(query: CardListParams = {}, options?: RequestOptions): PagePromise<Card> {
    return this._client.callPage(cardEndpoints.listCards, { query }, options);
  }

  retrieve(cardId: string, options?: RequestOptions): APIPromise<Card> {
    return this._client.call(cardEndpoints.getCard, { params: { cardId } }, options);
  }

  /**
   * Changes the card: a state move (ACTIVE ⇄ FROZEN, ACTIVE or FROZEN → CLOSED), a new funding list, a new limit.
   * Any other move rejects with a {@link ConflictError} (`INVALID_STATE_TRANSITION`, `CARD_ALREADY_CLOSED`,
   * `CARD_NOT_MUTABLE`).
   */
  update(cardId: string, body: CardUpdateParams, options?: RequestOptions): APIPromise<Card> {
    return this._client.call(cardEndpoints.updateCard, { params: { cardId }, body }, options);
  }

  /** Freezes the card: new authorizations are declined (`CARD_PAUSED`); pulls, clearings and refunds under way go on. */
  freeze(cardId: string, options?: RequestOptions): APIPromise<Card> {
    return this.update(cardId, { state: 'FROZEN' }, options);
  }

  /** Unfreezes a frozen card. */
  unfreeze(cardId: string, options?: RequestOptions): APIPromise<Card> {
    return this.update(cardId, { state: 'ACTIVE' }, options);
  }

  /** Closes the card for good (`stateReason: 'CLOSED_BY_PLATFORM'`); it stays readable. */
  close(cardId: string, options?: RequestOptions): APIPromise<Card> {
    return this.update(cardId, { state: 'CLOSED' }, options);
  }

  /**
   * A URL of the page showing the card's number, CVV and expiry, for an iframe, valid a few minutes. It is a bearer
   * secret: fetch a fresh one before each render, never store or log it.
   */
  reveal(cardId: string, options?: RequestOptions): APIPromise<CardReveal> {
    return this._client.call(cardEndpoints.revealCard, { params: { cardId } }, options);
  }

  /**
   * Resolves with the card once it is no longer PROCESSING (or once `options.until` holds): a card whose issuance
   * takes a while becomes ACTIVE about 30 seconds of engine time later. With `advanceClock`, a sandbox's virtual clock
   * is moved instead of waiting. Rejects with a {@link CardWaitTimeoutError} after `timeout`.
   */
  waitFor(cardId: string, options: CardWaitForOptions = {}): Promise<Card> {
    return pollUntil(this._client, {
      read: (request) => this.retrieve(cardId, request),
      done: options.until ?? ((card) => card.state !== 'PROCESSING'),
      timedOut: (card, timeout, advancedClock) => new CardWaitTimeoutError({ cardId, card, timeout, advancedClock }),
    }, options, this.#sleep);
  }
}

/**
 * The sandbox's card network (`POST /sandbox/cards/{id}/simulate/*`): each call answers with the issuer's token at
 * once, and the event's results (a card transaction, money moved, webhooks) follow right after. Find the result with
 * {@link SandboxCards.simulation}, or use {@link SandboxCards.authorize} to do both.
 *
 * ```ts
 * const { transaction } = await client.sandbox.cards.authorize(card.id, { amount: 1250, currency: { code: 'USD' }, merchant: { descriptor: 'COFFEE' } });
 * await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: transaction!.id, amount: 1250 });
 * ```
 */
export class SandboxCards extends APIResource {
  /** A purchase authorization: funds are pulled from the first funding source that covers them (else declined). */
  simulateAuthorization(cardId: string, body: CardAuthorizationSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardAuthorization, { params: { cardId }, body }, options);
  }

  /** A merchant credit pushed as an authorization: AUTHORIZED, direction CREDIT; its clearing pays the first funding source. */
  simulateCreditAuthorization(cardId: string, body: CardAuthorizationSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardCreditAuthorization, { params: { cardId }, body }, options);
  }

  /** A single-message authorization (an ATM withdrawal): pulled and settled at once. */
  simulateFinancialAuthorization(cardId: string, body: CardAuthorizationSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardFinancialAuthorization, { params: { cardId }, body }, options);
  }

  /** A single-message credit: a standalone refund, SETTLED at once with direction CREDIT. */
  simulateFinancialCreditAuthorization(cardId: string, body: CardAuthorizationSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardFinancialCreditAuthorization, { params: { cardId }, body }, options);
  }

  /** A credit the network already approved: recorded whatever the card's state. */
  simulateCreditAuthorizationAdvice(cardId: string, body: CardAuthorizationSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardCreditAuthorizationAdvice, { params: { cardId }, body }, options);
  }

  /** A zero-amount check of the card; it creates no card transaction. */
  simulateBalanceInquiry(cardId: string, body: CardBalanceInquirySimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardBalanceInquiry, { params: { cardId }, body }, options);
  }

  /** A new total authorized for an open card transaction: more is pulled, or the difference goes back. */
  simulateAuthorizationAdvice(cardId: string, body: CardTransactionAmountSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardAuthorizationAdvice, { params: { cardId }, body }, options);
  }

  /** A clearing: settles `amount` (above the authorization, the difference is pulled first); 0 expires the authorization. */
  simulateClearing(cardId: string, body: CardTransactionAmountSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardClearing, { params: { cardId }, body }, options);
  }

  /** A merchant return of settled money: back to the funding source; the purchase stays SETTLED with `refundedAmount`. */
  simulateReturn(cardId: string, body: CardTransactionAmountSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardReturn, { params: { cardId }, body }, options);
  }

  /** Takes the latest return of a purchase back. */
  simulateReturnReversal(cardId: string, body: CardReturnReversalSimulationParams, options?: RequestOptions): APIPromise<CardSimulationAccepted> {
    return this._client.call(cardEndpoints.simulateCardReturnReversal, { params: { cardId }, body }, options);
  }

  /** What the event behind an issuer token came to (`GET /_sandbox/cards/simulations/{token}`). */
  simulation(issuerTransactionToken: string, options?: RequestOptions): APIPromise<CardSimulationResult> {
    return this._client.call(cardControlEndpoints.getCardSimulation, { params: { issuerTransactionToken } }, options);
  }

  /**
   * Simulates an authorization and resolves with what it came to: the result, and the card transaction it created
   * (undefined when the network declined it: see `simulation.declineReason`).
   */
  async authorize(cardId: string, body: CardAuthorizationSimulationParams, options?: RequestOptions): Promise<{ simulation: CardSimulationResult; transaction: CardTransaction | undefined }> {
    const { issuerTransactionToken } = await this.simulateAuthorization(cardId, body, options);
    const simulation = await this.simulation(issuerTransactionToken, options);
    if (simulation.cardTransactionId === undefined) return { simulation, transaction: undefined };
    const transaction = await this._client.transactions.retrieve(simulation.cardTransactionId, options);
    return { simulation, transaction: transaction as CardTransaction };
  }
}
