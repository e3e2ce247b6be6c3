/**
 * Card funding sources as bindings: one per card × internal account pair, with an id of its own
 * (`CardFundingSource:<uuid>`) that stays the same for that pair whatever the card's funding list does. Only delegated
 * keys show it (Card.fundingSources lists the accounts), so a binding is recorded the first time one asks for it.
 */
import type { Card } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { onField } from '../core/store.js';

export const CARD_FUNDING_SOURCES = 'cardFundingSources';

/** A card × account binding (snapshot-safe). */
export const CardFundingSourceRecord = z.object({ id: z.string(), cardId: z.string(), accountId: z.string(), createdAt: z.string() });
export type CardFundingSourceRecord = z.infer<typeof CardFundingSourceRecord>;

const bindings = (tenant: TenantContext) =>
  tenant.store.collection<CardFundingSourceRecord>(CARD_FUNDING_SOURCES, { indexes: { cardId: onField('cardId') } });

/** The binding of `accountId` to `card` recorded so far, if any (a read: nothing is recorded). */
export const existingFundingSource = (tenant: TenantContext, cardId: string, accountId: string): CardFundingSourceRecord | undefined =>
  bindings(tenant).findBy('cardId', cardId).find((binding) => binding.accountId === accountId);

/**
 * 404 unless `accountId` funds `card` (a closed card has no funding source: closing it detaches them); otherwise the
 * binding recorded so far, if any. Records nothing: a request refused later must leave no trace.
 */
export function checkFundingSource(tenant: TenantContext, card: Card, accountId: string): CardFundingSourceRecord | undefined {
  if (card.state === 'CLOSED' || !card.fundingSources.includes(accountId)) {
    throw notFound('Funding source', `${accountId} of card ${card.id}`);
  }
  return existingFundingSource(tenant, card.id, accountId);
}

/** The binding of `accountId` to `card` (see {@link checkFundingSource}), recorded on first use. */
export function fundingSourceOf(tenant: TenantContext, card: Card, accountId: string): CardFundingSourceRecord {
  return checkFundingSource(tenant, card, accountId)
    ?? bindings(tenant).insert({ id: tenant.ids('CardFundingSource'), cardId: card.id, accountId, createdAt: tenant.nowIso() });
}
