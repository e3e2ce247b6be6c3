/**
 * UMA addresses (SPEC §4.6; REFERENCE §9, §13, §14): who sits behind an address, the lookup a quote is made with, and
 * UMA payments arriving for the platform's customers. The sandbox reaches two kinds of receiver: the platform's own
 * customers (at its `umaDomain`) and the sandbox receivers of {@link sandboxReceiverOf} at each of {@link SANDBOX_UMA_DOMAINS}:
 * some settle, some fail as a counterparty would, at the lookup or at the quote, and some ask for payer data.
 */
import type { Currency, IncomingTransaction, UmaReceiverLookup } from '@railyard/contract';
import { SandboxUmaReceiveRequest, UmaAddress } from '@railyard/contract';
import { z } from 'zod';
import { accountsOf } from '../accounts/internal-accounts.js';
import { CURRENCIES } from '../config/currencies.js';
import { marketCurrency, midRate, ratioToNumber } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { findCustomer, findCustomerByUmaAddress, type CustomerRecord } from '../customers/customers.js';
import { listExternalAccountsOf } from '../external-accounts/external-accounts.js';
import { CUSTOMER_FIELD_PATHS, valueAt } from '../customers/required-fields.js';
import { SANDBOX_UMA_DOMAINS, sandboxReceiverOf, type CounterpartyFailure, type SandboxReceiver, type SettlementOutcome } from '../sandbox/magic-values.js';
import { settingsOf } from '../platforms/config.js';
import { receivePayment } from '../transactions/incoming.js';

/** Who receives at an address: a customer of this platform, or a sandbox receiver with its fixed outcome. */
export type UmaReceiver =
  | { kind: 'CUSTOMER'; customerId: string; currencies: string[] }
  | { kind: 'SANDBOX'; sandbox: SandboxReceiver; outcome: SettlementOutcome; currencies: string[] };

/**
 * A stored receiver lookup (snapshot-safe): a quote to an UMA address names one, and a quote to an external account
 * may. One collection for both kinds keeps one `Lookup:` id space, so a lookup of one kind used for the other is a 400
 * (another receiver), never a 404.
 */
export const UmaLookupRecord = z.object({
  id: z.string(),
  /** The receiver of an UMA address lookup. */
  receiverUmaAddress: z.string().optional(),
  /** The receiver of an external-account lookup (`GET /receiver/external-account/{accountId}`). */
  accountId: z.string().optional(),
  /** The paying customer; absent when the platform pays. */
  customerId: z.string().optional(),
  /** The UMA address the payment is sent from, when the lookup named one. */
  senderUmaAddress: z.string().optional(),
  createdAt: z.string(),
  /** Set when a quote with this lookup failed with a once-failing sandbox receiver: the next quote goes through. */
  quoteFailedOnce: z.boolean().optional(),
});
export type UmaLookupRecord = z.infer<typeof UmaLookupRecord>;

export const UMA_LOOKUPS = 'umaLookups';
const lookups = (tenant: TenantContext) => tenant.store.collection<UmaLookupRecord>(UMA_LOOKUPS);

/** An address in canonical form (lowercase), or 400 INVALID_UMA_ADDRESS naming `field`. */
export function parseUmaAddress(address: string, field: string): string {
  if (!UmaAddress.safeParse(address).success) {
    throw new ApiError(400, 'INVALID_UMA_ADDRESS', `${field}: ${JSON.stringify(address.slice(0, 80))} is not an UMA address ($<username>@<domain>)`, {
      errors: [{ field, message: 'must be an UMA address such as $alice@example.com' }],
    });
  }
  return address.toLowerCase();
}

/** The receiver behind a canonical address, or undefined when nobody the sandbox knows receives there. */
export function findReceiver(tenant: TenantContext, address: string): UmaReceiver | undefined {
  const sandbox = sandboxReceiverOf(address);
  if (sandbox) return marketCurrency(sandbox.currency) ? { kind: 'SANDBOX', sandbox, outcome: sandbox.outcome, currencies: [sandbox.currency] } : undefined;
  if ((SANDBOX_UMA_DOMAINS as readonly string[]).includes(address.split('@')[1] ?? '')) return undefined;
  const customer = findCustomerByUmaAddress(tenant, address);
  return customer && { kind: 'CUSTOMER', customerId: customer.id, currencies: receivingCurrencies(tenant, customer) };
}


/** What a customer can receive by UMA: the currency of its default deposit account, else those of its internal accounts. */
function receivingCurrencies(tenant: TenantContext, customer: CustomerRecord): string[] {
  const deposit = defaultDepositAccount(tenant, customer.id);
  return deposit ? [deposit.currency] : accountsOf(tenant, customer.id).map((a) => a.balance.currency.code);
}

const defaultDepositAccount = (tenant: TenantContext, customerId: string) =>
  listExternalAccountsOf(tenant, customerId).find((a) => a.defaultUmaDepositAccount === true && marketCurrency(a.currency) !== undefined);

/** The address of the paying customer, which must not be the receiver (400 SELF_PAYMENT). */
function assertNotSelf(tenant: TenantContext, payerCustomerId: string | undefined, receiver: string): void {
  if (payerCustomerId !== undefined && findCustomer(tenant, payerCustomerId).umaAddress === receiver) {
    throw new ApiError(400, 'SELF_PAYMENT', `${receiver} is the paying customer's own UMA address`);
  }
}

/** Who asks a receiver lookup: the paying customer (404 if unknown) and the sender address (400 if malformed). */
export interface LookupParties {
  customerId: string | undefined;
  senderUmaAddress: string | undefined;
}

/** The parties of a lookup query, checked: the same rules for every kind of receiver lookup. */
export function lookupPartiesOf(tenant: TenantContext, query: { customerId?: string | undefined; senderUmaAddress?: string | undefined }): LookupParties {
  const senderUmaAddress = query.senderUmaAddress === undefined ? undefined : parseUmaAddress(query.senderUmaAddress, 'senderUmaAddress');
  if (query.customerId !== undefined) findCustomer(tenant, query.customerId);
  return { customerId: query.customerId, senderUmaAddress };
}

/** Stores a lookup of `receiver` by `parties` and returns its `Lookup:` id, the one a quote names. */
export function storeLookup(tenant: TenantContext, receiver: { receiverUmaAddress: string } | { accountId: string }, parties: LookupParties): string {
  const record: UmaLookupRecord = {
    id: tenant.ids('Lookup'), ...receiver, createdAt: tenant.nowIso(),
    ...(parties.customerId === undefined ? {} : { customerId: parties.customerId }),
    ...(parties.senderUmaAddress === undefined ? {} : { senderUmaAddress: parties.senderUmaAddress }),
  };
  lookups(tenant).insert(record);
  return record.id;
}

/** A stored lookup by id, or 404 LOOKUP_REQUEST_NOT_FOUND. */
export function findLookup(tenant: TenantContext, lookupId: string): UmaLookupRecord {
  const lookup = lookups(tenant).get(lookupId);
  if (!lookup) throw notFound('Lookup', lookupId, 'LOOKUP_REQUEST_NOT_FOUND');
  return lookup;
}

/**
 * What a receiver takes in a currency, as lookups answer it: the rate from USD at the sandbox mid rate (an estimate,
 * not locked), and receiving amounts from 1 minor unit to the currency's maximum.
 */
export function receiverCurrencyTerms(code: string): UmaReceiverLookup['supportedCurrencies'][number] {
  const currency = marketCurrency(code)!;
  return { currency, estimatedExchangeRate: ratioToNumber(midRate('USD', code)), min: 1, max: maxAmountOf(currency) };
}

/**
 * `GET /receiver/uma/{address}`: 404 UMA_NOT_FOUND when nobody receives there; 400 SELF_PAYMENT when the address is the
 * payer's own, or the `senderUmaAddress` given.
 */
export function lookupReceiver(
  tenant: TenantContext, rawAddress: string, query: { customerId?: string | undefined; senderUmaAddress?: string | undefined },
): UmaReceiverLookup {
  const address = parseUmaAddress(rawAddress, 'receiverUmaAddress');
  const parties = lookupPartiesOf(tenant, query);
  const receiver = findReceiver(tenant, address);
  if (!receiver) throw notFound('UMA receiver', address, 'UMA_NOT_FOUND');
  assertNotSelf(tenant, parties.customerId, address);
  if (parties.senderUmaAddress === address) throw new ApiError(400, 'SELF_PAYMENT', `${address} is the sender's own UMA address`);
  assertLookupSucceeds(address, receiver);
  return {
    lookupId: storeLookup(tenant, { receiverUmaAddress: address }, parties),
    receiverUmaAddress: address,
    supportedCurrencies: receiver.currencies.map(receiverCurrencyTerms),
    ...(receiver.kind === 'SANDBOX' && receiver.sandbox.requiredPayerDataFields
      ? { requiredPayerDataFields: receiver.sandbox.requiredPayerDataFields.map((field) => ({ ...field })) }
      : {}),
  };
}

/**
 * The refusal of a failing sandbox counterparty (SPEC §2.4 shape), naming what it did. A 501 says `x-should-retry:
 * false`, since generated SDKs retry every 5xx and an unknown payee data key stays unknown.
 */
function counterpartyError(address: string, failure: CounterpartyFailure): ApiError {
  return new ApiError(failure.status, failure.code, `The counterparty of ${address} ${failure.behaviour} (sandbox receiver)`, {
    receiverUmaAddress: address, step: failure.step,
  }, failure.status === 501 ? { 'x-should-retry': 'false' } : undefined);
}

/** A sandbox receiver that fails at the lookup step refuses here: the lookup, or a quote naming it (which contacts it again). */
function assertLookupSucceeds(address: string, receiver: UmaReceiver | undefined): void {
  const failure = receiver?.kind === 'SANDBOX' ? receiver.sandbox.failure : undefined;
  if (failure?.step === 'lookup') throw counterpartyError(address, failure);
}

const maxAmountOf = (currency: Currency): number => CURRENCIES[currency.code]?.maxAmount ?? 1_000_000 * 10 ** currency.decimals;

/**
 * The receiver a quote pays, from its lookup: 404 LOOKUP_REQUEST_NOT_FOUND for an unknown id, 400 when the lookup was
 * made for another address. Who looked the receiver up does not bind who pays, but a sender address the lookup named
 * is used only when the same payer pays.
 */
export function receiverForQuote(
  tenant: TenantContext, lookupId: string, rawAddress: string, payerCustomerId: string | undefined,
): { address: string; receiver: UmaReceiver; senderUmaAddress: string | undefined } {
  const address = parseUmaAddress(rawAddress, 'destination.umaAddress');
  assertLookupSucceeds(address, findReceiver(tenant, address));
  const lookup = findLookup(tenant, lookupId);
  if (lookup.receiverUmaAddress !== address) throw invalidField('lookupId', `This lookup is for ${lookup.receiverUmaAddress ?? lookup.accountId}, not ${address}`);
  assertNotSelf(tenant, payerCustomerId, address);
  const receiver = findReceiver(tenant, address);
  if (!receiver) throw notFound('UMA receiver', address, 'UMA_NOT_FOUND');
  // The sender address a lookup named is the looking-up payer's: another payer sends from its own address.
  const senderUmaAddress = lookup.customerId === payerCustomerId ? lookup.senderUmaAddress : undefined;
  return { address, receiver, senderUmaAddress };
}

/**
 * The payment request of a quote to a sandbox receiver (after the quote's own checks, before anything is stored): a
 * receiver failing at the quote step refuses it (a once-failing one only the first quote of each lookup, which its
 * lookup remembers), and a receiver asking for payer data refuses with 400 MISSING_MANDATORY_USER_INFO, listing every
 * mandatory field that neither `senderCustomerInfo` nor the paying customer's own record gives.
 */
export function requestSandboxPayment(
  tenant: TenantContext,
  request: { address: string; receiver: UmaReceiver; lookupId: string; payerCustomerId: string | undefined; senderCustomerInfo: Record<string, unknown> | undefined },
): void {
  if (request.receiver.kind !== 'SANDBOX') return;
  const { failure, requiredPayerDataFields = [] } = request.receiver.sandbox;
  if (failure?.step === 'quote') {
    if (!failure.failsOnce) throw counterpartyError(request.address, failure);
    const lookup = lookups(tenant).get(request.lookupId)!;
    if (!lookup.quoteFailedOnce) {
      lookups(tenant).replace({ ...lookup, quoteFailedOnce: true });
      throw counterpartyError(request.address, failure);
    }
  }
  const payer = request.payerCustomerId === undefined ? undefined : findCustomer(tenant, request.payerCustomerId);
  const given = (value: unknown) => value !== undefined && value !== null && value !== '';
  const missing = requiredPayerDataFields.filter(({ name, mandatory }) => {
    if (!mandatory || given(request.senderCustomerInfo?.[name])) return false;
    const path = CUSTOMER_FIELD_PATHS[name]?.[payer?.customerType ?? 'INDIVIDUAL'];
    return payer === undefined || path === undefined || !given(valueAt(payer, path));
  });
  if (missing.length > 0) {
    const names = missing.map((field) => field.name);
    throw new ApiError(400, 'MISSING_MANDATORY_USER_INFO',
      `The receiver ${request.address} requires payer data the sender lacks: ${names.join(', ')}; give it in senderCustomerInfo or on the customer`, {
        errors: names.map((name) => ({ field: `senderCustomerInfo.${name}`, message: 'is mandatory for this receiver', constraint: { required: true } })),
      });
  }
}

/**
 * Where an UMA payment to a customer lands: its default UMA deposit account when that takes the currency (the money is
 * forwarded there), else its internal account in the currency; undefined when it holds neither.
 */
export function umaDepositAccount(tenant: TenantContext, customerId: string, currencyCode: string): string | undefined {
  const deposit = defaultDepositAccount(tenant, customerId);
  if (deposit?.currency === currencyCode) return deposit.id;
  return accountsOf(tenant, customerId).find((a) => a.balance.currency.code === currencyCode)?.id;
}

/**
 * Delivers an UMA payment to a customer of this platform at {@link umaDepositAccount}. 400 INVALID_CURRENCY when it
 * holds no account for the currency.
 */
export function deliverToCustomer(
  tenant: TenantContext, customerId: string, senderUmaAddress: string, amount: number, currencyCode: string,
  options: { quoteId?: string; awaitApproval?: boolean } = {},
): IncomingTransaction {
  const currency = marketCurrency(currencyCode);
  const accountId = umaDepositAccount(tenant, customerId, currencyCode);
  if (!currency || accountId === undefined) {
    throw new ApiError(400, 'INVALID_CURRENCY', `Customer ${customerId} cannot receive ${currencyCode}: it holds no ${currencyCode} account`);
  }
  return receivePayment(tenant, {
    accountId, customerId, amount, currency, description: `UMA payment from ${senderUmaAddress}`,
    source: { sourceType: 'UMA_ADDRESS', umaAddress: senderUmaAddress, currency: currencyCode },
    ...(options.quoteId === undefined ? {} : { quoteId: options.quoteId }),
    ...(options.awaitApproval ? { awaitApproval: true } : {}),
  });
}

/**
 * `POST /sandbox/uma/receive`: an UMA payment from elsewhere arrives for a customer of this platform. When the platform
 * has a webhook endpoint the payment waits for its approval (PENDING); otherwise it completes at once.
 */
export function receiveUmaPayment(tenant: TenantContext, request: z.output<typeof SandboxUmaReceiveRequest>): IncomingTransaction {
  const sender = parseUmaAddress(request.senderUmaAddress, 'senderUmaAddress');
  let customer: CustomerRecord;
  if (request.customerId !== undefined) {
    customer = findCustomer(tenant, request.customerId);
    // Both given: the customer wins, unless the address is another customer's (then the request contradicts itself).
    const named = request.receiverUmaAddress === undefined ? undefined : findCustomerByUmaAddress(tenant, request.receiverUmaAddress.toLowerCase());
    if (named !== undefined && named.id !== customer.id) {
      throw invalidField('receiverUmaAddress', `is the UMA address of customer ${named.id}, not of customerId ${customer.id}; send one of them`);
    }
  } else {
    const address = parseUmaAddress(request.receiverUmaAddress!, 'receiverUmaAddress');
    const found = findCustomerByUmaAddress(tenant, address);
    if (!found) throw notFound('UMA receiver', address, 'UMA_NOT_FOUND');
    customer = found;
  }
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customer.id} was deleted`);
  if (customer.umaAddress === sender) throw new ApiError(400, 'SELF_PAYMENT', `${sender} is the receiving customer's own UMA address`);
  // A platform with a webhook endpoint answers INCOMING_PAYMENT.PENDING (REFERENCE §8); one without takes every payment.
  const awaitApproval = settingsOf(tenant).webhookEndpoint !== undefined;
  return deliverToCustomer(tenant, customer.id, sender, request.receivingCurrencyAmount, request.receivingCurrencyCode, { awaitApproval });
}

