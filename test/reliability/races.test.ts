import { ERROR_CODES, isErrorCodeFor, REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER, type ErrorStatus } from '@railyard/contract';
import type { RailyardClient } from '@railyard/client';
import { encryptOtp, SessionKey } from '@railyard/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures, scaled } from '../support/figures.js';
import { rawCaller, type RawAnswer, type RawCall } from '../support/raw-api.js';
import { ENGINE_AND_SERVER, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';

// Concurrent requests that must have one effect (SPEC §2.6, §4.2 rule 3, §4.5, §5 item 5): many executes of one quote
// pay once, many creates with one platformCustomerId make one customer, many signed retries with one requestId run the
// operation once. Every burst is sent at once through raw requests (no client retries), in process and over HTTP to the
// built server; every answer must be the one success, its idempotent replay, or a documented error, never a 5xx.

const EXECUTES = scaled(1_000, 10_000);
const CREATES = scaled(200, 2_000);
const SIGNED_RETRIES = scaled(100, 1_000);

const AMOUNT = 100;
/** Enough for every execute to pay: a balance check must not be what stops a second payment. */
const FUNDS = AMOUNT * (EXECUTES + 1);

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Answers that are neither a success nor a documented error of their status (SPEC §2.4, §7). */
function undocumented(answers: readonly RawAnswer[]): RawAnswer[] {
  return answers.filter((a) => a.status >= 300 && !(
    a.status in ERROR_CODES && a.json?.status === a.status && isErrorCodeFor(a.status as ErrorStatus, String(a.json?.code))
  ));
}

/** How many answers had each status (and code, for errors), for the failure message and the figures. */
function outcomes(answers: readonly RawAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status < 300 ? String(a.status) : `${a.status} ${a.json?.code}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const serverErrors = (answers: readonly RawAnswer[]) => answers.filter((a) => a.status >= 500).length;

describe.each(ENGINE_AND_SERVER.map((make) => [make().name, make] as const))('races over %s', (_name, make) => {
  let transport: Transport;
  let root: RailyardClient;
  beforeAll(async () => {
    transport = make();
    await transport.start();
    root = transport.clientFor(ROOT_CREDENTIALS);
  });
  afterAll(() => transport.stop());

  /** A fresh platform of its own (regulated: customers are APPROVED at creation), with a typed client and raw calls. */
  async function platform(regulated: boolean) {
    const credentials = await root.sandbox.platforms.create({ name: 'races', regulated });
    return { client: transport.clientFor(credentials), call: rawCaller(transport, credentials) };
  }

  /** A PENDING quote of AMOUNT from a customer's funded USD account to a bank account, and how to read its effects. */
  async function payableQuote() {
    const { client, call } = await platform(true);
    const customer = await client.customers.create({ customerType: 'INDIVIDUAL', platformCustomerId: 'racer', fullName: 'Rae Racer' });
    const usd = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!;
    await client.sandbox.fundInternalAccount(usd.id, FUNDS);
    const bank = await client.externalAccounts.create({
      customerId: customer.id, currency: 'USD',
      accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '123456789', routingNumber: '021000021', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Rae Racer' } },
    });
    const quote = await client.quotes.create({
      source: { sourceType: 'ACCOUNT', accountId: usd.id }, destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: AMOUNT,
    });
    const effects = async () => {
      const ledger = (await client.sandbox.snapshot()).collections.ledger as { postings: { account: string; amount: number }[] }[];
      return {
        balance: (await client.internalAccounts.list({ customerId: customer.id, currency: 'USD' })).data[0]!.balance.amount,
        transactions: (await client.transactions.list({ customerId: customer.id, limit: 100 })).data,
        debits: ledger.filter((entry) => entry.postings.some((p) => p.account === usd.id && p.amount < 0)).length,
      };
    };
    return { call, quote, effects };
  }

  /** Sends EXECUTES executes of one quote at once, the i-th with `keyOf(i)` as its Idempotency-Key (none when undefined). */
  async function executeBurst(keyOf: (i: number) => string | undefined) {
    const { call, quote, effects } = await payableQuote();
    const before = await effects();
    const answers = await Promise.all(range(EXECUTES).map((i) => {
      const key = keyOf(i);
      return call('POST', `/quotes/${quote.id}/execute`, key === undefined ? {} : { headers: { 'idempotency-key': key } });
    }));
    const successes = answers.filter((a) => a.status === 200);
    const { balance, transactions, debits } = await effects();

    expect(serverErrors(answers), JSON.stringify(outcomes(answers))).toBe(0);
    expect(undocumented(answers).map((a) => a.text)).toEqual([]);
    // One payment: the quote's one transaction (no other made), one debit of the source in the ledger and in the balance.
    const outgoing = transactions.filter((t) => t.type === 'OUTGOING');
    expect(outgoing.map((t) => [t.id, t.status])).toEqual([[quote.transactionId, 'COMPLETED']]);
    expect(transactions.map((t) => t.id).sort()).toEqual(before.transactions.map((t) => t.id).sort());
    expect(debits).toBe(1);
    expect(balance).toBe(FUNDS - AMOUNT);
    // Every success is the same answer: the payment's, first given or replayed.
    expect(successes.length).toBeGreaterThanOrEqual(1);
    expect(new Set(successes.map((a) => a.text)).size).toBe(1);
    expect(successes[0]!.json).toMatchObject({ id: quote.id, transactionId: quote.transactionId, status: 'PROCESSING' });
    const figures = {
      'requests sent': answers.length, successes: successes.length, 'transactions created': outgoing.length, debits,
      '5xx': serverErrors(answers),
    };
    return { answers, successes, figures };
  }

  it(`${EXECUTES} concurrent executes of one quote with one Idempotency-Key pay once; the others replay it`, async ({ task }) => {
    const { answers, successes, figures } = await executeBurst(() => 'one-key-for-all');
    expect(successes).toHaveLength(answers.length);
    expect(successes.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    recordFigures(task, { ...figures, replays: successes.length - 1 });
  });

  it(`${EXECUTES} concurrent executes of one quote, each with its own Idempotency-Key, pay once; the others are 409`, async ({ task }) => {
    const { answers, successes, figures } = await executeBurst((i) => `key-${i}`);
    expect(successes).toHaveLength(1);
    expect(outcomes(answers)).toEqual({ 200: 1, '409 CONFLICT': EXECUTES - 1 });
    recordFigures(task, figures);
  });

  it(`${EXECUTES} concurrent executes of one quote without Idempotency-Key pay once; the others are 409`, async ({ task }) => {
    const { answers, successes, figures } = await executeBurst(() => undefined);
    expect(successes).toHaveLength(1);
    expect(outcomes(answers)).toEqual({ 200: 1, '409 CONFLICT': EXECUTES - 1 });
    recordFigures(task, figures);
  });

  it(`${CREATES} concurrent customer creates with one platformCustomerId make one customer; the others are 409 CONFLICT`, async ({ task }) => {
    const { client, call } = await platform(false);
    const answers = await Promise.all(range(CREATES).map((i) =>
      call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', platformCustomerId: 'one-of-a-kind', fullName: `Racer Number${i}` } })));
    const created = answers.filter((a) => a.status === 201);
    const listed = (await client.customers.list({ platformCustomerId: 'one-of-a-kind' })).data;

    expect(outcomes(answers)).toEqual({ 201: 1, '409 CONFLICT': CREATES - 1 });
    expect(listed.map((c) => c.id)).toEqual([created[0]!.json.id]);
    recordFigures(task, { 'requests sent': answers.length, successes: created.length, 'customers created': listed.length, '5xx': serverErrors(answers) });
  });

  it(`${SIGNED_RETRIES} concurrent OTP challenges issue one code; ${SIGNED_RETRIES} concurrent signed retries with one requestId run the operation once (sign-in, add credential, refresh)`, async ({ task }) => {
    const { client, call } = await platform(false);
    const customer = await client.customers.create({
      customerType: 'INDIVIDUAL', fullName: 'Wally Wallet', email: 'wally@example.com', phoneNumber: '+15555550123', currencies: ['USD', 'USDB'],
    });
    const accountId = (await client.internalAccounts.list({ customerId: customer.id, currency: 'USDB' })).data[0]!.id;
    const email = (await client.auth.credentials.list({ accountId })).data[0]!;
    const sessions = async () => (await client.auth.sessions.list({ accountId })).data;

    /**
     * The first leg of `path` with `body` (202 with payloadToSign and requestId), then SIGNED_RETRIES identical retries
     * stamped by `signer` at once: exactly one is the operation's answer (`succeeded`), every other a documented refusal.
     */
    async function signedBurst(path: string, body: unknown, signer: SessionKey, succeeded: number) {
      const text = JSON.stringify(body);
      const challenge = await call('POST', path, { body: text });
      expect(challenge.status, challenge.text).toBe(202);
      const headers = { [WALLET_SIGNATURE_HEADER]: await signer.stamp(challenge.json.payloadToSign), [REQUEST_ID_HEADER]: challenge.json.requestId };
      const answers = await Promise.all(range(SIGNED_RETRIES).map(() => call('POST', path, { body: text, headers })));
      expect(serverErrors(answers), JSON.stringify(outcomes(answers))).toBe(0);
      expect(undocumented(answers).map((a) => a.text)).toEqual([]);
      expect(answers.filter((a) => a.status === succeeded)).toHaveLength(1);
      expect(answers.filter((a) => a.status < 300 && a.status !== succeeded)).toEqual([]);
      return { answers, success: answers.find((a) => a.status === succeeded)!.json };
    }

    // Concurrent challenges of the EMAIL_OTP credential issue one code (the others are 429 RATE_LIMITED until it may be
    // re-issued), and the bundle sent is the live one: the sign-in below seals its code to it.
    const challenges = await Promise.all(range(SIGNED_RETRIES).map(() => call('POST', `/auth/credentials/${email.id}/challenge`)));
    expect(outcomes(challenges)).toEqual({ 200: 1, '429 RATE_LIMITED': SIGNED_RETRIES - 1 });
    const { otpEncryptionTargetBundle } = challenges.find((a) => a.status === 200)!.json;

    // EMAIL_OTP sign-in: the verify's retry, stamped by the TEK sealed with the code, opens one session.
    const { publicKeyHex: enclaveKey } = await client.sandbox.enclaveKey();
    const tek = await SessionKey.generate();
    const encryptedOtpBundle = await encryptOtp({ targetBundle: otpEncryptionTargetBundle!, otpCode: '000000', tekPublicKey: tek, pinnedEnclaveKey: enclaveKey });
    const signIn = await signedBurst(`/auth/credentials/${email.id}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle }, tek, 200);
    expect((await sessions()).map((s) => s.id)).toEqual([signIn.success.id]);

    // A second credential added by the session: one SMS_OTP credential.
    const addCredential = await signedBurst('/auth/credentials', { type: 'SMS_OTP', accountId }, tek, 201);
    const credentials = (await client.auth.credentials.list({ accountId })).data;
    expect(credentials.filter((c) => c.type === 'SMS_OTP').map((c) => c.id)).toEqual([addCredential.success.id]);

    // A refresh: one new session.
    const next = await SessionKey.generate();
    const refresh = await signedBurst(`/auth/sessions/${signIn.success.id}/refresh`, { clientPublicKey: next.publicKeyCompressedHex }, tek, 201);
    expect((await sessions()).map((s) => s.id).sort()).toEqual([signIn.success.id, refresh.success.id].sort());

    const all = [...challenges, ...[signIn, addCredential, refresh].flatMap((burst) => burst.answers)];
    recordFigures(task, {
      'requests sent': all.length, successes: all.filter((a) => a.status < 300).length, 'sessions opened': (await sessions()).length,
      'codes issued': 1, 'credentials added': 1, '5xx': serverErrors(all),
    });
  });
});
