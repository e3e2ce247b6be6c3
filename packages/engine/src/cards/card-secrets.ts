/**
 * A card's number and CVV (REFERENCE §15.4: they never pass through the API): drawn at random when the card is
 * issued, kept sealed under the engine's secret key (core/secrets.ts) in a collection of their own, outside the card,
 * and opened only for the reveal page.
 *
 * The number is a Luhn-valid Visa test number: the sandbox BIN `400000`, five random digits, the check digit, and the
 * card's `last4` (REFERENCE §13: from the suffix of `platformCardId`). The CVV is three random digits.
 *
 * Secrets that are missing (a snapshot taken before they were kept) or do not open (a snapshot restored into an engine
 * with another secret key) are drawn anew at the next reveal and sealed under the current key.
 */
import type { Card } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { randomDigits } from '../core/secrets.js';

export const CARD_SECRETS = 'cardSecrets';

/** The sandbox card program's BIN (a Visa test range). */
export const CARD_BIN = '400000';

/** A card's sealed number and CVV; `id` is the card's id (snapshot-safe: nothing here opens without the key). */
export const CardSecretRecord = z.object({ id: z.string(), sealed: z.string() });
export type CardSecretRecord = z.infer<typeof CardSecretRecord>;

/** What a reveal shows beyond the card itself. */
export interface CardNumbers {
  readonly pan: string;
  readonly cvv: string;
}

const secrets = (tenant: TenantContext) => tenant.store.collection<CardSecretRecord>(CARD_SECRETS);

/** What the card's secrets are sealed for: a sealed value copied onto another card does not open there. */
const contextOf = (cardId: string) => `card:${cardId}`;

/** A fresh number ending in `last4` and a fresh CVV. */
export function drawCardNumbers(last4: string): CardNumbers {
  const body = `${CARD_BIN}${randomDigits(5)}`;
  let check = 0;
  while (!luhnValid(`${body}${check}${last4}`)) check++;
  return { pan: `${body}${check}${last4}`, cvv: randomDigits(3) };
}

/** Draws, seals and keeps a card's secrets (at issuance). */
export function issueCardSecrets(tenant: TenantContext, card: Pick<Card, 'id' | 'last4'>): CardNumbers {
  const numbers = drawCardNumbers(last4Of(card));
  const record: CardSecretRecord = { id: card.id, sealed: tenant.secrets.seal(JSON.stringify(numbers), contextOf(card.id)) };
  if (secrets(tenant).has(card.id)) secrets(tenant).replace(record);
  else secrets(tenant).insert(record);
  return numbers;
}

/**
 * The card's number and CVV, opened; drawn anew (and kept) when they are missing or do not open under this engine's
 * key, so a reveal always has something to show.
 */
export function cardNumbersOf(tenant: TenantContext, card: Pick<Card, 'id' | 'last4'>): CardNumbers {
  const stored = secrets(tenant).get(card.id);
  const opened = stored === undefined ? undefined : tenant.secrets.open(stored.sealed, contextOf(card.id));
  const numbers = opened === undefined ? undefined : parseNumbers(opened, last4Of(card));
  return numbers ?? issueCardSecrets(tenant, card);
}

const last4Of = (card: Pick<Card, 'last4'>): string => (card.last4 !== undefined && /^\d{4}$/.test(card.last4) ? card.last4 : '0000');

function parseNumbers(text: string, last4: string): CardNumbers | undefined {
  try {
    const { pan, cvv } = JSON.parse(text) as Partial<CardNumbers>;
    if (typeof pan === 'string' && /^\d{16}$/.test(pan) && pan.endsWith(last4) && luhnValid(pan) && typeof cvv === 'string' && /^\d{3}$/.test(cvv)) return { pan, cvv };
  } catch {
    // not ours: drawn anew
  }
  return undefined;
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
