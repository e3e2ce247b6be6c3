/**
 * Who pays and who is paid (SPEC §4.5; REFERENCE §4.1): a quote's source and destination resolved to the platform's
 * accounts, customers and UMA receivers, with the rules that decide whether money may move between them at all.
 */
import type { Currency, ExternalAccount, InternalAccount, PaymentRail, QuoteRequest } from '@railyard/contract';
import { findInternalAccount } from '../accounts/internal-accounts.js';
import { FUNDING_NETWORKS } from '../accounts/funding-instructions.js';
import { CURRENCIES } from '../config/currencies.js';
import { marketCurrency } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField } from '../core/errors.js';
import { findCustomer, statusOf } from '../customers/customers.js';
import { userNotReady } from '../customers/readiness.js';
import { reviewUnderWay } from '../verification/verification.js';
import { findExternalAccount, primaryIdentifier } from '../external-accounts/external-accounts.js';
import { currencyTermsOf } from '../platforms/config.js';
import { receiverForQuote, type UmaReceiver } from '../uma/uma.js';
import { assertLookupFor } from '../lookups/lookups.js';
import { PULLABLE_ACCOUNT_TYPES } from './rules.js';

type Request = QuoteRequest & { destination: QuoteRequest['destination'] };

export type Source =
  | { kind: 'INTERNAL'; account: InternalAccount; customerId: string | undefined; currency: Currency }
  | { kind: 'PULL'; account: ExternalAccount; customerId: string | undefined; currency: Currency; identifier: string | undefined }
  | { kind: 'REALTIME'; customerId: string | undefined; currency: Currency; network: string | undefined };

export type Destination =
  | { kind: 'INTERNAL'; account: InternalAccount; currency: Currency }
  | { kind: 'EXTERNAL'; account: ExternalAccount; currency: Currency; rail: PaymentRail | null; identifier: string | undefined }
  | { kind: 'UMA'; address: string; receiver: UmaReceiver; currency: Currency; senderUmaAddress: string | undefined };

const isInternalId = (id: string) => id.startsWith('InternalAccount:');

/** A currency the platform transacts in, or 400 INVALID_CURRENCY. */
function platformCurrency(tenant: TenantContext, code: string, field: string): Currency {
  const currency = marketCurrency(code);
  if (!currency || !CURRENCIES[code] || !currencyTermsOf(tenant, code)) {
    throw new ApiError(400, 'INVALID_CURRENCY', `${field}: the platform does not transact in ${code}`, { errors: [{ field, message: `${code} is not a supported currency` }] });
  }
  return currency;
}

/** The quote's source (404 for an unknown account; 400 for an account that cannot pay). */
export function resolveSource(tenant: TenantContext, source: Request['source']): Source {
  if (source.sourceType === 'REALTIME_FUNDING') {
    if (source.customerId !== undefined) findCustomer(tenant, source.customerId);
    const currency = platformCurrency(tenant, source.currency, 'source.currency');
    const networks = FUNDING_NETWORKS[currency.code];
    if (networks && (source.cryptoNetwork === undefined || !networks.includes(source.cryptoNetwork))) {
      throw invalidField('source.cryptoNetwork', `${currency.code} is funded on ${networks.join(', ')}: name one`, { enum: [...networks] });
    }
    return { kind: 'REALTIME', customerId: source.customerId, currency, network: networks ? source.cryptoNetwork : undefined };
  }
  if (isInternalId(source.accountId)) {
    const account = findInternalAccount(tenant, source.accountId);
    if (account.status !== 'ACTIVE') throw invalidField('source.accountId', `Internal account ${account.id} is ${account.status}; only ACTIVE accounts can pay`);
    return { kind: 'INTERNAL', account, customerId: account.customerId, currency: account.balance.currency };
  }
  const account = findExternalAccount(tenant, source.accountId);
  if (!PULLABLE_ACCOUNT_TYPES.has(account.accountInfo.accountType)) {
    throw invalidField('source.accountId', `Money cannot be pulled from a ${account.accountInfo.accountType}; pullable sources: ${[...PULLABLE_ACCOUNT_TYPES].join(', ')}`);
  }
  if (account.status !== 'ACTIVE') throw invalidField('source.accountId', `External account ${account.id} is ${account.status}; only ACTIVE accounts can be pulled from`);
  const currency = platformCurrency(tenant, account.currency, 'source.accountId');
  return { kind: 'PULL', account, customerId: account.customerId ?? undefined, currency, identifier: primaryIdentifier(account.accountInfo as never) };
}

/**
 * The customer paying must be able to: not deleted (410), verified (403 USER_NOT_READY), and on an unregulated
 * platform it must have accepted the end-user terms (403 END_USER_TERMS_NOT_ACCEPTED; REFERENCE §2.1).
 */
export function assertCustomerMayPay(tenant: TenantContext, customerId: string): void {
  const customer = findCustomer(tenant, customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${customerId} was deleted`);
  const status = statusOf(customer);
  if (status !== 'APPROVED') throw userNotReady(tenant, customer, status, reviewUnderWay(tenant, customer.id));
  if (!tenant.platform.regulated && customer.endUserTermsConsent === undefined) {
    throw new ApiError(403, 'END_USER_TERMS_NOT_ACCEPTED', `Customer ${customerId} has not accepted the end-user terms: record endUserTermsConsent with PATCH /customers/{id}`);
  }
}

/** The quote's destination (404 unknown; 400 for one that cannot receive). */
export function resolveDestination(tenant: TenantContext, request: Request, payer: string | undefined): Destination {
  const { destination } = request;
  if (destination.destinationType === 'UMA_ADDRESS') {
    const { address, receiver, senderUmaAddress } = receiverForQuote(tenant, request.lookupId!, destination.umaAddress, payer);
    const code = destination.currency ?? receiver.currencies[0];
    if (code === undefined || !receiver.currencies.includes(code)) {
      throw new ApiError(400, 'INVALID_CURRENCY', `${address} receives ${receiver.currencies.join(', ') || 'nothing'}, not ${code}`, {
        errors: [{ field: 'destination.currency', message: `must be one of ${receiver.currencies.join(', ')}`, constraint: { enum: receiver.currencies } }],
      });
    }
    return { kind: 'UMA', address, receiver, currency: marketCurrency(code)!, senderUmaAddress };
  }
  // A rail named for an internal account is moot (internal transfers take none) and ignored.
  if (isInternalId(destination.accountId)) {
    const account = findInternalAccount(tenant, destination.accountId);
    if (account.status !== 'ACTIVE') throw invalidField('destination.accountId', `Internal account ${account.id} is ${account.status}; only ACTIVE accounts receive`);
    return { kind: 'INTERNAL', account, currency: account.balance.currency };
  }
  // Any external account of the platform may be paid, whoever holds it: the reference does not tie payer and payee.
  const account = findExternalAccount(tenant, destination.accountId);
  // A lookup is optional for an account (the reference requires one only for UMA destinations), but one given must be of it.
  if (request.lookupId !== undefined) assertLookupFor(tenant, request.lookupId, account.id);
  if (account.status === 'INACTIVE' || account.status === 'UNDER_REVIEW' || account.status === 'PENDING') {
    throw invalidField('destination.accountId', `External account ${account.id} is ${account.status} and cannot receive`);
  }
  const currency = marketCurrency(account.currency);
  if (!currency) throw new ApiError(400, 'INVALID_CURRENCY', `The sandbox has no market for ${account.currency}, the currency of ${account.id}`);
  const rails = (account.accountInfo as { paymentRails?: PaymentRail[] }).paymentRails ?? [];
  if (destination.paymentRail !== undefined && !rails.includes(destination.paymentRail)) {
    throw invalidField('destination.paymentRail', rails.length > 0 ? `${account.accountInfo.accountType} is paid by ${rails.join(', ')}` : 'This account takes no rail', { enum: rails });
  }
  return { kind: 'EXTERNAL', account, currency, rail: destination.paymentRail ?? rails[0] ?? null, identifier: primaryIdentifier(account.accountInfo as never) };
}

/** The account id of a party, if it is an account. */
export const accountIdOf = (party: Source | Destination): string | undefined => ('account' in party ? party.account.id : undefined);

