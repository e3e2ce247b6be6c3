import { encryptOtp, registerPasskey, SessionKey, signedRetryHeaders, SoftwarePasskeyAuthenticator } from '@railyard/wallet';
import {
  DOCUMENT_REJECTION_TRIGGERS, LEGACY_WALLET_SIGNATURE, OTP_SYNC_FAILURE_MARKER, SCA_CODE, SERVER_ERROR_TRIGGERS, WALLET_OTP_CODE,
} from '../../packages/engine/src/sandbox/magic-values.js';
import { OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS } from '../../packages/engine/src/quotes/rules.js';
import { rawCaller, type RawAnswer, type RawCall } from '../support/raw-api.js';
import { inProcessRaw } from '../support/transports.js';
import type { CodeTriggers, TriggerContext } from './triggers.js';

// What triggers each code the engine's own areas emit, through the public API only: the request (and the set-up
// before it) an integrator would make to meet the code. Set-up steps check their own answers, so a trigger that
// breaks says which step did.

/** The answer, when it has `status`; otherwise an error naming the step and what came instead. */
function expectStep(answer: RawAnswer, status: number, step: string): RawAnswer {
  if (answer.status !== status) throw new Error(`${step}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 400)}`);
  return answer;
}

/** A new platform of the engine with `options` (regulated, cards, invitations…), and raw calls as it. */
async function platform({ call, engine }: TriggerContext, options: Record<string, unknown>): Promise<RawCall> {
  const created = expectStep(await call('POST', '/_sandbox/platforms', { body: options }), 201, 'create a platform');
  return rawCaller(inProcessRaw(engine), created.json);
}
/** A regulated platform: its customers are APPROVED at creation and may pay at once. */
const regulated = (context: TriggerContext) => platform(context, { regulated: true });

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
let serial = 0;

interface TestCustomer {
  readonly id: string;
  /** The id of the customer's internal account in `currency` (EMBEDDED_WALLET: the embedded wallet). */
  account(currency: string): string;
}

/** An individual customer (APPROVED on a regulated platform) with USD unless `extra` says otherwise. */
async function customer(call: RawCall, extra: Record<string, unknown> = {}): Promise<TestCustomer> {
  const n = ++serial;
  const created = expectStep(await call('POST', '/customers', {
    body: { customerType: 'INDIVIDUAL', fullName: `Ada Lovelace${n}x`, platformCustomerId: `ada-${n}`, currencies: ['USD'], ...extra },
  }), 201, 'create a customer');
  const accounts = expectStep(await call('GET', `/customers/internal-accounts?customerId=${created.json.id}`), 200, 'list accounts').json.data as any[];
  return {
    id: created.json.id,
    account: (currency) => accounts.find((a) => (currency === 'EMBEDDED_WALLET' ? a.type === currency : a.balance.currency.code === currency)).id,
  };
}

/** A USD bank account of the customer; the account number's last three digits are the sandbox's outcome triggers. */
async function bank(call: RawCall, customerId: string, accountNumber = '123456789'): Promise<RawAnswer> {
  return call('POST', '/customers/external-accounts', {
    body: { customerId, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' } } },
  });
}
const bankId = async (call: RawCall, customerId: string, accountNumber?: string) =>
  expectStep(await bank(call, customerId, accountNumber), 201, 'add a bank account').json.id as string;

const fund = async (call: RawCall, accountId: string, amount: number) =>
  expectStep(await call('POST', `/sandbox/internal-accounts/${accountId}/fund`, { body: { amount } }), 200, 'fund an account');

/** A quote from one account to another, sending `amount`. */
const pay = (call: RawCall, source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) => call('POST', '/quotes', {
  body: { source: { sourceType: 'ACCOUNT', accountId: source }, destination: { destinationType: 'ACCOUNT', accountId: destination }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount, ...extra },
});

/** A funded USD payer with a bank account to pay: on a regulated platform, so the payment may go at once. */
async function payerWithBank(context: TriggerContext) {
  const call = await regulated(context);
  const payer = await customer(call);
  await fund(call, payer.account('USD'), 1_000_000);
  return { call, payer, destination: await bankId(call, payer.id) };
}

// Strong customer authentication: customers in an SCA region (France here) authorize their payments.

async function scaCustomer(call: RawCall): Promise<TestCustomer> {
  const n = ++serial;
  return customer(call, {
    fullName: `Marie Curie${n}x`, platformCustomerId: `marie-${n}`, birthDate: '1867-11-07', nationality: 'FR', email: `marie${n}@example.com`,
    phoneNumber: '+33612345678', address: { line1: '36 Quai de Béthune', postalCode: '75004', country: 'FR' }, currencies: ['EUR'],
  });
}
async function euroBank(call: RawCall, customerId: string): Promise<string> {
  return expectStep(await call('POST', '/customers/external-accounts', {
    body: { customerId, currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pierre Curie', countryOfResidence: 'FR' } } },
  }), 201, 'add a EUR bank account').json.id;
}
/** A payment waiting for its SCA authorization (PENDING_AUTHORIZATION). */
async function awaitingAuthorization(context: TriggerContext) {
  const call = await regulated(context);
  const marie = await scaCustomer(call);
  await fund(call, marie.account('EUR'), 100_000);
  const quote = expectStep(await pay(call, marie.account('EUR'), await euroBank(call, marie.id), 5_000), 201, 'create the quote').json;
  expectStep(await call('POST', `/quotes/${quote.id}/execute`), 200, 'execute the quote');
  return { call, marie, quoteId: quote.id as string };
}
async function scaLogin(call: RawCall, customerId: string): Promise<void> {
  const started = expectStep(await call('POST', `/sca/login/start?customerId=${customerId}`, { body: { factor: 'SMS_OTP' } }), 200, 'start an SCA login');
  expectStep(await call('POST', `/sca/login/complete?customerId=${customerId}`, {
    body: { factor: 'SMS_OTP', endUserIpAddress: '203.0.113.7', challengeId: started.json.challengeId, code: SCA_CODE },
  }), 200, 'complete the SCA login');
}

// Embedded wallets: a customer holding USDB gets one, with an EMAIL_OTP credential.

async function walletCustomer(call: RawCall, email = `wally${++serial}@example.com`) {
  const holder = await customer(call, { email, phoneNumber: '+15555550123', currencies: ['USD', 'USDB'] });
  const walletId = holder.account('EMBEDDED_WALLET');
  const credentials = expectStep(await call('GET', `/auth/credentials?accountId=${walletId}`), 200, 'list credentials').json.data as any[];
  return { customerId: holder.id, walletId, emailCredentialId: credentials[0].id as string, email };
}

/** Signs in with an OTP credential (the sandbox code, HPKE-encrypted as a wallet does): the session's key. */
async function signIn(call: RawCall, credentialId: string, type: 'EMAIL_OTP' | 'SMS_OTP' = 'EMAIL_OTP'): Promise<SessionKey> {
  const challenge = expectStep(await call('POST', `/auth/credentials/${credentialId}/challenge`), 200, 'issue an OTP');
  const enclave = expectStep(await call('GET', '/_sandbox/enclave-key'), 200, 'read the enclave key').json.publicKeyHex;
  const key = await SessionKey.generate();
  const encryptedOtpBundle = await encryptOtp({ targetBundle: challenge.json.otpEncryptionTargetBundle, otpCode: WALLET_OTP_CODE, tekPublicKey: key, pinnedEnclaveKey: enclave });
  const body = { type, encryptedOtpBundle };
  const first = expectStep(await call('POST', `/auth/credentials/${credentialId}/verify`, { body }), 202, 'verify the OTP');
  expectStep(await call('POST', `/auth/credentials/${credentialId}/verify`, { body, headers: { ...(await signedRetryHeaders(first.json, key)) } }), 200, 'sign the verify');
  return key;
}

/** A signed action: the first leg (202), then its retry stamped by `key`. Returns the retry's answer. */
async function signed(call: RawCall, method: string, path: string, body: unknown, key: SessionKey): Promise<RawAnswer> {
  const first = expectStep(await call(method, path, body === undefined ? {} : { body }), 202, `first leg of ${method} ${path}`);
  return call(method, path, { ...(body === undefined ? {} : { body }), headers: { ...(await signedRetryHeaders(first.json, key)) } });
}

/** A signed-in wallet and the first leg of a signed change of its account (the privacy setting). */
async function pendingWalletChange(context: TriggerContext) {
  const call = await regulated(context);
  const wallet = await walletCustomer(call);
  const key = await signIn(call, wallet.emailCredentialId);
  const path = `/internal-accounts/${wallet.walletId}`;
  const body = { privateEnabled: true };
  const first = expectStep(await call('PATCH', path, { body }), 202, 'first leg of the change');
  return { call, path, body, key, first: first.json, headers: { ...(await signedRetryHeaders(first.json, key)) } };
}

// Cards: a cardholder APPROVED on a regulated platform, and an ACTIVE card.

const issueCard = (call: RawCall, cardholderId: string, fundingSources: string[]) =>
  call('POST', '/cards', { body: { cardholderId, form: 'VIRTUAL', fundingSources } });
async function activeCard(context: TriggerContext, currencies = ['USD']) {
  const call = await regulated(context);
  const holder = await customer(call, { currencies });
  const card = expectStep(await issueCard(call, holder.id, [holder.account('USD')]), 201, 'issue a card').json;
  return { call, holder, cardId: card.id as string };
}
async function closedCard(context: TriggerContext) {
  const { call, cardId } = await activeCard(context);
  expectStep(await call('PATCH', `/cards/${cardId}`, { body: { state: 'CLOSED' } }), 200, 'close the card');
  return { call, cardId };
}

// Stablecoins.

/** A stablecoin POST: these operations require an `Idempotency-Key`. */
const postOnce = (call: RawCall, path: string, body?: unknown) =>
  call('POST', path, { ...(body === undefined ? {} : { body }), headers: { 'Idempotency-Key': `trigger-${++serial}` } });
const linkProvider = (call: RawCall, apiClientId = 'brale-client') =>
  postOnce(call, '/stablecoin-provider-accounts', { provider: 'BRALE', apiClientId, apiClientSecret: 's3cret' });
const registerCoin = (call: RawCall, extra: Record<string, unknown> = {}) =>
  postOnce(call, '/stablecoins', { providerTokenIdentifier: 'usdx', networkTokenIdentifier: 'btkn1usdx', network: 'SPARK', ...extra });
async function linkedWithStatus(call: RawCall, status: 'INVALID' | 'REVOKED'): Promise<RawAnswer> {
  const link = expectStep(await linkProvider(call), 201, 'link a provider account').json;
  expectStep(await call('PUT', `/_sandbox/stablecoin-provider-accounts/${link.id}/status`, { body: { status } }), 200, `make the link ${status}`);
  return registerCoin(call, { stablecoinProviderAccountId: link.id });
}

// Documents: an upload whose file name ends with a rejection marker.

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
async function uploadNamed(context: TriggerContext, fileName: string): Promise<RawAnswer> {
  const call = await regulated(context);
  const holder = await customer(call);
  const form = new FormData();
  for (const [name, value] of Object.entries({ documentHolder: holder.id, documentType: 'PASSPORT', country: 'US', documentNumber: 'X1234567', issuingAuthority: 'US Department of State' })) form.append(name, value);
  form.append('file', new Blob([JPEG], { type: 'image/jpeg' }), fileName);
  return call('POST', '/documents', { form });
}
const rejectionMarkerFor = (code: string) => Object.entries(DOCUMENT_REJECTION_TRIGGERS).find(([, trigger]) => trigger.code === code)![0];
const rejectedUpload = (code: string) => (context: TriggerContext) => uploadNamed(context, `passport${rejectionMarkerFor(code)}.jpg`);

// Invitations and UMA.

const invite = (call: RawCall) => call('POST', '/invitations', { body: { inviterUma: '$ada@sandbox.example' } });
const consent = { acceptedAt: '2026-01-01T00:00:00Z', ipAddress: '203.0.113.9', termsVersion: 'V1', acceptanceMethod: 'CHECKBOX' };

/** What triggers each code the engine emits (besides the codes other owners bring): see docs/errors.md. */
export const triggers: CodeTriggers = {
  // 400
  INVALID_INPUT: ({ call }) => call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', currencies: ['XXX'] } }),
  INVALID_REQUEST_FORMAT: ({ call }) => call('POST', '/customers', { body: '{"customerType":' }),
  END_USER_TERMS_VERSION_NOT_FOUND: ({ call }) =>
    call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', endUserTermsConsent: { ...consent, termsVersion: 'V9' } } }),
  INVALID_UMA_ADDRESS: ({ call }) => call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', umaAddress: 'ada@example.com' } }),
  INVITATIONS_NOT_CONFIGURED: async (context) => invite(await platform(context, { invitations: false })),
  INVITATION_ALREADY_CLAIMED: async (context) => {
    const code = expectStep(await invite(context.call), 201, 'create an invitation').json.code;
    const other = await platform(context, {});
    expectStep(await other('POST', `/invitations/${code}/claim`, { body: { inviteeUma: '$grace@provider.example' } }), 200, 'claim it');
    return other('POST', `/invitations/${code}/claim`, { body: { inviteeUma: '$grace@provider.example' } });
  },
  INVITATION_CANCELLED: async (context) => {
    const code = expectStep(await invite(context.call), 201, 'create an invitation').json.code;
    expectStep(await context.call('POST', `/invitations/${code}/cancel`), 200, 'cancel it');
    return (await platform(context, {}))('POST', `/invitations/${code}/claim`, { body: { inviteeUma: '$grace@provider.example' } });
  },
  SELF_PAYMENT: async (context) => {
    const { call, payer } = await payerWithBank(context);
    return pay(call, payer.account('USD'), payer.account('USD'), 100);
  },
  INVALID_AMOUNT: async (context) => {
    const { call, payer, destination } = await payerWithBank(context);
    return pay(call, payer.account('USD'), destination, 0);
  },
  AMOUNT_OUT_OF_RANGE: async (context) => {
    const { call, payer, destination } = await payerWithBank(context);
    await limitUsdAmounts(call);
    return pay(call, payer.account('USD'), destination, 99);
  },
  TRANSACTION_SIZE_LIMIT_EXCEEDED: async (context) => {
    const { call, payer, destination } = await payerWithBank(context);
    await limitUsdAmounts(call);
    return pay(call, payer.account('USD'), destination, 50_001);
  },
  INVALID_CURRENCY: async (context) => {
    const { call, payer, destination } = await payerWithBank(context);
    const quote = expectStep(await call('POST', '/quotes', {
      body: { source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: payer.id }, destination: { destinationType: 'ACCOUNT', accountId: destination }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 3_000 },
    }), 201, 'create a real-time funded quote').json;
    return call('POST', '/sandbox/send', { body: { quoteId: quote.id, currencyCode: 'EUR' } });
  },
  INVALID_BANK_ACCOUNT: async (context) => {
    const call = await regulated(context);
    return bank(call, (await customer(call)).id, '1234567105');
  },
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: async (context) => {
    const { call, payer } = await payerWithBank(context);
    const wallet = expectStep(await call('POST', '/customers/external-accounts', {
      body: { customerId: payer.id, currency: 'USDC', ownershipType: 'FIRST_PARTY', accountInfo: { accountType: 'BASE_WALLET', address: '0x52908400098527886E0F7030069857D2E4169EE7' } },
    }), 201, 'add a first-party wallet').json.id;
    return pay(call, payer.account('USD'), wallet, OWNERSHIP_VERIFICATION_THRESHOLD_USD_CENTS);
  },
  WEBHOOK_ENDPOINT_NOT_SET: ({ call }) => call('POST', '/sandbox/webhooks/test', { body: {} }),
  // Port 1 on loopback: nothing listens there, so the delivery is refused at once.
  WEBHOOK_DELIVERY_ERROR: ({ call }) => call('POST', '/sandbox/webhooks/test', { body: { url: 'http://127.0.0.1:1/webhooks' } }),
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: async (context) => {
    const call = await regulated(context);
    const wallet = await walletCustomer(call);
    return call('POST', '/auth/credentials', { body: { type: 'EMAIL_OTP', accountId: wallet.walletId } });
  },
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: async (context) => {
    const call = await regulated(context);
    const wallet = await walletCustomer(call);
    const key = await signIn(call, wallet.emailCredentialId);
    expectStep(await signed(call, 'POST', '/auth/credentials', { type: 'SMS_OTP', accountId: wallet.walletId }, key), 201, 'add an SMS_OTP credential');
    return call('POST', '/auth/credentials', { body: { type: 'SMS_OTP', accountId: wallet.walletId } });
  },
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: async (context) => {
    const call = await regulated(context);
    const wallet = await walletCustomer(call);
    const key = await signIn(call, wallet.emailCredentialId);
    const registration = await registerPasskey(
      { accountId: wallet.walletId, nickname: 'Laptop', challenge: 'cmVnaXN0cmF0aW9uLWNoYWxsZW5nZQ', rp: { id: 'wallet.example', name: 'Wallet' }, user: { id: 'dXNlci0x', name: 'wally' } },
      { webauthn: new SoftwarePasskeyAuthenticator({ origin: 'https://wallet.example' }) },
    );
    expectStep(await signed(call, 'POST', '/auth/credentials', registration, key), 201, 'register the passkey');
    return call('POST', '/auth/credentials', { body: registration });
  },
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: ({ call }) => linkedWithStatus(call, 'INVALID'),
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: ({ call }) => linkedWithStatus(call, 'REVOKED'),
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED: async ({ call }) => {
    expectStep(await linkProvider(call, 'client-a'), 201, 'link a first provider account');
    expectStep(await linkProvider(call, 'client-b'), 201, 'link a second provider account');
    return registerCoin(call);
  },
  CARDHOLDER_KYC_NOT_APPROVED: async (context) => {
    // Unregulated and without skipped paperwork: a new customer waits for KYC.
    const call = await platform(context, { regulated: false });
    const holder = await customer(call, { endUserTermsConsent: consent });
    return issueCard(call, holder.id, [holder.account('USD')]);
  },
  FUNDING_SOURCE_INELIGIBLE: async (context) => {
    const { call, holder, cardId } = await activeCard(context, ['USD', 'EUR']);
    return call('PATCH', `/cards/${cardId}`, { body: { fundingSources: [holder.account('EUR')] } });
  },
  LOW_QUALITY: rejectedUpload('LOW_QUALITY'),
  DATA_MISMATCH: rejectedUpload('DATA_MISMATCH'),
  EXPIRED: rejectedUpload('EXPIRED'),
  SUSPECTED_FRAUD: rejectedUpload('SUSPECTED_FRAUD'),
  UNSUITABLE_DOCUMENT: rejectedUpload('UNSUITABLE_DOCUMENT'),
  INCOMPLETE: rejectedUpload('INCOMPLETE'),

  // 401
  UNAUTHORIZED: ({ call }) => call('GET', '/customers', { headers: { authorization: `Basic ${btoa('nobody:wrong-secret')}` } }),
  INVALID_SIGNATURE: ({ call }) => call('POST', '/_sandbox/webhook-key/verify', { body: '{"id":"Webhook:1","type":"TEST"}', headers: { 'X-Service-Signature': '{"v":"1","s":"AAAA"}' } }),
  WALLET_SIGNATURE_MISSING: async (context) => {
    const { call, path, body, first } = await pendingWalletChange(context);
    return call('PATCH', path, { body, headers: { 'Request-Id': first.requestId } });
  },
  REQUEST_ID_MISSING: async (context) => {
    const { call, path, body, headers } = await pendingWalletChange(context);
    return call('PATCH', path, { body, headers: { 'Service-Wallet-Signature': headers['Service-Wallet-Signature']! } });
  },
  WALLET_SIGNATURE_MALFORMED: async (context) => {
    const { call, path, body, headers } = await pendingWalletChange(context);
    return call('PATCH', path, { body, headers: { ...headers, 'Service-Wallet-Signature': 'not-a-stamp!' } });
  },
  WALLET_SIGNATURE_BODY_MISMATCH: async (context) => {
    const { call, path, headers } = await pendingWalletChange(context);
    return call('PATCH', path, { body: { privateEnabled: false }, headers });
  },
  WALLET_SIGNATURE_INVALID: async (context) => {
    // The legacy literal skips the ECDSA check, not the need for an active session: this wallet has none.
    const call = await regulated(context);
    const wallet = await walletCustomer(call);
    const path = `/internal-accounts/${wallet.walletId}`;
    const first = expectStep(await call('PATCH', path, { body: { privateEnabled: true } }), 202, 'first leg of the change');
    return call('PATCH', path, { body: { privateEnabled: true }, headers: { 'Service-Wallet-Signature': LEGACY_WALLET_SIGNATURE, 'Request-Id': first.json.requestId } });
  },

  // 403
  FORBIDDEN: async (context) => {
    const code = expectStep(await invite(context.call), 201, 'create an invitation').json.code;
    return (await platform(context, {}))('POST', `/invitations/${code}/cancel`);
  },
  USER_NOT_READY: async (context) => {
    const call = await platform(context, { regulated: false });
    const payer = await customer(call, { endUserTermsConsent: consent });
    return pay(call, payer.account('USD'), await bankId(call, payer.id), 100);
  },
  END_USER_TERMS_NOT_ACCEPTED: async (context) => {
    // Paperwork skipping approves at creation, and the platform is still unregulated: consent is needed to pay.
    const call = await platform(context, { skipPaperwork: true });
    const payer = await customer(call);
    return pay(call, payer.account('USD'), await bankId(call, payer.id), 100);
  },

  // 404
  REFERENCE_NOT_FOUND: ({ call }) => call('GET', '/no-such-resource'),
  USER_NOT_FOUND: ({ call }) => call('GET', `/customers/Customer:${UNKNOWN_UUID}`),
  QUOTE_NOT_FOUND: ({ call }) => call('GET', `/quotes/Quote:${UNKNOWN_UUID}`),
  TRANSACTION_NOT_FOUND: ({ call }) => call('GET', `/transactions/Transaction:${UNKNOWN_UUID}`),
  TOKEN_NOT_FOUND: ({ call }) => call('GET', `/tokens/Token:${UNKNOWN_UUID}`),
  INVITATION_NOT_FOUND: ({ call }) => call('GET', '/invitations/0000beef'),
  UMA_NOT_FOUND: async (context) => {
    const call = await regulated(context);
    const payer = await customer(call);
    return call('GET', `/receiver/uma/${encodeURIComponent('$nobody@uma.sandbox.railyard.dev')}?customerId=${payer.id}`);
  },
  LOOKUP_REQUEST_NOT_FOUND: async (context) => {
    const { call, payer } = await payerWithBank(context);
    return call('POST', '/quotes', {
      body: {
        source: { sourceType: 'ACCOUNT', accountId: payer.account('USD') }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@uma.sandbox.railyard.dev' },
        lookupId: `Lookup:${UNKNOWN_UUID}`, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100,
      },
    });
  },
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: ({ call }) => registerCoin(call),

  // 405
  METHOD_NOT_ALLOWED: ({ call }) => call('PUT', '/customers', { body: {} }),

  // 409
  CONFLICT: async ({ call }) => {
    const body = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', platformCustomerId: 'ada' };
    expectStep(await call('POST', '/customers', { body }), 201, 'create a customer');
    return call('POST', '/customers', { body });
  },
  UMA_ADDRESS_EXISTS: async ({ call }) => {
    expectStep(await call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', umaAddress: '$ada@example.com' } }), 201, 'create a customer');
    return call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Byron', umaAddress: '$Ada@example.com' } });
  },
  TRANSACTION_NOT_CANCELLABLE: async (context) => {
    const { call, payer, destination } = await payerWithBank(context);
    const paid = expectStep(await pay(call, payer.account('USD'), destination, 1_000, { immediatelyExecute: true }), 201, 'pay at once').json;
    return call('POST', `/transactions/${paid.transactionId}/cancel`, { body: {} });
  },
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: async (context) => {
    // Without a webhook endpoint nobody is asked: the incoming payment completes at once.
    const call = await regulated(context);
    const payee = await customer(call);
    const received = expectStep(await call('POST', '/sandbox/uma/receive', {
      body: { senderUmaAddress: '$alice@wallet.example', customerId: payee.id, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100 },
    }), 200, 'receive a payment').json;
    return call('POST', `/transactions/${received.id}/approve`, { body: {} });
  },
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: async (context) => {
    const call = await regulated(context);
    const first = await walletCustomer(call);
    const second = await walletCustomer(call);
    return call('PATCH', `/customers/${first.customerId}`, { body: { customerType: 'INDIVIDUAL', email: second.email } });
  },
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: async (context) => {
    // The change is challenged, then the tied EMAIL_OTP credential is removed (signed by an SMS_OTP session) before the retry.
    const call = await regulated(context);
    const wallet = await walletCustomer(call);
    const emailKey = await signIn(call, wallet.emailCredentialId);
    const change = { customerType: 'INDIVIDUAL', email: `moved${++serial}@example.com` };
    const first = expectStep(await call('PATCH', `/customers/${wallet.customerId}`, { body: change }), 202, 'first leg of the email change').json;
    const sms = expectStep(await signed(call, 'POST', '/auth/credentials', { type: 'SMS_OTP', accountId: wallet.walletId }, emailKey), 201, 'add an SMS_OTP credential').json;
    const smsKey = await signIn(call, sms.id, 'SMS_OTP');
    expectStep(await signed(call, 'DELETE', `/auth/credentials/${wallet.emailCredentialId}`, undefined, smsKey), 204, 'remove the EMAIL_OTP credential');
    return call('PATCH', `/customers/${wallet.customerId}`, { body: change, headers: { ...(await signedRetryHeaders(first, smsKey)) } });
  },
  SCA_SESSION_REQUIRED: async (context) => {
    const { call, quoteId } = await awaitingAuthorization(context);
    return call('POST', `/quotes/${quoteId}/authorize`, { body: { code: SCA_CODE } });
  },
  BENEFICIARY_TRUSTED: async (context) => {
    const call = await regulated(context);
    const marie = await scaCustomer(call);
    const accountId = await euroBank(call, marie.id);
    const started = expectStep(await call('POST', `/customers/external-accounts/${accountId}/trust`), 200, 'start trusting').json;
    expectStep(await call('POST', `/customers/external-accounts/${accountId}/trust/confirm`, { body: { challengeId: started.scaChallenge.id, code: SCA_CODE } }), 200, 'confirm the trust');
    return call('DELETE', `/customers/external-accounts/${accountId}`);
  },
  INVALID_STATE_TRANSITION: async (context) => {
    const { call, cardId } = await activeCard(context);
    return call('PATCH', `/cards/${cardId}`, { body: { state: 'ACTIVE' } });
  },
  CARD_ALREADY_CLOSED: async (context) => {
    const { call, cardId } = await closedCard(context);
    return call('PATCH', `/cards/${cardId}`, { body: { state: 'CLOSED' } });
  },
  CARD_NOT_MUTABLE: async (context) => {
    const { call, cardId } = await closedCard(context);
    return call('PATCH', `/cards/${cardId}`, { body: { state: 'FROZEN' } });
  },
  CARD_LIMIT_REACHED: async (context) => {
    const { call, holder } = await activeCard(context);
    expectStep(await call('PUT', '/_sandbox/limits', { body: { liveCards: { perCardholder: 1 } } }), 200, 'limit live cards');
    return issueCard(call, holder.id, [holder.account('USD')]);
  },
  STABLECOIN_GRID_ENABLEMENT_NOT_REQUESTABLE: async ({ call }) => {
    expectStep(await linkProvider(call), 201, 'link a provider account');
    const coin = expectStep(await registerCoin(call), 201, 'register a coin').json;
    expectStep(await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { body: { serviceOperationsStatus: 'ENABLED' } }), 200, 'enable the coin');
    return postOnce(call, `/stablecoins/${coin.id}/enablement`);
  },

  // 410
  CUSTOMER_DELETED: async ({ call }) => {
    const created = expectStep(await call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } }), 201, 'create a customer').json;
    expectStep(await call('DELETE', `/customers/${created.id}`), 200, 'delete the customer');
    return call('DELETE', `/customers/${created.id}`);
  },

  // 422
  DOCUMENT_REJECTED: (context) => uploadNamed(context, 'passport_blurry.jpg'),

  // 423
  ACCOUNT_LOCKED: async (context) => {
    const { call, marie, quoteId } = await awaitingAuthorization(context);
    await scaLogin(call, marie.id);
    // The fifth wrong code in a row locks the customer.
    for (let attempt = 1; attempt < 5; attempt++) expectStep(await call('POST', `/quotes/${quoteId}/authorize`, { body: { code: '999999' } }), 400, `wrong code ${attempt}`);
    return call('POST', `/quotes/${quoteId}/authorize`, { body: { code: '999999' } });
  },

  // 424
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: async (context) => {
    const call = await regulated(context);
    const wallet = await walletCustomer(call);
    const key = await signIn(call, wallet.emailCredentialId);
    return signed(call, 'PATCH', `/customers/${wallet.customerId}`, { customerType: 'INDIVIDUAL', email: `wally${OTP_SYNC_FAILURE_MARKER}@example.com` }, key);
  },

  // 429
  RATE_LIMITED: async (context) => {
    // The challenge's SMS was sent just now: a resend this soon is too early.
    const { call, quoteId } = await awaitingAuthorization(context);
    return call('POST', `/quotes/${quoteId}/authorize/resend`);
  },
  DAILY_VOLUME_LIMIT_EXCEEDED: async (context) => {
    const { call, payer, destination } = await payerWithBank(context);
    expectStep(await call('PUT', '/_sandbox/limits', { body: { dailyVolume: { USD: 1_000 } } }), 200, 'set a daily limit');
    return pay(call, payer.account('USD'), destination, 2_000, { immediatelyExecute: true });
  },

  // 500: the sandbox's deliberate server errors.
  SERVICE_SWITCH_ERROR: (context) => quoteDescribed(context, 'SERVICE_SWITCH_ERROR'),
  INTERNAL_ERROR: (context) => quoteDescribed(context, 'INTERNAL_ERROR'),

  // 501
  NOT_IMPLEMENTED: async (context) => (await platform(context, { cards: false }))('GET', '/cards'),

  // 503
  SERVICE_UNAVAILABLE: async ({ call }) => {
    expectStep(await linkProvider(call), 201, 'link a provider account');
    const coin = expectStep(await registerCoin(call), 201, 'register a coin').json;
    expectStep(await call('POST', '/_sandbox/clock/advance', { body: { ms: 10 * 60_000 } }), 200, 'let the coin be provisioned');
    expectStep(await call('PUT', `/_sandbox/stablecoins/${coin.id}/operations-status`, { body: { serviceOperationsStatus: 'ENABLED' } }), 200, 'enable the coin');
    expectStep(await call('PUT', '/_sandbox/stablecoin-provider', { body: { available: false } }), 200, 'take the provider down');
    return postOnce(call, `/stablecoins/${coin.id}/mints`, { amount: '25000000', fundingSource: { type: 'WIRE' }, destination: { accountId: 'InternalAccount:any' } });
  },
};

/** The USD terms of the platform: at least 100 and at most 50,000 cents a payment. */
async function limitUsdAmounts(call: RawCall): Promise<void> {
  expectStep(await call('PATCH', '/config', {
    body: { supportedCurrencies: [{ currencyCode: 'USD', minAmount: 100, maxAmount: 50_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }] },
  }), 200, 'set the USD terms');
}

/** A payment that would be created, described with the sandbox's trigger of `code`. */
async function quoteDescribed(context: TriggerContext, code: 'SERVICE_SWITCH_ERROR' | 'INTERNAL_ERROR'): Promise<RawAnswer> {
  const { call, payer, destination } = await payerWithBank(context);
  const description = Object.entries(SERVER_ERROR_TRIGGERS).find(([, triggered]) => triggered === code)![0];
  return pay(call, payer.account('USD'), destination, 500, { description });
}
