import { SignatureRequiredError, type RailyardClient, type StablecoinOperation } from '@railyard/client';
import { encryptOtp, SessionKey } from '@railyard/wallet';

/** A client for a new sandbox platform, so the example can run again against the same server. */
export async function stablecoinSandboxPlatform(client: RailyardClient): Promise<RailyardClient> {
  const platform = await client.sandbox.platforms.create({ name: 'Stablecoin example' });
  return client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** `2500` cents as `25.00 USD`. */
const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;
/** Whole tokens at 6 decimals: `25` → `'25000000'`. */
const tokens = (whole: number) => String(whole * 1_000_000);
/** The sandbox's email code (docs/wallet-auth.md). */
const SANDBOX_OTP_CODE = '000000';

/**
 * The stablecoin example: link the platform's provider account, register a token it issues there and wait for its
 * review and provisioning, ask for enablement (the sandbox operator grants it), then mint 25 tokens paid from a
 * customer's USD account into their embedded wallet, mint 10 more by wire, burn 30 back to their bank account (a signed
 * action of the wallet: refused without its signature, then stamped by a session of it), and show the coin's reserve in
 * the ledger. Returns the trace it printed.
 */
export async function runStablecoin(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };
  const settled = (operation: StablecoinOperation) => client.stablecoinOperations.waitFor(operation.id, { advanceClock: 60_000 });
  const step = (what: string, created: StablecoinOperation, done: StablecoinOperation) => say(`${what}: ${created.status} → ${done.status}`);

  // 1. The provider link (credentials checked now, never returned) and the coin: reviewed, then provisioned.
  const link = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'example-client', apiClientSecret: 'example-secret' });
  const registered = await client.stablecoins.register({ providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdxexample', network: 'SPARK' });
  const provisioned = await client.stablecoins.waitFor(registered.id, { advanceClock: 60_000 });
  say(`Link ${link.providerAccountId}: ${link.status}; coin ${provisioned.symbol}: ${registered.issuanceStatus} → ${provisioned.issuanceStatus}`);

  // 2. Enablement (SPEC §3.7): the platform asks, the operator decides (in the sandbox, a control-plane call).
  const asked = await client.stablecoins.requestEnablement(provisioned.id);
  const coin = await client.sandbox.stablecoins.setOperationsStatus(provisioned.id, 'ENABLED');
  say(`Enablement: ${provisioned.serviceOperationsStatus} → ${asked.serviceOperationsStatus} → ${coin.serviceOperationsStatus} (currency ${coin.currency})`);

  // 3. A customer with a USD account holding 100.00, an embedded wallet for the tokens, and a bank account.
  const customer = await client.customers.create({
    customerType: 'INDIVIDUAL', platformCustomerId: 'stablecoin-ada', fullName: 'Ada Lovelace', email: 'ada@example.com', currencies: ['USD', 'USDB'],
  });
  const accounts = (await client.internalAccounts.list({ customerId: customer.id })).data;
  const account = accounts.find((a) => a.balance.currency.code === 'USD')!;
  const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!;
  await client.sandbox.fundInternalAccount(account.id, 10_000);
  const bank = await client.externalAccounts.create({
    customerId: customer.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '1234567890', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
  });

  // 4. Mint 25 tokens paid from the USD account: the fiat moves into the reserve at once, the tokens follow.
  const mint = await client.stablecoins.mint(coin.id, {
    amount: tokens(25), fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: account.id }, destination: { accountId: wallet.id },
  });
  step('Mint 25 from the USD account', mint, await settled(mint));

  // 5. Mint 10 more by wire: the operation carries the wire instructions and waits for the money (the sandbox sends it).
  const wire = await client.stablecoins.mint(coin.id, { amount: tokens(10), fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id } });
  say(`Wire ${usd(1_000)} to account ${wire.fundingInstructions?.accountNumber} (routing ${wire.fundingInstructions?.routingNumber}), reference ${wire.fundingInstructions?.reference}`);
  await client.sandbox.stablecoins.fundOperation(wire.id);
  step('Mint 10 by wire', wire, await settled(wire));

  // 6. Burn 30 back to the customer's own bank account over RTP. The tokens are the wallet's, so the burn is its signed
  //    action: on the platform's credentials alone it stops at the wallet's challenge, and nothing is taken.
  const burnBody = {
    amount: tokens(30), source: { type: 'SERVICE_INTERNAL_ACCOUNT' as const, accountId: wallet.id },
    destination: { type: 'EXTERNAL_ACCOUNT' as const, externalAccountId: bank.id, rail: 'RTP_CREDIT' as const },
  };
  const unsigned = await client.stablecoins.burn(coin.id, burnBody).catch((error: unknown) => error);
  if (!(unsigned instanceof SignatureRequiredError)) throw new Error(`expected the wallet's challenge, got ${String(unsigned)}`);
  say(`Burn 30 without the wallet's signature: ${unsigned.pending.status}`);
  // The customer signs in to the wallet with their email code; the session key stamps the burn's signed retry.
  const email = (await client.auth.credentials.list({ accountId: wallet.id })).data[0]!;
  const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(email.id);
  const { publicKeyHex: pinnedEnclaveKey } = await client.sandbox.enclaveKey();
  const session = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: SANDBOX_OTP_CODE, tekPublicKey: session, pinnedEnclaveKey });
  await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: session });
  // Signed: the tokens leave the wallet at once, the fiat follows to the customer's bank account.
  const burn = await client.stablecoins.burn(coin.id, burnBody, { stamper: session });
  say(`Burn 30 to the bank, signed by the wallet: estimated ${usd(Number(burn.estimatedDelivery!.amount))} ${burn.estimatedDelivery!.timing}`);
  step('Burn 30', burn, await settled(burn));

  // 7. The ledger: the reserve holds exactly the fiat behind the 5 tokens still out.
  const snapshot = await client.sandbox.snapshot();
  const entries = (snapshot.collections.ledger ?? []) as { currency: string; postings: { account: string; amount: number }[] }[];
  const balance = (name: string) => entries.flatMap((e) => e.postings).filter((p) => p.account === name).reduce((sum, p) => sum + p.amount, 0);
  say(`Reserve: ${usd(balance(`stablecoin-reserve:${coin.id}`))}; tokens in the wallet: ${usd(balance(`tokens:${wallet.id}`))} worth`);
  const [after] = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data;
  say(`USD account: ${usd(after!.balance.amount)}`);
  const operations: string[] = [];
  for await (const operation of client.stablecoins.listOperations(coin.id)) operations.push(`${operation.operationType} ${operation.status}`);
  say(`Operations, newest first: ${operations.join(', ')}`);
  return trace;
}
