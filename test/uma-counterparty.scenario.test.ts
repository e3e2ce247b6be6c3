import type { ErrorStatus } from '@railyard/contract';
import {
  APIError, BadRequestError, FailedDependencyError, InternalServerError, NotImplementedError, PermissionDeniedError, PreconditionFailedError,
  type RailyardClient,
} from '@railyard/client';
import { expect, it } from 'vitest';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';
import { triggers } from './error-codes/uma-counterparty.js';

// UMA counterparty failures through the typed client, over every transport: each sandbox receiver handle answers its
// status and code at its step (the lookup, or the quote), with the client's error class for that status, and nothing
// is created or moved. Then the payer-data receiver and the once-failing quote.

const DOMAIN = 'uma.sandbox.railyard.dev';

/** Lookup-step handles: the lookup fails, and so does a quote naming the address. */
const AT_LOOKUP: readonly [handle: string, status: ErrorStatus, code: string][] = [
  ['fail.lnurlp', 424, 'LNURLP_REQUEST_FAILED'],
  ['fail.lnurlp.parse', 400, 'PARSE_LNURLP_RESPONSE_ERROR'],
  ['fail.lookup', 400, 'LOOKUP_REQUEST_FAILED'],
  ['fail.uma.params', 400, 'MISSING_REQUIRED_UMA_PARAMETERS'],
  ['fail.version.unsupported', 412, 'UNSUPPORTED_UMA_VERSION'],
  ['fail.version.none', 424, 'NO_COMPATIBLE_UMA_VERSION'],
  ['fail.pubkey.fetch', 424, 'COUNTERPARTY_PUBKEY_FETCH_ERROR'],
  ['fail.pubkey.format', 400, 'INVALID_PUBKEY_FORMAT'],
  ['fail.cert.invalid', 400, 'CERT_CHAIN_INVALID'],
  ['fail.cert.expired', 400, 'CERT_CHAIN_EXPIRED'],
  ['fail.timestamp', 400, 'INVALID_TIMESTAMP'],
  ['fail.nonce', 400, 'INVALID_NONCE'],
];

/** Quote-step handles: the lookup succeeds, every quote with it fails. */
const AT_QUOTE: readonly [handle: string, status: ErrorStatus, code: string][] = [
  ['fail.payreq', 424, 'PAYREQ_REQUEST_FAILED'],
  ['fail.payreq.parse', 400, 'PARSE_PAYREQ_RESPONSE_ERROR'],
  ['fail.payreq.invalid', 400, 'INVALID_PAYREQ_RESPONSE'],
  ['fail.receiver', 400, 'INVALID_RECEIVER'],
  ['fail.sender', 400, 'SENDER_NOT_ACCEPTED'],
  ['fail.not.allowed', 403, 'COUNTERPARTY_NOT_ALLOWED'],
  ['fail.velocity', 403, 'VELOCITY_LIMIT_EXCEEDED'],
  ['fail.payee.data', 501, 'UNRECOGNIZED_MANDATORY_PAYEE_DATA_KEY'],
];

/** The client's error class for each status these failures use. */
const CLASS_OF: Readonly<Record<number, abstract new (...args: never[]) => APIError>> = {
  400: BadRequestError, 403: PermissionDeniedError, 412: PreconditionFailedError, 424: FailedDependencyError, 501: NotImplementedError,
};

/** A fresh regulated platform (customers APPROVED at creation) with a payer holding 100 USD. */
async function payerOn(scope: TransportScope): Promise<{ client: RailyardClient; customerId: string; accountId: string }> {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'uma-counterparty', regulated: true });
  const client = scope.transport.clientFor(created);
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Uma Counterparty' });
  const [account] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  await client.sandbox.fundInternalAccount(account!.id, 10_000);
  return { client, customerId: customer.id, accountId: account!.id };
}

/** What a refused request must leave as it was: the payer's balance and every transaction and quote of the platform. */
async function moneyState(client: RailyardClient, accountId: string) {
  const [account] = (await client.internalAccounts.list({ currency: 'USD', limit: 100 })).data.filter((a) => a.id === accountId);
  const transactions = (await client.transactions.list({ limit: 100 })).data.map((t) => `${t.id} ${t.status}`);
  return { balance: account!.balance.amount, transactions };
}

const quoteTo = (client: RailyardClient, accountId: string, umaAddress: string, lookupId: string, extra: { senderCustomerInfo?: Record<string, unknown> } = {}) =>
  client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId }, destination: { destinationType: 'UMA_ADDRESS', umaAddress },
    lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, immediatelyExecute: true, ...extra,
  });

const refusal = async (promise: Promise<unknown>): Promise<APIError> => {
  const outcome = await promise.then(() => 'resolved', (error: unknown) => error);
  expect(outcome).toBeInstanceOf(APIError);
  return outcome as APIError;
};

describeOverTransports('UMA counterparty failures', (scope) => {
  it('each lookup-step handle refuses the lookup and a quote naming it, with its status, code and client error class', async () => {
    const { client, customerId, accountId } = await payerOn(scope);
    const before = await moneyState(client, accountId);
    for (const [handle, status, code] of AT_LOOKUP) {
      const address = `$${handle}.usd@${DOMAIN}`;
      const looked = await refusal(client.receivers.lookupUma(address, { customerId }));
      expect(looked, handle).toBeInstanceOf(CLASS_OF[status]!);
      expect({ status: looked.status, code: looked.code, details: looked.details }).toEqual({ status, code, details: { receiverUmaAddress: address, step: 'lookup' } });
      expect(looked.serverMessage).toContain(address);
      const quoted = await refusal(quoteTo(client, accountId, address, 'Lookup:00000000-0000-4000-8000-000000000000'));
      expect({ status: quoted.status, code: quoted.code }).toEqual({ status, code });
    }
    expect(await moneyState(client, accountId)).toEqual(before);
  });

  it('each quote-step handle looks up fine, then refuses every quote with its status, code and client error class', async () => {
    const { client, customerId, accountId } = await payerOn(scope);
    const before = await moneyState(client, accountId);
    for (const [handle, status, code] of AT_QUOTE) {
      const address = `$${handle}.usd@${DOMAIN}`;
      const lookup = await client.receivers.lookupUma(address, { customerId });
      expect(lookup.supportedCurrencies.map((c) => c.currency.code)).toEqual(['USD']);
      for (let attempt = 0; attempt < 2; attempt++) {
        const quoted = await refusal(quoteTo(client, accountId, address, lookup.lookupId));
        expect(quoted, handle).toBeInstanceOf(CLASS_OF[status]!);
        expect({ status: quoted.status, code: quoted.code, step: quoted.details?.step }).toEqual({ status, code, step: 'quote' });
      }
    }
    expect(await moneyState(client, accountId)).toEqual(before);
  });

  it('a 501 is a NotImplementedError (still an InternalServerError), sent once: the server says not to retry it', async () => {
    const { client, customerId, accountId } = await payerOn(scope);
    const address = `$fail.payee.data.usd@${DOMAIN}`;
    const lookup = await client.receivers.lookupUma(address, { customerId });
    const quoted = await refusal(quoteTo(client, accountId, address, lookup.lookupId));
    expect(quoted).toBeInstanceOf(InternalServerError);
    expect(quoted.headers.get('x-should-retry')).toBe('false');
  });

  it('$fail.quote.once: the first quote of a lookup is QUOTE_REQUEST_FAILED; the retry pays and settles', async () => {
    const { client, customerId, accountId } = await payerOn(scope);
    const address = `$fail.quote.once.usd@${DOMAIN}`;
    const lookup = await client.receivers.lookupUma(address, { customerId });
    const before = await moneyState(client, accountId);
    const first = await refusal(quoteTo(client, accountId, address, lookup.lookupId));
    expect(first).toBeInstanceOf(BadRequestError);
    expect(first.code).toBe('QUOTE_REQUEST_FAILED');
    expect(await moneyState(client, accountId)).toEqual(before);
    const retried = await quoteTo(client, accountId, address, lookup.lookupId);
    expect((await client.quotes.retrieve(retried.id)).status).toBe('COMPLETED');
    expect((await moneyState(client, accountId)).balance).toBe(9_000);
  });

  it('$payer.data lists its payer fields; a payer lacking the mandatory birth date gets MISSING_MANDATORY_USER_INFO, then pays with it', async () => {
    const { client, customerId, accountId } = await payerOn(scope);
    const address = `$payer.data.usd@${DOMAIN}`;
    const lookup = await client.receivers.lookupUma(address, { customerId });
    expect(lookup.requiredPayerDataFields).toEqual([{ name: 'BIRTH_DATE', mandatory: true }, { name: 'NATIONALITY', mandatory: false }]);
    const before = await moneyState(client, accountId);
    const refused = await refusal(quoteTo(client, accountId, address, lookup.lookupId));
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused.code).toBe('MISSING_MANDATORY_USER_INFO');
    expect(refused.fieldErrors).toEqual([{ field: 'senderCustomerInfo.BIRTH_DATE', message: 'is mandatory for this receiver', constraint: { required: true } }]);
    expect(await moneyState(client, accountId)).toEqual(before);
    const paid = await quoteTo(client, accountId, address, lookup.lookupId, { senderCustomerInfo: { BIRTH_DATE: '1990-04-01' } });
    expect((await client.quotes.retrieve(paid.id)).status).toBe('COMPLETED');
    // A customer whose own record has the birth date needs no senderCustomerInfo.
    await client.customers.update(customerId, { customerType: 'INDIVIDUAL', birthDate: '1985-06-15' });
    const again = await client.receivers.lookupUma(address, { customerId });
    expect((await quoteTo(client, accountId, address, again.lookupId)).status).toBe('PROCESSING');
  });
});

// test/error-codes.scenario.test.ts runs this area's triggers with every other area's; here, that they name its codes.
it('the uma-counterparty every-code triggers cover every code this area owns', () => {
  expect(Object.keys(triggers).sort()).toEqual([...AT_LOOKUP, ...AT_QUOTE].map(([, , code]) => code).concat('QUOTE_REQUEST_FAILED', 'MISSING_MANDATORY_USER_INFO').sort());
});
