/**
 * Cards (SPEC §3.6; REFERENCE §10, §15): issuing a virtual card to a KYC-approved customer, its state machine, its
 * funding sources and limit, and the reveal of its details. What happens when a card is used lives in network.ts.
 *
 * - Issuance answers PROCESSING; the issuer then provisions it (ACTIVE), keeps it waiting, or rejects it (CLOSED with
 *   ISSUER_REJECTED), by the last three characters of `platformCardId`, else of `cardholderId` ({@link CARD_ISSUANCE}).
 * - Moves: ACTIVE ⇄ FROZEN, ACTIVE or FROZEN → CLOSED (terminal). Any other requested move is 409
 *   INVALID_STATE_TRANSITION, CLOSED again 409 CARD_ALREADY_CLOSED, any other change to a closed card 409
 *   CARD_NOT_MUTABLE. Each move emits CARD.STATE_CHANGE, each new funding list CARD.FUNDING_SOURCE_CHANGE.
 * - A platform created with `cards: false` has no card issuer: every card operation is 501 NOT_IMPLEMENTED.
 */
import type { Card, CardRevealResponse, CardState, FieldError, Page } from '@railyard/contract';
import { base64UrlEncode, cardRevealPagePath, CardCreateRequest, CardListQuery, CardUpdateRequest } from '@railyard/contract';
import { z } from 'zod';
import { CURRENCIES } from '../config/currencies.js';
import { isEeaRegion } from '../config/regions.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidInput, notFound } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { hashLegacyToken, tokenHash } from '../core/secrets.js';
import { onField, type CollectionOptions } from '../core/store.js';
import { findInternalAccount } from '../accounts/internal-accounts.js';
import { findCustomer, statusOf } from '../customers/customers.js';
import { liveCardLimitsOf } from '../platforms/config.js';
import { CARD_ISSUANCE, FUNDING_SOURCE_TRIGGERS, lookupSuffix, suffixOf } from '../sandbox/magic-values.js';
import { cardNumbersOf, issueCardSecrets } from './card-secrets.js';

export const CARDS = 'cards';
/** Who revealed which card, and the short-lived tokens of the reveal page (as their hashes). */
export const CARD_REVEALS = 'cardReveals';

/** Clock-job kind: a card whose issuance takes a while ({@link CARD_ISSUANCE} `005`) becomes ACTIVE. */
export const CARD_ACTIVATION_JOB = 'cards.activate';
/** How long a reveal URL works. */
export const REVEAL_TTL_MS = 5 * 60_000;

/**
 * The currencies a card may be funded in, and the currency the card then transacts in: USD accounts, and USDB embedded
 * wallets at 1 USDB = 1 USD (REFERENCE §15.2 names USDB; its examples use USD).
 */
export const CARD_CURRENCY_OF_FUNDING: Readonly<Record<string, string>> = { USD: 'USD', USDB: 'USD' };

const CARD_COLLECTION: CollectionOptions<Card> = {
  indexes: {
    cardholderId: onField('cardholderId'),
    platformCardId: onField('platformCardId'),
    state: onField('state'),
    // GET /cards?accountId= matches cards whose funding sources contain the account.
    accountId: { keys: (c) => c.fundingSources, reads: ['fundingSources'] },
    live: { keys: (c) => c.state !== 'CLOSED', reads: ['state'] },
  },
  createdAt: (c) => Date.parse(c.createdAt),
};
export const cards = (tenant: TenantContext) => tenant.store.collection<Card>(CARDS, CARD_COLLECTION);

/**
 * A reveal: the SHA-256 of its page's token (hex; the token itself is only in the answer's URL), the card, until when
 * the page shows it, and who asked (the audit trail). A record of an older snapshot, whose id is the token, is
 * restored under the token's hash.
 */
export const CardRevealRecord = z.preprocess((input) => hashLegacyToken(input), z.object({
  id: z.string(),
  cardId: z.string(),
  expiresAt: z.string(),
  revealedBy: z.string(),
  revealedAt: z.string(),
}));
export type CardRevealRecord = z.infer<typeof CardRevealRecord>;
const reveals = (tenant: TenantContext) => tenant.store.collection<CardRevealRecord>(CARD_REVEALS, { indexes: { cardId: onField('cardId') } });

/** 501 NOT_IMPLEMENTED on a platform without a card issuer; the check of every card operation. */
export function requireCardIssuer(tenant: TenantContext): FieldError[] {
  if (!tenant.platform.cards) {
    throw new ApiError(501, 'NOT_IMPLEMENTED', 'Cards are not available on this platform (it was created with cards: false)');
  }
  return [];
}

/** A card by id, or 404. */
export function findCard(tenant: TenantContext, cardId: string): Card {
  const card = cards(tenant).get(cardId);
  if (!card) throw notFound('Card', cardId);
  return card;
}

/**
 * Checks a funding list: each account must be the cardholder's, open, in a card currency, and all for one card currency;
 * an account id ending in a {@link FUNDING_SOURCE_TRIGGERS} suffix fails the sandbox issuer's own checks. Returns the
 * card currency, or throws 400 FUNDING_SOURCE_INELIGIBLE listing every account refused.
 */
function fundingCurrency(tenant: TenantContext, cardholderId: string, fundingSources: readonly string[]): string {
  const errors: FieldError[] = [];
  const currencies = new Set<string>();
  fundingSources.forEach((accountId, index) => {
    const field = `fundingSources.${index}`;
    const refuse = (message: string) => errors.push({ field, message });
    let account;
    try {
      account = findInternalAccount(tenant, accountId);
    } catch {
      return refuse(`no internal account ${accountId}`);
    }
    const currency = account.balance.currency.code;
    const trigger = FUNDING_SOURCE_TRIGGERS[suffixOf(accountId)];
    if (account.customerId !== cardholderId) refuse(`${accountId} is not an account of the cardholder ${cardholderId}`);
    else if (account.status !== 'ACTIVE') refuse(`${accountId} is ${account.status}, not ACTIVE`);
    else if (CARD_CURRENCY_OF_FUNDING[currency] === undefined) {
      refuse(`${accountId} holds ${currency}; cards are funded in ${Object.keys(CARD_CURRENCY_OF_FUNDING).join(' or ')}`);
    } else if (trigger) refuse(`${accountId}: ${trigger}`);
    else currencies.add(currency);
  });
  // One card currency: USD accounts and USDB wallets may fund one card together (both transact in USD).
  const cardCurrencies = new Set([...currencies].map((code) => CARD_CURRENCY_OF_FUNDING[code]));
  if (errors.length === 0 && cardCurrencies.size > 1) {
    errors.push({ field: 'fundingSources', message: `all funding sources must fund one card currency, not ${[...cardCurrencies].join(' and ')}` });
  }
  if (errors.length > 0) {
    throw new ApiError(400, 'FUNDING_SOURCE_INELIGIBLE', `These funding sources cannot fund the card: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { errors });
  }
  return CARD_CURRENCY_OF_FUNDING[[...currencies][0]!]!;
}

/** 409 CARD_LIMIT_REACHED when one more live card would pass the platform's or the cardholder's maximum. */
function checkLiveCardLimits(tenant: TenantContext, cardholderId: string): void {
  const { perPlatform, perCardholder } = liveCardLimitsOf(tenant);
  const liveCount = (where: Record<string, unknown>) => cards(tenant).list({ where: { live: true, ...where }, descending: true, limit: 1 }).total;
  const live = perPlatform === null ? 0 : liveCount({});
  if (perPlatform !== null && live >= perPlatform) {
    throw conflict(`The platform holds ${live} live cards, its maximum; close one first`, 'CARD_LIMIT_REACHED', { limit: perPlatform, scope: 'platform' });
  }
  const own = perCardholder === null ? 0 : liveCount({ cardholderId });
  if (perCardholder !== null && own >= perCardholder) {
    throw conflict(`Customer ${cardholderId} holds ${own} live cards, the maximum per cardholder; close one first`, 'CARD_LIMIT_REACHED', { limit: perCardholder, scope: 'cardholder' });
  }
}

/** Digits derived from text, one per character: a digit stays, anything else becomes its character code modulo 10. */
const digitsOf = (text: string): string => Array.from(text, (c) => (c >= '0' && c <= '9' ? c : String(c.charCodeAt(0) % 10))).join('');

/** `POST /cards`: checks everything, stores the card PROCESSING, and lets the issuer answer right after the response. */
export function createCard(tenant: TenantContext, request: z.output<typeof CardCreateRequest>): Card {
  const cardholder = findCustomer(tenant, request.cardholderId);
  if (cardholder.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${request.cardholderId} was deleted`);
  if (statusOf(cardholder) !== 'APPROVED') {
    throw new ApiError(400, 'CARDHOLDER_KYC_NOT_APPROVED', `Customer ${request.cardholderId} is ${statusOf(cardholder)}; a card is issued only to an APPROVED cardholder`);
  }
  const currency = fundingCurrency(tenant, request.cardholderId, request.fundingSources);
  if (request.threeDSecurePassword !== undefined && !isEeaRegion(cardholder.region)) {
    // The cardholder's program decides: EU/EEA programs take a static 3-D Secure password, the others do not. It is
    // passed to the issuer and never kept.
    throw invalidInput([{ field: 'threeDSecurePassword', message: `the card program of a ${cardholder.region ?? 'US'} cardholder takes no static 3-D Secure password (EU and EEA programs only)` }]);
  }
  checkLiveCardLimits(tenant, request.cardholderId);

  const id = tenant.ids('Card');
  const handle = id.slice(-12);
  const platformCardId = request.platformCardId ?? `card_${handle}`;
  const key = request.platformCardId ?? request.cardholderId;
  const now = tenant.nowIso();
  const card: Card = {
    id,
    cardholderId: request.cardholderId,
    platformCardId,
    state: 'PROCESSING',
    stateReason: null,
    // Set when the issuer provisions the card; present from the start (as undefined, which JSON leaves out) so the
    // fields keep their place in every version of the card.
    brand: undefined,
    form: request.form,
    last4: digitsOf(suffixOf(key)).padStart(4, '0'),
    expMonth: undefined,
    expYear: undefined,
    fundingSources: [...request.fundingSources],
    maxSpendPerTransaction: request.maxSpendPerTransaction ?? null,
    currency,
    processorRef: `card_${handle.slice(0, 8)}`,
    issuerRef: `sandbox_issuer_card_${handle.slice(4)}`,
    createdAt: now,
    updatedAt: now,
  };
  cards(tenant).insert(card);
  issueCardSecrets(tenant, card);
  const issuance: { outcome: 'ACTIVE' | 'REJECTED' | 'PENDING'; afterMs: number } = lookupSuffix(CARD_ISSUANCE, key);
  if (issuance.outcome === 'PENDING') return card;
  const outcome = issuance.outcome;
  if (issuance.afterMs === 0) tenant.afterResponse(() => provision(tenant, id, outcome));
  else tenant.schedule(issuance.afterMs, CARD_ACTIVATION_JOB, { cardId: id, outcome });
  return card;
}

/** The issuer's answer to a PROCESSING card: provisioned (ACTIVE, with its network details) or rejected. */
function provision(tenant: TenantContext, cardId: string, outcome: 'ACTIVE' | 'REJECTED'): void {
  const card = cards(tenant).get(cardId);
  if (!card || card.state !== 'PROCESSING') return;
  if (outcome === 'REJECTED') {
    move(tenant, card, 'CLOSED', { stateReason: 'ISSUER_REJECTED' });
    return;
  }
  const issued = new Date(tenant.clock.now());
  move(tenant, card, 'ACTIVE', { brand: 'VISA', expMonth: issued.getUTCMonth() + 1, expYear: issued.getUTCFullYear() + 3 });
}

/** The activation job of a card whose issuance takes a while. */
export const activationJob = (tenant: TenantContext, payload: unknown): void => {
  const { cardId, outcome } = payload as { cardId: string; outcome: 'ACTIVE' | 'REJECTED' };
  provision(tenant, cardId, outcome);
};

/** Stores a card in its new state and emits CARD.STATE_CHANGE with it. */
function move(tenant: TenantContext, card: Card, state: CardState, fields: Partial<Card> = {}): Card {
  const updated: Card = { ...card, ...fields, state, updatedAt: tenant.nowIso() };
  cards(tenant).replace(updated);
  tenant.emit('CARD.STATE_CHANGE', updated);
  return updated;
}

/** The moves a PATCH may ask for (SPEC §3.6). */
const MOVES: Readonly<Partial<Record<CardState, readonly CardState[]>>> = {
  ACTIVE: ['FROZEN', 'CLOSED'],
  FROZEN: ['ACTIVE', 'CLOSED'],
};

/** `PATCH /cards/{cardId}`: a state move, a new funding list, a new limit, in any combination the schema allows. */
export function updateCard(tenant: TenantContext, cardId: string, request: z.output<typeof CardUpdateRequest>): Card {
  const card = findCard(tenant, cardId);
  if (card.state === 'CLOSED') {
    if (request.state === 'CLOSED') throw conflict(`Card ${cardId} is already CLOSED`, 'CARD_ALREADY_CLOSED');
    throw conflict(`Card ${cardId} is CLOSED: a closed card cannot be changed`, 'CARD_NOT_MUTABLE');
  }
  if (request.state !== undefined && !(MOVES[card.state] ?? []).includes(request.state)) {
    throw conflict(`Card ${cardId} cannot move from ${card.state} to ${request.state}`, 'INVALID_STATE_TRANSITION', { from: card.state, to: request.state });
  }
  if (request.fundingSources !== undefined) {
    const currency = fundingCurrency(tenant, card.cardholderId, request.fundingSources);
    if (currency !== card.currency) {
      throw new ApiError(400, 'FUNDING_SOURCE_INELIGIBLE', `The card transacts in ${card.currency}; these funding sources are for ${currency} cards`, {
        errors: [{ field: 'fundingSources', message: `must fund a ${card.currency} card` }],
      });
    }
  }
  let updated = card;
  const changes: Partial<Card> = definedOnly({ fundingSources: request.fundingSources, maxSpendPerTransaction: request.maxSpendPerTransaction });
  if (Object.keys(changes).length > 0) {
    updated = { ...updated, ...changes, updatedAt: tenant.nowIso() };
    cards(tenant).replace(updated);
    if (request.fundingSources !== undefined) tenant.emit('CARD.FUNDING_SOURCE_CHANGE', updated);
  }
  if (request.state !== undefined) updated = move(tenant, updated, request.state, request.state === 'CLOSED' ? { stateReason: 'CLOSED_BY_PLATFORM' } : {});
  return updated;
}

/** `GET /cards` (REFERENCE §1): every filter from an index; newest first unless `sortOrder=asc`. */
export function listCards(tenant: TenantContext, query: z.output<typeof CardListQuery>): Page<Card> {
  return listPage(cards(tenant), query, {
    where: definedOnly({ cardholderId: query.cardholderId, accountId: query.accountId, platformCardId: query.platformCardId, state: query.state }),
    descending: query.sortOrder !== 'asc',
  });
}

/**
 * `POST /cards/{cardId}/reveal`: a fresh URL of the page that shows the card's number, CVV and expiry, valid for
 * {@link REVEAL_TTL_MS}. Each reveal is recorded against the credentials that asked (the audit trail), under the hash
 * of the page's token: the token is in the answer only. A card whose secrets are missing or do not open under this
 * engine's key (a restored snapshot) gets new ones here.
 */
export function revealCard(tenant: TenantContext, cardId: string, actor: string, origin: string): CardRevealResponse {
  const card = findCard(tenant, cardId);
  cardNumbersOf(tenant, card);
  const token = base64UrlEncode(crypto.getRandomValues(new Uint8Array(24)));
  const now = tenant.clock.now();
  const expiresAt = new Date(now + REVEAL_TTL_MS).toISOString();
  reveals(tenant).insert({ id: tokenHash(token), cardId, expiresAt, revealedBy: actor, revealedAt: new Date(now).toISOString() });
  return { panEmbedUrl: `${origin}${cardRevealPagePath(tenant.platform.id, token)}`, expiresAt };
}

/** The card a reveal token shows, while the token is valid. */
export function revealedCard(tenant: TenantContext, token: string): Card | undefined {
  const reveal = reveals(tenant).get(tokenHash(token));
  if (!reveal || tenant.clock.now() >= Date.parse(reveal.expiresAt)) return undefined;
  return cards(tenant).get(reveal.cardId);
}

/**
 * The card's full details for the reveal page: its number and CVV (drawn at issuance, kept sealed: card-secrets.ts)
 * and its expiry. Shown only on that page, never on the card, in events or in snapshots.
 */
export function revealedDetails(tenant: TenantContext, card: Card): { pan: string; cvv: string; expiry: string } {
  const { pan, cvv } = cardNumbersOf(tenant, card);
  const expiry = card.expMonth === undefined ? 'not issued yet' : `${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;
  return { pan, cvv, expiry };
}

/** The card currency's minor units per funding-currency minor unit (USDB has 6 decimals, a USD card 2). */
export function fundingUnitsPerCardUnit(card: Card, fundingCurrency: string): number {
  return 10 ** (CURRENCIES[fundingCurrency]!.decimals - CURRENCIES[card.currency]!.decimals);
}
