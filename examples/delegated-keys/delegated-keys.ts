import type { RailyardClient } from '@railyard/client';
import { encryptOtp, SessionKey } from '@railyard/wallet';

/**
 * A client for a new sandbox platform that is a regulated institution: its customers are APPROVED at creation, so
 * they can hold a card at once. Each run gets its own platform, so the example can run again against the same server.
 */
export async function delegatedKeySandboxPlatform(client: RailyardClient): Promise<RailyardClient> {
  const platform = await client.sandbox.platforms.create({ name: 'Delegated keys example', regulated: true });
  return client.withOptions({ clientId: platform.clientId, clientSecret: platform.clientSecret });
}

/** The sandbox's email code (docs/wallet-auth.md). */
const SANDBOX_OTP_CODE = '000000';

/**
 * The delegated-keys example: a cardholder whose embedded wallet holds 50 USDB and funds their card; a purchase
 * declined while the wallet has no delegated key; the wallet signs in and creates one in one call; the same purchase
 * now pulled from the wallet; the key revoked, and the wallet funds nothing again. Returns the trace it printed.
 */
export async function runDelegatedKeys(client: RailyardClient, log: (line: string) => void = console.log): Promise<string[]> {
  const trace: string[] = [];
  const say = (line: string) => {
    trace.push(line);
    log(line);
  };
  const usdb = async (accountId: string, customerId: string) => {
    const account = (await client.internalAccounts.list({ customerId, currency: 'USDB' })).data.find((a) => a.id === accountId)!;
    return `${(account.balance.amount / 1_000_000).toFixed(2)} USDB`;
  };

  // 1. A cardholder with an embedded wallet (USDB), 50 USDB in it, and a card funded by the wallet.
  const cardholder = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', currencies: ['USDB'] });
  const wallet = (await client.internalAccounts.list({ customerId: cardholder.id })).data.find((a) => a.type === 'EMBEDDED_WALLET')!;
  await client.sandbox.fundInternalAccount(wallet.id, 50_000_000);
  const card = await client.cards.waitFor((await client.cards.create({ cardholderId: cardholder.id, form: 'VIRTUAL', fundingSources: [wallet.id] })).id, { advanceClock: true });
  say(`Card •••• ${card.last4} funded by the wallet, which holds ${await usdb(wallet.id, cardholder.id)}`);

  // 2. Without a delegated key the wallet cannot fund the purchase.
  const coffee = { amount: 450, currency: { code: 'USD' }, merchant: { descriptor: 'BLUE BOTTLE COFFEE', mcc: '5814' } };
  const refused = await client.sandbox.cards.authorize(card.id, coffee);
  say(`Coffee without a delegated key: ${refused.simulation.outcome} (${refused.simulation.declineReason})`);

  // 3. The wallet signs in with its email code; its session key stamps the delegated key's two signed legs.
  const email = (await client.auth.credentials.list({ accountId: wallet.id })).data[0]!;
  const { otpEncryptionTargetBundle } = await client.auth.credentials.challenge(email.id);
  const { publicKeyHex: pinnedEnclaveKey } = await client.sandbox.enclaveKey();
  const session = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: SANDBOX_OTP_CODE, tekPublicKey: session, pinnedEnclaveKey });
  await client.auth.credentials.verify(email.id, { type: 'EMAIL_OTP', encryptedOtpBundle }, { stamper: session });
  const key = await client.auth.delegatedKeys.create({ cardId: card.id, internalAccountId: wallet.id, nickname: 'Coffee card' }, { stamper: session });
  say(`Delegated key "${key.nickname}": ${key.status}`);

  // 4. The same purchase is now pulled from the wallet (4.50 USD as 4.50 USDB).
  const paid = await client.sandbox.cards.authorize(card.id, coffee);
  say(`Coffee with the key: ${paid.simulation.outcome}, ${paid.transaction!.status}; the wallet holds ${await usdb(wallet.id, cardholder.id)}`);

  // 5. Revoked, the key approves nothing: the wallet funds the card no more.
  await client.auth.delegatedKeys.revoke(key.id);
  const after = await client.sandbox.cards.authorize(card.id, coffee);
  const statuses = (await client.auth.delegatedKeys.list({ accountId: wallet.id })).data.map((k) => k.status);
  say(`After revoking (${statuses.join(', ')}): ${after.simulation.outcome} (${after.simulation.declineReason})`);
  return trace;
}
