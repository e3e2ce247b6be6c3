import { SessionKey, signedRetryHeaders } from '@railyard/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures } from '../support/figures.js';
import { rawCaller, type RawAnswer, type RawCall } from '../support/raw-api.js';
import { ENGINE_AND_SERVER, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';
import { signInWithEmailCode } from '../support/wallet-session.js';

// Every way money leaves an account or a wallet, tried without the authority it needs (issue 32): no stamp, a stamp of
// another wallet's session, a token without TRANSACT, an agent past a rule of its policy. Each attempt must be refused
// and move nothing: the platform's ledger, balances, transactions and stablecoin positions are compared by snapshot
// before and after. The same exits with the authority they need do move money (the positive controls), so a refusal
// here is the rule's, not a broken setup's.

/** What moving money changes: compared before and after each refused attempt. */
const MONEY = ['ledger', 'internalAccounts', 'transactions', 'stablecoinPositions', 'stablecoinLedgerState', 'stablecoinOperations', 'agentActions'];

interface Exit {
  readonly name: string;
  /** The attempt without the authority: it must be refused (this status) and move nothing. */
  readonly refused: () => Promise<RawAnswer>;
  readonly status: number;
}

describe.each(ENGINE_AND_SERVER.map((make) => [make().name, make] as const))('money exits without their authority, over %s', (_name, make) => {
  let transport: Transport;
  let call: RawCall;
  const exits: Exit[] = [];
  const controls: [string, () => Promise<RawAnswer>][] = [];

  const money = async () => {
    const { collections } = (await call('GET', '/_sandbox/snapshot')).json;
    return Object.fromEntries(MONEY.map((name) => [name, collections[name] ?? []]));
  };

  beforeAll(async () => {
    transport = make();
    await transport.start();
    const platform = await transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'money exits', regulated: true });
    const client = transport.clientFor(platform);
    call = rawCaller(transport, platform);
    const keyed = (key: string) => ({ 'idempotency-key': key });

    // Ada: dollars, a wallet with stablecoin tokens, a bank account; Bob: a wallet of his own (the wrong signer).
    const person = async (fullName: string, email: string) => {
      const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName, email, currencies: ['USD', 'USDB'] });
      const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
      return { customer, usd: accounts.find((a) => a.type !== 'EMBEDDED_WALLET')!, wallet: accounts.find((a) => a.type === 'EMBEDDED_WALLET')! };
    };
    const ada = await person('Ada Lovelace', 'ada@example.com');
    const bob = await person('Bob Byron', 'bob@example.com');
    await client.sandbox.fundInternalAccount(ada.usd.id, 100_000);
    await client.sandbox.fundInternalAccount(ada.wallet.id, 100_000_000);
    const bank = await client.externalAccounts.create({
      customerId: ada.customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });
    const adaSession = await signInWithEmailCode(client, ada.wallet.id);
    const bobSession = await signInWithEmailCode(client, bob.wallet.id);

    // Stablecoin tokens in Ada's wallet.
    const link = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'exits', apiClientSecret: 'secret' });
    const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usda', networkTokenIdentifier: 'btkn1usda', network: 'SPARK', stablecoinProviderAccountId: link.id });
    await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 });
    await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLED');
    const mint = await client.stablecoins.mint(coin.id, { amount: '10000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: ada.usd.id }, destination: { accountId: ada.wallet.id } });
    await client.stablecoinOperations.waitFor(mint.id, { advanceClock: 60_000 });
    const savings = await client.externalAccounts.create({
      customerId: ada.customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '5555555555', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    });

    const quoteBody = (accountId: string, extra: Record<string, unknown> = {}) => ({
      source: { sourceType: 'ACCOUNT', accountId }, destination: { destinationType: 'ACCOUNT', accountId: bank.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000, ...extra,
    });
    const walletQuote = (await call('POST', '/quotes', { body: quoteBody(ada.wallet.id, { lockedCurrencyAmount: 20_000_000 }) })).json;
    if (!walletQuote.paymentInstructions) throw new Error(JSON.stringify(walletQuote));
    const accountQuote = (await call('POST', '/quotes', { body: quoteBody(ada.usd.id) })).json;
    const signingPayload = walletQuote.paymentInstructions.find((i: { accountOrWalletInfo: { accountType: string } }) => i.accountOrWalletInfo.accountType === 'EMBEDDED_WALLET').accountOrWalletInfo.payloadToSign as string;

    const token = async (permissions: string[]) => rawCaller(transport, (await call('POST', '/tokens', { body: { name: permissions.join('+'), permissions } })).json);
    const noTransact = await token(['VIEW', 'MANAGE']);
    const payer = await token(['TRANSACT']);

    const burnBody = (accountId: string) => ({
      amount: '1000000', source: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId }, destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank.id, rail: 'ACH_CREDIT' },
    });
    const card = await client.cards.create({ cardholderId: ada.customer.id, form: 'VIRTUAL', fundingSources: [ada.wallet.id], platformCardId: 'exit-card' });
    const purchase = { amount: 1_500, currency: { code: 'USD' }, merchant: { descriptor: 'EXIT COFFEE' } };

    // An agent of Ada's: 1,000 a payment, 2,000 a day, one payment a day; and agents missing a permission, paused.
    const agent = async (name: string, policy: Record<string, unknown>, paused = false) => {
      const created = (await call('POST', '/agents', { body: { name, customerId: ada.customer.id, policy } })).json;
      const { accessToken } = (await call('POST', `/agents/device-codes/${created.deviceCode.code}/redeem`)).json;
      if (paused) await call('PATCH', `/agents/${created.agent.id}`, { body: { isPaused: true } });
      const bearer = rawCaller(transport);
      const as: RawCall = (method, path, options = {}) => bearer(method, path, { ...options, headers: { ...options.headers, authorization: `Bearer ${accessToken}` } });
      return { id: created.agent.id as string, as };
    };
    const EVERY = ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS'];
    const limits = { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 2_000, dailyTransactionLimit: 2, monthlyLimit: 2_000 };
    const bot = await agent('bot', { permissions: EVERY, defaultExecutionMode: 'AUTO', spendingLimits: limits, accountRestrictions: { allowedAccountIds: [ada.usd.id, ada.wallet.id, bank.id] } });
    const noExecute = await agent('no execute', { permissions: EVERY.filter((p) => p !== 'EXECUTE_QUOTES'), defaultExecutionMode: 'AUTO', spendingLimits: limits });
    const noTransfers = await agent('no transfers', { permissions: EVERY.filter((p) => p !== 'CREATE_TRANSFERS'), defaultExecutionMode: 'AUTO', spendingLimits: limits });
    const paused = await agent('paused', { permissions: EVERY, defaultExecutionMode: 'AUTO', spendingLimits: limits }, true);
    const waiting = await agent('approval', { permissions: EVERY, defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: limits });
    const pendingAction = (await waiting.as('POST', '/agents/me/transfer-out', { body: { source: { accountId: ada.usd.id }, destination: { accountId: bank.id }, amount: 100 } })).json;
    const noExecuteQuote = (await noExecute.as('POST', '/agents/me/quotes', { body: quoteBody(ada.usd.id) })).json;
    const agentWalletQuote = (await bot.as('POST', '/agents/me/quotes', { body: quoteBody(ada.wallet.id, { lockedCurrencyAmount: 20_000_000 }) })).json;
    const transferOut = (amount: number) => ({ body: { source: { accountId: ada.usd.id }, destination: { accountId: bank.id }, amount }, headers: keyed(crypto.randomUUID()) });

    const stampOf = (session: SessionKey, payload: string) => session.stamp(payload);
    exits.push(
      { name: 'execute a wallet quote without a stamp', status: 401, refused: () => call('POST', `/quotes/${walletQuote.id}/execute`) },
      { name: "execute a wallet quote stamped by another wallet's session", status: 401, refused: async () => call('POST', `/quotes/${walletQuote.id}/execute`, { headers: { 'service-wallet-signature': await stampOf(bobSession, signingPayload) } }) },
      { name: 'execute a wallet quote stamped over another payload', status: 401, refused: async () => call('POST', `/quotes/${walletQuote.id}/execute`, { headers: { 'service-wallet-signature': await stampOf(adaSession, `${signingPayload} `) } }) },
      { name: 'immediatelyExecute from a wallet', status: 400, refused: () => call('POST', '/quotes', { body: quoteBody(ada.wallet.id, { lockedCurrencyAmount: 20_000_000, immediatelyExecute: true }) }) },
      { name: 'transfer-out from a wallet', status: 400, refused: () => call('POST', '/transfer-out', { body: { source: { accountId: ada.wallet.id }, destination: { accountId: bank.id }, amount: 20_000_000 } }) },
      { name: 'burn tokens of a wallet without a stamp (the 202 challenge moves nothing)', status: 202, refused: () => call('POST', `/stablecoins/${coin.id}/burns`, { body: burnBody(ada.wallet.id), headers: keyed(crypto.randomUUID()) }) },
      {
        name: "burn tokens of a wallet stamped by another wallet's session", status: 401, refused: async () => {
          const key = crypto.randomUUID();
          const first = await call('POST', `/stablecoins/${coin.id}/burns`, { body: burnBody(ada.wallet.id), headers: keyed(key) });
          if (first.status !== 202) return first;
          const challenge = first.json;
          return call('POST', `/stablecoins/${coin.id}/burns`, { body: burnBody(ada.wallet.id), headers: { ...keyed(key), ...(await signedRetryHeaders(challenge, bobSession)) } });
        },
      },
      { name: 'card purchase from a wallet without a delegated key (declined)', status: 202, refused: () => call('POST', `/sandbox/cards/${card.id}/simulate/authorization`, { body: purchase }) },
      { name: 'quote with immediatelyExecute by a token without TRANSACT', status: 403, refused: () => noTransact('POST', '/quotes', { body: quoteBody(ada.usd.id, { immediatelyExecute: true }) }) },
      { name: 'execute by a token without TRANSACT', status: 403, refused: () => noTransact('POST', `/quotes/${accountQuote.id}/execute`) },
      { name: 'transfer-out by a token without TRANSACT', status: 403, refused: () => noTransact('POST', '/transfer-out', { body: { source: { accountId: ada.usd.id }, destination: { accountId: bank.id }, amount: 1_000 } }) },
      { name: 'transfer-in by a token without TRANSACT', status: 403, refused: () => noTransact('POST', '/transfer-in', { body: { source: { accountId: bank.id }, destination: { accountId: ada.usd.id }, amount: 1_000 } }) },
      { name: 'mint from an account by a token without TRANSACT', status: 403, refused: () => noTransact('POST', `/stablecoins/${coin.id}/mints`, { body: { amount: '1000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: ada.usd.id }, destination: { accountId: ada.wallet.id } }, headers: keyed(crypto.randomUUID()) }) },
      { name: 'burn by a token without TRANSACT', status: 403, refused: () => noTransact('POST', `/stablecoins/${coin.id}/burns`, { body: burnBody(ada.wallet.id), headers: keyed(crypto.randomUUID()) }) },
      { name: 'card purchase by a token without TRANSACT', status: 403, refused: () => noTransact('POST', `/sandbox/cards/${card.id}/simulate/authorization`, { body: purchase }) },
      { name: "approve an agent's payment by a token without TRANSACT", status: 403, refused: () => noTransact('POST', `/agents/${waiting.id}/actions/${pendingAction.id}/approve`) },
      { name: 'restore a richer state by a token without TRANSACT', status: 403, refused: async () => noTransact('POST', '/_sandbox/restore', { body: (await call('GET', '/_sandbox/snapshot')).json }) },
      { name: 'agent: transfer-out over its per-transaction limit (1,001 of 1,000)', status: 403, refused: () => bot.as('POST', '/agents/me/transfer-out', transferOut(1_001)) },
      { name: 'agent: immediatelyExecute over its per-transaction limit', status: 403, refused: () => bot.as('POST', '/agents/me/quotes', { body: quoteBody(ada.usd.id, { lockedCurrencyAmount: 1_001, immediatelyExecute: true }) }) },
      { name: 'agent: execute without EXECUTE_QUOTES', status: 403, refused: () => noExecute.as('POST', `/agents/me/quotes/${noExecuteQuote.id}/execute`) },
      { name: 'agent: immediatelyExecute without EXECUTE_QUOTES', status: 403, refused: () => noExecute.as('POST', '/agents/me/quotes', { body: quoteBody(ada.usd.id, { immediatelyExecute: true }) }) },
      { name: 'agent: transfer-out without CREATE_TRANSFERS', status: 403, refused: () => noTransfers.as('POST', '/agents/me/transfer-out', transferOut(100)) },
      { name: 'agent: transfer-out while paused', status: 403, refused: () => paused.as('POST', '/agents/me/transfer-out', transferOut(100)) },
      { name: 'agent: execute a wallet quote without a stamp', status: 401, refused: () => bot.as('POST', `/agents/me/quotes/${agentWalletQuote.id}/execute`) },
      { name: 'agent: transfer to an account its policy does not allow', status: 403, refused: () => bot.as('POST', '/agents/me/transfer-out', { body: { source: { accountId: ada.usd.id }, destination: { accountId: savings.id }, amount: 100 } }) },
      { name: "agent: transfer to another customer's account", status: 404, refused: () => bot.as('POST', '/agents/me/transfer-in', { body: { source: { accountId: bank.id }, destination: { accountId: bob.usd.id }, amount: 100 } }) },
    );
    // With the authority: the same exits move money (run after the refusals, in order: the agent's limits count).
    controls.push(
      ['execute a wallet quote stamped by its own session', async () => call('POST', `/quotes/${walletQuote.id}/execute`, { headers: { 'service-wallet-signature': await stampOf(adaSession, signingPayload) } })],
      ['execute by a TRANSACT token', () => payer('POST', `/quotes/${accountQuote.id}/execute`)],
      ['agent: transfer-out at its per-transaction limit (1,000)', () => bot.as('POST', '/agents/me/transfer-out', transferOut(1_000))],
      ['agent: a second payment, reaching its daily limit of 2,000', () => bot.as('POST', '/agents/me/transfer-out', transferOut(1_000))],
    );
    exits.push({ name: 'agent: a third payment, past its daily limits', status: 403, refused: () => bot.as('POST', '/agents/me/transfer-out', transferOut(1)) });
  }, 120_000);
  afterAll(() => transport.stop());

  it('refuses each exit without its authority and moves nothing; with it, each moves money', async ({ task }) => {
    const moved: string[] = [];
    const answered: string[] = [];
    const refusals = exits.slice(0, -1);
    const check = async (exit: Exit) => {
      const before = await money();
      const answer = await exit.refused();
      if (answer.status !== exit.status) answered.push(`${exit.name} → ${answer.status} ${answer.json?.code ?? ''} ${answer.json?.message ?? ''}`);
      if (JSON.stringify(await money()) !== JSON.stringify(before)) moved.push(exit.name);
    };
    for (const exit of refusals) await check(exit);
    const unmoved: string[] = [];
    for (const [name, attempt] of controls) {
      const before = JSON.stringify((await money()).ledger);
      const answer = await attempt();
      if (answer.status >= 300 || JSON.stringify((await money()).ledger) === before) unmoved.push(`${name} → ${answer.status} ${answer.json?.code ?? ''}`);
    }
    await check(exits.at(-1)!);
    recordFigures(task, { exits: exits.length, 'refused as expected': exits.length - answered.length, 'moved money while refused': moved.length, 'positive controls that moved money': controls.length - unmoved.length });
    expect(answered).toEqual([]);
    expect(moved).toEqual([]);
    expect(unmoved).toEqual([]);
  }, 120_000);
});

