/**
 * Transactions (SPEC §2.9, §3.5; REFERENCE §4.3): the record of every payment, its status moves and their events. Money
 * itself moves in settlement.ts; this module only keeps the records honest: a move not in {@link OUTGOING_MOVES} or
 * {@link INCOMING_MOVES} is a bug, and every status change the contract names an event for emits
 * `<OUTGOING|INCOMING>_PAYMENT.<STATUS>` with the transaction as GET returns it.
 */
import type {
  CardTransaction, IncomingTransaction, OutgoingTransaction, Page, Refund, Transaction, TransactionListQuery,
} from '@railyard/contract';
import { WebhookEventType } from '@railyard/contract';
import type { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { definedOnly, listPage, rangeEnd, rangeStart } from '../core/pagination.js';
import { onField, type CollectionOptions } from '../core/store.js';

export const TRANSACTIONS = 'transactions';
/** Lookups by customer, and the filters of `GET /transactions` (REFERENCE §1), each served by an index. */
const TRANSACTION_COLLECTION: CollectionOptions<Transaction> = {
  indexes: {
    customerId: onField('customerId'),
    platformCustomerId: onField('platformCustomerId'),
    status: onField('status'),
    type: onField('type'),
    reference: { keys: (t) => reference(t), reads: ['reconciliationInstructions'] },
    accountIdentifier: { keys: (t) => [...identifiers(t, 'source'), ...identifiers(t, 'destination')], reads: ['source', 'destination'] },
    senderAccountIdentifier: { keys: (t) => identifiers(t, 'source'), reads: ['source'] },
    receiverAccountIdentifier: { keys: (t) => identifiers(t, 'destination'), reads: ['destination'] },
  },
  createdAt: (t) => Date.parse(t.createdAt ?? ''),
};
const transactions = (tenant: TenantContext) => tenant.store.collection<Transaction>(TRANSACTIONS, TRANSACTION_COLLECTION);

type OutgoingStatus = OutgoingTransaction['status'];
/** Fields a move may set alongside the status. */
export type TransactionPatch = Partial<Omit<OutgoingTransaction, 'type' | 'status' | 'failureReason'>> & {
  failureReason?: OutgoingTransaction['failureReason'] | IncomingTransaction['failureReason'];
};
type IncomingStatus = IncomingTransaction['status'];

/**
 * Allowed outgoing moves (SPEC §3.5). COMPLETED → FAILED is a payout the receiving bank returned; PENDING_AUTHORIZATION
 * → PENDING is an authorized real-time funding quote that now waits for its money.
 */
export const OUTGOING_MOVES: Readonly<Record<OutgoingStatus, readonly OutgoingStatus[]>> = {
  PENDING: ['PROCESSING', 'PENDING_AUTHORIZATION', 'EXPIRED'],
  PENDING_AUTHORIZATION: ['PROCESSING', 'PENDING', 'FAILED'],
  PROCESSING: ['COMPLETED', 'FAILED'],
  COMPLETED: ['FAILED'],
  FAILED: [],
  EXPIRED: [],
};

/** Allowed incoming moves: a payment waiting for the platform's approval is approved (COMPLETED), rejected or times out. */
export const INCOMING_MOVES: Readonly<Record<IncomingStatus, readonly IncomingStatus[]>> = {
  CREATED: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'],
  PENDING: ['PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED'],
  PENDING_AUTHORIZATION: ['PROCESSING', 'FAILED'],
  PROCESSING: ['COMPLETED', 'FAILED'],
  COMPLETED: ['REFUNDED'],
  REJECTED: [],
  FAILED: [],
  REFUNDED: [],
  EXPIRED: [],
};

const eventGroup = (transaction: Transaction) => (transaction.type === 'INCOMING' ? 'INCOMING_PAYMENT' : 'OUTGOING_PAYMENT');

/**
 * Emits `<OUTGOING|INCOMING>_PAYMENT.<what>` for a transaction, when the contract names that event: an incoming
 * payment the platform itself rejected, for one, announces nothing (there is no INCOMING_PAYMENT.REJECTED).
 */
function announce(tenant: TenantContext, transaction: Transaction, what: string): void {
  const type = WebhookEventType.safeParse(`${eventGroup(transaction)}.${what}`);
  if (type.success) tenant.emit(type.data, transaction);
}

/** Stores a new transaction; `announced` emits its first status (`OUTGOING_PAYMENT.PENDING`, `INCOMING_PAYMENT.COMPLETED`, …). */
export function insertTransaction<T extends OutgoingTransaction | IncomingTransaction>(tenant: TenantContext, transaction: T, announced = false): T {
  const stored = withLaterFields(transaction);
  transactions(tenant).insert(stored);
  if (announced) announce(tenant, stored, stored.status);
  return stored;
}

/**
 * Fields a transaction commonly gains as it moves (`settledAt`, `failureReason`, `refund`, `pendingReason`), present from the start
 * as undefined (which JSON leaves out), so that every version of every transaction has one shape. V8 gives an object
 * copied by a spread that then gains a field with a value of its own a hidden class of its own: some 600 bytes per
 * transaction, at a million transactions most of the memory.
 */
const LATER_FIELDS = ['pendingReason', 'failureReason', 'refund', 'settledAt'] as const;

function withLaterFields<T extends object>(transaction: T): T {
  // Added to the new record itself (not stored yet): a copy would get a hidden class of its own again.
  for (const field of LATER_FIELDS) if (!(field in transaction)) (transaction as Record<string, unknown>)[field] = undefined;
  return transaction;
}

/**
 * Stores a card transaction, new or changed, and announces it as `CARD_TRANSACTION.<status>`: card transactions are
 * listed with every transaction, and their moves are the card network's (cards/network.ts), which announces each
 * network event once it is done (`announce` false for the steps before: a change of amounts is announced too, a
 * return re-fires SETTLED).
 */
export function saveCardTransaction(tenant: TenantContext, transaction: CardTransaction, announce = true): CardTransaction {
  const collection = transactions(tenant);
  if (collection.has(transaction.id)) collection.replace(transaction);
  else collection.insert(transaction);
  if (announce) tenant.emit(`CARD_TRANSACTION.${transaction.status}`, transaction);
  return transaction;
}

/** The transactions of a customer, or of the platform when `customerId` is its own id (REFERENCE §1). */
export const transactionsOf = (tenant: TenantContext, customerId: string): Transaction[] => transactions(tenant).findBy('customerId', customerId);

/** A transaction by id, or 404 TRANSACTION_NOT_FOUND. */
export function findTransaction(tenant: TenantContext, id: string): Transaction {
  const found = transactions(tenant).get(id);
  if (!found) throw notFound('Transaction', id, 'TRANSACTION_NOT_FOUND');
  return found;
}

/** Changes fields without a status move (no event): `receiptDeliveryConfirmedAt`, amounts fixed at funding. */
export function patchTransaction<T extends Transaction>(tenant: TenantContext, id: string, patch: Partial<T>): T {
  const updated = { ...findTransaction(tenant, id), ...patch, updatedAt: tenant.nowIso() } as T;
  transactions(tenant).replace(updated);
  return updated;
}

/**
 * Moves a transaction to `status` with `patch`, and emits the status event. Throws (a bug, not a user error) on a move
 * the state machine does not allow.
 */
export function moveTransaction(tenant: TenantContext, id: string, status: OutgoingStatus | IncomingStatus, patch: TransactionPatch = {}): Transaction {
  const current = findTransaction(tenant, id);
  if (current.type === 'CARD') throw new Error(`card transaction ${id} does not move through payments`);
  const allowed = current.type === 'OUTGOING'
    ? (OUTGOING_MOVES[current.status] as readonly string[])
    : (INCOMING_MOVES[current.status] as readonly string[]);
  if (!allowed.includes(status)) throw new Error(`illegal ${current.type} move ${current.status} → ${status} for ${id}`);
  const now = tenant.nowIso();
  // A pendingReason explains one wait: a move ends it, unless the move names a new one.
  const updated = { ...current, pendingReason: undefined, ...patch, status, updatedAt: now, ...(status === 'COMPLETED' ? { settledAt: now } : {}) } as Transaction;
  transactions(tenant).replace(updated);
  announce(tenant, updated, status);
  return updated;
}

/** Sets the refund of a failed payment and emits `.REFUND_PENDING`, `.REFUND_COMPLETED` or `.REFUND_FAILED`. */
function setRefund(tenant: TenantContext, id: string, refund: Refund): Transaction {
  const updated = { ...findTransaction(tenant, id), refund, updatedAt: tenant.nowIso() } as Transaction;
  transactions(tenant).replace(updated);
  announce(tenant, updated, `REFUND_${refund.status}`);
  return updated;
}

/**
 * A refund of the transaction from PENDING to its outcome, each step announced (`*.REFUND_PENDING`, then
 * `REFUND_COMPLETED` or `REFUND_FAILED`). `returnMoney` moves the money, if any, and says whether it reached the sender.
 */
export function refundTransaction(tenant: TenantContext, id: string, reason: Refund['reason'], returnMoney: () => boolean): Transaction {
  const initiatedAt = tenant.nowIso();
  const reference = `Refund:${id.slice('Transaction:'.length)}`;
  setRefund(tenant, id, { reference, initiatedAt, status: 'PENDING', reason });
  const refunded = returnMoney();
  return setRefund(tenant, id, { reference, initiatedAt, status: refunded ? 'COMPLETED' : 'FAILED', reason, ...(refunded ? { settledAt: tenant.nowIso() } : {}) });
}

/** `POST /transactions/{id}/confirm`: records when the receipt reached the customer (default now; a repeat overwrites). */
export function confirmReceipt(tenant: TenantContext, id: string, at: string | undefined): Transaction {
  if (findTransaction(tenant, id).type === 'CARD') throw notFound('Transaction', id, 'TRANSACTION_NOT_FOUND');
  return patchTransaction(tenant, id, { receiptDeliveryConfirmedAt: at ?? tenant.nowIso() });
}

type ListQuery = z.output<typeof TransactionListQuery>;

/** Identifiers a transaction can be found by: account ids and the identifiers the payment carries. */
function identifiers(transaction: Transaction, side: 'source' | 'destination'): string[] {
  if (transaction.type === 'CARD') return side === 'source' ? [transaction.accountId] : [];
  const end = transaction[side] as Record<string, unknown> | undefined;
  if (!end) return [];
  return ['accountId', 'umaAddress', 'accountIdentifier'].map((key) => end[key]).filter((v): v is string => typeof v === 'string');
}

const reference = (transaction: Transaction): string | undefined =>
  transaction.type === 'CARD' ? undefined : (transaction.reconciliationInstructions?.reference ?? undefined);

/** `GET /transactions`: filters of REFERENCE §1; newest first unless `sortOrder=asc`. */
export function listTransactions(tenant: TenantContext, query: ListQuery): Page<Transaction> {
  return listPage(transactions(tenant), query, {
    where: definedOnly({
      customerId: query.customerId,
      platformCustomerId: query.platformCustomerId,
      status: query.status,
      type: query.type,
      reference: query.reference,
      accountIdentifier: query.accountIdentifier,
      senderAccountIdentifier: query.senderAccountIdentifier,
      receiverAccountIdentifier: query.receiverAccountIdentifier,
    }),
    createdFrom: query.startDate === undefined ? undefined : rangeStart(query.startDate),
    createdTo: query.endDate === undefined ? undefined : rangeEnd(query.endDate),
    descending: query.sortOrder !== 'asc',
  });
}
