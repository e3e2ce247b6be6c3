import type { RailyardClient } from '@railyard/client';
import { runOnboarding } from '../../examples/onboarding/onboarding.js';
import type { RawCall } from './raw-api.js';
import { signInWithEmailCode } from './wallet-session.js';

// A platform with one of everything, for the checks that need real records to aim at (isolation, fuzzing).

/** A request {@link populate} sends under an Idempotency-Key (a check may repeat it byte for byte under the same key). */
export const KEYED_CUSTOMER = {
  path: '/customers', key: 'a-customer-key', body: JSON.stringify({ customerType: 'INDIVIDUAL', platformCustomerId: 'idempotent-hedy', fullName: 'Hedy Lamarr' }),
};
/** The Idempotency-Key of the execute {@link populate} sends (no body). */
export const EXECUTE_KEY = 'a-execute-key';

/**
 * One of everything on a platform: onboarded individual and business (documents, owners, verifications), money moved
 * (funding, a paid quote, a pending quote, an UMA lookup, an incoming UMA payment), its own configuration (UMA domain,
 * a fee), an EU customer with a contact code, a trusted beneficiary and an SCA session, a kyc link, a platform wallet
 * with an ownership challenge, a card with a settled and partly returned purchase and a reveal, an embedded wallet
 * with a session, SCA factors and a factor reset, a card funded by a wallet through a delegated key, a bulk import, an
 * external-account lookup, a stablecoin with mints under way, an API token, an invitation, an agent with actions (one run, one
 * waiting for approval) and a device code not redeemed yet, and Idempotency-Keys. Returns the agent's access token.
 */
export interface Populated {
  /** The connected agent's access token. */
  readonly agentToken: string;
  /**
   * Bearer values the platform handed out that its state keeps only as hashes: the hosted KYC link and card reveal
   * tokens (`token` in their page paths), and the code of the agent not connected yet (`code`).
   */
  readonly bearer: { readonly token: readonly string[]; readonly code: readonly string[] };
}

export async function populate(client: RailyardClient, call: RawCall): Promise<Populated> {
  // A stablecoin, provisioned (first: its review moves the clock, which nothing else pending yet feels) and enabled.
  const link = await client.stablecoinProviderAccounts.link({ provider: 'BRALE', apiClientId: 'platform-a-client', apiClientSecret: 'secret' });
  const coin = await client.stablecoins.register({ providerTokenIdentifier: 'usda', networkTokenIdentifier: 'btkn1usda', network: 'SPARK', stablecoinProviderAccountId: link.id });
  await client.stablecoins.waitFor(coin.id, { advanceClock: 60_000 });
  await client.sandbox.stablecoins.setOperationsStatus(coin.id, 'ENABLED');

  await runOnboarding(client, () => undefined);
  const ada = (await client.customers.list({ platformCustomerId: 'onboarding-ada' })).data[0]!;
  const terms = await client.customers.endUserTerms();
  await client.customers.update(ada.id, {
    customerType: 'INDIVIDUAL', endUserTermsConsent: { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.7', termsVersion: terms.version, acceptanceMethod: 'CHECKBOX' },
  });
  const usd = (await client.internalAccounts.list({ customerId: ada.id, currency: 'USD' })).data[0]!;
  await client.sandbox.fundInternalAccount(usd.id, 100_000);
  const bank = await client.externalAccounts.create({
    customerId: ada.id, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } },
  });
  const quote = () => client.quotes.create({
    source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
  });
  await call('POST', `/quotes/${(await quote()).id}/execute`, { headers: { 'idempotency-key': EXECUTE_KEY } });
  await quote();
  await client.receivers.lookupUma('$success.usd@uma.sandbox.railyard.dev', { customerId: ada.id });
  await client.config.update({ umaDomain: 'platform-a.example.com', feeConfigs: [{ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 25, fixedFee: { amount: 10, currency: 'USD' } }] });
  await client.sandbox.receiveUma({ senderUmaAddress: '$alice@uma.sandbox.railyard.dev', customerId: ada.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 500 });
  await call('POST', KEYED_CUSTOMER.path, { body: KEYED_CUSTOMER.body, headers: { 'idempotency-key': KEYED_CUSTOMER.key } });
  const hedy = (await client.customers.list({ platformCustomerId: 'idempotent-hedy' })).data[0]!;
  const kycLink = await client.customers.createKycLink(hedy.id, { redirectUri: 'https://platform.example/done' });

  // An EU customer: a contact code pending, a trusted beneficiary, an SCA login session.
  const marie = await client.customers.create({
    customerType: 'INDIVIDUAL', platformCustomerId: 'marie', fullName: 'Marie Curie', birthDate: '1867-11-07', nationality: 'FR',
    email: 'marie@example.com', phoneNumber: '+33612345678', currencies: ['EUR'],
    address: { line1: '36 Quai de Béthune', city: 'Paris', postalCode: '75004', country: 'FR' },
  });
  await client.customers.verifyEmail(marie.id);
  const pierre = await client.externalAccounts.create({
    customerId: marie.id, currency: 'EUR',
    accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'FR1420041010050500013M02606', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pierre Curie', countryOfResidence: 'FR' } },
  });
  const { scaChallenge } = await client.externalAccounts.trust(pierre.id);
  await client.externalAccounts.confirmTrust(pierre.id, { challengeId: scaChallenge!.id, code: '123456' });
  const login = await client.sca.login.start(marie.id, { factor: 'SMS_OTP' });
  await client.sca.login.complete(marie.id, { factor: 'SMS_OTP', code: '123456', endUserIpAddress: '203.0.113.7', ...(login.challengeId ? { challengeId: login.challengeId } : {}) });

  // A platform wallet awaiting its ownership signature.
  const platformWallet = await client.platformExternalAccounts.create({
    currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'BASE_WALLET', address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
  });
  await client.platformExternalAccounts.challenge(platformWallet.id, { method: 'WALLET_SIGNATURE' });

  // A card of Ada's (approved by onboarding) with a settled purchase, part of it returned, and a reveal.
  const card = await client.cards.create({ cardholderId: ada.id, form: 'VIRTUAL', fundingSources: [usd.id], platformCardId: 'ada-card-1' });
  const { transaction: purchase } = await client.sandbox.cards.authorize(card.id, { amount: 2_500, currency: { code: 'USD' }, merchant: { descriptor: 'ADA COFFEE' } });
  await client.sandbox.cards.simulateClearing(card.id, { cardTransactionId: purchase!.id, amount: 2_500 });
  await client.sandbox.cards.simulateReturn(card.id, { cardTransactionId: purchase!.id, amount: 500 });
  const reveal = await client.cards.reveal(card.id);

  // An embedded wallet with a session.
  const wally = await client.customers.create({
    customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', phoneNumber: '+15555550123', currencies: ['USD', 'USDB'],
  });
  const wallet = (await client.internalAccounts.list({ customerId: wally.id, currency: 'USDB' })).data[0]!;
  await signInWithEmailCode(client, wallet.id);

  // Mints of the stablecoin into Wally's wallet: one paid by Ada's account, one waiting for its wire.
  await client.stablecoins.mint(coin.id, { amount: '10000000', fundingSource: { type: 'SERVICE_INTERNAL_ACCOUNT', accountId: usd.id }, destination: { accountId: wallet.id } });
  await client.stablecoins.mint(coin.id, { amount: '5000000', fundingSource: { type: 'WIRE' }, destination: { accountId: wallet.id } });

  // Marie's SCA factors (a TOTP, confirmed with the sandbox code) and a factor reset whose liveness is in review.
  const totp = await client.sca.factors.startEnrollment(marie.id, { type: 'TOTP' });
  if (totp.type !== 'TOTP') throw new Error('a TOTP enrollment answers its secret');
  await client.sca.factors.confirmEnrollment(marie.id, { type: 'TOTP', secret: totp.secret, code: '123456' });
  await client.sca.recordEvent(marie.id, { eventType: 'FAILED_LOGIN_ATTEMPT' });
  const reset = await client.sca.resets.start(marie.id, { factor: 'TOTP' });
  await client.sandbox.sca.submitLiveness(marie.id, reset.resetId, { result: 'PASSED' });

  // Ada's own embedded wallet funds a second card through a delegated key.
  await client.customers.update(ada.id, { customerType: 'INDIVIDUAL', email: 'ada@example.com', currencies: ['USD', 'USDB'] });
  const adaWallet = (await client.internalAccounts.list({ customerId: ada.id, currency: 'USDB' })).data[0]!;
  const adaSession = await signInWithEmailCode(client, adaWallet.id);
  const walletCard = await client.cards.create({ cardholderId: ada.id, form: 'VIRTUAL', fundingSources: [adaWallet.id], platformCardId: 'ada-wallet-card' });
  await client.auth.delegatedKeys.create({ cardId: walletCard.id, internalAccountId: adaWallet.id, nickname: 'wallet card' }, { stamper: adaSession });

  // A bulk import waiting for its turn on the clock, and a receiver lookup of Ada's bank account.
  await client.customers.bulk.uploadCsv('umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country\n$lise@platform-a.example.com,lise,INDIVIDUAL,Lise Meitner,1878-11-07,1 Main St,Vienna,W,1010,AT\n');
  await client.receivers.lookupExternalAccount(bank.id, { customerId: ada.id });

  // Access: an API token, an invitation, an agent of Ada's with a transfer run and one waiting, and another not connected.
  await client.tokens.create({ name: 'reporting', permissions: ['VIEW'] });
  await client.invitations.create({ inviterUma: ada.umaAddress, firstName: 'Grace', amountToSend: 1_000 });
  const { deviceCode } = await client.agents.create({
    name: 'Budget bot', customerId: ada.id,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS'], defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 5_000 }, approvalThresholds: { currency: 'USD', amount: 1_000 },
    },
  });
  const agentToken = (await call('POST', `/agents/device-codes/${deviceCode.code}/redeem`)).json.accessToken as string;
  const asAgent = { headers: { authorization: `Bearer ${agentToken}` } };
  for (const amount of [500, 2_000]) {
    await call('POST', '/agents/me/transfer-out', { ...asAgent, body: { source: { accountId: usd.id }, destination: { accountId: bank.id }, amount } });
  }
  const waiting = await client.agents.create({ name: 'Not connected', customerId: ada.id, policy: { permissions: [], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1 } } });
  const lastSegment = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);
  return { agentToken, bearer: { token: [lastSegment(kycLink.kycUrl), lastSegment(reveal.panEmbedUrl)], code: [waiting.deviceCode.code] } };
}

