import { beforeEach, describe, expect, it } from 'vitest';
import { MARKET } from '../config/exchange-rates.js';
import { CURRENCIES } from '../config/currencies.js';
import { createEngine, type Engine } from '../engine.js';
import { SANDBOX_UMA_DOMAIN } from '../sandbox/magic-values.js';
import { callApi, type Json } from '../testing/requests.js';
import { BANK_DIRECTORY, UMA_PROVIDERS, VASPS } from './directory.js';

// Lookups: bank directory, VASPs, UMA providers, external-account receiver lookups (and quoting with them), and
// crypto withdrawal fee estimates.

let engine: Engine;
beforeEach(() => {
  engine = createEngine({ platform: { regulated: true } });
});
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);

const FIAT = Object.values(MARKET).filter((c) => !['USDC', 'USDT', 'USDB', 'BTC'].includes(c.code)).map((c) => c.code);

describe('discoveries', () => {
  it('has a bank for every fiat currency the market pays out in, two or more for the default platform currencies', () => {
    for (const code of FIAT) expect(BANK_DIRECTORY.filter((b) => b.currency === code).length, code).toBeGreaterThanOrEqual(1);
    for (const code of Object.keys(CURRENCIES).filter((c) => FIAT.includes(c))) expect(BANK_DIRECTORY.filter((b) => b.currency === code).length, code).toBeGreaterThanOrEqual(2);
  });

  it('filters by country and currency, lists all without them, and refuses malformed ones with both fields', async () => {
    expect((await call('GET', '/discoveries')).body.data).toHaveLength(BANK_DIRECTORY.length);
    expect((await call('GET', '/discoveries?country=GB')).body.data).toEqual([
      { bankName: 'Barclays Bank UK PLC', displayName: 'Barclays', country: 'GB', currency: 'GBP' },
      { bankName: 'HSBC UK Bank plc', displayName: 'HSBC UK', country: 'GB', currency: 'GBP' },
    ]);
    expect((await call('GET', '/discoveries?currency=EUR')).body.data.map((b: Json) => b.country)).toEqual(['DE', 'DE', 'FR', 'ES', 'NL', 'IT']);
    expect((await call('GET', '/discoveries?country=DE&currency=EUR')).body.data).toHaveLength(2);
    expect((await call('GET', '/discoveries?country=GB&currency=EUR')).body.data).toEqual([]);
    const bad = await call('GET', '/discoveries?country=Britain&currency=eu');
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect(bad.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['country', 'currency']);
  });
});

describe('VASPs and UMA providers', () => {
  it('pages the VASPs with limit and cursor, without totalCount', async () => {
    const first = (await call('GET', '/vasps?limit=3')).body;
    expect(first).toEqual({ data: VASPS.slice(0, 3), hasMore: true, nextCursor: expect.any(String) });
    const rest = (await call('GET', `/vasps?limit=100&cursor=${first.nextCursor}`)).body;
    expect(rest).toEqual({ data: VASPS.slice(3), hasMore: false });
    expect((await call('GET', '/vasps?cursor=nonsense')).status).toBe(400);
    expect((await call('GET', '/vasps?limit=0')).status).toBe(400);
  });

  it('filters UMA providers by country, currency and the allow list, newest first by default, with Currency objects', async () => {
    const all = (await call('GET', '/uma-providers')).body;
    expect(all).toMatchObject({ hasMore: false, totalCount: UMA_PROVIDERS.length });
    expect(all.data.map((p: Json) => p.name)).toEqual(UMA_PROVIDERS.map((p) => p.name).reverse());
    const sandbox = (await call('GET', '/uma-providers?sortOrder=asc&limit=1')).body;
    expect(sandbox).toMatchObject({ hasMore: true, totalCount: UMA_PROVIDERS.length, nextCursor: expect.any(String) });
    expect(sandbox.data[0]).toMatchObject({
      name: 'Railyard Sandbox UMA', domain: SANDBOX_UMA_DOMAIN, allowListStatus: true, lei: '5493001SANDBOXUMA001',
      supportedCurrencies: expect.arrayContaining([{ code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 }]),
    });
    expect((await call('GET', '/uma-providers?countryCode=US')).body.data.map((p: Json) => p.name)).toEqual(['Shadow Remit', 'Northwind Pay', 'Railyard Sandbox UMA']);
    expect((await call('GET', '/uma-providers?countryCode=US&hasBlockedProviders=false')).body.data.map((p: Json) => p.name)).toEqual(['Northwind Pay', 'Railyard Sandbox UMA']);
    expect((await call('GET', '/uma-providers?currencyCode=MXN')).body.totalCount).toBe(2);
    // Blocked means not on the allow list: hasBlockedProviders=false leaves out every provider answering false.
    const allowed = (await call('GET', '/uma-providers?hasBlockedProviders=false&limit=100')).body.data as Json[];
    expect(allowed.map((p) => p.name)).toEqual(UMA_PROVIDERS.filter((p) => p.allowListStatus).map((p) => p.name).reverse());
    expect(allowed.every((p) => p.allowListStatus === true)).toBe(true);
    expect((await call('GET', '/uma-providers?countryCode=DE')).body.data.map((p: Json) => [p.name, p.allowListStatus]))
      .toEqual([['Euro Wallet Co', false], ['Railyard Sandbox UMA', true]]);
  });
});

async function customerWithAccounts() {
  const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Lookup Payer', currencies: ['USD'] })).body;
  const usd = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
  const bank = (await call('POST', '/customers/external-accounts', {
    customerId: customer.id, currency: 'NGN',
    accountInfo: {
      accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'Access Bank PLC',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Receiver', birthDate: '1990-01-01', nationality: 'NG' },
    },
  }));
  expect(bank.status, JSON.stringify(bank.body)).toBe(201);
  return { customer: customer.id as string, usd: usd as string, bank: bank.body.id as string };
}

describe('external-account receiver lookup', () => {
  it('answers the account currency and a lookupId that quotes a payment to that account, and only to it', async () => {
    const { customer, usd, bank } = await customerWithAccounts();
    const found = await call('GET', `/receiver/external-account/${bank}?customerId=${customer}`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toEqual({
      lookupId: expect.stringMatching(/^Lookup:/), accountId: bank,
      supportedCurrencies: [{ currency: { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 }, estimatedExchangeRate: 1550, min: 1, max: 100_000_000 }],
    });
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 10_000 });
    const quote = (lookupId: string, accountId = bank) => call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId },
      lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    const quoted = await quote(found.body.lookupId);
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(201);
    expect(JSON.stringify(quoted.body.destination)).toContain(bank);
    expect(await quote('Lookup:00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: { code: 'LOOKUP_REQUEST_NOT_FOUND' } });
    const uma = await call('GET', `/receiver/uma/${encodeURIComponent(`$success.usd@${SANDBOX_UMA_DOMAIN}`)}?customerId=${customer}`);
    const wrong = await quote(uma.body.lookupId);
    expect([wrong.status, wrong.body.code, wrong.body.details.errors[0].field]).toEqual([400, 'INVALID_INPUT', 'lookupId']);
    // An external-account lookup does not pay an UMA address either.
    const asUma = await call('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.usd@${SANDBOX_UMA_DOMAIN}` },
      lookupId: found.body.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    expect([asUma.status, asUma.body.code]).toEqual([400, 'INVALID_INPUT']);
  });

  it('404 REFERENCE_NOT_FOUND for an unknown account, the UMA lookup’s 400 and 404 for its sender fields', async () => {
    const { customer, bank } = await customerWithAccounts();
    const unknown = await call('GET', `/receiver/external-account/ExternalAccount:00000000-0000-4000-8000-000000000000?customerId=${customer}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'REFERENCE_NOT_FOUND']);
    const badSender = await call('GET', `/receiver/external-account/${bank}?senderUmaAddress=alice`);
    expect([badSender.status, badSender.body.details.errors[0].field]).toEqual([400, 'senderUmaAddress']);
    expect((await call('GET', `/receiver/external-account/${bank}?customerId=Customer:00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await call('GET', `/receiver/external-account/${bank}?senderUmaAddress=${encodeURIComponent('$platform@payer.example')}`)).status).toBe(200);
  });

  it('needs customerId or senderUmaAddress, as the UMA lookup does: 400 naming both, before anything is looked up', async () => {
    const { bank } = await customerWithAccounts();
    const stored = () => (engine.sandbox().snapshot().collections.umaLookups ?? []).length;
    const before = stored();
    for (const path of [`/receiver/external-account/${bank}`, `/receiver/uma/${encodeURIComponent(`$success.usd@${SANDBOX_UMA_DOMAIN}`)}`]) {
      const refused = await call('GET', path);
      expect([refused.status, refused.body.code], path).toEqual([400, 'INVALID_INPUT']);
      expect(refused.body.details.errors.map((e: Json) => e.field)).toEqual(['customerId', 'senderUmaAddress']);
    }
    // An unknown account without a sender: the 400 comes first, as every validation error does.
    expect((await call('GET', '/receiver/external-account/ExternalAccount:00000000-0000-4000-8000-000000000000')).status).toBe(400);
    expect(stored()).toBe(before);
  });
});

describe('crypto withdrawal fee estimate', () => {
  const estimate = (body: Json) => call('POST', '/crypto/estimate-withdrawal-fee', body);
  let account: string;
  beforeEach(async () => {
    const holder = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Crypto Holder', currencies: ['USDC'] })).body;
    account = (await call('GET', `/customers/internal-accounts?customerId=${holder.id}`)).body.data[0].id;
  });
  const SOLANA_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
  const EVM_ADDRESS = '0x742d35cc6634c0532925a3b844bc454e4438f44e';

  it('prices each network from the table: network fee in its asset, fees and net in the withdrawal currency', async () => {
    expect((await estimate({ internalAccountId: account, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 10_000_000, destinationAddress: SOLANA_ADDRESS })).body)
      .toEqual({ networkFee: 5_000, networkFeeAsset: 'SOL', applicationFee: 10_000, totalFee: 10_750, netAmount: 9_989_250 });
    expect((await estimate({ internalAccountId: account, currency: 'USDC', cryptoNetwork: 'ETHEREUM', amount: 10_000_000, destinationAddress: EVM_ADDRESS })).body)
      .toEqual({ networkFee: 500_000_000_000_000, networkFeeAsset: 'ETH', applicationFee: 10_000, totalFee: 1_510_000, netAmount: 8_490_000 });
    expect((await estimate({ internalAccountId: account, currency: 'BTC', cryptoNetwork: 'BITCOIN', amount: 1_000_000, destinationAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' })).body)
      .toEqual({ networkFee: 2_000, networkFeeAsset: 'BTC', applicationFee: 1_000, totalFee: 3_000, netAmount: 997_000 });
    expect((await estimate({ internalAccountId: account, currency: 'BTC', cryptoNetwork: 'LIGHTNING', amount: 10_000, destinationAddress: 'alice@wallet.example' })).body)
      .toEqual({ networkFee: 10, networkFeeAsset: 'BTC', applicationFee: 10, totalFee: 20, netAmount: 9_980 });
  });

  it('400 INVALID_INPUT naming every bad field, 400 AMOUNT_OUT_OF_RANGE when the fees take it all, 404 for an unknown account', async () => {
    const missing = await estimate({});
    expect(missing.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['amount', 'cryptoNetwork', 'currency', 'destinationAddress', 'internalAccountId']);
    const wrong = await estimate({ internalAccountId: account, currency: 'BTC', cryptoNetwork: 'BASE', amount: 100, destinationAddress: 'not-an-address' });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect(wrong.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['currency', 'destinationAddress']);
    const tron = await estimate({ internalAccountId: account, currency: 'USDT', cryptoNetwork: 'TRON', amount: 100, destinationAddress: 'T' });
    expect(tron.body.details.errors).toEqual([expect.objectContaining({ field: 'cryptoNetwork', constraint: { enum: expect.arrayContaining(['SOLANA']) } })]);
    const small = await estimate({ internalAccountId: account, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 751, destinationAddress: SOLANA_ADDRESS });
    expect([small.status, small.body.code]).toEqual([400, 'AMOUNT_OUT_OF_RANGE']);
    expect((await estimate({ internalAccountId: account, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 752, destinationAddress: SOLANA_ADDRESS })).body.netAmount).toBe(1);
    const unknown = await estimate({ internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000', currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 10_000_000, destinationAddress: SOLANA_ADDRESS });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'REFERENCE_NOT_FOUND']);
  });
});
