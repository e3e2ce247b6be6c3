/**
 * Quotes (SPEC §2.8, §3.5, §4.5; REFERENCE §4.1, §4.2): price a payment, create its transaction at once, and send it:
 * by `execute` from an internal or pullable external account, or, for real-time funding, when the money arrives
 * (`POST /sandbox/send` in the sandbox). A quote's status is its transaction's status, so the two never disagree.
 */
import type { FieldError, OutgoingTransaction, Quote, QuoteRequest as QuoteRequestInput, Transaction } from '@railyard/contract';
import {
  OnChainNetwork, WALLET_SIGNATURE_HEADER, Quote as QuoteSchema, QuoteAuthorizeRequest, QuoteRequest, SandboxSendRequest, ScaChallenge as ScaChallengeSchema, TransferInRequest, TransferOutRequest,
} from '@railyard/contract';
import { z } from 'zod';
import { realtimeFundingInstructions } from '../accounts/funding-instructions.js';
import { findInternalAccount } from '../accounts/internal-accounts.js';
import { assertScaSession } from '../sca/login.js';
import { checkStamp } from '../auth/signed-retry.js';
import { sessionsOf } from '../auth/sessions.js';
import { answerScaChallenge, assertNotLocked, assertScaChallengeIssuable, isScaCustomer, issueScaChallenge } from '../sca/sca.js';
import { paysTrustedBeneficiary } from '../sca/trust.js';
import { midRate } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField, invalidInput, notFound, rateLimited } from '../core/errors.js';
import { findCustomer } from '../customers/customers.js';
import { findExternalAccount } from '../external-accounts/external-accounts.js';
import { currencyTermsOf, standingFeeOf, umaDomainOf } from '../platforms/config.js';
import { CROSS_CURRENCY_DESTINATION_OUTCOMES, INTERNAL_TRANSFER_OUTCOME, SERVER_ERROR_TRIGGERS, SettlementOutcome, TRANSFER_OUTCOMES, lookupSuffix } from '../sandbox/magic-values.js';
import { partiesOf } from '../transactions/incoming.js';
import { requestSandboxPayment } from '../uma/uma.js';
import { Delivery, sourceLedgerAccount, startPayment } from '../transactions/settlement.js';
import { findTransaction, insertTransaction, moveTransaction, patchTransaction } from '../transactions/transactions.js';
import { fundingNetworkChain, sandboxTransactionHash, WALLET_NETWORKS } from '../transactions/on-chain.js';
import { checkLimits, exceedsDailyVolume } from './limits.js';
import { accountIdOf, assertCustomerMayPay, resolveDestination, resolveSource, type Destination, type Source } from './parties.js';
import { NO_PLATFORM_FEE, price, type PlatformFee, type Price } from './pricing.js';
import { OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS, PURPOSE_REQUIRED_CURRENCIES, QUOTE_LIFETIME_MS, RAIL_SETTLEMENT_SECONDS } from './rules.js';

type CreateInput = z.output<typeof QuoteRequest>;

/**
 * A stored quote (snapshot-safe): what the quote has beyond its transaction, and how it settles. Its amounts, currencies,
 * fees, rate, description and payment instructions are those of its transaction (priced once, never changed), so they
 * are read from there rather than kept twice; its status is the transaction's.
 */
export const QuoteRecord = z.object({
  id: z.string(),
  transactionId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  source: QuoteSchema.shape.source,
  destination: QuoteSchema.shape.destination,
  /** The paying customer; absent when the platform pays. */
  customerId: z.string().optional(),
  /** Ledger account the money comes from at execution; absent for real-time funding and for a pull that fails at the source. */
  fundFrom: z.string().optional(),
  delivery: Delivery,
  outcome: SettlementOutcome,
  /** The chain a wallet destination settles on (see settlement.ts). */
  onChainNetwork: OnChainNetwork.optional(),
  /** The chain a real-time crypto payment arrives on, when it is on-chain. */
  fundingChain: OnChainNetwork.optional(),
  /** The strong-customer-authentication step the payment waits for (SCA-region customers). */
  scaChallenge: ScaChallengeSchema.optional(),
  /** When the SMS code was last sent (resends are rate limited). */
  scaCodeSentAt: z.string().optional(),
  /** When the recent answers to the SCA challenge came (authorize is rate limited). */
  authorizeAttemptsAt: z.array(z.string()).optional(),
});
type QuoteRecord = z.infer<typeof QuoteRecord>;

export const QUOTES = 'quotes';
const quotes = (tenant: TenantContext) => tenant.store.collection<QuoteRecord>(QUOTES);

/** Clock-job kind that expires an unexecuted quote. */
export const EXPIRE_JOB = 'quotes.expire';

/** Clock-job kind that fails a payment whose SCA challenge lapsed unanswered (SCA_NOT_COMPLETED). */
export const SCA_TIMEOUT_JOB = 'quotes.scaTimeout';

/** Every SMS resend waits this long after the previous one (REFERENCE §9: resends are rate limited). */
export const SCA_RESEND_INTERVAL_MS = 30_000;

/** The sandbox's deliberate 500s (see {@link SERVER_ERROR_TRIGGERS}): a quote request that would be created fails instead. */
function failOnServerErrorTrigger(description: string | undefined): void {
  // An own key only: a description such as `constructor` must not find Object's.
  if (description === undefined || !Object.hasOwn(SERVER_ERROR_TRIGGERS, description)) return;
  const code = SERVER_ERROR_TRIGGERS[description as keyof typeof SERVER_ERROR_TRIGGERS];
  throw new ApiError(500, code, code === 'SERVICE_SWITCH_ERROR'
    ? 'The payment switch failed to take this payment (sandbox trigger: the description names a switch error)'
    : 'The service failed inside while creating this quote (sandbox trigger: the description names an internal error)');
}

/**
 * At most this many answers to a quote's SCA challenge within {@link SCA_AUTHORIZE_WINDOW_MS} (REFERENCE §9: authorize
 * is rate limited): above the lockout's five failures, so only a caller hammering the endpoint meets it.
 */
export const SCA_AUTHORIZE_ATTEMPTS = 10;
export const SCA_AUTHORIZE_WINDOW_MS = 60_000;

/**
 * The quote as GET returns it: while it waits for authorization it carries its `scaChallenge`, and a real-time
 * funding quote shows no `paymentInstructions` until authorized (REFERENCE §4.1).
 */
function quoteView(tenant: TenantContext, record: QuoteRecord): Quote {
  const transaction = findTransaction(tenant, record.transactionId) as OutgoingTransaction;
  const waiting = transaction.status === 'PENDING_AUTHORIZATION';
  const { paymentInstructions, description } = transaction;
  return {
    id: record.id, createdAt: record.createdAt, expiresAt: record.expiresAt, source: record.source, destination: record.destination,
    sendingCurrency: transaction.sentAmount.currency, receivingCurrency: transaction.receivedAmount!.currency,
    totalSendingAmount: transaction.sentAmount.amount, totalReceivingAmount: transaction.receivedAmount!.amount,
    exchangeRate: transaction.exchangeRate, feesIncluded: transaction.fees ?? 0, platformFeesIncluded: transaction.platformFees ?? 0,
    transactionId: record.transactionId, rateDetails: transaction.rateDetails,
    ...(description === undefined ? {} : { description }),
    ...(paymentInstructions && !waiting ? { paymentInstructions } : {}),
    ...(waiting && record.scaChallenge ? { scaChallenge: record.scaChallenge } : {}),
    status: transaction.status,
  } as Quote;
}

function findRecord(tenant: TenantContext, quoteId: string): QuoteRecord {
  const record = quotes(tenant).get(quoteId);
  if (!record) throw notFound('Quote', quoteId, 'QUOTE_NOT_FOUND');
  return record;
}

/** `GET /quotes/{id}`; an overdue quote is expired first, so a real clock between jobs never shows a stale PENDING. */
export function retrieveQuote(tenant: TenantContext, quoteId: string): Quote {
  const record = findRecord(tenant, quoteId);
  expireIfDue(tenant, record);
  return quoteView(tenant, record);
}

/** The platform's share of a quote: the override (USD sending only), else the standing cross-currency fee from USD. */
function platformFeeFor(tenant: TenantContext, request: CreateInput, sending: string, receiving: string): PlatformFee {
  const override = request.platformFeeOverride;
  if (override) {
    const errors = [
      ...(sending === 'USD' ? [] : [{ field: 'platformFeeOverride', message: `needs a USD sending currency, not ${sending}` }]),
      ...(override.platformFixedFee.currency === sending ? [] : [{ field: 'platformFeeOverride.platformFixedFee.currency', message: `must be the sending currency ${sending}` }]),
    ];
    if (errors.length > 0) throw new ApiError(400, 'INVALID_INPUT', errors[0]!.message, { errors });
    return { fixed: override.platformFixedFee.amount, variableBps: override.platformVariableFeeBps };
  }
  const standing = sending !== receiving ? standingFeeOf(tenant, sending) : undefined;
  return standing ? { fixed: standing.fixedFee.amount, variableBps: standing.variableFeeBps } : NO_PLATFORM_FEE;
}

/** The sandbox outcome of a payment (SPEC §4.6) and the side whose magic value chose it. */
function outcomeFor(source: Source, destination: Destination): { outcome: SettlementOutcome; failsAtSource: boolean } {
  if (source.kind === 'PULL') {
    const row = lookupSuffix(TRANSFER_OUTCOMES, source.identifier);
    if (row !== TRANSFER_OUTCOMES.other) return { outcome: row, failsAtSource: true };
  }
  if (destination.kind === 'EXTERNAL') {
    const table = destination.currency.code === source.currency.code ? TRANSFER_OUTCOMES : CROSS_CURRENCY_DESTINATION_OUTCOMES;
    return { outcome: lookupSuffix(table, destination.identifier), failsAtSource: false };
  }
  if (destination.kind === 'UMA' && destination.receiver.kind === 'SANDBOX') return { outcome: destination.receiver.outcome, failsAtSource: false };
  return { outcome: INTERNAL_TRANSFER_OUTCOME, failsAtSource: false };
}

/** How the payment's legs settle, for what its transaction reports (on-chain hashes, the UMA leg). */
function settlementLegsOf(source: Source, destination: Destination): Pick<QuoteRecord, 'onChainNetwork' | 'fundingChain'> {
  const chain = destination.kind === 'EXTERNAL' ? WALLET_NETWORKS[destination.account.accountInfo.accountType] : undefined;
  const fundingChain = source.kind === 'REALTIME' ? fundingNetworkChain(source.network) : undefined;
  return {
    ...(chain === undefined ? {} : { onChainNetwork: chain }),
    ...(fundingChain === undefined ? {} : { fundingChain }),
  };
}

function deliveryFor(tenant: TenantContext, destination: Destination, source: Source): Delivery {
  if (destination.kind === 'INTERNAL') {
    return { kind: 'INTERNAL_ACCOUNT', accountId: destination.account.id, ...(destination.account.customerId === undefined ? {} : { customerId: destination.account.customerId }) };
  }
  if (destination.kind === 'UMA' && destination.receiver.kind === 'CUSTOMER') {
    const sender = destination.senderUmaAddress
      ?? (source.customerId === undefined ? `$platform@${umaDomainOf(tenant)}` : findCustomer(tenant, source.customerId).umaAddress);
    return { kind: 'UMA_CUSTOMER', customerId: destination.receiver.customerId, senderUmaAddress: sender };
  }
  return { kind: 'OUTSIDE' };
}

/** The value of a payment in US cents at the mid rate (for thresholds stated in dollars). */
function usdCents(amount: number, currency: { code: string; decimals: number }): number {
  const rate = midRate(currency.code, 'USD');
  return Number((BigInt(amount) * rate.numerator * 100n) / (rate.denominator * 10n ** BigInt(currency.decimals)));
}

/** Checks of the priced payment that need its amounts: every invalid field at once, and the dedicated codes. */
function checkPricedPayment(tenant: TenantContext, request: CreateInput, source: Source, destination: Destination, priced: Price): void {
  if (destination.kind === 'EXTERNAL' && PURPOSE_REQUIRED_CURRENCIES.has(destination.currency.code) && request.purposeOfPayment === undefined) {
    throw invalidField('purposeOfPayment', `Payouts in ${destination.currency.code} need a purposeOfPayment`, { required: true });
  }
  if (destination.kind === 'EXTERNAL' && (destination.account.status === 'PENDING_OWNERSHIP_VERIFICATION' || destination.account.status === 'UNVERIFIED')
    && usdCents(priced.totalSendingAmount, source.currency) >= OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS) {
    throw new ApiError(400, 'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      `External account ${destination.account.id} is ${destination.account.status}: verify its ownership (POST .../challenge) to send ${OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS / 100} USD or more`);
  }
  checkLimits(tenant, source.customerId, source.currency, priced.totalSendingAmount, { daily: false });
}

/** Who started a payment, when not the platform itself: the agent whose transaction it is (REFERENCE §4.3 `agentId`). */
export interface QuoteOrigin {
  readonly agentId?: string;
}

/**
 * A quote priced and checked, not stored yet: what {@link placeQuote} stores. `executeNow` is whether it is executed
 * at once (`immediatelyExecute` for an account source); its pre-execution checks have passed too.
 */
export interface QuotePlan {
  readonly record: QuoteRecord;
  readonly transaction: OutgoingTransaction;
  readonly executeNow: boolean;
  readonly needsScaFor: 'none' | 'execution' | 'realtime';
}

/**
 * `POST /quotes`: prices the payment and creates its PENDING transaction; with `immediatelyExecute` also executes it.
 * Nothing is stored unless every check passes.
 */
export function createQuote(tenant: TenantContext, request: CreateInput, origin: QuoteOrigin = {}): Quote {
  return placeQuote(tenant, planQuote(tenant, request, origin));
}

/**
 * What `POST /quotes` checks and prices, with nothing stored: refusals throw here (those of an immediate execution
 * are {@link assertExecutable}'s).
 */
export function planQuote(tenant: TenantContext, request: CreateInput, origin: QuoteOrigin = {}): QuotePlan {
  const source = resolveSource(tenant, request.source);
  if (source.customerId !== undefined) assertCustomerMayPay(tenant, source.customerId);
  const destination = resolveDestination(tenant, request as QuoteRequestInput, source.customerId);
  const sourceId = accountIdOf(source);
  if (sourceId !== undefined && sourceId === accountIdOf(destination)) {
    throw new ApiError(400, 'SELF_PAYMENT', 'The source and the destination are the same account');
  }
  // A real-time funded payment executes when its money arrives, so immediatelyExecute has nothing to add: the
  // reference's own example sends it with REALTIME_FUNDING, and it is accepted and ignored.
  const executeNow = request.immediatelyExecute && source.kind !== 'REALTIME';
  const fromWallet = source.kind === 'INTERNAL' && source.account.type === 'EMBEDDED_WALLET';
  if (executeNow && fromWallet) {
    throw invalidField('immediatelyExecute', 'An embedded wallet signs its payments: execute the quote with the stamp of its payloadToSign');
  }
  if (request.lockedCurrencyAmount < 1) throw new ApiError(400, 'INVALID_AMOUNT', 'lockedCurrencyAmount must be at least 1 (the smallest unit of the currency)');
  const priced = price({
    sending: source.currency, receiving: destination.currency, lockedCurrencySide: request.lockedCurrencySide,
    lockedCurrencyAmount: request.lockedCurrencyAmount, platformFee: platformFeeFor(tenant, request, source.currency.code, destination.currency.code),
  });
  if ('failure' in priced) {
    throw priced.failure === 'TOO_LARGE'
      ? new ApiError(400, 'AMOUNT_OUT_OF_RANGE', `${request.lockedCurrencyAmount} is more than the service can move in one payment`)
      : new ApiError(400, 'INVALID_AMOUNT', `${request.lockedCurrencyAmount} ${request.lockedCurrencySide === 'SENDING' ? source.currency.code : destination.currency.code} does not cover the fees of this payment`);
  }
  checkPricedPayment(tenant, request, source, destination, priced);
  if (destination.kind === 'UMA') {
    requestSandboxPayment(tenant, {
      address: destination.address, receiver: destination.receiver, lookupId: request.lookupId!, payerCustomerId: source.customerId,
      senderCustomerInfo: request.senderCustomerInfo,
    });
  }
  failOnServerErrorTrigger(request.description);

  const now = tenant.clock.now();
  const quoteId = tenant.ids('Quote');
  const transactionId = tenant.ids('Transaction');
  const expiresAt = new Date(now + (source.kind === 'REALTIME' ? QUOTE_LIFETIME_MS.REALTIME_FUNDING : QUOTE_LIFETIME_MS.ACCOUNT)).toISOString();
  const createdAt = new Date(now).toISOString();
  const paymentInstructions = source.kind === 'REALTIME'
    ? realtimeFundingInstructions(source.currency.code, source.network, quoteId, tenant.platform.name)
    : fromWallet ? [walletSigningInstructions(tenant, quoteId, source.account.id, priced, destination)] : undefined;
  const transactionSource: OutgoingTransaction['source'] = source.kind === 'REALTIME'
    ? { sourceType: 'REALTIME_FUNDING', currency: source.currency.code, ...(source.customerId === undefined ? {} : { customerId: source.customerId }) }
    : { sourceType: 'ACCOUNT', accountId: source.account.id, currency: source.currency.code };
  const transactionDestination: OutgoingTransaction['destination'] = destination.kind === 'UMA'
    ? { destinationType: 'UMA_ADDRESS', umaAddress: destination.address, currency: destination.currency.code }
    : { destinationType: 'ACCOUNT', accountId: destination.account.id, currency: destination.currency.code };
  const rail = destination.kind === 'EXTERNAL' ? destination.rail : null;

  const transaction: OutgoingTransaction = {
    id: transactionId, type: 'OUTGOING', direction: 'DEBIT', status: 'PENDING', ...partiesOf(tenant, source.customerId),
    source: transactionSource, destination: transactionDestination,
    sentAmount: { amount: priced.totalSendingAmount, currency: source.currency },
    receivedAmount: { amount: priced.totalReceivingAmount, currency: destination.currency },
    exchangeRate: priced.exchangeRate, quoteId, fees: priced.feesIncluded, platformFees: priced.platformFeesIncluded, rateDetails: priced.rateDetails,
    reconciliationInstructions: { reference: ['RY', quoteId.slice(-12).toUpperCase()].join('-') },
    ...(paymentInstructions ? { paymentInstructions } : {}),
    ...(request.description === undefined ? {} : { description: request.description }),
    paymentRail: rail,
    ...(origin.agentId === undefined ? {} : { agentId: origin.agentId }),
    ...(destination.kind === 'EXTERNAL' ? { railSelectionMode: request.destination.destinationType === 'ACCOUNT' && request.destination.paymentRail ? 'MANUAL' : 'AUTO' } : {}),
    ...(rail ? { settlementTimelineSeconds: RAIL_SETTLEMENT_SECONDS[rail] } : {}),
    createdAt, updatedAt: createdAt,
  } as OutgoingTransaction;

  const { outcome, failsAtSource } = outcomeFor(source, destination);
  const record: QuoteRecord = {
    id: quoteId, transactionId, createdAt, expiresAt, source: request.source, destination: request.destination,
    ...(source.customerId === undefined ? {} : { customerId: source.customerId }),
    ...(failsAtSource || source.kind === 'REALTIME' ? {} : { fundFrom: sourceLedgerAccount(accountIdOf(source), source.currency.code) }),
    delivery: deliveryFor(tenant, destination, source),
    outcome,
    ...settlementLegsOf(source, destination),
  };
  const sca = (executeNow || source.kind === 'REALTIME') && needsAuthorization(tenant, record);
  if (sca && source.kind === 'REALTIME') assertScaChallengeIssuable(tenant, record.customerId!);
  return { record, transaction, executeNow, needsScaFor: !sca ? 'none' : source.kind === 'REALTIME' ? 'realtime' : 'execution' };
}

/**
 * What executing a planned quote at once would refuse, checked before anything is stored (so a refusal leaves no
 * quote behind): the daily volume, the balance, and an SCA challenge the customer can still be sent.
 */
export function assertExecutable(tenant: TenantContext, plan: QuotePlan): void {
  const { record, transaction } = plan;
  checkLimits(tenant, record.customerId, transaction.sentAmount.currency, transaction.sentAmount.amount, { daily: true });
  assertBalance(tenant, record.fundFrom, transaction.sentAmount.amount);
  if (plan.needsScaFor === 'execution') assertScaChallengeIssuable(tenant, record.customerId!);
}

/**
 * Stores a planned quote and its PENDING transaction, and executes it when the plan says so (with `executeNow`
 * false, a plan made for an immediate execution is stored for someone else to execute: an agent's action).
 */
export function placeQuote(tenant: TenantContext, plan: QuotePlan): Quote {
  const { record, transaction, executeNow } = plan;
  if (executeNow) assertExecutable(tenant, plan);
  // The payment exists from here (SPEC §3.5: the quote already carries its transactionId): OUTGOING_PAYMENT.PENDING.
  insertTransaction(tenant, transaction, true);
  quotes(tenant).insert(record);
  tenant.schedule(Date.parse(record.expiresAt) - tenant.clock.now(), EXPIRE_JOB, { quoteId: record.id }, expiryJobOf(record.id));
  if (executeNow) return executeQuote(tenant, record.id);
  // A real-time payer in an SCA region authorizes before learning where to send the money (REFERENCE §4.1: 202).
  if (plan.needsScaFor === 'realtime') return awaitAuthorization(tenant, record);
  return quoteView(tenant, record);
}

/**
 * What an embedded wallet signs to send a payment (REFERENCE §2.2, §6): the `EMBEDDED_WALLET` instructions carry
 * service-minted JSON text naming the quote, the amount and the destination; execute carries its stamp.
 */
function walletSigningInstructions(
  tenant: TenantContext, quoteId: string, accountId: string, priced: Price, destination: Destination,
): NonNullable<Quote['paymentInstructions']>[number] {
  const payloadToSign = JSON.stringify({
    organizationId: tenant.platform.id,
    parameters: {
      quoteId, accountId, amount: String(priced.totalSendingAmount),
      destination: destination.kind === 'UMA' ? destination.address : destination.account.id,
    },
    timestampMs: String(tenant.clock.now()),
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION',
    generateAppProofs: true,
  });
  return { accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign }, instructionsNotes: 'Stamp payloadToSign with a session of the wallet and execute with Service-Wallet-Signature' };
}

/**
 * `POST /quotes/{id}/execute` as the API serves it: a quote paid from an embedded wallet needs `Service-Wallet-Signature`,
 * the stamp of its payloadToSign by an active session of the wallet (no Request-Id; 401 WALLET_SIGNATURE_* otherwise).
 * The signature is checked first; execution itself then runs without yielding.
 */
export async function executeQuoteFromApi(tenant: TenantContext, quoteId: string, stamp: string | null): Promise<Quote> {
  await checkExecutionSignature(tenant, quoteId, stamp);
  return executeQuote(tenant, quoteId);
}

/**
 * A quote paid from an embedded wallet is executed only with `Service-Wallet-Signature`, the stamp of its
 * payloadToSign by an active session of the wallet (401 WALLET_SIGNATURE_* otherwise); other quotes need none.
 */
export async function checkExecutionSignature(tenant: TenantContext, quoteId: string, stamp: string | null): Promise<void> {
  const record = findRecord(tenant, quoteId);
  const signing = (findTransaction(tenant, record.transactionId) as OutgoingTransaction).paymentInstructions?.find((i) => i.accountOrWalletInfo.accountType === 'EMBEDDED_WALLET')?.accountOrWalletInfo;
  if (signing && 'payloadToSign' in signing) {
    if (stamp === null) {
      throw new ApiError(401, 'WALLET_SIGNATURE_MISSING', `Quote ${quoteId} is paid from an embedded wallet: send ${WALLET_SIGNATURE_HEADER}, the stamp of its payloadToSign`);
    }
    const accountId = (record.source as { accountId: string }).accountId;
    await checkStamp(stamp, signing.payloadToSign, sessionsOf(tenant, accountId));
  }
}

/** PENDING → EXPIRED once `expiresAt` has passed (the clock job, and any read or move that finds it overdue). */
function expireIfDue(tenant: TenantContext, record: QuoteRecord): void {
  if (Date.parse(record.expiresAt) > tenant.clock.now()) return;
  const transaction = findTransaction(tenant, record.transactionId);
  if (transaction.status === 'PENDING') moveTransaction(tenant, transaction.id, 'EXPIRED');
}

/** The name of a quote's expiry job: cancelled once the quote is paid, so no job waits for nothing. */
const expiryJobOf = (quoteId: string) => `expire:${quoteId}`;

/** The clock job of {@link EXPIRE_JOB}. */
export function expireJob(tenant: TenantContext, payload: unknown): void {
  const record = quotes(tenant).get((payload as { quoteId: string }).quoteId);
  if (record) expireIfDue(tenant, record);
}

/** 409 unless the quote can still be paid: PENDING and not past `expiresAt`. */
function assertPayable(tenant: TenantContext, record: QuoteRecord): OutgoingTransaction {
  expireIfDue(tenant, record);
  const transaction = findTransaction(tenant, record.transactionId) as OutgoingTransaction;
  if (transaction.status === 'EXPIRED') throw conflict(`Quote ${record.id} expired at ${record.expiresAt}: create a new quote`);
  if (transaction.status !== 'PENDING') throw conflict(`Quote ${record.id} was already executed (its payment is ${transaction.status})`);
  return transaction;
}

/**
 * An internal source must hold the whole amount: otherwise 409 CONFLICT (the request is valid; the account's state
 * refuses it), with `reason: INSUFFICIENT_BALANCE`, the balance and the amount required.
 */
function assertBalance(tenant: TenantContext, fundFrom: string | undefined, amount: number): void {
  if (!fundFrom?.startsWith('InternalAccount:')) return;
  const { balance } = findInternalAccount(tenant, fundFrom);
  if (balance.amount < amount) {
    throw conflict(`Internal account ${fundFrom} holds ${balance.amount}, less than the ${amount} this payment needs`, 'CONFLICT', {
      reason: 'INSUFFICIENT_BALANCE', balance: balance.amount, required: amount,
    });
  }
}

/** Takes the money and starts settlement; an internal source must hold the whole amount (409, see assertBalance). */
function pay(
  tenant: TenantContext, record: QuoteRecord, transaction: OutgoingTransaction, fundFrom: string | undefined, amount: number,
  outcome: SettlementOutcome = record.outcome,
): void {
  assertBalance(tenant, fundFrom, amount);
  tenant.cancelJob(expiryJobOf(record.id));
  startPayment(tenant, transaction.id, {
    from: fundFrom, amount, delivery: record.delivery, outcome, onChainNetwork: record.onChainNetwork,
  });
}

/**
 * `POST /quotes/{id}/execute`: sends the payment of an account-funded quote. 409 for an executed or expired quote and
 * for real-time funding (paid by sending money, never by call); 429 over the daily volume. Synchronous from check to
 * debit, so concurrent executes of one quote make one payment.
 */
export function executeQuote(tenant: TenantContext, quoteId: string): Quote {
  const record = findRecord(tenant, quoteId);
  if (record.source.sourceType === 'REALTIME_FUNDING') {
    throw conflict(`Quote ${quoteId} is funded in real time: it executes when the money arrives at its paymentInstructions (POST /sandbox/send in the sandbox)`);
  }
  const transaction = assertPayable(tenant, record);
  if (record.customerId !== undefined) assertCustomerMayPay(tenant, record.customerId);
  checkLimits(tenant, record.customerId, transaction.sentAmount.currency, transaction.sentAmount.amount, { daily: true });
  if (needsAuthorization(tenant, record)) return awaitAuthorization(tenant, record);
  pay(tenant, record, transaction, record.fundFrom, transaction.sentAmount.amount);
  return quoteView(tenant, record);
}

/**
 * Whether the paying customer must pass strong customer authentication (an SCA region; SPEC §5 item 7), unless the
 * payment goes to a beneficiary the customer trusts (REFERENCE §9: trust skips the per-payment challenge).
 */
const needsAuthorization = (tenant: TenantContext, record: QuoteRecord): boolean =>
  record.customerId !== undefined && isScaCustomer(findCustomer(tenant, record.customerId))
  && !paysTrustedBeneficiary(tenant, record.customerId, record.destination.destinationType === 'ACCOUNT' ? record.destination.accountId : undefined);

/** What the challenge authorizes, for the customer's SMS and the challenge's `purpose`. */
function purposeOf(tenant: TenantContext, record: QuoteRecord): string {
  const transaction = findTransaction(tenant, record.transactionId) as OutgoingTransaction;
  if (transaction.sentAmount.currency.code !== transaction.receivedAmount!.currency.code) return 'CURRENCY_CONVERSION';
  return record.delivery.kind === 'OUTSIDE' ? 'PAYOUT' : 'TRANSFER';
}
const scaSubject = (quoteId: string) => `quote:${quoteId}`;

/** PENDING → PENDING_AUTHORIZATION with an SCA challenge; unanswered by its expiry, the payment fails SCA_NOT_COMPLETED. */
function awaitAuthorization(tenant: TenantContext, record: QuoteRecord): Quote {
  const challenge = issueScaChallenge(tenant, record.customerId!, scaSubject(record.id), purposeOf(tenant, record));
  tenant.cancelJob(expiryJobOf(record.id)); // from here the SCA timeout ends an unanswered payment
  const updated: QuoteRecord = { ...record, scaChallenge: challenge, scaCodeSentAt: tenant.nowIso() };
  quotes(tenant).replace(updated);
  moveTransaction(tenant, record.transactionId, 'PENDING_AUTHORIZATION');
  tenant.schedule(Date.parse(challenge.expiresAt) - tenant.clock.now(), SCA_TIMEOUT_JOB, { quoteId: record.id });
  return quoteView(tenant, updated);
}

/** The clock job of {@link SCA_TIMEOUT_JOB}. */
export function scaTimeoutJob(tenant: TenantContext, payload: unknown): void {
  const record = quotes(tenant).get((payload as { quoteId: string }).quoteId);
  if (!record) return;
  const transaction = findTransaction(tenant, record.transactionId);
  if (transaction.status === 'PENDING_AUTHORIZATION') moveTransaction(tenant, transaction.id, 'FAILED', { failureReason: 'SCA_NOT_COMPLETED' });
}

/** A quote waiting for authorization, or 409 (not an SCA payment, or nothing pending). */
function awaitingAuthorization(tenant: TenantContext, quoteId: string): { record: QuoteRecord; transaction: OutgoingTransaction } {
  const record = findRecord(tenant, quoteId);
  const transaction = findTransaction(tenant, record.transactionId) as OutgoingTransaction;
  if (transaction.status !== 'PENDING_AUTHORIZATION' || !record.scaChallenge) {
    throw conflict(`Quote ${quoteId} is ${transaction.status}: nothing waits for strong customer authorization`);
  }
  return { record, transaction };
}

/**
 * `POST /quotes/{id}/authorize`: answers the quote's SCA challenge. Needs an SCA login session (409
 * SCA_SESSION_REQUIRED) and an unlocked customer (423), checked before the rate limit (429) counts the answer; a wrong
 * code is 400 and counts towards the lockout (423). Then an account-funded payment is
 * sent, and a real-time funding quote shows where to send the money. The payment's own checks (balance, limits) run
 * before the answer is taken, so a refused payment keeps its challenge.
 */
export function authorizeQuote(tenant: TenantContext, quoteId: string, answer: z.output<typeof QuoteAuthorizeRequest>): Quote {
  const { record: waiting, transaction } = awaitingAuthorization(tenant, quoteId);
  const customerId = waiting.customerId!;
  // Refusals that answer nothing come first and count nothing: no session (409), then a locked customer (423).
  assertScaSession(tenant, customerId);
  assertNotLocked(tenant, customerId);
  const record = countAuthorizeAttempt(tenant, waiting);
  const realtime = record.source.sourceType === 'REALTIME_FUNDING';
  if (!realtime) {
    assertCustomerMayPay(tenant, customerId);
    checkLimits(tenant, customerId, transaction.sentAmount.currency, transaction.sentAmount.amount, { daily: true });
    assertBalance(tenant, record.fundFrom, transaction.sentAmount.amount);
  }
  answerScaChallenge(tenant, customerId, scaSubject(record.id), answer);
  if (realtime) moveTransaction(tenant, transaction.id, 'PENDING');
  else pay(tenant, record, findTransaction(tenant, transaction.id) as OutgoingTransaction, record.fundFrom, transaction.sentAmount.amount);
  return quoteView(tenant, record);
}

/**
 * Counts one answer to the quote's challenge, or 429 RATE_LIMITED when {@link SCA_AUTHORIZE_ATTEMPTS} already came within
 * the last {@link SCA_AUTHORIZE_WINDOW_MS} (Retry-After: until the oldest of them leaves the window). Runs after the
 * session and lockout checks: answers refused 409 SCA_SESSION_REQUIRED, 423 ACCOUNT_LOCKED or 429 are not counted.
 */
function countAuthorizeAttempt(tenant: TenantContext, record: QuoteRecord): QuoteRecord {
  const now = tenant.clock.now();
  const recent = (record.authorizeAttemptsAt ?? []).filter((at) => Date.parse(at) > now - SCA_AUTHORIZE_WINDOW_MS);
  if (recent.length >= SCA_AUTHORIZE_ATTEMPTS) {
    throw rateLimited(`More than ${SCA_AUTHORIZE_ATTEMPTS} answers to this challenge within ${SCA_AUTHORIZE_WINDOW_MS / 1000} seconds`, Date.parse(recent[0]!) + SCA_AUTHORIZE_WINDOW_MS - now);
  }
  const counted: QuoteRecord = { ...record, authorizeAttemptsAt: [...recent, new Date(now).toISOString()] };
  quotes(tenant).replace(counted);
  return counted;
}

/** `POST /quotes/{id}/authorize/resend`: the SMS code again, at most every {@link SCA_RESEND_INTERVAL_MS}. */
export function resendQuoteAuthorization(tenant: TenantContext, quoteId: string): void {
  const { record } = awaitingAuthorization(tenant, quoteId);
  if (record.scaChallenge!.factor !== 'SMS_OTP') throw conflict(`Quote ${quoteId} waits for a ${record.scaChallenge!.factor}, which has no code to resend`);
  const now = tenant.clock.now();
  const wait = Date.parse(record.scaCodeSentAt!) + SCA_RESEND_INTERVAL_MS - now;
  if (wait > 0) throw rateLimited(`The code was sent less than ${SCA_RESEND_INTERVAL_MS / 1000} seconds ago`, wait);
  quotes(tenant).replace({ ...record, scaCodeSentAt: new Date(now).toISOString() });
}

/**
 * `POST /sandbox/send`: the payer of a real-time funding quote sends the money. The currency must be the quote's
 * sending currency (400 INVALID_CURRENCY); another amount than `totalSendingAmount` arrives, fails the payment with
 * FUNDING_AMOUNT_MISMATCH and is sent back.
 */
export function sandboxSend(tenant: TenantContext, request: z.output<typeof SandboxSendRequest>): Transaction {
  const record = findRecord(tenant, request.quoteId);
  if (record.source.sourceType !== 'REALTIME_FUNDING') {
    throw conflict(`Quote ${record.id} is paid from an account: execute it with POST /quotes/{id}/execute`);
  }
  const priced = findTransaction(tenant, record.transactionId) as OutgoingTransaction;
  const sending = priced.sentAmount.currency.code;
  if (request.currencyCode !== sending) {
    throw new ApiError(400, 'INVALID_CURRENCY', `Quote ${record.id} is funded in ${sending}, not ${request.currencyCode}`, {
      errors: [{ field: 'currencyCode', message: `must be ${sending}`, constraint: { enum: [sending] } }],
    });
  }
  const transaction = assertPayable(tenant, record);
  const amount = request.currencyAmount ?? priced.sentAmount.amount;
  const from = sourceLedgerAccount(undefined, sending);
  if (record.fundingChain !== undefined) {
    // The payer's transfer is on-chain: its hash is the source's onChainTransaction.
    const onChainTransaction = { transactionHash: sandboxTransactionHash(record.fundingChain, transaction.id, 'funding'), network: record.fundingChain };
    patchTransaction(tenant, transaction.id, { source: { ...transaction.source, onChainTransaction } as OutgoingTransaction['source'] });
  }
  // The money arrived: a payment that no longer fits today's volume is sent back (LIMIT_EXCEEDED), as are wrong amounts.
  const refusal = amount !== priced.sentAmount.amount ? 'FUNDING_AMOUNT_MISMATCH'
    : exceedsDailyVolume(tenant, record.customerId, sending, amount) ? 'LIMIT_EXCEEDED' : undefined;
  pay(tenant, record, findTransaction(tenant, transaction.id) as OutgoingTransaction, from, amount, refusal === undefined ? record.outcome : { settle: 'FAIL', afterMs: 0, failureReason: refusal });
  return findTransaction(tenant, transaction.id);
}


/**
 * A transfer-in's amount: the one sent, else as much as one pull may carry, the platform's single-transaction maximum
 * for the source's currency. The reference leaves `amount` optional and gives an omitted one no meaning; the sandbox's
 * banks keep no balance for an external account (a pull fails only by its magic suffix), so "pull everything" is the
 * most one pull may take. An agent's policy weighs that amount like any other.
 */
export function transferInAmount(tenant: TenantContext, request: z.output<typeof TransferInRequest>): number {
  if (request.amount !== undefined) return request.amount;
  const { currency } = findExternalAccount(tenant, request.source.accountId);
  // A currency the platform does not offer is refused by the quote, whatever the amount.
  return currencyTermsOf(tenant, currency)?.maxAmount ?? 1;
}

/**
 * A transfer-out's amount: the one sent, else the source's whole available `balance` now. An empty source is 409
 * CONFLICT (`reason: INSUFFICIENT_BALANCE`, as a payment larger than the balance is), not a zero payment.
 */
export function transferOutAmount(tenant: TenantContext, request: z.output<typeof TransferOutRequest>): number {
  if (request.amount !== undefined) return request.amount;
  const { balance, customerId } = findInternalAccount(tenant, request.source.accountId);
  if (balance.amount < 1) {
    // A payer that may not pay, or an unknown payee, is told so first, as it is when the amount is sent.
    if (customerId !== undefined) assertCustomerMayPay(tenant, customerId);
    findExternalAccount(tenant, request.destination.accountId);
    throw conflict(`Internal account ${request.source.accountId} holds nothing to send: a transfer-out without an amount sends its whole available balance`, 'CONFLICT', {
      reason: 'INSUFFICIENT_BALANCE', balance: balance.amount,
    });
  }
  return balance.amount;
}

/**
 * `POST /transfer-in` (deprecated, REFERENCE §9): a pull from an external account into an internal account, as
 * `POST /quotes` with `immediatelyExecute` would make it. Returns the transaction.
 */
export function transferIn(tenant: TenantContext, request: z.output<typeof TransferInRequest>, origin: QuoteOrigin = {}): Transaction {
  const quote = createQuote(tenant, {
    source: { sourceType: 'ACCOUNT', accountId: request.source.accountId },
    destination: { destinationType: 'ACCOUNT', accountId: request.destination.accountId },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: transferInAmount(tenant, request), immediatelyExecute: true,
  }, origin);
  return findTransaction(tenant, quote.transactionId);
}

/**
 * `POST /transfer-out` (deprecated, REFERENCE §9): a payout from an internal account, as an immediately executed quote.
 * Without `amount` it sends the source's whole available balance ({@link transferOutAmount}).
 */
export function transferOut(tenant: TenantContext, request: z.output<typeof TransferOutRequest>, origin: QuoteOrigin = {}): Transaction {
  const quote = createQuote(tenant, {
    source: { sourceType: 'ACCOUNT', accountId: request.source.accountId },
    destination: { destinationType: 'ACCOUNT', accountId: request.destination.accountId, ...(request.destination.paymentRail ? { paymentRail: request.destination.paymentRail } : {}) },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: transferOutAmount(tenant, request), immediatelyExecute: true,
    ...(request.remittanceInformation === undefined ? {} : { remittanceInformation: request.remittanceInformation }),
    ...(request.purposeOfPayment === undefined ? {} : { purposeOfPayment: request.purposeOfPayment }),
  }, origin);
  return findTransaction(tenant, quote.transactionId);
}
