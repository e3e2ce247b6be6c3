import { BadRequestError, type RailyardClient } from '@railyard/client';

/**
 * A client for a new sandbox platform that is a regulated institution (its customers are APPROVED at creation), so
 * the example can run again against the same server.
 */
export async function lookupsSandboxPlatform(client: RailyardClient): Promise<RailyardClient> {
  const platform = await client.sandbox.platforms.create({ name: 'Lookups example', regulated: true });
  return client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** A Solana address (base58, 32 bytes): what the Solana address checks accept. */
const SOLANA_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';

/**
 * The lookups example: a customer pays a Nigerian bank account named from the bank directory, quoting with the
 * account's receiver lookup; a VASP from the list names a custodial USDC wallet; the UMA providers serving the US; and
 * what withdrawing 25 USDC on Solana costs, then an amount the fees would swallow. Returns the trace it printed.
 */
export async function runLookups(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };

  // 1. A payer with 100.00 USD, and a bank from the directory.
  const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Ada Payer', currencies: ['USD', 'USDC'] });
  const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const usd = accounts.find((a) => a.balance.currency.code === 'USD')!.id;
  const usdc = accounts.find((a) => a.balance.currency.code === 'USDC')!.id;
  await client.sandbox.fundInternalAccount(usd, 10_000);
  const banks = await client.discoveries.list({ country: 'NG', currency: 'NGN' });
  say(`Banks in Nigeria: ${banks.map((b) => b.displayName).join(', ')}`);

  // 2. An account at the first one, looked up, quoted with the lookup's id, and paid.
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'NGN',
    accountInfo: {
      accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: banks[0]!.bankName,
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Chidi Receiver', birthDate: '1990-01-01', nationality: 'NG' },
    },
  });
  const receiver = await client.receivers.lookupExternalAccount(bank.id, { customerId: customer.id });
  const [terms] = receiver.supportedCurrencies;
  say(`The account receives ${terms!.currency.code} at about ${terms!.estimatedExchangeRate} per USD`);
  const quote = await client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: receiver.accountId },
    lookupId: receiver.lookupId, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
  });
  say(`Quote: 10.00 USD sends ${(quote.totalReceivingAmount / 100).toFixed(2)} NGN`);
  say(`Executed: ${(await client.quotes.execute(quote.id)).status}`);

  // 3. A custodial wallet at a listed VASP.
  const vasps: string[] = [];
  for await (const vasp of client.vasps.list()) vasps.push(vasp.vaspName);
  const wallet = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USDC', ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType: 'SOLANA_WALLET', address: SOLANA_ADDRESS, vaspName: vasps[0]! },
  });
  say(`${vasps.length} VASPs; a wallet at ${vasps[0]} is ${wallet.status}`);

  // 4. UMA providers serving the US, blocked ones left out.
  const providers = await client.umaProviders.list({ countryCode: 'US', hasBlockedProviders: 'false', sortOrder: 'asc' });
  say(`UMA providers in the US: ${providers.data.map((p) => p.name).join(', ')}`);

  // 5. What withdrawing 25 USDC on Solana costs, and an amount the fees would swallow.
  const request = { internalAccountId: usdc, currency: 'USDC', cryptoNetwork: 'SOLANA', amount: 25_000_000, destinationAddress: SOLANA_ADDRESS } as const;
  const fee = await client.crypto.estimateWithdrawalFee(request);
  say(`Withdrawal fee: ${fee.networkFee} ${fee.networkFeeAsset} network fee, ${fee.totalFee} USDC units in all, ${fee.netAmount} arrive`);
  try {
    await client.crypto.estimateWithdrawalFee({ ...request, amount: 700 });
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    say(`Withdrawing 700 units: refused (${error.code})`);
  }
  return trace;
}
