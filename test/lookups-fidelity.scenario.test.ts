import { expect, it } from 'vitest';
import { BadRequestError } from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports } from './support/transports.js';

// Lookups as the reference answers them, over every transport: UMA providers say whether they are on the platform's
// allow list as a boolean; both receiver lookups need the sender (a customer or an UMA address); a platform holds an
// internal account of its own in every currency it supports from the start; exchange rates without a source currency
// list every source the platform supports.

type Json = Record<string, any>;

describeOverTransports('lookups (reference fidelity)', (scope) => {
  const raw = async (method: string, path: string, body?: unknown, credentials = scope.platform) => {
    const authorization = `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`;
    const response = await scope.transport.raw(path, {
      method, headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };

  it('GET /uma-providers: allowListStatus is a boolean, and hasBlockedProviders=false keeps only the allowed', async () => {
    const all = await scope.client.umaProviders.list({ sortOrder: 'asc' });
    const status = Object.fromEntries(all.data.map((p) => [p.name, p.allowListStatus]));
    expect(status).toEqual({
      'Railyard Sandbox UMA': true, 'Northwind Pay': true, 'Remesa Rápida': true, 'Euro Wallet Co': false, 'Lagos Link': true, 'Shadow Remit': false,
    });
    const allowed = await raw('GET', '/uma-providers?hasBlockedProviders=false&sortOrder=asc');
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.map((p: Json) => p.name)).toEqual(['Railyard Sandbox UMA', 'Northwind Pay', 'Remesa Rápida', 'Lagos Link']);
    expect(allowed.body.totalCount).toBe(4);
    expect((await raw('GET', '/uma-providers?hasBlockedProviders=true')).body.totalCount).toBe(6);
  });

  it('GET /receiver/external-account/{id} and GET /receiver/uma/{address} need customerId or senderUmaAddress', async () => {
    const customer = await scope.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Lookup Payer' });
    const account = await scope.client.externalAccounts.create({
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Receiver' } },
    });
    const address = encodeURIComponent('$success.usd@uma.sandbox.railyard.dev');
    for (const path of [`/receiver/external-account/${account.id}`, `/receiver/uma/${address}`]) {
      const refused = await raw('GET', path);
      expect(refused.status, path).toBe(400);
      expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect(refused.body.details.errors.map((e: Json) => e.field).sort()).toEqual(['customerId', 'senderUmaAddress']);
      expect((await raw('GET', `${path}?customerId=${customer.id}`)).status, path).toBe(200);
      expect((await raw('GET', `${path}?senderUmaAddress=${encodeURIComponent('$platform@payer.example')}`)).status, path).toBe(200);
    }
    // A refused lookup stores nothing: its lookupId never existed, and the typed client sees the same 400.
    await expect(scope.client.receivers.lookupExternalAccount(account.id)).rejects.toBeInstanceOf(BadRequestError);
    await expect(scope.client.receivers.lookupUma('$success.usd@uma.sandbox.railyard.dev')).rejects.toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it("GET /platform/internal-accounts: the platform's own account in every currency it supports, fundable", async () => {
    const supported = (await scope.client.config.retrieve()).supportedCurrencies.map((c) => c.currencyCode).sort();
    for (const credentials of [scope.platform, ROOT_CREDENTIALS]) {
      const listed = await raw('GET', '/platform/internal-accounts', undefined, credentials);
      expect(listed.status).toBe(200);
      const accounts = listed.body.data as Json[];
      expect(accounts.map((a) => a.balance.currency.code).sort()).toEqual(supported);
      for (const account of accounts) {
        expect(account).not.toHaveProperty('customerId');
        expect(account).toMatchObject({ id: expect.stringMatching(/^InternalAccount:/), status: 'ACTIVE' });
        expect(['INTERNAL_FIAT', 'INTERNAL_CRYPTO']).toContain(account.type);
      }
      expect(accounts.find((a) => a.balance.currency.code === 'USD')!.type).toBe('INTERNAL_FIAT');
      expect(accounts.find((a) => a.balance.currency.code === 'USDC')!.type).toBe('INTERNAL_CRYPTO');
      // A platform holds no embedded wallet: its USDB account is crypto held for it, with no wallet privacy.
      expect(accounts.find((a) => a.balance.currency.code === 'USDB')).toMatchObject({ type: 'INTERNAL_CRYPTO' });
      // The same accounts on every read: nothing is opened twice.
      expect((await raw('GET', '/platform/internal-accounts', undefined, credentials)).body.data.map((a: Json) => a.id).sort())
        .toEqual(accounts.map((a) => a.id).sort());
    }
    const eur = await raw('GET', '/platform/internal-accounts?currency=EUR');
    expect(eur.body.data).toHaveLength(1);
    const crypto = await raw('GET', '/platform/internal-accounts?type=INTERNAL_CRYPTO');
    expect(crypto.body.data.length).toBeGreaterThan(0);
    expect(crypto.body.data.every((a: Json) => a.type === 'INTERNAL_CRYPTO')).toBe(true);

    const funded = await scope.client.sandbox.fundInternalAccount(eur.body.data[0].id, 5_000);
    expect(funded).toMatchObject({ id: eur.body.data[0].id, balance: { amount: 5_000, currency: { code: 'EUR' } } });
    expect((await raw('GET', '/platform/internal-accounts?currency=EUR')).body.data[0].balance.amount).toBe(5_000);
  });

  it('GET /exchange-rates without sourceCurrency: every source currency the platform supports', async () => {
    const all = await raw('GET', '/exchange-rates');
    expect(all.status).toBe(200);
    const sources = new Set((all.body.data as Json[]).map((r) => r.sourceCurrency.code));
    const supported = (await scope.client.config.retrieve()).supportedCurrencies.map((c) => c.currencyCode);
    expect([...sources].sort()).toEqual([...supported].sort());
    expect((all.body.data as Json[]).every((r) => r.sourceCurrency.code !== r.destinationCurrency.code)).toBe(true);
    // The USD → GBP rate is the one the source-currency query answers.
    const fromUsd = (await raw('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=GBP')).body.data[0];
    expect((all.body.data as Json[]).find((r) => r.sourceCurrency.code === 'USD' && r.destinationCurrency.code === 'GBP')).toEqual(fromUsd);

    const toGbp = await raw('GET', '/exchange-rates?destinationCurrency=GBP&sendingAmount=5000');
    expect(toGbp.status).toBe(200);
    expect((toGbp.body.data as Json[]).map((r) => r.sourceCurrency.code).sort()).toEqual(supported.filter((c) => c !== 'GBP').sort());
    expect((toGbp.body.data as Json[]).every((r) => r.destinationCurrency.code === 'GBP' && r.sendingAmount === 5_000)).toBe(true);
  });
});
