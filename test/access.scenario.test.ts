import { expect, it } from 'vitest';
import {
  AuthenticationError, BadRequestError, ConflictError, NotFoundError, PermissionDeniedError, createAgentClient, redeemAgentDeviceCode,
  type AgentPolicy, type RailyardClient,
} from '@railyard/client';
import { ROOT_CREDENTIALS, describeOverTransports, type TransportScope } from './support/transports.js';

// Platform access through the typed clients, over every transport (REFERENCE §18, §19, §20): API tokens and their
// permissions, invitations across platforms, and agents: the device-code flow, every policy rule both ways, approvals
// (by the action and by the transaction), scope to the agent's customer, and a deleted agent's token.

const BANK = (accountNumber: string, fullName: string) =>
  ({ accountType: 'USD_ACCOUNT' as const, accountNumber, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL' as const, fullName } });

/** A fresh regulated platform, a customer with 1,000.00 USD and a bank account. */
async function platform(scope: TransportScope) {
  const created = await scope.transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'access', regulated: true });
  const client = scope.transport.clientFor(created);
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] });
  const usd = (await client.internalAccounts.list({ customerId: customer.id })).data[0]!.id;
  await client.sandbox.fundInternalAccount(usd, 100_000);
  const bank = (await client.externalAccounts.create({ customerId: customer.id, currency: 'USD', accountInfo: BANK('1234567890', 'Ada Lovelace') })).id;
  return { created, client, customer, usd, bank };
}

const POLICY: AgentPolicy = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 20_000, dailyLimit: 30_000, dailyTransactionLimit: 3, monthlyLimit: 40_000 },
};

/** An agent of the customer, connected through its device code. */
async function connect(scope: TransportScope, client: RailyardClient, customerId: string, policy: AgentPolicy = POLICY) {
  const { agent, deviceCode } = await client.agents.create({ name: 'Budget bot', customerId, policy });
  expect((await client.agents.deviceCodeStatus(deviceCode.code)).redeemed).toBe(false);
  const { client: bot, redemption } = await redeemAgentDeviceCode(deviceCode.code, { ...scope.transport.clientOptions(), maxRetries: 0 });
  expect(redemption).toMatchObject({ agentId: agent.id, agentName: 'Budget bot', accessToken: expect.stringMatching(/^gat_/) });
  return { agent, bot, code: deviceCode.code, token: redemption.accessToken };
}

const refusedRule = async (promise: Promise<unknown>) => {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PermissionDeniedError);
  return (error as PermissionDeniedError).details?.rule;
};

describeOverTransports('platform access', (scope) => {
  it('API tokens: each permission does what it names and no more; a deleted token fails at once', async () => {
    const { client, usd, bank } = await platform(scope);
    const make = async (permissions: ('VIEW' | 'TRANSACT' | 'MANAGE')[]) => {
      const token = await client.tokens.create({ name: permissions.join('+'), permissions });
      return { token, as: client.withOptions({ clientId: token.clientId, clientSecret: token.clientSecret, maxRetries: 0 }) };
    };
    const viewer = await make(['VIEW']);
    const payer = await make(['TRANSACT']);
    const admin = await make(['MANAGE']);
    expect((await viewer.as.customers.list()).data).toHaveLength(1);
    const quote = { source: { sourceType: 'ACCOUNT' as const, accountId: usd }, destination: { destinationType: 'ACCOUNT' as const, accountId: bank }, lockedCurrencySide: 'SENDING' as const, lockedCurrencyAmount: 100 };
    expect(await viewer.as.quotes.create(quote).catch((e: unknown) => (e as PermissionDeniedError).details)).toEqual({ requiredPermission: 'TRANSACT' });
    expect((await payer.as.quotes.create(quote)).id).toMatch(/^Quote:/);
    await expect(payer.as.customers.list()).rejects.toBeInstanceOf(PermissionDeniedError);
    expect((await admin.as.tokens.create({ name: 'made by a token', permissions: ['MANAGE'] })).clientSecret).toBeDefined();
    // A credential grants only what it holds: a MANAGE token makes no token that reads or pays (issue 32, hole 3).
    const stronger = await admin.as.tokens.create({ name: 'stronger', permissions: ['TRANSACT'] }).catch((e: unknown) => e);
    expect(stronger).toBeInstanceOf(PermissionDeniedError);
    expect((stronger as PermissionDeniedError).details).toEqual({ rule: 'grant', missingPermissions: ['TRANSACT'] });
    await client.tokens.delete(viewer.token.id);
    await expect(viewer.as.customers.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.tokens.retrieve(viewer.token.id)).rejects.toMatchObject({ status: 404, code: 'TOKEN_NOT_FOUND' });
  });

  it('invitations: created by one platform, read and claimed by another, cancelled only by the creator', async () => {
    const { client } = await platform(scope);
    const root = scope.transport.clientFor(ROOT_CREDENTIALS);
    const invitation = await client.invitations.create({ inviterUma: '$ada@example.com', firstName: 'Grace', amountToSend: 2_500 });
    const second = await client.invitations.create({ inviterUma: '$ada@example.com' });
    expect((await root.invitations.retrieve(invitation.code)).status).toBe('PENDING');
    await expect(root.invitations.cancel(second.code)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(await root.invitations.claim(invitation.code, '$grace@provider.example')).toMatchObject({ status: 'CLAIMED', inviteeUma: '$grace@provider.example' });
    await expect(client.invitations.cancel(invitation.code)).rejects.toMatchObject({ status: 400, code: 'INVITATION_ALREADY_CLAIMED' });
    expect((await client.invitations.cancel(second.code)).status).toBe('CANCELLED');
    await expect(root.invitations.claim(second.code, '$x@provider.example')).rejects.toMatchObject({ code: 'INVITATION_CANCELLED' });
    await expect(client.invitations.retrieve('00000000')).rejects.toMatchObject({ status: 404, code: 'INVITATION_NOT_FOUND' });
    const events = (await client.sandbox.events.list({ type: 'INVITATION.CLAIMED' })).data;
    expect(events.map((e) => (e.data as { code: string }).code)).toEqual([invitation.code]);
  });

  it('the device-code flow: single use, replaced codes, 409 once connected; the agent sees itself', async () => {
    const { client, customer } = await platform(scope);
    const { agent, bot, code } = await connect(scope, client, customer.id);
    expect((await client.agents.deviceCodeStatus(code)).redeemed).toBe(true);
    expect(await bot.me()).toMatchObject({ id: agent.id, isConnected: true, usage: { dailyTransactionCount: 0 } });
    await expect(redeemAgentDeviceCode(code, scope.transport.clientOptions())).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.agents.regenerateDeviceCode(agent.id)).rejects.toBeInstanceOf(ConflictError);
    const waiting = await client.agents.create({ name: 'later', customerId: customer.id, policy: POLICY });
    const fresh = await client.agents.regenerateDeviceCode(waiting.agent.id);
    await expect(redeemAgentDeviceCode(waiting.deviceCode.code, scope.transport.clientOptions())).rejects.toBeInstanceOf(BadRequestError);
    expect((await redeemAgentDeviceCode(fresh.code, scope.transport.clientOptions())).redemption.agentId).toBe(waiting.agent.id);
  });

  it('every policy rule both ways: permissions, allowed accounts, per-transaction, daily count, daily and monthly limits, pause', async () => {
    const { client, customer, usd, bank } = await platform(scope);
    const out = (bot: Awaited<ReturnType<typeof connect>>['bot'], amount: number) => bot.transfers.out({ source: { accountId: usd }, destination: { accountId: bank }, amount });
    const viewing = await connect(scope, client, customer.id, { ...POLICY, permissions: ['VIEW_TRANSACTIONS'] });
    expect(await refusedRule(out(viewing.bot, 100))).toBe('permissions');
    expect(await refusedRule(viewing.bot.accounts.listExternal())).toBe('permissions');
    expect((await viewing.bot.accounts.listTransactions()).data.length).toBeGreaterThan(0);
    const fenced = await connect(scope, client, customer.id, { ...POLICY, accountRestrictions: { allowedAccountIds: [usd] } });
    expect(await refusedRule(out(fenced.bot, 100))).toBe('accountRestrictions.allowedAccountIds');
    await client.agents.updatePolicy(fenced.agent.id, { accountRestrictions: { allowedAccountIds: [usd, bank] } });
    expect((await out(fenced.bot, 100)).status).toBe('APPROVED');

    const { agent, bot } = await connect(scope, client, customer.id);
    expect(await refusedRule(out(bot, 20_001))).toBe('spendingLimits.perTransactionLimit');
    expect((await out(bot, 20_000)).status).toBe('APPROVED');
    expect(await refusedRule(out(bot, 10_001))).toBe('spendingLimits.dailyLimit');
    expect((await out(bot, 5_000)).status).toBe('APPROVED');
    expect((await out(bot, 1)).status).toBe('APPROVED');
    expect(await refusedRule(out(bot, 1))).toBe('spendingLimits.dailyTransactionLimit');
    // A new day: the daily counts start again.
    await client.sandbox.clock.advance(24 * 3_600_000);
    expect((await out(bot, 10_000)).status).toBe('APPROVED');
    expect((await bot.me()).usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 10_000 });
    await client.agents.update(agent.id, { isPaused: true });
    expect(await refusedRule(out(bot, 1))).toBe('isPaused');
    const monthly = await connect(scope, client, customer.id, { ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, monthlyLimit: 6_000 } });
    expect((await out(monthly.bot, 5_000)).status).toBe('APPROVED');
    expect(await refusedRule(out(monthly.bot, 1_001))).toBe('spendingLimits.monthlyLimit');
    expect((await out(monthly.bot, 1_000)).status).toBe('APPROVED');
    expect((await monthly.bot.me()).usage.monthlySpend).toBe(6_000);
  });

  it('approvals: by the default mode, an account rule, a threshold; approved by the action or the transaction; rejected; re-checked when run', async () => {
    const { client, customer, usd, bank } = await platform(scope);
    const { agent, bot } = await connect(scope, client, customer.id, {
      ...POLICY, accountRestrictions: { accountRules: [{ accountId: bank, executionMode: 'APPROVAL_REQUIRED' }] },
    });
    const waiting = await bot.transfers.out({ source: { accountId: usd }, destination: { accountId: bank }, amount: 1_000 });
    expect(waiting.status).toBe('PENDING_APPROVAL');
    expect((await client.agents.approveAction(agent.id, waiting.id)).status).toBe('APPROVED');
    expect(await bot.actions.waitFor(waiting.id)).toMatchObject({ status: 'APPROVED', transaction: { type: 'OUTGOING' } });

    const thresholded = await connect(scope, client, customer.id, { ...POLICY, approvalThresholds: { currency: 'USD', amount: 500 } });
    const quote = await thresholded.bot.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 600,
    });
    const pending = await thresholded.bot.quotes.execute(quote.id);
    expect(pending.status).toBe('PENDING_APPROVAL');
    expect((await client.transactions.approve(quote.transactionId)).id).toBe(quote.transactionId);
    expect((await thresholded.bot.actions.retrieve(pending.id)).status).toBe('APPROVED');

    const rejected = await thresholded.bot.transfers.out({ source: { accountId: usd }, destination: { accountId: bank }, amount: 700 });
    expect(await client.agents.rejectAction(thresholded.agent.id, rejected.id, 'too much')).toMatchObject({ status: 'REJECTED', rejectionReason: 'too much' });
    await expect(client.agents.approveAction(thresholded.agent.id, rejected.id)).rejects.toBeInstanceOf(ConflictError);

    const rechecked = await thresholded.bot.transfers.out({ source: { accountId: usd }, destination: { accountId: bank }, amount: 800 });
    await client.agents.updatePolicy(thresholded.agent.id, { permissions: ['VIEW_TRANSACTIONS'] });
    expect((await client.agents.approveAction(thresholded.agent.id, rechecked.id)).status).toBe('FAILED');
    const approvals: string[] = [];
    for await (const action of client.agents.listApprovals({ agentId: thresholded.agent.id, sortOrder: 'asc' })) approvals.push(action.status);
    expect(approvals).toEqual(['APPROVED', 'REJECTED', 'FAILED']);
  });

  it("scope: another customer's accounts, transactions and external accounts are 404; a deleted agent's token is refused", async () => {
    const { client, customer, usd } = await platform(scope);
    const { agent, bot, token } = await connect(scope, client, customer.id);
    const other = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', currencies: ['USD'] });
    const otherUsd = (await client.internalAccounts.list({ customerId: other.id })).data[0]!.id;
    await client.sandbox.fundInternalAccount(otherUsd, 1_000);
    const otherBank = (await client.externalAccounts.create({ customerId: other.id, currency: 'USD', accountInfo: BANK('5555555555', 'Grace Hopper') })).id;
    const otherTransaction = (await client.transactions.list({ customerId: other.id })).data[0]!.id;
    await expect(bot.transfers.out({ source: { accountId: otherUsd }, destination: { accountId: otherBank }, amount: 1 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(bot.transfers.out({ source: { accountId: usd }, destination: { accountId: otherBank }, amount: 1 })).rejects.toBeInstanceOf(NotFoundError);
    await expect(bot.accounts.retrieveTransaction(otherTransaction)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bot.accounts.retrieveExternal(otherBank)).rejects.toBeInstanceOf(NotFoundError);
    const own = await bot.accounts.createExternal({ currency: 'USD', accountInfo: BANK('4444444444', 'Ada Lovelace') });
    expect(own.customerId).toBe(customer.id);
    expect((await bot.accounts.listInternal()).data.map((a) => a.id)).toEqual([usd]);
    await client.agents.delete(agent.id);
    await expect(createAgentClient({ ...scope.transport.clientOptions(), accessToken: token, maxRetries: 0 }).me()).rejects.toBeInstanceOf(AuthenticationError);
  });
});
