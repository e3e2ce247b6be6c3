import { expect, it } from 'vitest';
import { BadRequestError, NotFoundError, type RailyardClient } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Lookups through the typed client, over every transport: a discovered bank becomes an external account, a VASP a
// custodial wallet account; an external-account lookup's id quotes and pays that account; the UMA providers; the fee
// of a crypto withdrawal, from the sandbox's network table.

/** A client for a fresh regulated platform (its customers are APPROVED at creation). */
async function platform(scope: TransportScope): Promise<RailyardClient> {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'lookups', regulated: true });
  return scope.transport.clientFor(created);
}

const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Receiver', birthDate: '1990-01-01', nationality: 'NG' } as const;
const SOLANA_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

describeOverTransports('lookups', (scope) => {
  it('a discovered bank names an external account; the external-account lookup quotes and pays it', async () => {
    const client = await platform(scope);
    const banks = await client.discoveries.list({ country: 'NG', currency: 'NGN' });
    expect(banks).toEqual([
      { bankName: 'Access Bank PLC', displayName: 'Access Bank', country: 'NG', currency: 'NGN' },
      { bankName: 'Zenith Bank PLC', displayName: 'Zenith Bank', country: 'NG', currency: 'NGN' },
    ]);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Lookup Payer' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 10_000);
    const account = await client.externalAccounts.create({
      customerId: customer.id, currency: 'NGN',
      accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: banks[1]!.bankName, beneficiary },
    });
    expect(account.accountInfo).toMatchObject({ bankName: 'Zenith Bank PLC' });

    const receiver = await client.receivers.lookupExternalAccount(account.id, { customerId: customer.id });
    expect(receiver).toEqual({
      lookupId: expect.stringMatching(/^Lookup:/), accountId: account.id,
      supportedCurrencies: [{ currency: { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 }, estimatedExchangeRate: 1550, min: 1, max: 100_000_000 }],
    });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: receiver.accountId },
      lookupId: receiver.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    });
    // The sandbox market: 1 USD = 1550 NGN; the service's fee on 10.00 USD is 0.50 fixed + 0.2 %.
    expect(quote).toMatchObject({ status: 'PENDING', destination: { accountId: account.id }, receivingCurrency: { code: 'NGN' }, feesIncluded: 52, totalReceivingAmount: (1_000 - 52) * 1_550 });
    expect((await client.quotes.execute(quote.id)).status).toBe('PROCESSING');
    expect((await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount).toBe(9_000);
    const umaLookup = await client.receivers.lookupUma('$success.usd@uma.sandbox.railyard.dev', { customerId: customer.id });
    await expect(client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd!.id }, destination: { destinationType: 'ACCOUNT', accountId: account.id },
      lookupId: umaLookup.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.receivers.lookupExternalAccount('ExternalAccount:00000000-0000-4000-8000-000000000000', { customerId: customer.id }))
      .rejects.toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('a listed VASP names a custodial wallet account, which is ACTIVE at once; the VASP list pages', async () => {
    const client = await platform(scope);
    const first = await client.vasps.list({ limit: 2 });
    expect(first.data).toEqual([{ vaspName: 'Coinbase', url: 'https://www.coinbase.com' }, { vaspName: 'Kraken', url: 'https://www.kraken.com' }]);
    expect(first.hasMore).toBe(true);
    const names: string[] = [];
    for await (const vasp of client.vasps.list({ limit: 3 })) names.push(vasp.vaspName);
    expect(names).toEqual(['Coinbase', 'Kraken', 'Bitstamp', 'Gemini', 'Bitso', 'Luno', 'Mercado Bitcoin', 'Railyard Sandbox Custody']);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wallet Holder' });
    const wallet = await client.externalAccounts.create({
      customerId: customer.id, currency: 'USDC', ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SOLANA_WALLET', address: SOLANA_ADDRESS, vaspName: names[0]! },
    });
    expect(wallet).toMatchObject({ status: 'ACTIVE', accountInfo: { vaspName: 'Coinbase' } });
  });

  it('lists UMA providers by country and currency, blocked ones on request, the sandbox provider included', async () => {
    const client = await platform(scope);
    const all = await client.umaProviders.list();
    expect(all.totalCount).toBe(6);
    expect(all.data.map((p) => p.name)).toEqual(['Shadow Remit', 'Lagos Link', 'Euro Wallet Co', 'Remesa Rápida', 'Northwind Pay', 'Railyard Sandbox UMA']);
    expect((await client.umaProviders.list({ countryCode: 'US', hasBlockedProviders: 'false' })).data.map((p) => p.domain))
      .toEqual(['northwindpay.example', 'uma.sandbox.railyard.dev']);
    const mexican = await client.umaProviders.list({ currencyCode: 'MXN', sortOrder: 'asc' });
    expect(mexican.data.map((p) => p.name)).toEqual(['Railyard Sandbox UMA', 'Remesa Rápida']);
    expect(mexican.data[1]).toMatchObject({ supportedRegions: ['MX', 'GT', 'CO'], lei: '5493003REMESARAPID03', allowListStatus: true });
  });

  it('estimates a withdrawal fee from the network table, and refuses bad fields, small amounts and unknown accounts', async () => {
    const client = await platform(scope);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Crypto Holder', currencies: ['USDC'] });
    const [usdc] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USDC' })).data;
    const request = { internalAccountId: usdc!.id, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 25_000_000, destinationAddress: SOLANA_ADDRESS } as const;
    // 5000 lamports at 150 USD per SOL = 0.00075 USDC; 0.1 % of 25 USDC = 0.025 USDC.
    expect(await client.crypto.estimateWithdrawalFee(request))
      .toEqual({ networkFee: 5_000, networkFeeAsset: 'SOL', applicationFee: 25_000, totalFee: 25_750, netAmount: 24_974_250 });
    // 0.0005 ETH at 3000 USD = 1.50 USDC.
    expect(await client.crypto.estimateWithdrawalFee({ ...request, cryptoNetwork: 'ETHEREUM', destinationAddress: '0x742d35cc6634c0532925a3b844bc454e4438f44e' }))
      .toMatchObject({ networkFee: 500_000_000_000_000, networkFeeAsset: 'ETH', totalFee: 1_525_000, netAmount: 23_475_000 });
    const bad = await client.crypto.estimateWithdrawalFee({ ...request, cryptoNetwork: 'BITCOIN', destinationAddress: SOLANA_ADDRESS }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(BadRequestError);
    expect((bad as BadRequestError).details?.errors?.map((e) => e.field)).toEqual(['currency']);
    // A Solana address is not one of Base: the address checks of the network's wallet accounts apply.
    await expect(client.crypto.estimateWithdrawalFee({ ...request, cryptoNetwork: 'BASE' }))
      .rejects.toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'destinationAddress' }] } });
    await expect(client.crypto.estimateWithdrawalFee({ ...request, amount: 750 })).rejects.toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
    await expect(client.crypto.estimateWithdrawalFee({ ...request, internalAccountId: 'InternalAccount:00000000-0000-4000-8000-000000000000' }))
      .rejects.toBeInstanceOf(NotFoundError);
  });
});
