import { PermissionDeniedError, redeemAgentDeviceCode, type ClientOptions, type RailyardClient } from '@railyard/client';

/**
 * A client for a new sandbox platform that is a regulated institution (its customers are APPROVED at creation), so
 * the example can run again against the same server.
 */
export async function agentSandboxPlatform(client: RailyardClient): Promise<RailyardClient> {
  const platform = await client.sandbox.platforms.create({ name: 'Agent example', regulated: true });
  return client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** `2000` cents as `20.00 USD`. */
const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

/**
 * The agent example: a customer with 500.00 USD gets a budgeting agent that may pay up to 200.00 at a time, on its own
 * up to 50.00 and with the platform's approval above. The agent connects with its device code, pays 20.00 on its own,
 * asks to pay 75.00 (which the platform approves by the payment's transaction id), and is refused 250.00. `connection`
 * says how the agent's own client reaches the sandbox (what the platform's client was built with). Returns the trace it
 * printed.
 */
export async function runAgent(
  client: RailyardClient, connection: Pick<ClientOptions, 'baseUrl' | 'fetch'>, log: (line: string) => void = console.log,
): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };

  // 1. A customer with a USD account holding 500.00 and a bank account to pay.
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'agent-ada', fullName: 'Ada Lovelace', currencies: ['USD'] });
  const account = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.id;
  await client.sandbox.fundInternalAccount(account, 50_000);
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
  });

  // 2. The agent and its policy; its device code goes to the agent's software.
  const { agent, deviceCode } = await client.agents.create({
    name: 'Budget bot', customerId: customer.id,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS'], defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 20_000, dailyLimit: 40_000 }, approvalThresholds: { currency: 'USD', amount: 5_000 },
    },
  });

  // 3. The agent redeems the code (no credentials) for its access token; the platform sees it connected.
  const { client: bot } = await redeemAgentDeviceCode(deviceCode.code, connection);
  say(`Agent ${agent.name} connected: ${(await client.agents.deviceCodeStatus(deviceCode.code)).redeemed}`);

  // 4. Within its policy, it pays on its own.
  const small = await bot.transfers.out({ source: { accountId: account }, destination: { accountId: bank.id }, amount: 2_000 });
  say(`Transfer of ${usd(2_000)}: ${small.status}, transaction ${small.transaction?.status}`);

  // 5. Above the approval threshold its payment waits; the platform approves it by the payment's transaction id.
  const quote = await bot.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: account }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 7_500,
  });
  const waiting = await bot.quotes.execute(quote.id);
  say(`Payment of ${usd(7_500)}: ${waiting.status}`);
  const pending: string[] = [];
  for await (const action of client.agents.listApprovals({ agentId: agent.id })) if (action.status === 'PENDING_APPROVAL') pending.push(action.id);
  say(`Waiting for the platform: ${pending.length}`);
  await client.transactions.approve(quote.transactionId);
  const approved = await bot.actions.waitFor(waiting.id);
  say(`After approval: ${approved.status}, transaction ${approved.transaction?.status}`);

  // 6. Beyond its per-payment limit it is refused.
  try {
    await bot.transfers.out({ source: { accountId: account }, destination: { accountId: bank.id }, amount: 25_000 });
  } catch (error) {
    if (!(error instanceof PermissionDeniedError)) throw error;
    say(`Transfer of ${usd(25_000)}: refused (${error.code}, ${(error.details as { rule: string }).rule})`);
  }

  // 7. What it spent today, and what is left in the account.
  const { usage } = await bot.me();
  say(`Usage today: ${usage.dailyTransactionCount} payments, ${usd(usage.dailySpend)}`);
  const balance = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount;
  say(`Balance: ${usd(balance)}`);
  return trace;
}
