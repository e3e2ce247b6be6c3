import { createEngine, DEFAULT_CREDENTIALS } from '@railyard/engine';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { BadRequestError } from '../core/errors.js';
import { setup } from '../test-support.js';

// The deprecated transfer calls (REFERENCE §9): against an in-process engine, and their Idempotency-Key on the wire.

const beneficiary = { beneficiaryType: 'INDIVIDUAL' as const, fullName: 'Ada Lovelace' };
const usdBank = (accountNumber: string) => ({ accountType: 'USD_ACCOUNT' as const, accountNumber, routingNumber: '021000021', beneficiary });

describe('client.transfers (deprecated)', () => {
  it('transfers in from a pullable bank account and out to it; each answers with its transaction', async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const client = createClient({ fetch: engine.fetch, ...DEFAULT_CREDENTIALS, sleep: async () => undefined });
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('900100001') });
    const balance = async () => (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount;

    const pulled = await client.transfers.in({ source: { accountId: bank.id }, destination: { accountId: usd!.id }, amount: 5_000 });
    expect(pulled).toMatchObject({ status: 'PROCESSING', source: { sourceType: 'ACCOUNT', accountId: bank.id } });
    expect(await balance()).toBe(5_000);

    const sent = await client.transfers.out({ source: { accountId: usd!.id }, destination: { accountId: bank.id, paymentRail: 'WIRE' }, amount: 2_000, remittanceInformation: 'INV-42' });
    expect(sent).toMatchObject({ type: 'OUTGOING', status: 'PROCESSING', paymentRail: 'WIRE', sentAmount: { amount: 2_000 } });
    expect((await client.transactions.retrieve(sent.id)).status).toBe('COMPLETED');
    expect(await balance()).toBe(3_000);
    await expect(client.transfers.out({ source: { accountId: usd!.id }, destination: { accountId: bank.id }, amount: 0 })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('a transfer-out retried after a lost response replays the payment instead of paying twice', async () => {
    const engine = createEngine({ platform: { regulated: true } });
    const keys: (string | null)[] = [];
    let lost = 0;
    const flaky = async (request: Request): Promise<Response> => {
      const transfer = request.url.endsWith('/transfer-out');
      if (transfer) keys.push(request.headers.get('idempotency-key'));
      const response = await engine.fetch(request);
      if (transfer && lost++ === 0) throw new TypeError('fetch failed: socket hang up');
      return response;
    };
    const client = createClient({ fetch: flaky, ...DEFAULT_CREDENTIALS, sleep: async () => undefined });
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
    const [usd] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
    await client.sandbox.fundInternalAccount(usd!.id, 10_000);
    const bank = await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: usdBank('123456789') });

    const { data, response } = await client.transfers.out({ source: { accountId: usd!.id }, destination: { accountId: bank.id }, amount: 4_000 }, { idempotencyKey: null }).withResponse();
    expect(data.status).toBe('PROCESSING');
    expect(response.retries).toBe(1);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^railyard-/);
    expect(keys[1]).toBe(keys[0]);
    expect((await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount).toBe(6_000);
  });

  it('always sends an Idempotency-Key: the caller\'s, from a header, or a generated one even when asked for none', async () => {
    const { client, requests } = setup([{ status: 201, body: { id: 'Transaction:1' } }]);
    const body = { source: { accountId: 'InternalAccount:1' }, destination: { accountId: 'ExternalAccount:1' }, amount: 100 };
    await client.transfers.out(body, { idempotencyKey: 'payout-42' });
    await client.transfers.out(body, { headers: { 'Idempotency-Key': 'from-header' } });
    await client.transfers.out(body, { idempotencyKey: null });
    await client.transfers.in({ source: { accountId: 'ExternalAccount:1' }, destination: { accountId: 'InternalAccount:1' }, amount: 100 }, { idempotencyKey: null });
    const sent = requests.map((r) => r.headers.get('idempotency-key'));
    expect(sent.slice(0, 2)).toEqual(['payout-42', 'from-header']);
    expect(sent[2]).toMatch(/^railyard-/);
    expect(sent[3]).toMatch(/^railyard-/);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /2025-10-13/transfer-out', 'POST /2025-10-13/transfer-out', 'POST /2025-10-13/transfer-out', 'POST /2025-10-13/transfer-in',
    ]);
  });
});
