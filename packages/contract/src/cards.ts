import { z } from 'zod';
import { CurrencyCode, IdParam, MAX_LENGTH, MinorUnits, Timestamp, cappedString, onEveryObject, resourceId } from './common.js';
import { InternalAccountId } from './accounts.js';
import { CustomerId } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, SortOrder, pageOf } from './pagination.js';

// Cards (SPEC §3.6; REFERENCE §10, §13, §15, §16): the card, its requests, and the sandbox card network's simulators.
// Every card operation answers 501 NOT_IMPLEMENTED on a platform without cards; card transactions are listed with every
// transaction (`GET /transactions`, the CardTransaction variant of transactions.ts).

export const CardId = resourceId('Card').meta({ id: 'CardId' });
export const CardTransactionId = resourceId('CardTransaction').meta({ id: 'CardTransactionId' });

/** PENDING_KYC is in the enum but never seen: KYC is checked when the card is issued. */
export const CardState = z.enum(['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED']).meta({ id: 'CardState' });
export type CardState = z.infer<typeof CardState>;

/** Why a card is CLOSED (or was never provisioned); null otherwise. */
export const CardStateReason = z.enum(['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SERVICE']).meta({ id: 'CardStateReason' });
export type CardStateReason = z.infer<typeof CardStateReason>;

export const CardBrand = z.enum(['VISA', 'MASTERCARD']).meta({ id: 'CardBrand' });
/** Only virtual cards are issued (PHYSICAL is announced for later). */
export const CardForm = z.enum(['VIRTUAL']).meta({ id: 'CardForm' });

/** Internal accounts funding a card, highest priority first. */
const FundingSources = z.array(InternalAccountId).min(1, { message: 'must name at least one internal account' });

/** A per-transaction cap in the card currency's minor units; an authorization for exactly the cap is approved. */
const MaxSpend = MinorUnits.min(1, { message: 'must be at least 1 (or null for no limit)' });

/** A virtual card of a KYC-approved customer, funded from their internal accounts. */
export const Card = z
  .object({
    id: CardId,
    cardholderId: CustomerId,
    platformCardId: z.string(),
    state: CardState,
    stateReason: CardStateReason.nullable(),
    /** Set when the issuer provisions the card. */
    brand: CardBrand.optional(),
    form: CardForm,
    last4: z.string().optional(),
    expMonth: z.number().int().min(1).max(12).optional(),
    expYear: z.number().int().optional(),
    fundingSources: z.array(InternalAccountId).min(1),
    maxSpendPerTransaction: MinorUnits.min(1).nullable(),
    /** The currency the card transacts in, from its funding sources (USDB-funded cards transact in USD). */
    currency: CurrencyCode,
    processorRef: z.string().optional(),
    issuerRef: z.string().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Card' });
export type Card = z.infer<typeof Card>;

/** `POST /cards`. No `Idempotency-Key` is taken on card operations. */
export const CardCreateRequest = z
  .object({
    cardholderId: CustomerId,
    form: CardForm,
    fundingSources: FundingSources,
    /** Generated when omitted; its last three characters are the issuance trigger (docs/cards.md). */
    platformCardId: cappedString(255).min(1).optional(),
    /** A static 3-D Secure password, where the issuer takes one (EU programs); passed on, never stored. */
    threeDSecurePassword: cappedString(255).min(1).optional(),
    maxSpendPerTransaction: MaxSpend.nullable().optional(),
  })
  .meta({ id: 'CardCreateRequest' });
export type CardCreateRequest = z.input<typeof CardCreateRequest>;

/**
 * `PATCH /cards/{cardId}`: at least one field; `fundingSources` replaces the whole list; `maxSpendPerTransaction`
 * null clears it. Neither may come with `state: CLOSED`.
 */
export const CardUpdateRequest = z
  .object({
    state: z.enum(['ACTIVE', 'FROZEN', 'CLOSED']).optional(),
    fundingSources: FundingSources.optional(),
    maxSpendPerTransaction: MaxSpend.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.state === undefined && value.fundingSources === undefined && value.maxSpendPerTransaction === undefined) {
      ctx.addIssue({ code: 'custom', message: 'send at least one of state, fundingSources, maxSpendPerTransaction', path: ['state'] });
    }
    if (value.state === 'CLOSED') {
      for (const field of ['fundingSources', 'maxSpendPerTransaction'] as const) {
        if (value[field] !== undefined) ctx.addIssue({ code: 'custom', message: 'cannot change with state CLOSED: a closed card is not changed again', path: [field] });
      }
    }
  }, onEveryObject)
  .meta({ id: 'CardUpdateRequest' });
export type CardUpdateRequest = z.input<typeof CardUpdateRequest>;

/** `GET /cards`: `accountId` matches cards whose `fundingSources` contain it. */
export const CardListQuery = PageQuery.extend({
  cardholderId: IdParam.optional(),
  accountId: IdParam.optional(),
  platformCardId: IdParam.optional(),
  state: CardState.optional(),
  sortOrder: SortOrder.default('desc'),
});
export type CardListQuery = z.input<typeof CardListQuery>;

/** `POST /cards/{cardId}/reveal`: a short-lived URL of the page that shows the PAN, CVV and expiry. A bearer secret. */
export const CardRevealResponse = z
  .object({ panEmbedUrl: z.url(), expiresAt: Timestamp })
  .meta({ id: 'CardRevealResponse' });
export type CardRevealResponse = z.infer<typeof CardRevealResponse>;

// ---------------------------------------------------------------------------------------------------------------------
// The sandbox card network (REFERENCE §13, §16)

/** A merchant as the network reports it; the last three characters of `descriptor` are the sandbox trigger. */
export const CardMerchant = z
  .object({ descriptor: cappedString(255).min(1), mcc: cappedString(MAX_LENGTH.id).optional(), country: cappedString(MAX_LENGTH.id).optional() })
  .meta({ id: 'CardMerchant' });
export type CardMerchant = z.infer<typeof CardMerchant>;

/** A currency as the simulators take it: the code is what counts (the reference's examples send only it). */
const SimulatedCurrency = z.object({
  code: CurrencyCode, name: cappedString(MAX_LENGTH.name).optional(), symbol: cappedString(MAX_LENGTH.id).optional(), decimals: z.number().int().min(0).optional(),
});

/** Body of the authorization family: authorization, credit, financial and financial-credit authorizations, credit advice. */
export const CardAuthorizationSimulation = z
  .object({ amount: MinorUnits.min(1, { message: 'must be greater than 0' }), currency: SimulatedCurrency, merchant: CardMerchant })
  .meta({ id: 'CardAuthorizationSimulation' });
export type CardAuthorizationSimulation = z.input<typeof CardAuthorizationSimulation>;

/** `balance_inquiry`: a zero-amount authorization that only checks the card. */
export const CardBalanceInquirySimulation = z.object({ merchant: CardMerchant }).meta({ id: 'CardBalanceInquirySimulation' });
export type CardBalanceInquirySimulation = z.input<typeof CardBalanceInquirySimulation>;

/**
 * `authorization_advice` (the new total authorized, > 0), `clearing` (≥ 0: 0 expires the authorization, above it pulls
 * the difference) and `return` (> 0, at most what is settled and not yet returned), on a card transaction of the card.
 */
export const CardTransactionAmountSimulation = z
  .object({ cardTransactionId: CardTransactionId, amount: MinorUnits })
  .meta({ id: 'CardTransactionAmountSimulation' });
export type CardTransactionAmountSimulation = z.input<typeof CardTransactionAmountSimulation>;

/** `return_reversal`: undoes the latest return of a card transaction. */
export const CardReturnReversalSimulation = z.object({ cardTransactionId: CardTransactionId }).meta({ id: 'CardReturnReversalSimulation' });
export type CardReturnReversalSimulation = z.input<typeof CardReturnReversalSimulation>;

/** Every simulate call answers 202 with the issuer's token for the event; its results follow asynchronously. */
export const CardSimulationAccepted = z.object({ issuerTransactionToken: z.string() }).meta({ id: 'CardSimulationAccepted' });
export type CardSimulationAccepted = z.infer<typeof CardSimulationAccepted>;

/** The ten simulators, by path suffix. */
export const CARD_SIMULATIONS = [
  'authorization', 'credit_authorization', 'financial_authorization', 'financial_credit_authorization', 'credit_authorization_advice',
  'balance_inquiry', 'authorization_advice', 'clearing', 'return', 'return_reversal',
] as const;
export type CardSimulationKind = (typeof CARD_SIMULATIONS)[number];

/**
 * What a simulated network event came to, kept by the sandbox (Railyard's control plane; the reference reports
 * results only by webhook): approved or declined (`declineReason`), and the card transaction it created or changed.
 */
export const CardSimulationResult = z
  .object({
    issuerTransactionToken: z.string(),
    cardId: CardId,
    kind: z.enum(CARD_SIMULATIONS),
    outcome: z.enum(['APPROVED', 'DECLINED']),
    /**
     * Why the network declined. `STATE_CHANGED` (Railyard): what the call was checked against changed before the event
     * ran (another event on the same card transaction ran first); nothing moved. `NO_ACTIVE_DELEGATED_KEY` (Railyard):
     * only embedded wallets without an ACTIVE delegated key for the card held enough.
     */
    declineReason: z.enum(['INSUFFICIENT_FUNDS', 'CARD_PAUSED', 'CARD_CLOSED', 'CARD_NOT_ACTIVE', 'SPEND_LIMIT_EXCEEDED', 'STATE_CHANGED', 'NO_ACTIVE_DELEGATED_KEY']).optional(),
    cardTransactionId: CardTransactionId.optional(),
    at: Timestamp,
  })
  .meta({ id: 'CardSimulationResult' });
export type CardSimulationResult = z.infer<typeof CardSimulationResult>;

// ---------------------------------------------------------------------------------------------------------------------
// Endpoints

const tag = 'Cards';
const cardParams = z.object({ cardId: IdParam });

export const cardEndpoints = {
  createCard: defineEndpoint({
    operationId: 'createCard', method: 'POST', path: '/cards', tag, body: CardCreateRequest,
    summary: 'Issue a virtual card to a KYC-approved customer',
    description:
      'Answers 201 with the card PROCESSING; it becomes ACTIVE once provisioned (CARD.STATE_CHANGE), or CLOSED with ' +
      '`stateReason: ISSUER_REJECTED`. 400 CARDHOLDER_KYC_NOT_APPROVED, FUNDING_SOURCE_INELIGIBLE (an account that is not ' +
      "the cardholder's, not in a card currency, or not in the currency of the others); 409 CARD_LIMIT_REACHED; 501 where " +
      'cards are off.',
    response: { status: 201, description: 'The card, PROCESSING', schema: Card },
    errors: [409, 501],
  }),
  listCards: defineEndpoint({
    operationId: 'listCards', method: 'GET', path: '/cards', tag, query: CardListQuery,
    summary: 'List cards, newest first by default',
    response: { status: 200, description: 'A page of cards', schema: pageOf(Card) },
    errors: [501],
  }),
  getCard: defineEndpoint({
    operationId: 'getCard', method: 'GET', path: '/cards/{cardId}', tag, params: cardParams,
    summary: 'Retrieve a card', response: { status: 200, description: 'The card', schema: Card }, errors: [404, 501],
  }),
  updateCard: defineEndpoint({
    operationId: 'updateCard', method: 'PATCH', path: '/cards/{cardId}', tag, params: cardParams, body: CardUpdateRequest,
    summary: 'Freeze, unfreeze or close a card, replace its funding sources, or change its per-transaction limit',
    description:
      'Transitions ACTIVE → FROZEN, FROZEN → ACTIVE, ACTIVE or FROZEN → CLOSED; any other is 409 INVALID_STATE_TRANSITION, ' +
      'CLOSED again 409 CARD_ALREADY_CLOSED, any change to a closed card 409 CARD_NOT_MUTABLE. Emits CARD.STATE_CHANGE and ' +
      'CARD.FUNDING_SOURCE_CHANGE. Closing the card ends its open authorizations (AUTHORIZED or PARTIALLY_SETTLED become ' +
      'SETTLED, what they hold goes back to the funding source, each announced with CARD_TRANSACTION.SETTLED); a clearing ' +
      'that arrives for one of them later is still posted, and returns of its settled purchases still complete.',
    response: { status: 200, description: 'The card after the change', schema: Card },
    errors: [404, 409, 501],
  }),
  revealCard: defineEndpoint({
    operationId: 'revealCard', method: 'POST', path: '/cards/{cardId}/reveal', tag, params: cardParams,
    summary: "A short-lived URL of the page showing the card's number, CVV and expiry",
    description: 'The URL is a bearer secret: fetch a fresh one before each render, never store or log it.',
    response: { status: 200, description: 'The embed URL and when it expires', schema: CardRevealResponse },
    errors: [403, 404, 501], secrets: { response: ['panEmbedUrl'] },
  }),
  ...simulators(),
} as const;

/** The ten `POST /sandbox/cards/{cardId}/simulate/*` endpoints, by operationId. */
function simulators() {
  const simulate = <const O extends string, const K extends CardSimulationKind, B extends z.ZodType>(operationId: O, kind: K, body: B, summary: string) =>
    defineEndpoint({
      operationId, method: 'POST', path: `/sandbox/cards/{cardId}/simulate/${kind}`, tag: 'Sandbox', params: cardParams, body, summary,
      response: { status: 202, description: "The issuer's token for the event; the results follow", schema: CardSimulationAccepted },
      errors: [404],
    });
  return {
    simulateCardAuthorization: simulate('simulateCardAuthorization', 'authorization', CardAuthorizationSimulation, 'Simulate a card authorization (sandbox)'),
    simulateCardCreditAuthorization: simulate('simulateCardCreditAuthorization', 'credit_authorization', CardAuthorizationSimulation, 'Simulate a merchant credit pushed as an authorization (sandbox)'),
    simulateCardFinancialAuthorization: simulate('simulateCardFinancialAuthorization', 'financial_authorization', CardAuthorizationSimulation, 'Simulate a single-message authorization, settled at once (sandbox)'),
    simulateCardFinancialCreditAuthorization: simulate('simulateCardFinancialCreditAuthorization', 'financial_credit_authorization', CardAuthorizationSimulation, 'Simulate a single-message credit, settled at once (sandbox)'),
    simulateCardCreditAuthorizationAdvice: simulate('simulateCardCreditAuthorizationAdvice', 'credit_authorization_advice', CardAuthorizationSimulation, 'Simulate a credit the network already approved (sandbox)'),
    simulateCardBalanceInquiry: simulate('simulateCardBalanceInquiry', 'balance_inquiry', CardBalanceInquirySimulation, 'Simulate a balance inquiry: a zero-amount authorization (sandbox)'),
    simulateCardAuthorizationAdvice: simulate('simulateCardAuthorizationAdvice', 'authorization_advice', CardTransactionAmountSimulation, 'Simulate a change of the total authorized (sandbox)'),
    simulateCardClearing: simulate('simulateCardClearing', 'clearing', CardTransactionAmountSimulation, 'Simulate a clearing: settle, pull more, or expire with 0 (sandbox)'),
    simulateCardReturn: simulate('simulateCardReturn', 'return', CardTransactionAmountSimulation, 'Simulate a merchant return of settled money (sandbox)'),
    simulateCardReturnReversal: simulate('simulateCardReturnReversal', 'return_reversal', CardReturnReversalSimulation, 'Simulate the reversal of the latest return (sandbox)'),
  };
}

/** The path of a card's reveal page below the server's origin: what `panEmbedUrl` points at. */
export const cardRevealPagePath = (platformId: string, token: string): string =>
  `/_sandbox/hosted/${encodeURIComponent(platformId)}/cards/${encodeURIComponent(token)}`;

/**
 * Railyard's control plane for cards: what a simulated event came to, and the page a reveal's `panEmbedUrl` opens
 * (served without credentials: the token authorizes, and it is made to be framed).
 */
export const cardControlEndpoints = {
  getCardRevealPage: defineEndpoint({
    operationId: 'getCardRevealPage', method: 'GET', path: '/_sandbox/hosted/{platformId}/cards/{token}', tag: 'Cards',
    controlPlane: true, public: true, params: z.object({ platformId: IdParam, token: IdParam }), secrets: { params: ['token'] },
    summary: "The page a reveal's panEmbedUrl opens: the card's number, CVV and expiry (sandbox test values)",
    description: 'An HTML page, meant for an iframe. An unknown or expired token answers 404 with a page saying so.',
    response: { status: 200, description: 'The card details page (HTML)', contentType: 'text/html' },
  }),
  getCardSimulation: defineEndpoint({
    operationId: 'getCardSimulation', method: 'GET', path: '/_sandbox/cards/simulations/{issuerTransactionToken}', tag: 'Sandbox control plane',
    controlPlane: true, params: z.object({ issuerTransactionToken: IdParam }),
    summary: 'What a simulated card-network event came to: approved or declined, and its card transaction',
    response: { status: 200, description: 'The result', schema: CardSimulationResult },
    errors: [404],
  }),
} as const;

