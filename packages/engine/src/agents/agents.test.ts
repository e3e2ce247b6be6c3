import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../engine.js';
import { DEVICE_CODE_TTL_MS } from './agents.js';
import { apiRequest, callApi, type Json } from '../testing/requests.js';

// Agents (REFERENCE §20): the platform side, device codes and AgentAuth, the policy both ways, actions and approvals.

let engine: Engine;
const call = (method: string, path: string, body?: unknown) => callApi(engine, method, path, body);
/** A request with an agent's Bearer token (and no Basic credentials). */
async function asAgent(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const request = apiRequest(method, path, body, { ...headers, authorization: `Bearer ${token}` });
  const response = await engine.fetch(request);
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
}
/** A request without any credentials. */
async function anonymous(method: string, path: string) {
  const response = await engine.fetch(new Request(`http://sandbox.test/2025-10-13${path}`, { method }));
  return { status: response.status, body: (await response.json()) as Json };
}

const POLICY = {
  permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 100_000, dailyTransactionLimit: 5, monthlyLimit: 200_000 },
};

let customer: Json;
let usd: string;
let bank: string;
beforeEach(async () => {
  engine = createEngine({ platform: { regulated: true } });
  customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] })).body;
  usd = (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].id;
  await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 500_000 });
  bank = (await call('POST', '/customers/external-accounts', {
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
  })).body.id;
});

/** An agent of the customer, connected: its record and access token. */
async function connected(policy: Json = POLICY, forCustomer = customer.id) {
  const created = await call('POST', '/agents', { name: 'Budget bot', customerId: forCustomer, policy });
  expect(created.status).toBe(201);
  const redeemed = await anonymous('POST', `/agents/device-codes/${created.body.deviceCode.code}/redeem`);
  expect(redeemed.status).toBe(200);
  return { agent: created.body.agent as Json, token: redeemed.body.accessToken as string };
}
const transferOut = (token: string, amount: number) =>
  asAgent(token, 'POST', '/agents/me/transfer-out', { source: { accountId: usd }, destination: { accountId: bank }, amount });

describe('agents and device codes', () => {
  it('creates an agent with its device code; redeeming it without credentials gives the token once and connects the agent', async () => {
    const created = await call('POST', '/agents', { name: 'Budget bot', customerId: customer.id, policy: POLICY });
    expect(created.body.agent).toMatchObject({
      id: expect.stringMatching(/^Agent:/), name: 'Budget bot', customerId: customer.id, isPaused: false, isConnected: false, policy: POLICY,
      usage: { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0, dailyResetDate: expect.any(String), monthlyResetMonth: expect.stringMatching(/^\d{4}-\d{2}$/) },
    });
    const { code, expiresAt } = created.body.deviceCode;
    expect(code).toMatch(/^[A-Z2-9]{8}-AGENT-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    // Kept as its SHA-256 only: neither the snapshot nor a list shows the code.
    expect(JSON.stringify(engine.sandbox().snapshot())).not.toContain(code);
    expect(Date.parse(expiresAt) - engine.clock.now()).toBe(DEVICE_CODE_TTL_MS);
    expect((await call('GET', `/agents/device-codes/${code}/status`)).body).toEqual({ code, redeemed: false });
    const redeemed = await anonymous('POST', `/agents/device-codes/${code}/redeem`);
    expect(redeemed.body).toMatchObject({ agentId: created.body.agent.id, agentName: 'Budget bot', accessToken: expect.stringMatching(/^gat_[0-9a-f]{40}$/), policy: POLICY });
    expect((await call('GET', `/agents/device-codes/${code}/status`)).body.redeemed).toBe(true);
    expect((await call('GET', `/agents/${created.body.agent.id}`)).body.isConnected).toBe(true);
    const again = await anonymous('POST', `/agents/device-codes/${code}/redeem`);
    expect([again.status, again.body.details.errors[0].field]).toEqual([400, 'code']);
    expect(JSON.stringify(engine.sandbox().snapshot())).not.toContain(redeemed.body.accessToken);
    expect((await asAgent(redeemed.body.accessToken, 'GET', '/agents/me')).body.id).toBe(created.body.agent.id);
    // Connected: no new code.
    expect((await call('POST', `/agents/${created.body.agent.id}/device-codes`)).status).toBe(409);
  });

  it('a regenerated code replaces the earlier one; an expired code is refused; unknown codes are 404', async () => {
    const created = (await call('POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY })).body;
    const fresh = await call('POST', `/agents/${created.agent.id}/device-codes`);
    expect(fresh.status).toBe(201);
    expect((await anonymous('POST', `/agents/device-codes/${created.deviceCode.code}/redeem`)).status).toBe(400);
    engine.sandbox().advance(DEVICE_CODE_TTL_MS);
    expect((await anonymous('POST', `/agents/device-codes/${fresh.body.code}/redeem`)).status).toBe(400);
    expect((await anonymous('POST', '/agents/device-codes/0000000A-AGENT-AAAA-AAAA/redeem')).status).toBe(404);
    expect((await call('GET', '/agents/device-codes/NOPE/status')).status).toBe(404);
  });

  it('lists, pauses, renames, updates the policy partially (a new currency re-expresses the limits), deletes (the token dies at once)', async () => {
    const { agent, token } = await connected();
    expect((await call('GET', `/agents?customerId=${customer.id}&isConnected=true`)).body.data.map((a: Json) => a.id)).toEqual([agent.id]);
    expect((await call('PATCH', `/agents/${agent.id}`, {})).status).toBe(400);
    expect((await call('PATCH', `/agents/${agent.id}`, { name: 'Renamed', isPaused: true })).body).toMatchObject({ name: 'Renamed', isPaused: true });
    expect((await call('GET', '/agents?isPaused=false')).body.data).toEqual([]);
    const policy = (await call('PATCH', `/agents/${agent.id}/policy`, { spendingLimits: { currency: 'EUR', dailyLimit: null }, defaultExecutionMode: 'APPROVAL_REQUIRED' })).body.policy;
    expect(policy).toMatchObject({ defaultExecutionMode: 'APPROVAL_REQUIRED', permissions: POLICY.permissions });
    expect(policy.spendingLimits).toEqual({ currency: 'EUR', perTransactionLimit: 46_000, dailyLimit: null, dailyTransactionLimit: 5, monthlyLimit: 184_000 });
    expect((await call('DELETE', `/agents/${agent.id}`)).status).toBe(204);
    expect((await asAgent(token, 'GET', '/agents/me')).status).toBe(401);
    expect((await call('GET', `/agents/${agent.id}`)).status).toBe(404);
  });

  it('AgentAuth: Basic credentials on agent operations, a token on platform ones, or a made-up token are 401', async () => {
    const { token } = await connected();
    expect((await call('GET', '/agents/me')).status).toBe(401);
    expect((await asAgent(token, 'GET', '/customers')).status).toBe(401);
    expect((await asAgent(`gat_${'0'.repeat(40)}`, 'GET', '/agents/me')).status).toBe(401);
  });
});

describe('the agent acting for its customer', () => {
  it('sees only its customer: transactions, internal and external accounts; another customer\'s are 404', async () => {
    const { token } = await connected();
    const other = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', currencies: ['USD'] })).body;
    const otherAccount = (await call('GET', `/customers/internal-accounts?customerId=${other.id}`)).body.data[0].id;
    await call('POST', `/sandbox/internal-accounts/${otherAccount}/fund`, { amount: 100 });
    const othersTransaction = (await call('GET', `/transactions?customerId=${other.id}`)).body.data[0].id;
    expect((await asAgent(token, 'GET', '/agents/me/internal-accounts')).body.data.map((a: Json) => a.id)).toEqual([usd]);
    expect((await asAgent(token, 'GET', '/agents/me/external-accounts')).body.data.map((a: Json) => a.id)).toEqual([bank]);
    const own = (await asAgent(token, 'GET', '/agents/me/transactions')).body.data;
    expect(own.map((t: Json) => t.customerId)).toEqual([customer.id]);
    expect((await asAgent(token, 'GET', `/agents/me/transactions/${own[0].id}`)).status).toBe(200);
    expect((await asAgent(token, 'GET', `/agents/me/transactions/${othersTransaction}`)).status).toBe(404);
    const fromOthers = await asAgent(token, 'POST', '/agents/me/transfer-out', { source: { accountId: otherAccount }, destination: { accountId: bank }, amount: 1 });
    expect(fromOthers.status).toBe(404);
    const otherBank = (await call('POST', '/customers/external-accounts', {
      customerId: other.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '9876543210', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' } },
    })).body.id;
    expect((await asAgent(token, 'GET', `/agents/me/external-accounts/${otherBank}`)).status).toBe(404);
    expect((await asAgent(token, 'DELETE', `/agents/me/external-accounts/${otherBank}`)).status).toBe(404);
    expect((await call('GET', `/customers/external-accounts/${otherBank}`)).status).toBe(200);
  });

  it('AUTO: a transfer out runs at once (APPROVED, with its transaction) and counts in the usage', async () => {
    const { agent, token } = await connected();
    const action = await transferOut(token, 10_000);
    expect(action.status).toBe(201);
    expect(action.body).toMatchObject({
      id: expect.stringMatching(/^AgentAction:/), agentId: agent.id, customerId: customer.id, status: 'APPROVED', type: 'TRANSFER_OUT',
      transferDetails: { amount: 10_000, currency: 'USD', sourceAccountId: usd, destinationAccountId: bank }, transaction: { type: 'OUTGOING' },
    });
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 10_000, monthlySpend: 10_000 });
    expect((await asAgent(token, 'GET', `/agents/me/actions/${action.body.id}`)).body.status).toBe('APPROVED');
  });

  it('quotes: created with CREATE_QUOTES, executed with EXECUTE_QUOTES; another agent\'s quote is 404', async () => {
    const { token } = await connected();
    const quote = await asAgent(token, 'POST', '/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 2_000,
    });
    expect(quote.status).toBe(201);
    expect((await asAgent(token, 'GET', `/agents/me/quotes/${quote.body.id}`)).body.id).toBe(quote.body.id);
    const second = await connected();
    expect((await asAgent(second.token, 'GET', `/agents/me/quotes/${quote.body.id}`)).status).toBe(404);
    expect((await asAgent(second.token, 'POST', `/agents/me/quotes/${quote.body.id}/execute`)).status).toBe(404);
    const executed = await asAgent(token, 'POST', `/agents/me/quotes/${quote.body.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({ type: 'EXECUTE_QUOTE', status: 'APPROVED', quote: { id: quote.body.id }, transaction: { id: quote.body.transactionId } });
  });

  it('refuses with 403 FORBIDDEN what the policy forbids: a missing permission, an account not allowed, each limit; a paused agent', async () => {
    const limited = await connected({ ...POLICY, permissions: ['VIEW_TRANSACTIONS'] });
    const missing = await transferOut(limited.token, 100);
    expect(missing.body).toMatchObject({ status: 403, code: 'FORBIDDEN', details: { rule: 'permissions' } });
    expect((await asAgent(limited.token, 'GET', '/agents/me/external-accounts')).status).toBe(403);
    const restricted = await connected({ ...POLICY, accountRestrictions: { allowedAccountIds: [usd] } });
    expect((await transferOut(restricted.token, 100)).body.details.rule).toBe('accountRestrictions.allowedAccountIds');
    const { agent, token } = await connected();
    expect((await transferOut(token, 50_001)).body.details.rule).toBe('spendingLimits.perTransactionLimit');
    expect((await transferOut(token, 50_000)).status).toBe(201);
    expect((await transferOut(token, 50_000)).status).toBe(201);
    expect((await transferOut(token, 1)).body.details.rule).toBe('spendingLimits.dailyLimit');
    const monthly = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, monthlyLimit: 6_000 } });
    expect((await transferOut(monthly.token, 5_000)).status).toBe(201);
    expect((await transferOut(monthly.token, 1_001)).body.details.rule).toBe('spendingLimits.monthlyLimit');
    engine.sandbox().advance(24 * 3_600_000);
    for (let i = 0; i < 5; i++) expect((await transferOut(token, 1)).status).toBe(201);
    expect((await transferOut(token, 1)).body.details.rule).toBe('spendingLimits.dailyTransactionLimit');
    await call('PATCH', `/agents/${agent.id}`, { isPaused: true });
    expect((await transferOut(token, 1)).body.details.rule).toBe('isPaused');
    // Refusals moved nothing.
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 5, dailySpend: 5 });
  });

  it('an account rule sets its own limit and mode; an amount above the approval threshold waits for approval even under AUTO', async () => {
    const { token } = await connected({
      ...POLICY,
      accountRestrictions: { accountRules: [{ accountId: bank, perTransactionLimit: 1_000 }] },
      approvalThresholds: { currency: 'USD', amount: 500 },
    });
    expect((await transferOut(token, 1_001)).body.details.rule).toBe('accountRules.perTransactionLimit');
    expect((await transferOut(token, 500)).body.status).toBe('APPROVED');
    expect((await transferOut(token, 501)).body.status).toBe('PENDING_APPROVAL');
    expect((await call('POST', '/agents', { name: 'x', customerId: customer.id, policy: { ...POLICY, approvalThresholds: { amount: 5 } } })).body.details.errors[0].field)
      .toBe('policy.approvalThresholds.currency');
  });
});

describe('approvals', () => {
  it('APPROVAL_REQUIRED: PENDING_APPROVAL without a transaction and a webhook; approve runs it; reject keeps the reason', async () => {
    const { agent, token } = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const pending = (await transferOut(token, 1_000)).body;
    expect(pending).toMatchObject({ status: 'PENDING_APPROVAL' });
    expect(pending).not.toHaveProperty('transaction');
    expect(engine.sandbox().events({ limit: 10, type: 'AGENT_ACTION.PENDING_APPROVAL' }).data.map((e) => (e.data as Json).id)).toEqual([pending.id]);
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage.dailyTransactionCount).toBe(0);
    const approved = await call('POST', `/agents/${agent.id}/actions/${pending.id}/approve`);
    expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { type: 'OUTGOING' } });
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage.dailyTransactionCount).toBe(1);
    expect((await call('POST', `/agents/${agent.id}/actions/${pending.id}/approve`)).status).toBe(409);
    const other = (await transferOut(token, 2_000)).body;
    expect((await call('POST', `/agents/${agent.id}/actions/${other.id}/reject`, { reason: 'not this month' })).body).toMatchObject({ status: 'REJECTED', rejectionReason: 'not this month' });
    expect((await asAgent(token, 'GET', `/agents/me/actions?status=REJECTED`)).body.data.map((a: Json) => a.id)).toEqual([other.id]);
    const approvals = (await call('GET', `/agents/approvals?agentId=${agent.id}&sortOrder=asc`)).body.data.map((a: Json) => [a.id, a.status]);
    expect(approvals).toEqual([[pending.id, 'APPROVED'], [other.id, 'REJECTED']]);
    expect((await call('POST', `/agents/Agent:0b5e8d3c-4c1e-4a6b-9f3e-2f6a1d7c9e01/actions/${other.id}/approve`)).status).toBe(404);
  });

  it('an approved action is checked again when it runs: FAILED when the policy now refuses it or the quote expired', async () => {
    const { agent, token } = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const pending = (await transferOut(token, 10_000)).body;
    await call('PATCH', `/agents/${agent.id}/policy`, { spendingLimits: { perTransactionLimit: 5_000 } });
    expect((await call('POST', `/agents/${agent.id}/actions/${pending.id}/approve`)).body).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('FORBIDDEN') });
    const quote = (await asAgent(token, 'POST', '/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    })).body;
    const waiting = (await asAgent(token, 'POST', `/agents/me/quotes/${quote.id}/execute`)).body;
    expect(waiting.status).toBe('PENDING_APPROVAL');
    engine.sandbox().advance(60 * 60_000);
    expect((await call('POST', `/agents/${agent.id}/actions/${waiting.id}/approve`)).body).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('expired') });
  });

  it('POST /transactions/{id}/approve and /reject decide an agent\'s quote execution waiting for approval (SPEC §4.5)', async () => {
    const { token } = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const quote = async () => (await asAgent(token, 'POST', '/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
    })).body;
    const first = await quote();
    const action = (await asAgent(token, 'POST', `/agents/me/quotes/${first.id}/execute`)).body;
    const approved = await call('POST', `/transactions/${first.transactionId}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: first.transactionId, type: 'OUTGOING' });
    expect((await asAgent(token, 'GET', `/agents/me/actions/${action.id}`)).body.status).toBe('APPROVED');
    const second = await quote();
    const refused = (await asAgent(token, 'POST', `/agents/me/quotes/${second.id}/execute`)).body;
    expect((await call('POST', `/transactions/${second.transactionId}/reject`, { reason: 'no' })).status).toBe(200);
    expect((await asAgent(token, 'GET', `/agents/me/actions/${refused.id}`)).body).toMatchObject({ status: 'REJECTED', rejectionReason: 'no' });
    expect((await call('POST', `/transactions/${second.transactionId}/approve`)).status).toBe(409);
  });
});

describe('the policy on every path money takes (issue 32, hole 1)', () => {
  const QUOTE_ONLY = {
    permissions: ['CREATE_QUOTES'], defaultExecutionMode: 'APPROVAL_REQUIRED',
    spendingLimits: { currency: 'USD', perTransactionLimit: 100, dailyTransactionLimit: 1 },
  };
  const immediate = (amount: number) => ({
    source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: bank },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, immediatelyExecute: true,
  });
  const balance = async () => (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].balance.amount;

  it('an immediatelyExecute quote needs EXECUTE_QUOTES: refused with nothing stored, nothing paid', async () => {
    const { token } = await connected(QUOTE_ONLY);
    const before = JSON.stringify(engine.sandbox().snapshot().collections.transactions);
    for (let i = 0; i < 7; i++) {
      const refused = await asAgent(token, 'POST', '/agents/me/quotes', immediate(500_000 / 7 | 0));
      expect([refused.status, refused.body.code, refused.body.details.rule]).toEqual([403, 'FORBIDDEN', 'permissions']);
    }
    expect(await balance()).toBe(500_000);
    expect(JSON.stringify(engine.sandbox().snapshot().collections.transactions)).toBe(before);
  });

  it('weighs every limit, records the action, counts the usage and names the agent on the transaction', async () => {
    const { agent, token } = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyTransactionLimit: 1 } });
    const tooMuch = await asAgent(token, 'POST', '/agents/me/quotes', immediate(3_500_000));
    expect([tooMuch.status, tooMuch.body.details.rule]).toEqual([403, 'spendingLimits.perTransactionLimit']);
    const paid = await asAgent(token, 'POST', '/agents/me/quotes', immediate(1_000));
    expect([paid.status, paid.body.status]).toEqual([201, 'PROCESSING']);
    const transaction = (await call('GET', `/transactions/${paid.body.transactionId}`)).body;
    expect(transaction.agentId).toBe(agent.id);
    const actions = (await asAgent(token, 'GET', '/agents/me/actions')).body.data;
    expect(actions.map((a: Json) => [a.type, a.status, a.transaction?.id])).toEqual([['EXECUTE_QUOTE', 'APPROVED', paid.body.transactionId]]);
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_000 });
    const second = await asAgent(token, 'POST', '/agents/me/quotes', immediate(500));
    expect([second.status, second.body.details.rule]).toEqual([403, 'spendingLimits.dailyTransactionLimit']);
    expect(await balance()).toBe(499_000);
  });

  it('allowedAccountIds and approval mode hold for immediatelyExecute too: a PENDING quote waits for the platform', async () => {
    const other = (await call('POST', '/customers/external-accounts', {
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '9876543210', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
    })).body.id;
    const { agent, token } = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED', accountRestrictions: { allowedAccountIds: [usd, bank] } });
    const elsewhere = await asAgent(token, 'POST', '/agents/me/quotes', { ...immediate(100), destination: { destinationType: 'ACCOUNT', accountId: other } });
    expect([elsewhere.status, elsewhere.body.details.rule]).toEqual([403, 'accountRestrictions.allowedAccountIds']);
    const waiting = await asAgent(token, 'POST', '/agents/me/quotes', immediate(100));
    expect([waiting.status, waiting.body.status]).toEqual([201, 'PENDING']);
    const [action] = (await call('GET', `/agents/approvals?agentId=${agent.id}`)).body.data;
    expect([action.status, action.quote.id]).toEqual(['PENDING_APPROVAL', waiting.body.id]);
    expect(await balance()).toBe(500_000);
    expect((await call('POST', `/agents/${agent.id}/actions/${action.id}/approve`)).body.status).toBe('APPROVED');
    expect(await balance()).toBe(499_900);
  });

  it('a real-time funded quote is an execution too: weighed when created, counted, refused when it would need approval', async () => {
    const realtime = (amount: number, accountId = bank) => ({
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount,
    });
    const quoting = await connected(QUOTE_ONLY);
    const refused = await asAgent(quoting.token, 'POST', '/agents/me/quotes', realtime(5_000_000));
    expect([refused.status, refused.body.details.rule]).toEqual([403, 'permissions']);
    const approving = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const waits = await asAgent(approving.token, 'POST', '/agents/me/quotes', realtime(1_000));
    expect([waits.status, waits.body.details.rule]).toEqual([403, 'approval']);
    const { agent, token } = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyTransactionLimit: 1 } });
    const over = await asAgent(token, 'POST', '/agents/me/quotes', realtime(5_000_000));
    expect([over.status, over.body.details.rule]).toEqual([403, 'spendingLimits.perTransactionLimit']);
    const quote = await asAgent(token, 'POST', '/agents/me/quotes', realtime(1_000));
    expect([quote.status, quote.body.status]).toEqual([201, 'PENDING']);
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_000 });
    const [action] = (await asAgent(token, 'GET', '/agents/me/actions')).body.data;
    expect([action.type, action.status, action.transaction.id]).toEqual(['EXECUTE_QUOTE', 'APPROVED', quote.body.transactionId]);
    expect((await asAgent(token, 'POST', `/agents/me/quotes/${quote.body.id}/execute`)).status).toBe(409);
    expect((await asAgent(token, 'POST', '/agents/me/quotes', realtime(500))).body.details.rule).toBe('spendingLimits.dailyTransactionLimit');
    expect((await call('POST', '/sandbox/send', { quoteId: quote.body.id, currencyCode: 'USD' })).status).toBe(200);
    expect((await call('GET', `/transactions/${quote.body.transactionId}`)).body).toMatchObject({ status: 'COMPLETED', agentId: agent.id });
  });

  it('a paused agent deletes no external account', async () => {
    const { agent, token } = await connected();
    await call('PATCH', `/agents/${agent.id}`, { isPaused: true });
    const refused = await asAgent(token, 'DELETE', `/agents/me/external-accounts/${bank}`);
    expect([refused.status, refused.body.details.rule]).toEqual([403, 'isPaused']);
    expect((await call('GET', `/customers/external-accounts/${bank}`)).status).toBe(200);
  });
});

describe('a credential grants only what it holds (issue 32, hole 3)', () => {
  const token = async (permissions: string[]) => {
    const made = (await call('POST', '/tokens', { name: permissions.join('+'), permissions })).body;
    return { clientId: made.clientId as string, clientSecret: made.clientSecret as string };
  };
  const as = (credentials: { clientId: string; clientSecret: string }, method: string, path: string, body?: unknown) =>
    callApi(engine, method, path, body, undefined, credentials);

  it('a MANAGE token makes no TRANSACT token, no money-moving agent, raises no limit and resumes or reconnects none', async () => {
    const manager = await token(['MANAGE']);
    const stronger = await as(manager, 'POST', '/tokens', { name: 'payer', permissions: ['TRANSACT'] });
    expect([stronger.status, stronger.body.code, stronger.body.details]).toEqual([403, 'FORBIDDEN', { rule: 'grant', missingPermissions: ['TRANSACT'] }]);
    const agent = await as(manager, 'POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY });
    expect([agent.status, agent.body.details.missingPermissions]).toEqual([403, ['VIEW', 'TRANSACT']]);
    expect((await call('GET', '/tokens')).body.totalCount).toBe(1);
    expect((await call('GET', '/agents')).body.totalCount).toBe(0);

    const created = (await call('POST', '/agents', { name: 'bot', customerId: customer.id, policy: POLICY })).body.agent;
    const raise = await as(manager, 'PATCH', `/agents/${created.id}/policy`, { spendingLimits: { perTransactionLimit: 10_000_000 } });
    expect([raise.status, raise.body.details.rule]).toEqual([403, 'grant']);
    expect((await as(manager, 'POST', `/agents/${created.id}/device-codes`)).status).toBe(403);
    await call('PATCH', `/agents/${created.id}`, { isPaused: true });
    expect((await as(manager, 'PATCH', `/agents/${created.id}`, { isPaused: false })).status).toBe(403);
    expect((await as(manager, 'PATCH', `/agents/${created.id}`, { name: 'renamed' })).status).toBe(200);
    expect((await call('GET', `/agents/${created.id}`)).body).toMatchObject({ isPaused: true, policy: POLICY });
  });

  it('a token holding what it grants may grant it: VIEW+MANAGE makes a VIEW token and an agent that manages accounts', async () => {
    const admin = await token(['VIEW', 'MANAGE']);
    expect((await as(admin, 'POST', '/tokens', { name: 'reader', permissions: ['VIEW'] })).status).toBe(201);
    const policy = { ...POLICY, permissions: ['VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS'] };
    expect((await as(admin, 'POST', '/agents', { name: 'bookkeeper', customerId: customer.id, policy })).status).toBe(201);
  });

  it('approving an agent action moves money: it needs TRANSACT', async () => {
    const { agent, token: bot } = await connected({ ...POLICY, defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const action = (await transferOut(bot, 1_000)).body;
    const manager = await token(['MANAGE', 'VIEW']);
    const refused = await as(manager, 'POST', `/agents/${agent.id}/actions/${action.id}/approve`);
    expect([refused.status, refused.body.details.requiredPermission]).toEqual([403, 'TRANSACT']);
    const payer = await token(['TRANSACT']);
    expect((await as(payer, 'POST', `/agents/${agent.id}/actions/${action.id}/approve`)).body.status).toBe('APPROVED');
  });
});

describe('policy currencies the sandbox cannot price (issue 32, hole 10)', () => {
  it('is a 400 naming the field on create and on update, never a 500', async () => {
    for (const currency of ['XYZ', 'ABC']) {
      const created = await call('POST', '/agents', { name: 'bot', customerId: customer.id, policy: { ...POLICY, spendingLimits: { ...POLICY.spendingLimits, currency } } });
      expect([created.status, created.body.details.errors.map((e: Json) => e.field)]).toEqual([400, ['policy.spendingLimits.currency']]);
    }
    const { agent } = await connected();
    for (const currency of ['XYZ', 'JPY', 'KWD']) {
      const patched = await call('PATCH', `/agents/${agent.id}/policy`, { spendingLimits: { currency } });
      expect(patched.status).toBeLessThan(500);
      if (patched.status === 400) expect(patched.body.details.errors[0].field).toBe('spendingLimits.currency');
    }
    const threshold = await call('PATCH', `/agents/${agent.id}/policy`, { approvalThresholds: { currency: 'XYZ', amount: 5 } });
    expect([threshold.status, threshold.body.details.errors[0].field]).toEqual([400, 'approvalThresholds.currency']);
  });
});

describe('agent transfers without an amount', () => {
  const sweep = (token: string) => asAgent(token, 'POST', '/agents/me/transfer-out', { source: { accountId: usd }, destination: { accountId: bank } });
  const balance = async () => (await call('GET', `/customers/internal-accounts?customerId=${customer.id}`)).body.data[0].balance.amount;

  it('weighs the whole balance it would send: refused past the per-transaction limit, nothing moved', async () => {
    const { token } = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 499_999 } });
    const refused = await sweep(token);
    expect(refused).toMatchObject({ status: 403, body: { details: { rule: 'spendingLimits.perTransactionLimit' } } });
    expect(await balance()).toBe(500_000);
  });

  it('runs with the balance as its amount, counted as spend; an approval later sends the amount it showed', async () => {
    const { token } = await connected();
    const { token: waiting, agent } = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 500_000 }, approvalThresholds: { currency: 'USD', amount: 100 } });
    const pending = await sweep(waiting);
    expect(pending).toMatchObject({ status: 201, body: { status: 'PENDING_APPROVAL', transferDetails: { amount: 500_000, currency: 'USD' } } });
    // The balance grows meanwhile: the approved action still sends the 500,000 it showed.
    await call('POST', `/sandbox/internal-accounts/${usd}/fund`, { amount: 1_000 });
    const approved = await call('POST', `/agents/${agent.id}/actions/${pending.body.id}/approve`);
    expect(approved).toMatchObject({ status: 200, body: { status: 'APPROVED', transaction: { sentAmount: { amount: 500_000 } } } });
    expect(await balance()).toBe(1_000);
    const ran = await sweep(token);
    expect(ran).toMatchObject({ status: 201, body: { status: 'APPROVED', transferDetails: { amount: 1_000 }, transaction: { sentAmount: { amount: 1_000 } } } });
    expect((await asAgent(token, 'GET', '/agents/me')).body.usage).toMatchObject({ dailySpend: 1_000, dailyTransactionCount: 1 });
    expect(await sweep(token)).toMatchObject({ status: 409, body: { code: 'CONFLICT', details: { reason: 'INSUFFICIENT_BALANCE' } } });
  });

  it('a pull without an amount is weighed as the most one pull may carry (the USD maximum): past the limit, refused', async () => {
    const { token } = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 99_999_999 } });
    const pull = await asAgent(token, 'POST', '/agents/me/transfer-in', { source: { accountId: bank }, destination: { accountId: usd } });
    expect(pull).toMatchObject({ status: 403, body: { details: { rule: 'spendingLimits.perTransactionLimit' } } });
    expect(await balance()).toBe(500_000);
    const { token: generous } = await connected({ ...POLICY, spendingLimits: { currency: 'USD', perTransactionLimit: 100_000_000 } });
    const pulled = await asAgent(generous, 'POST', '/agents/me/transfer-in', { source: { accountId: bank }, destination: { accountId: usd } });
    expect(pulled).toMatchObject({ status: 201, body: { status: 'APPROVED', transferDetails: { amount: 100_000_000 } } });
    expect(await balance()).toBe(100_500_000);
  });
});
