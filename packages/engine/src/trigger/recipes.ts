/**
 * The recipes of `railyard trigger`: for every webhook event type the sandbox emits, the calls that make it fire on the
 * platform the {@link TriggerApi} acts as, through the public API and the control plane only.
 *
 * Every recipe works on regulated and unregulated platforms alike: it reads from the answers whether a customer still
 * needs a verification packet, rather than assuming. It makes new records on every run (random names, before any
 * magic suffix, which is always the last three characters) and never changes the platform's configuration. Clock
 * advances are as short as the flow needs: on a real clock the command waits them out, and refuses long ones.
 */
import {
  base58Encode, randomBytes, REQUEST_ID_HEADER, sealEncryptedOtpBundle, utf8Encode, verifyOtpTargetBundle, WALLET_SIGNATURE_HEADER,
  p256PublicKeyFromPrivate, randomP256PrivateKeyHex, type WebhookEventType,
} from '@railyard/contract';
import { BULK_IMPORT_START_DELAY_MS } from '../bulk-import/bulk-import.js';
import {
  BUSINESS_KYB, CARD_MERCHANT_TRIGGERS, CROSS_CURRENCY_DESTINATION_OUTCOMES, INDIVIDUAL_KYC, LEGACY_WALLET_SIGNATURE, SANDBOX_UMA_DOMAIN,
  TRANSFER_OUTCOMES, UMA_RECEIVERS, VERIFICATION_REVIEW_MS, WALLET_OTP_CODE,
} from '../sandbox/magic-values.js';
import { APPROVAL_WINDOW_MS } from '../transactions/incoming.js';
import type { Created, TriggerApi, TriggerRecipe } from './api.js';

/** A recipe that cannot run on this platform as it is configured; the message says why and what to do. */
export class TriggerRefused extends Error {
  override readonly name = 'TriggerRefused';
}

// ---------------------------------------------------------------------------------------------------------------------
// Names and magic values

/** Eight random lower-case letters: makes names unique per run, and (being letters) never a magic suffix itself. */
const tag = (): string => Array.from(randomBytes(8), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
/** `count` random digits, for account numbers (followed by the suffix that chooses the outcome). */
const digits = (count: number): string => Array.from(randomBytes(count), (byte) => String(byte % 10)).join('');

/**
 * A row of a magic-value table (magic-values.ts), by its key: the key is type-checked against the table, so a renamed
 * row breaks the build instead of silently falling to `other`.
 */
const row = <T extends object>(_table: T, key: Exclude<keyof T, 'other'> & string): string => key;

/** A suffix that is no row of any table it is looked up in (`other` everywhere): the ordinary outcome. */
const ORDINARY = '000';

// ---------------------------------------------------------------------------------------------------------------------
// Customers and their verification

/** Everything an individual's verification packet needs besides the name and an identity document. */
const PERSON = { birthDate: '1990-01-15', nationality: 'US', address: { line1: '1 Main St', postalCode: '10001', country: 'US' }, idType: 'SSN', identifier: '123-45-6789' };

/** The smallest PNG the upload's content check accepts: the scan of every document. */
const SCAN = { name: 'scan.png', type: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) };

/** Identity documents need a number and an issuing authority. No `issuedOn`: a date could be off the sandbox clock. */
const upload = (api: TriggerApi, holder: string, documentType: string) =>
  api.upload('/documents', {
    documentHolder: holder, documentType, country: 'US',
    ...(['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'].includes(documentType) ? { documentNumber: `X${digits(7)}`, issuingAuthority: 'US Department of State' } : {}),
  }, SCAN);

/** The end-user terms acceptance an unregulated platform's payer needs (harmless on a regulated one). */
async function termsConsent(api: TriggerApi) {
  const { version } = await api.call('GET', '/customers/end-user-terms');
  return { termsVersion: version, acceptedAt: new Date().toISOString(), ipAddress: '203.0.113.7', acceptanceMethod: 'CHECKBOX' };
}

/** A new individual, as created (no verification step): enough to receive money or hold an invitation. */
const individual = async (api: TriggerApi, fullName: string, extra: Record<string, unknown> = {}) =>
  api.call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `${fullName} ${tag()}`, ...extra });

/**
 * A new individual with a complete packet, through KYC as the platform does it: a regulated platform decides at
 * creation (by the name's last three characters, INDIVIDUAL_KYC); on an unregulated one the customer starts
 * UNVERIFIED, so the documents are uploaded and a verification submitted, whose short review is waited out when one
 * runs (IN_PROGRESS). Returns the customer and its verification, if one was needed.
 */
async function individualThroughKyc(api: TriggerApi, name: string, options: { suffix?: string; extra?: Record<string, unknown>; documents?: string[] } = {}) {
  const customer = await api.call('POST', '/customers', {
    customerType: 'INDIVIDUAL', fullName: `${name} ${tag()}${options.suffix ?? ''}`, ...PERSON, endUserTermsConsent: await termsConsent(api), ...options.extra,
  });
  if (customer.kycStatus !== 'UNVERIFIED') return { customer };
  return { customer, verification: await submit(api, customer.id, options.documents ?? ['PASSPORT']) };
}

/** Uploads `documents` for the holder and submits its verification; a short review (IN_PROGRESS) is waited out. */
async function submit(api: TriggerApi, customerId: string, documents: string[]) {
  for (const type of documents) await upload(api, customerId, type);
  return decided(api, await api.call('POST', '/verifications', { customerId }));
}

/** A verification after its short review, when it is in one; as it is otherwise (decided, or waiting for a reviewer). */
async function decided(api: TriggerApi, verification: { id: string; verificationStatus: string }) {
  if (verification.verificationStatus !== 'IN_PROGRESS') return verification;
  await api.advance(VERIFICATION_REVIEW_MS);
  return api.call('GET', `/verifications/${verification.id}`);
}

/** The documents an LLC must hold, one of each kind its packet asks for. */
const LLC_DOCUMENTS = ['CERTIFICATE_OF_INCORPORATION', 'DIRECTOR_REGISTRY', 'SHAREHOLDER_REGISTER', 'UTILITY_BILL'];

/**
 * A new LLC whose registration number ends in `suffix` (BUSINESS_KYB), with a complete packet (its documents, one
 * owner who is also its director, the owner's passport), submitted for verification; its short review is waited out
 * unless `review` is false. Businesses start UNVERIFIED everywhere, and the packet is always given: an unregulated
 * platform needs it, a regulated one decides most businesses without looking at it.
 */
async function business(api: TriggerApi, suffix: string, { review = true } = {}): Promise<Created> {
  const customer = await api.call('POST', '/customers', {
    customerType: 'BUSINESS',
    businessInfo: { legalName: `Acme ${tag()} LLC`, country: 'US', taxId: '12-3456789', incorporatedOn: '2015-01-01', registrationNumber: `REG-${tag()}${suffix}`, entityType: 'LLC' },
    address: { line1: '1 Market St', postalCode: '94105', country: 'US' },
  });
  for (const type of LLC_DOCUMENTS) await upload(api, customer.id, type);
  // A last name that is no row of BENEFICIAL_OWNER_KYC: the owner is approved with the business.
  const owner = await api.call('POST', '/beneficial-owners', {
    customerId: customer.id, roles: ['UBO', 'DIRECTOR'], ownershipPercentage: 100,
    personalInfo: { firstName: 'Olive', lastName: `Owner ${tag()}`, ...PERSON },
  });
  await upload(api, owner.id, 'PASSPORT');
  const submitted = await api.call('POST', '/verifications', { customerId: customer.id });
  const verification = review ? await decided(api, submitted) : submitted;
  return { customer: customer.id, beneficialOwner: owner.id, verification: verification.id };
}

/** A customer's internal account in `currency`. */
async function accountOf(api: TriggerApi, customerId: string, currency = 'USD'): Promise<string> {
  const page = await api.call('GET', `/customers/internal-accounts?${new URLSearchParams({ customerId, currency })}`);
  return page.data[0].id;
}

/** Money arriving from outside at once (an INCOMING_PAYMENT.COMPLETED and a balance change). */
const fund = (api: TriggerApi, accountId: string, amount: number) => api.call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount });

/** A verified individual whose USD account holds 1,000 USD. */
async function fundedPayer(api: TriggerApi): Promise<{ customer: string; account: string }> {
  const { customer } = await individualThroughKyc(api, 'Pat Payer');
  const account = await accountOf(api, customer.id);
  await fund(api, account, 100_000);
  return { customer: customer.id, account };
}

// ---------------------------------------------------------------------------------------------------------------------
// Payments out

/** A US bank account of the customer whose number ends in `suffix` (TRANSFER_OUTCOMES; no BENEFICIARY_VERIFICATION row). */
const usBank = async (api: TriggerApi, customerId: string, suffix: string): Promise<string> =>
  (await api.call('POST', '/customers/external-accounts', {
    customerId, currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `${digits(7)}${suffix}`, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bo Bank' } },
  })).id;

/** A UK bank account of the customer whose number ends in `suffix` (CROSS_CURRENCY_DESTINATION_OUTCOMES: USD to GBP). */
const gbBank = async (api: TriggerApi, customerId: string, suffix: string): Promise<string> =>
  (await api.call('POST', '/customers/external-accounts', {
    customerId, currency: 'GBP',
    accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber: `${digits(5)}${suffix}`, beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Gail Gbp' } },
  })).id;

/**
 * A funded payer's quote of `amount` cents from its USD account to a bank account `bank` opens for it, executed at once
 * unless `execute` is false. Returns what it made: payer, account, bank account, quote and payment.
 */
async function payout(api: TriggerApi, bank: (customerId: string) => Promise<string>, options: { execute?: boolean; amount?: number } = {}): Promise<Created> {
  const payer = await fundedPayer(api);
  const externalAccount = await bank(payer.customer);
  const quote = await api.call('POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: payer.account }, destination: { destinationType: 'ACCOUNT', accountId: externalAccount },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: options.amount ?? 1_000, immediatelyExecute: options.execute ?? true,
  });
  return { ...payer, externalAccount, quote: quote.id, transaction: quote.transactionId };
}

/** A payout to a US account whose number ends in `suffix`. */
const usPayout = (api: TriggerApi, suffix: string, options?: { execute?: boolean }) => payout(api, (customer) => usBank(api, customer, suffix), options);

/** A quote left unexecuted until its `expiresAt` on the sandbox clock, exactly. */
async function expiredQuote(api: TriggerApi): Promise<Created> {
  const made = await usPayout(api, ORDINARY, { execute: false });
  const [quote, clock] = await Promise.all([api.call('GET', `/quotes/${made.quote}`), api.call('GET', '/_sandbox/clock')]);
  await api.advance(Math.max(0, Date.parse(quote.expiresAt) - Date.parse(clock.now)));
  return made;
}

/**
 * A payment of a customer of an EU region (strong customer authentication: the payment waits for the customer's code).
 * Both customers are in France; the payer's packet there needs a proof of address too.
 */
async function euPayment(api: TriggerApi): Promise<Created> {
  const { customer: payer } = await individualThroughKyc(api, 'Marie Curie', {
    extra: { region: 'FR', currencies: ['EUR'], email: `marie.${tag()}@example.fr`, phoneNumber: '+33612345678' }, documents: ['PASSPORT', 'UTILITY_BILL'],
  });
  const account = await accountOf(api, payer.id, 'EUR');
  await fund(api, account, 10_000);
  const payee = await individual(api, 'Pierre Curie', { region: 'FR', currencies: ['EUR'], email: `pierre.${tag()}@example.fr` });
  const quote = await api.call('POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: account }, destination: { destinationType: 'ACCOUNT', accountId: await accountOf(api, payee.id, 'EUR') },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000,
  });
  await api.call('POST', `/quotes/${quote.id}/execute`);
  return { customer: payer.id, account, payee: payee.id, quote: quote.id, transaction: quote.transactionId };
}

// ---------------------------------------------------------------------------------------------------------------------
// Payments in

/**
 * Refuses unless the platform has a webhook endpoint. The events that need one cannot be had by setting one for the
 * run: the sandbox has no way to remove an endpoint once set (PATCH /config takes no null), so it would stay.
 */
async function requireWebhookEndpoint(api: TriggerApi, type: WebhookEventType): Promise<void> {
  const config = await api.call('GET', '/config');
  if (typeof config.webhookEndpoint === 'string') return;
  throw new TriggerRefused(`${type} needs the platform's webhook endpoint, and this platform has none. The trigger does not set one ` +
    '(an endpoint once set cannot be removed): set yours with PATCH /config {"webhookEndpoint": "https://…"} and run it again');
}

/** A sender of incoming UMA payments, new each run. */
const someSender = () => `$sender.${tag()}@wallet.example`;
/** An UMA_RECEIVERS address that takes no refund back (SANDBOX_UMA_DOMAIN). */
const refusingSender = () => `$${row(UMA_RECEIVERS, 'fail.compliance')}.usd@${SANDBOX_UMA_DOMAIN}`;

/**
 * An UMA payment from `sender` for a new customer. The platform has a webhook endpoint (its recipe checked), so the
 * payment waits (PENDING) for the platform's answer: the endpoint's (200 approves, 403 rejects) or the API's.
 */
async function pendingIncoming(api: TriggerApi, sender: string): Promise<Created> {
  const payee = await individual(api, 'Ina Incoming');
  const payment = await api.call('POST', '/sandbox/uma/receive', { senderUmaAddress: sender, customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 500 });
  return { customer: payee.id, transaction: payment.id };
}

/** The incoming payment as it stands, or a refusal naming what the endpoint did when it is not `expected`. */
async function expectIncoming(api: TriggerApi, transactionId: string, expected: string): Promise<void> {
  const { status } = await api.call('GET', `/transactions/${transactionId}`);
  if (status !== expected) {
    throw new TriggerRefused(`The platform's webhook endpoint decided incoming payment ${transactionId} first (it is ${status}, not ${expected}): ` +
      'its answer to INCOMING_PAYMENT.PENDING approves (200) or rejects (403) the payment');
  }
}

/** {@link pendingIncoming}, rejected through the API at once (a 403 of the endpoint, if it came first, does the same). */
async function rejectedIncoming(api: TriggerApi, sender: string): Promise<Created> {
  const made = await pendingIncoming(api, sender);
  await api.call('POST', `/transactions/${made.transaction}/reject`).catch(() => expectIncoming(api, made.transaction!, 'REJECTED'));
  return made;
}

/** {@link pendingIncoming}, left unanswered past the approval window (APPROVAL_WINDOW_MS). */
async function timedOutIncoming(api: TriggerApi): Promise<Created> {
  const made = await pendingIncoming(api, someSender());
  await api.advance(APPROVAL_WINDOW_MS);
  await expectIncoming(api, made.transaction!, 'FAILED');
  return made;
}

/** A new customer's account, funded from outside. */
async function fundedAccount(api: TriggerApi): Promise<Created> {
  const customer = await individual(api, 'Fran Funded');
  const account = await accountOf(api, customer.id);
  await fund(api, account, 500);
  return { customer: customer.id, account };
}

// ---------------------------------------------------------------------------------------------------------------------
// Cards

/** A card of a verified, funded cardholder on its USD account; the issuer provisions it right after the create. */
async function card(api: TriggerApi): Promise<{ customer: string; account: string; card: string }> {
  const payer = await fundedPayer(api);
  const issued = await api.call('POST', '/cards', { cardholderId: payer.customer, form: 'VIRTUAL', fundingSources: [payer.account] });
  return { ...payer, card: issued.id };
}

/** {@link card}, with a purchase of `amount` cents at a merchant whose descriptor ends in `suffix` (CARD_MERCHANT_TRIGGERS). */
async function cardPurchase(api: TriggerApi, amount: number, suffix = ORDINARY): Promise<Created> {
  const made = await card(api);
  const { issuerTransactionToken } = await api.call('POST', `/sandbox/cards/${made.card}/simulate/authorization`, {
    amount, currency: { code: 'USD' }, merchant: { descriptor: `COFFEE ${tag().toUpperCase()} ${suffix}` },
  });
  const simulation = await api.call('GET', `/_sandbox/cards/simulations/${issuerTransactionToken}`);
  return { ...made, cardTransaction: simulation.cardTransactionId };
}

/** {@link cardPurchase} of 10 USD, then the clearing of `cleared` cents of it. */
async function clearedPurchase(api: TriggerApi, cleared: number, suffix?: string): Promise<Created> {
  const made = await cardPurchase(api, 1_000, suffix);
  await api.call('POST', `/sandbox/cards/${made.card}/simulate/clearing`, { cardTransactionId: made.cardTransaction, amount: cleared });
  return made;
}

// ---------------------------------------------------------------------------------------------------------------------
// Wallets, agents, imports, invitations

/**
 * Runs a signed wallet action (SPEC §4.2): the first leg's 202 challenge, then the retry stamped with the sandbox's
 * legacy literal, which skips the ECDSA check but still needs an active session of the account. A retry answered
 * PROCESSING (the platform rehearses unsettled operations) is sent again, as the reference says.
 */
async function signed(api: TriggerApi, method: string, path: string, body: unknown): Promise<any> {
  const challenge = await api.call(method, path, body);
  const headers = { [WALLET_SIGNATURE_HEADER]: LEGACY_WALLET_SIGNATURE, [REQUEST_ID_HEADER]: challenge.requestId };
  // The platform's count of PROCESSING answers is finite: the loop ends.
  for (;;) {
    const answer = await api.call(method, path, body, { headers });
    if (answer?.status !== 'PROCESSING' || answer.id !== undefined) return answer;
  }
}

/**
 * A new customer's embedded wallet (a USDB account, with an EMAIL_OTP credential for the customer's email) and an
 * active session on it: the email code (WALLET_OTP_CODE) HPKE-sealed to the enclave's target key with a fresh TEK. The
 * TEK's private half is never needed: the sign-in's own retry is stamped with the legacy literal too.
 */
async function signedInWallet(api: TriggerApi): Promise<{ customer: string; account: string }> {
  const customer = await individual(api, 'Wally Wallet', { email: `wally.${tag()}@example.com`, currencies: ['USDB'] });
  const account = await accountOf(api, customer.id, 'USDB');
  const [credential] = (await api.call('GET', `/auth/credentials?${new URLSearchParams({ accountId: account })}`)).data;
  const { otpEncryptionTargetBundle } = await api.call('POST', `/auth/credentials/${credential.id}/challenge`);
  const { publicKeyHex: enclaveKey } = await api.call('GET', '/_sandbox/enclave-key');
  const { targetPublicKeyHex } = await verifyOtpTargetBundle(otpEncryptionTargetBundle, enclaveKey);
  const tek = p256PublicKeyFromPrivate(randomP256PrivateKeyHex());
  const encryptedOtpBundle = await sealEncryptedOtpBundle({ targetPublicKeyHex, otpCode: WALLET_OTP_CODE, publicKeyHex: tek });
  await signed(api, 'POST', `/auth/credentials/${credential.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle });
  return { customer: customer.id, account };
}

/** A self-custody Solana wallet of the platform that proves its ownership: the challenge signed with the wallet's key. */
async function provenWallet(api: TriggerApi): Promise<Created> {
  // Loaded here, as the engine's own verifiers load it: the curve is not worth loading for every command.
  const { ed25519 } = await import('@noble/curves/ed25519.js');
  const secret = ed25519.utils.randomSecretKey();
  const wallet = await api.call('POST', '/platform/external-accounts', {
    currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'SOLANA_WALLET', address: base58Encode(ed25519.getPublicKey(secret)) },
  });
  const { messageToSign } = await api.call('POST', `/platform/external-accounts/${wallet.id}/challenge`, { method: 'WALLET_SIGNATURE' });
  await api.call('POST', `/platform/external-accounts/${wallet.id}/verify`, { signature: base58Encode(ed25519.sign(utf8Encode(messageToSign), secret)) });
  return { externalAccount: wallet.id };
}

/** An agent of a funded payer whose policy has every action wait for approval, connected with its device code. */
async function agentTransferOut(api: TriggerApi): Promise<Created> {
  const payer = await fundedPayer(api);
  const externalAccount = await usBank(api, payer.customer, ORDINARY);
  const created = await api.call('POST', '/agents', {
    name: `Budget bot ${tag()}`, customerId: payer.customer,
    policy: { permissions: ['CREATE_TRANSFERS'], defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } },
  });
  // The device code is the credential: the redeem carries none.
  const { accessToken } = await api.call('POST', `/agents/device-codes/${created.deviceCode.code}/redeem`, undefined, { auth: 'none' });
  const action = await api.call('POST', '/agents/me/transfer-out', { source: { accountId: payer.account }, destination: { accountId: externalAccount }, amount: 1_000 }, { auth: { bearer: accessToken } });
  return { ...payer, externalAccount, agent: created.agent.id, agentAction: action.id };
}

/** The columns of a bulk import this trigger fills (the required ones, an individual's). */
const CSV_HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country';

/** Uploads a CSV of one individual, born on `birthDate`, and lets the import job run (BULK_IMPORT_START_DELAY_MS). */
async function bulkImport(api: TriggerApi, birthDate: string): Promise<Created> {
  const name = tag();
  const csv = `${CSV_HEADER}\n$${name}@example.com,bulk-${name},INDIVIDUAL,Bulk ${name},${birthDate},1 Main St,Springfield,IL,62701,US\n`;
  const { jobId } = await api.upload('/customers/bulk/csv', {}, { name: 'customers.csv', type: 'text/csv', bytes: utf8Encode(csv) });
  await api.advance(BULK_IMPORT_START_DELAY_MS);
  return { job: jobId };
}

/** An invitation from a new customer, claimed by this same platform: any platform may claim one, its creator included. */
async function claimedInvitation(api: TriggerApi): Promise<Created> {
  const inviter = await individual(api, 'Ivy Inviter');
  const { code } = await api.call('POST', '/invitations', { inviterUma: inviter.umaAddress });
  await api.call('POST', `/invitations/${code}/claim`, { inviteeUma: `$invitee.${tag()}@provider.example` });
  return { customer: inviter.id, invitation: code };
}

// ---------------------------------------------------------------------------------------------------------------------
// The recipes

/** A recipe of `type`. */
const recipe = (type: WebhookEventType, how: string, run: (api: TriggerApi) => Promise<Created>): TriggerRecipe => ({ type, how, run });

const needingEndpoint = new Set<WebhookEventType>();
/** A recipe of an event that only a platform with a webhook endpoint has: refused, before anything is made, without one. */
function endpointRecipe(type: WebhookEventType, how: string, run: (api: TriggerApi) => Promise<Created>): TriggerRecipe {
  needingEndpoint.add(type);
  return recipe(type, how, async (api) => {
    await requireWebhookEndpoint(api, type);
    return run(api);
  });
}

/** The result of a verified individual: the customer and, when a packet was submitted, its verification. */
const individualIds = ({ customer, verification }: { customer: { id: string }; verification?: { id: string } }): Created =>
  ({ customer: customer.id, ...(verification ? { verification: verification.id } : {}) });

/**
 * One recipe for every event type of WEBHOOK_EVENT_TYPES the sandbox emits (the others are in {@link NOT_EMITTED}),
 * in the contract's order.
 */
export const TRIGGER_RECIPES: readonly TriggerRecipe[] = [
  recipe('OUTGOING_PAYMENT.PENDING', 'a quote of a funded customer to a US bank account, not executed (its payment is PENDING)',
    (api) => usPayout(api, ORDINARY, { execute: false })),
  recipe('OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'an executed quote of a customer in France (EU: the payment waits for strong customer authentication)', euPayment),
  recipe('OUTGOING_PAYMENT.PROCESSING', 'an executed payout to a US bank account', (api) => usPayout(api, ORDINARY)),
  recipe('OUTGOING_PAYMENT.COMPLETED', 'an executed payout to a US bank account, which settles at once', (api) => usPayout(api, ORDINARY)),
  recipe('OUTGOING_PAYMENT.FAILED', 'a payout to a US account ending 002 (insufficient funds at the bank: fails at once)',
    (api) => usPayout(api, row(TRANSFER_OUTCOMES, '002'))),
  recipe('OUTGOING_PAYMENT.EXPIRED', 'a quote left unexecuted until it expires (5 min of sandbox time)', expiredQuote),
  recipe('OUTGOING_PAYMENT.REFUND_PENDING', 'a payout to a US account ending 002 (fails; the refund starts)',
    (api) => usPayout(api, row(TRANSFER_OUTCOMES, '002'))),
  recipe('OUTGOING_PAYMENT.REFUND_COMPLETED', 'a payout to a US account ending 003 (account closed: fails, refunded)',
    (api) => usPayout(api, row(TRANSFER_OUTCOMES, '003'))),
  recipe('OUTGOING_PAYMENT.REFUND_FAILED', 'a USD payout to a UK account ending 007 (the payout and its refund fail)',
    (api) => payout(api, (customer) => gbBank(api, customer, row(CROSS_CURRENCY_DESTINATION_OUTCOMES, '007')), { amount: 10_000 })),
  endpointRecipe('INCOMING_PAYMENT.PENDING', 'an UMA payment arriving for a new customer (needs the platform\'s webhook endpoint, which is asked to approve it)',
    (api) => pendingIncoming(api, someSender())),
  recipe('INCOMING_PAYMENT.COMPLETED', 'sandbox funding of a new customer\'s account', fundedAccount),
  endpointRecipe('INCOMING_PAYMENT.FAILED', 'an UMA payment left unanswered past the 5 s approval window (needs the platform\'s webhook endpoint, which must not approve or reject it meanwhile)',
    timedOutIncoming),
  endpointRecipe('INCOMING_PAYMENT.REFUND_PENDING', 'an UMA payment the platform rejects (needs the platform\'s webhook endpoint)',
    (api) => rejectedIncoming(api, someSender())),
  endpointRecipe('INCOMING_PAYMENT.REFUND_COMPLETED', 'an UMA payment the platform rejects, sent back (needs the platform\'s webhook endpoint)',
    (api) => rejectedIncoming(api, someSender())),
  endpointRecipe('INCOMING_PAYMENT.REFUND_FAILED', 'a rejected UMA payment from $fail.compliance.usd, which takes no refund (needs the platform\'s webhook endpoint)',
    (api) => rejectedIncoming(api, refusingSender())),
  recipe('CUSTOMER.KYC_APPROVED', 'an individual with a complete packet (an unregulated platform reviews it for 2 s)',
    async (api) => individualIds(await individualThroughKyc(api, 'Ada Lovelace'))),
  recipe('CUSTOMER.KYC_REJECTED', 'an individual whose name ends 002',
    async (api) => individualIds(await individualThroughKyc(api, 'Rex Rejected', { suffix: row(INDIVIDUAL_KYC, '002') }))),
  recipe('CUSTOMER.KYC_PENDING', 'an individual whose name ends 001 (left for a reviewer)',
    async (api) => individualIds(await individualThroughKyc(api, 'Paula Pending', { suffix: row(INDIVIDUAL_KYC, '001') }))),
  recipe('CUSTOMER.KYB_APPROVED', 'an LLC with a complete packet, submitted', (api) => business(api, ORDINARY)),
  recipe('CUSTOMER.KYB_REJECTED', 'an LLC whose registration number ends 002, submitted', (api) => business(api, row(BUSINESS_KYB, '002'))),
  recipe('CUSTOMER.KYB_PENDING', 'an LLC whose registration number ends 001, submitted (left for a reviewer)',
    (api) => business(api, row(BUSINESS_KYB, '001'))),
  recipe('VERIFICATION.APPROVED', 'an LLC with a complete packet, submitted', (api) => business(api, ORDINARY)),
  recipe('VERIFICATION.REJECTED', 'an LLC whose registration number ends 002, submitted', (api) => business(api, row(BUSINESS_KYB, '002'))),
  recipe('VERIFICATION.RESOLVE_ERRORS', 'an individual whose name ends 003 (never decided at creation), submitted without an identity document',
    async (api) => individualIds(await individualThroughKyc(api, 'Uma Unverified', { suffix: row(INDIVIDUAL_KYC, '003'), documents: [] }))),
  recipe('VERIFICATION.IN_PROGRESS', 'an LLC with a complete packet, submitted', (api) => business(api, ORDINARY, { review: false })),
  recipe('VERIFICATION.PENDING_MANUAL_REVIEW', 'an individual whose name ends 001 with a complete packet, submitted', async (api) => {
    const made = await individualThroughKyc(api, 'Paula Pending', { suffix: row(INDIVIDUAL_KYC, '001') });
    // A regulated platform decided it PENDING at creation, without a verification: that one is submitted now.
    return individualIds(made.verification ? made : { ...made, verification: await submit(api, made.customer.id, ['PASSPORT']) });
  }),
  recipe('EXTERNAL_ACCOUNT.STATUS_UPDATED', 'a self-custody Solana wallet of the platform proving its ownership with a signed challenge (ACTIVE)', provenWallet),
  recipe('INTERNAL_ACCOUNT.BALANCE_UPDATED', 'sandbox funding of a new customer\'s account', fundedAccount),
  recipe('INTERNAL_ACCOUNT.STATUS_UPDATED', 'a privacy change of a new embedded wallet, signed in with its email code', async (api) => {
    const wallet = await signedInWallet(api);
    await signed(api, 'PATCH', `/internal-accounts/${wallet.account}`, { privateEnabled: true });
    return wallet;
  }),
  recipe('INVITATION.CLAIMED', 'an UMA invitation from a new customer, claimed (by this same platform)', claimedInvitation),
  recipe('BULK_UPLOAD.COMPLETED', 'a CSV import of one new individual (the job runs after 1 s)', (api) => bulkImport(api, '1990-01-15')),
  recipe('BULK_UPLOAD.FAILED', 'a CSV import whose only row is invalid (birth date 1990-13-01)', (api) => bulkImport(api, '1990-13-01')),
  recipe('AGENT_ACTION.PENDING_APPROVAL', 'a transfer out by a new agent whose policy needs approval of every action', agentTransferOut),
  recipe('CARD.STATE_CHANGE', 'a new virtual card (the issuer provisions it), then frozen', async (api) => {
    const made = await card(api);
    await api.call('PATCH', `/cards/${made.card}`, { state: 'FROZEN' });
    return made;
  }),
  recipe('CARD.FUNDING_SOURCE_CHANGE', 'a new card whose funding sources are replaced', async (api) => {
    const made = await card(api);
    await api.call('PATCH', `/cards/${made.card}`, { fundingSources: [made.account] });
    return made;
  }),
  recipe('CARD_TRANSACTION.AUTHORIZED', 'a simulated purchase of 10 USD on a new card', (api) => cardPurchase(api, 1_000)),
  recipe('CARD_TRANSACTION.PARTIALLY_SETTLED', 'a purchase of 10 USD, 4 USD of it cleared', (api) => clearedPurchase(api, 400)),
  recipe('CARD_TRANSACTION.SETTLED', 'a purchase of 10 USD, cleared in full', (api) => clearedPurchase(api, 1_000)),
  recipe('CARD_TRANSACTION.EXCEPTION', 'a purchase at a merchant ending 006, cleared (the funding pull fails)',
    (api) => clearedPurchase(api, 1_000, row(CARD_MERCHANT_TRIGGERS, '006'))),
  endpointRecipe('TEST', 'a test send to the platform\'s webhook endpoint, recorded once it answers 2xx (needs the endpoint)', async (api) => {
    // Sent to the endpoint as configured, and recorded only if it takes it: nothing else changes.
    await api.call('POST', '/sandbox/webhooks/test');
    return {};
  }),
];

/**
 * The event types the contract names and the sandbox never emits, with the reason: no recipe can make them fire, and
 * none fakes them.
 */
export const NOT_EMITTED: Readonly<Partial<Record<WebhookEventType, string>>> = {
  'VERIFICATION.READY_FOR_VERIFICATION': 'the reference API lists it; no verification of the sandbox passes through that state (a complete packet goes straight to review)',
  'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED': 'the reference API lists it; funding instructions never change in the sandbox',
};

/**
 * The event types whose recipe needs the platform to have a webhook endpoint: on a platform without one it rejects
 * with {@link TriggerRefused}, having made nothing. (Setting an endpoint for the run is no way out: once set, the sandbox
 * cannot remove it.)
 */
export const NEEDS_WEBHOOK_ENDPOINT: ReadonlySet<WebhookEventType> = needingEndpoint;

const BY_TYPE = new Map(TRIGGER_RECIPES.map((r) => [r.type as string, r]));

/** The recipe of an event type (exact name), or undefined for a type the sandbox never emits or no type at all. */
export const recipeOf = (type: string): TriggerRecipe | undefined => BY_TYPE.get(type);
