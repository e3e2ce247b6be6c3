import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { RailyardClient } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Never stricter than the reference: every request example of the reference's OpenAPI document, for the operations
// Railyard serves, sent unchanged over every transport, must be answered with the status the reference documents.
// Only the ids change: each names a thing of the reference's docs, so it is swapped for a sandbox fixture of its type.

interface ReferenceExample {
  operation: string;
  example: string;
  method: string;
  path: string;
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Ids of this example that stand for another fixture than their type's default. */
  fixtures?: Record<string, FixtureName>;
  status: number;
  code?: string;
  note?: string;
}

const examplesFile = JSON.parse(readFileSync(new URL('./reference/request-examples.json', import.meta.url), 'utf8')) as {
  fixtures: Record<string, FixtureName>;
  examples: ReferenceExample[];
};

type FixtureName =
  | 'customer' | 'usd' | 'btc' | 'wallet' | 'bank' | 'sparkWallet' | 'business' | 'unverified' | 'owner'
  | 'pendingQuote' | 'realtimeQuote' | 'lookup' | 'umaReceiver' | 'card' | 'frozenCard';

/** What a reference id stands for when the example names no other fixture, by the id's type. */
const FIXTURE_BY_TYPE: Record<string, FixtureName> = {
  Customer: 'customer', InternalAccount: 'usd', ExternalAccount: 'bank', BeneficialOwner: 'owner', Quote: 'pendingQuote', LookupRequest: 'lookup',
  Card: 'card',
};
const REFERENCE_ID = /^(Customer|InternalAccount|ExternalAccount|BeneficialOwner|Quote|LookupRequest|Card):[0-9a-f-]{36}$/;
/** The UMA address of the reference's examples, a receiver no sandbox knows. */
const REFERENCE_UMA_RECEIVER = '$receiver@uma.domain.com';
/** The spark address of the reference's own example (its checksum is wrong: accepted unless the platform is strict). */
const REFERENCE_SPARK_ADDRESS = 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu';

/**
 * The sandbox things the examples' ids stand for, made on first use on a regulated platform (so customers are
 * APPROVED and money moves at once).
 */
class Fixtures {
  readonly #made = new Map<FixtureName, Promise<string>>();
  constructor(private readonly client: RailyardClient) {}

  get(name: FixtureName): Promise<string> {
    let made = this.#made.get(name);
    if (!made) {
      made = this.#make(name);
      this.#made.set(name, made);
    }
    return made;
  }

  async #make(name: FixtureName): Promise<string> {
    const { client } = this;
    switch (name) {
      case 'customer':
        return (await client.customers.create({
          customerType: 'INDIVIDUAL', platformCustomerId: 'john', fullName: 'John Smith', birthDate: '1985-06-15', nationality: 'US',
          email: 'john@example.com', phoneNumber: '+14155550100', region: 'US', currencies: ['USD', 'BTC', 'USDB'],
        })).id;
      case 'usd': {
        const id = await this.#internalAccount('USD');
        await client.sandbox.fundInternalAccount(id, 1_000_000);
        return id;
      }
      case 'btc':
        return this.#internalAccount('BTC');
      case 'wallet':
        return this.#internalAccount('USDB');
      case 'bank':
        // Account numbers starting 9001 are pullable in the sandbox (SPEC §4.6), for the transfer-in example.
        return (await client.externalAccounts.create({
          customerId: await this.get('customer'), currency: 'USD',
          accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '900100001', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Smith' } },
        })).id;
      case 'sparkWallet':
        return (await client.externalAccounts.create({
          customerId: await this.get('customer'), currency: 'BTC', accountInfo: { accountType: 'SPARK_WALLET', address: REFERENCE_SPARK_ADDRESS },
        })).id;
      case 'business':
        return this.#business('biz-acme', '5523041');
      case 'unverified':
        // A regulated platform approves individuals at creation but reviews a business at its first submission.
        return this.#business('biz-unverified', '7781234');
      case 'owner':
        return (await client.beneficialOwners.create({
          customerId: await this.get('business'), roles: ['UBO'], ownershipPercentage: 60,
          personalInfo: {
            firstName: 'Jane', lastName: 'Smith', birthDate: '1978-06-15', nationality: 'US', idType: 'SSN', identifier: '123-45-6789',
            address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
          },
        })).id;
      case 'pendingQuote':
        return (await client.quotes.create({
          source: { sourceType: 'ACCOUNT', accountId: await this.get('usd') },
          destination: { destinationType: 'ACCOUNT', accountId: await this.get('bank') },
          lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000,
        })).id;
      case 'realtimeQuote':
        return (await client.quotes.create({
          source: { sourceType: 'REALTIME_FUNDING', customerId: await this.get('customer'), currency: 'USD' },
          destination: { destinationType: 'ACCOUNT', accountId: await this.get('bank') },
          lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000,
        })).id;
      case 'umaReceiver':
        return '$success.eur@sandbox.uma.money';
      case 'lookup':
        return (await client.receivers.lookupUma(await this.get('umaReceiver'), { customerId: await this.get('customer') })).lookupId;
      case 'card':
        // An ACTIVE card of the customer (issued PROCESSING, provisioned right after), funded by the USD account.
        return (await client.cards.create({ cardholderId: await this.get('customer'), form: 'VIRTUAL', fundingSources: [await this.get('usd')] })).id;
      case 'frozenCard':
        return (await client.cards.freeze(await this.get('card'))).id;
    }
  }

  async #internalAccount(currency: string): Promise<string> {
    const { data } = await this.client.internalAccounts.list({ customerId: await this.get('customer'), currency });
    return data[0]!.id;
  }

  async #business(platformCustomerId: string, registrationNumber: string): Promise<string> {
    return (await this.client.customers.create({
      customerType: 'BUSINESS', platformCustomerId, email: `${platformCustomerId}@example.com`,
      businessInfo: { legalName: 'Acme Corporation', country: 'US', registrationNumber, taxId: '12-3456789', incorporatedOn: '2018-03-14' },
      address: { line1: '1 Market Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
    })).id;
  }
}

/** The example with each reference id (in the path too) swapped for its fixture's. */
async function instantiate(example: ReferenceExample, fixtures: Fixtures) {
  const named = { ...examplesFile.fixtures, ...example.fixtures };
  const fixtureFor = (value: string): FixtureName | undefined =>
    named[value] ?? (value === REFERENCE_UMA_RECEIVER ? 'umaReceiver' : REFERENCE_ID.test(value) ? FIXTURE_BY_TYPE[value.split(':')[0]!] : undefined);
  const swap = async (value: unknown): Promise<unknown> => {
    if (typeof value === 'string') {
      const fixture = fixtureFor(value);
      return fixture ? fixtures.get(fixture) : value;
    }
    if (Array.isArray(value)) return Promise.all(value.map(swap));
    if (value && typeof value === 'object') {
      return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([key, inner]) => [key, await swap(inner)])));
    }
    return value;
  };
  const segments = await Promise.all(example.path.split('/').map((segment) => swap(segment) as Promise<string>));
  return {
    path: segments.join('/'),
    body: example.body === undefined ? undefined : (await swap(example.body)) as Record<string, unknown>,
    form: example.form === undefined ? undefined : (await swap(example.form)) as Record<string, string>,
  };
}

function requestInit(example: ReferenceExample, body: Record<string, unknown> | undefined, form: Record<string, string> | undefined, credentials: TransportScope['platform']): RequestInit {
  const headers = new Headers(example.headers);
  headers.set('authorization', `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`);
  if (form) {
    const data = new FormData();
    for (const [field, value] of Object.entries(form)) data.set(field, value);
    // The reference's examples list the form's fields; every upload also carries its file.
    data.set('file', new Blob([Buffer.from('%PDF-1.4 reference example\n')], { type: 'application/pdf' }), 'document.pdf');
    return { method: example.method, headers, body: data };
  }
  if (body) {
    headers.set('content-type', 'application/json');
    return { method: example.method, headers, body: JSON.stringify(body) };
  }
  return { method: example.method, headers };
}

describeOverTransports('reference request examples', (scope) => {
  it.each(examplesFile.examples.map((example) => [`${example.operation} (${example.example})`, example] as const))(
    '%s is answered as the reference documents',
    async (_title, example) => {
      const platform = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'reference examples', regulated: true });
      const fixtures = new Fixtures(scope.transport.clientFor(platform));
      const { path, body, form } = await instantiate(example, fixtures);
      const response = await scope.transport.raw(path, requestInit(example, body, form, platform));
      const text = await response.text();
      const answer = text === '' ? undefined : JSON.parse(text);

      expect({ status: response.status, code: answer?.code }, text).toMatchObject({ status: example.status, ...(example.code ? { code: example.code } : { code: undefined }) });
      // A 202 is a signed action's challenge, or a simulated card event's token.
      if (example.status === 202) {
        expect(answer).toMatchObject(example.path.includes('/simulate/') ? { issuerTransactionToken: expect.any(String) } : { payloadToSign: expect.any(String), requestId: expect.any(String) });
      }
      // What a create or update was told to store, it reports back.
      if ((example.status === 200 || example.status === 201) && body && answer) {
        for (const [field, value] of Object.entries(body)) {
          if (field in answer && (typeof value === 'string' || typeof value === 'number')) expect(answer[field], field).toEqual(value);
        }
      }
    },
  );
});
