import { describe, expect, it } from 'vitest';
import { APIUserAbortError, AuthenticationError, RailyardError, SignatureRequiredError, WalletOperationTimeoutError } from './errors.js';
import { DEFAULT_PROCESSING_TIMEOUT_MS, MIN_PROCESSING_DELAY_MS, type SignatureRequired, type WalletStamper } from './signed-retry.js';
import { errorBody, setup, type Recorded, type Reply } from '../test-support.js';

// The signed-retry runner against a scripted fake fetch: the order of legs, what the retry repeats, how a 200 reads per
// operation (SPEC §4.2 rule 4) and the PROCESSING back-off, which the engine never answers. Real flows against an
// in-process engine are in resources/auth.test.ts.

const ACCOUNT = 'InternalAccount:019a7c10-2f4e-7b3d-8000-000000000001';
const SESSION = 'Session:019a7c10-2f4e-7b3d-8000-000000000002';
const CREDENTIAL = 'AuthMethod:019a7c10-2f4e-7b3d-8000-000000000003';
const REQUEST_ID = 'Request:019a7c10-2f4e-7b3d-8000-000000000004';
const PAYLOAD = '{"organizationId":"Platform:1","parameters":{"accountId":"x"},"timestampMs":"1760000000000","type":"ACTIVITY_TYPE_X"}';
const challenge = { status: 202, body: { type: 'EMAIL_OTP', payloadToSign: PAYLOAD, requestId: REQUEST_ID, expiresAt: '2030-01-01T00:05:00.000Z' } };
const processing = { status: 200, body: { status: 'PROCESSING', message: 'Activity is being processed' } };
const authMethod = { id: CREDENTIAL, accountId: ACCOUNT, type: 'SMS_OTP', nickname: '+15555550123', createdAt: '2030-01-01T00:00:00Z', updatedAt: '2030-01-01T00:00:00Z' };
const session = { id: SESSION, accountId: ACCOUNT, type: 'EMAIL_OTP', nickname: 'a@b.c', createdAt: '2030-01-01T00:00:00Z', updatedAt: '2030-01-01T00:00:00Z', expiresAt: '2030-01-01T00:15:00Z' };

/** A stamper that records what it signed; its "stamp" is recognisable in headers. */
function recordingStamper(): WalletStamper & { signed: string[] } {
  const signed: string[] = [];
  return { signed, publicKeyCompressedHex: `02${'a'.repeat(64)}`, stamp: async (payload) => (signed.push(payload), `stamp-${signed.length}`) };
}
const signature = (r: Recorded) => r.headers.get('service-wallet-signature');
const requestId = (r: Recorded) => r.headers.get('request-id');
const key = (r: Recorded) => r.headers.get('idempotency-key');

describe('the signed-retry runner', () => {
  it('runs 202 → stamp → identical retry → PROCESSING re-sent with backoff → 201, in one call', async () => {
    const { client, requests, sleeps } = setup([challenge, processing, processing, { status: 201, body: authMethod }]);
    const stamper = recordingStamper();
    const created = await client.auth.credentials.create({ type: 'SMS_OTP', accountId: ACCOUNT }, { stamper });
    expect(created).toEqual(authMethod);
    expect(stamper.signed).toEqual([PAYLOAD]);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(4).fill('POST /2025-10-13/auth/credentials'));
    const [first, ...retries] = requests;
    expect(signature(first!)).toBeNull();
    expect(requestId(first!)).toBeNull();
    for (const retry of retries) {
      expect(retry.rawBody).toBe(first!.rawBody); // byte-identical body
      expect(signature(retry)).toBe('stamp-1'); // the same stamp on every re-send
      expect(requestId(retry)).toBe(REQUEST_ID);
    }
    expect(sleeps).toEqual([500, 1000]);
    // Each request has a key of its own: the service must not replay the 202 to the signed retry.
    expect(new Set(requests.map(key)).size).toBe(4);
  });

  it('reads a 200 per operation: always processing for add/refresh/revoke, success unless PROCESSING for verify/export/update', async () => {
    // refresh: a 200 whose body is not even a PROCESSING object still means "not settled"; the 201 is the session.
    const refresh = setup([challenge, { status: 200, body: { note: 'accepted' } }, { status: 201, body: session }]);
    const stamper = recordingStamper();
    expect(await refresh.client.auth.sessions.refresh(SESSION, { clientPublicKey: `03${'b'.repeat(64)}` }, { stamper })).toEqual(session);
    expect(refresh.requests).toHaveLength(3);

    // revoke: 200 PROCESSING then 204.
    const revoke = setup([challenge, processing, { status: 204 }]);
    expect(await revoke.client.auth.sessions.revoke(SESSION, { stamper })).toBeUndefined();
    expect(revoke.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);

    // export: 200 PROCESSING is re-sent, a 200 without it is the result.
    const exported = { id: ACCOUNT, encryptedWalletCredentials: '{"version":"v1.0.0"}' };
    const exportRun = setup([challenge, processing, { status: 200, body: exported }]);
    const clientPublicKey = `04${'c'.repeat(128)}`;
    expect(await exportRun.client.internalAccounts.export(ACCOUNT, { clientPublicKey }, { stamper })).toEqual(exported);
    expect(exportRun.requests.map((r) => r.body)).toEqual(Array(3).fill({ clientPublicKey }));

    // verify (OTP): the 200 session comes at once after the signed retry.
    const verify = setup([challenge, { status: 200, body: session }]);
    expect(await verify.client.auth.credentials.verify(CREDENTIAL, { type: 'EMAIL_OTP', encryptedOtpBundle: '{}' }, { stamper })).toEqual(session);
    expect(verify.requests).toHaveLength(2);

    // PATCH /internal-accounts: terminal 200 unless PROCESSING.
    const account = { id: ACCOUNT, status: 'ACTIVE', privateEnabled: true };
    const update = setup([challenge, processing, { status: 200, body: account }]);
    expect(await update.client.internalAccounts.update(ACCOUNT, { privateEnabled: true }, { stamper })).toEqual(account);
    expect(update.requests.map((r) => r.method)).toEqual(['PATCH', 'PATCH', 'PATCH']);
  });

  it('waits what a PROCESSING answer asks for (Retry-After), and gives up after processingTimeout; complete() resumes it', async () => {
    const slow = { ...processing, headers: { 'retry-after': '2' } };
    const { client, requests, sleeps } = setup([challenge, slow, slow, slow, slow, { status: 200, body: session }]);
    const stamper = recordingStamper();
    const error = await client.auth.credentials
      .verify(CREDENTIAL, { type: 'EMAIL_OTP', encryptedOtpBundle: '{}' }, { stamper, processingTimeout: 5_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletOperationTimeoutError);
    const timeout = error as WalletOperationTimeoutError;
    expect(timeout).toMatchObject({ operationId: 'verifyAuthCredential', timeout: 5_000, serverMessage: 'Activity is being processed', stamp: 'stamp-1' });
    expect(sleeps).toEqual([2_000, 2_000]);
    expect(requests).toHaveLength(4);

    // Resuming sends the identical request again (same stamp and Request-Id) and goes on waiting.
    const resumed = await client.signedRetry.complete(timeout.pending!, timeout.stamp!);
    expect(resumed).toEqual(session);
    expect(requests.slice(1).map((r) => [signature(r), requestId(r), r.rawBody])).toEqual(Array(5).fill(['stamp-1', REQUEST_ID, requests[0]!.rawBody]));
    expect(stamper.signed).toHaveLength(1);
  });

  it('the PROCESSING back-off doubles to 8 s and stays within the default budget', async () => {
    const { client, sleeps } = setup([challenge, processing]); // PROCESSING for ever
    const error = await client.internalAccounts.update(ACCOUNT, { privateEnabled: false }, { stamper: recordingStamper() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletOperationTimeoutError);
    expect(sleeps.slice(0, 6)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000]);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(DEFAULT_PROCESSING_TIMEOUT_MS);
  });

  it('Retry-After 0 still waits at least MIN_PROCESSING_DELAY_MS, so a PROCESSING server cannot make it a busy loop', async () => {
    const eager = { ...processing, headers: { 'retry-after': '0' } };
    const { client, sleeps } = setup([challenge, eager]); // PROCESSING with Retry-After 0 for ever
    const error = await client.internalAccounts.update(ACCOUNT, { privateEnabled: false }, { stamper: recordingStamper() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletOperationTimeoutError);
    expect(new Set(sleeps)).toEqual(new Set([MIN_PROCESSING_DELAY_MS]));
    expect(sleeps.length).toBe(Math.floor(DEFAULT_PROCESSING_TIMEOUT_MS / MIN_PROCESSING_DELAY_MS));
  });

  it('without a stamper: SIGNATURE_REQUIRED as plain JSON, finished later with complete(pending, stamp) and typed by the operation', async () => {
    const { client, requests } = setup([challenge, { status: 201, body: authMethod }]);
    const pending = await client.auth.credentials.create({ type: 'SMS_OTP', accountId: ACCOUNT });
    expect(pending.status).toBe('SIGNATURE_REQUIRED');
    if (pending.status !== 'SIGNATURE_REQUIRED') throw new Error('unreachable');
    expect(pending.challenge).toEqual(challenge.body);
    expect(pending.request).toEqual({ operationId: 'createAuthCredential', method: 'POST', path: '/auth/credentials', body: { type: 'SMS_OTP', accountId: ACCOUNT } });

    // A backend keeps it as JSON while a browser stamps payloadToSign.
    const stored = JSON.parse(JSON.stringify(pending)) as typeof pending;
    const credential = await client.signedRetry.complete(stored, 'stamp-from-the-browser');
    expect(credential.nickname).toBe('+15555550123'); // typed AuthMethod
    expect(requests[1]!.rawBody).toBe(requests[0]!.rawBody);
    expect(signature(requests[1]!)).toBe('stamp-from-the-browser');
    expect(requestId(requests[1]!)).toBe(REQUEST_ID);
  });

  it('a first leg that needs no signature resolves COMPLETED', async () => {
    const { client } = setup([{ status: 201, body: authMethod }]);
    expect(await client.auth.credentials.create({ type: 'SMS_OTP', accountId: ACCOUNT })).toEqual({ status: 'COMPLETED', data: authMethod });
  });

  it('idempotency keys: a given key k is sent as k on the first leg and k:signed on the retry; null sends none', async () => {
    const keyed = setup([challenge, processing, { status: 201, body: authMethod }]);
    await keyed.client.auth.credentials.create({ type: 'SMS_OTP', accountId: ACCOUNT }, { stamper: recordingStamper(), idempotencyKey: 'add-sms-42' });
    expect(keyed.requests.map(key).slice(0, 2)).toEqual(['add-sms-42', 'add-sms-42:signed']);
    expect(keyed.requests[2]!.headers.get('idempotency-key')).toMatch(/^railyard-/);

    const header = setup([challenge, { status: 201, body: authMethod }]);
    await header.client.auth.credentials.create({ type: 'SMS_OTP', accountId: ACCOUNT }, { stamper: recordingStamper(), headers: { 'Idempotency-Key': 'h-1' } });
    expect(header.requests.map(key)).toEqual(['h-1', 'h-1:signed']);

    const none = setup([challenge, processing, { status: 201, body: authMethod }]);
    await none.client.auth.credentials.create({ type: 'SMS_OTP', accountId: ACCOUNT }, { stamper: recordingStamper(), idempotencyKey: null });
    expect(none.requests.map(key)).toEqual([null, null, null]);
  });

  it('a 401 of the signed retry surfaces with its code; nothing is re-sent', async () => {
    const { client, requests } = setup([challenge, errorBody(401, 'WALLET_SIGNATURE_INVALID', 'The stamp is signed by a key that is not an active session')]);
    const error = await client.auth.credentials.delete(CREDENTIAL, { stamper: recordingStamper() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('WALLET_SIGNATURE_INVALID');
    expect(requests).toHaveLength(2);
  });

  it('a signed retry answered by another 202 is an error, not a loop', async () => {
    const { client, requests } = setup([challenge, challenge]);
    const error = await client.auth.sessions.revoke(SESSION, { stamper: recordingStamper() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RailyardError);
    expect((error as Error).message).toContain('new challenge');
    expect(requests).toHaveLength(2);
  });

  it('complete() refuses, before sending, a pending operation that is not one', async () => {
    const { client, requests } = setup([{ status: 201, body: authMethod }]);
    const forged = {
      status: 'SIGNATURE_REQUIRED', challenge: challenge.body,
      request: { operationId: 'createAuthCredential', method: 'POST', path: '/customers', body: {} },
    } as SignatureRequired<'createAuthCredential'>;
    await expect(client.signedRetry.complete(forged, 'stamp')).rejects.toThrow(/is not POST \/auth\/credentials/);
    const unknown = { ...forged, request: { ...forged.request, operationId: 'createCustomer' } } as unknown as SignatureRequired;
    await expect(client.signedRetry.complete(unknown, 'stamp')).rejects.toThrow(/not one/);
    await expect(client.signedRetry.complete({ ...forged, request: { ...forged.request, path: '/auth/credentials' } }, '')).rejects.toThrow(/non-empty/);
    expect(requests).toHaveLength(0);
  });

  it('PASSKEY verify sends the challenge’s Request-Id; without it the call is refused before sending', async () => {
    const { client, requests } = setup([{ status: 200, body: { ...session, type: 'PASSKEY' } }]);
    const assertion = { credentialId: 'Y3JlZA', clientDataJson: 'e30', authenticatorData: 'YQ', signature: 'c2ln' };
    await expect(client.auth.credentials.verify(CREDENTIAL, { type: 'PASSKEY', assertion }, { requestId: REQUEST_ID })).resolves.toMatchObject({ type: 'PASSKEY' });
    expect(requestId(requests[0]!)).toBe(REQUEST_ID);
    expect(signature(requests[0]!)).toBeNull();
    await expect(client.auth.credentials.verify(CREDENTIAL, { type: 'PASSKEY', assertion }, {} as { requestId: string })).rejects.toThrow(/requestId/);
    expect(requests).toHaveLength(1);
  });

  it('challenge re-sends a PROCESSING answer; OAUTH verify answered 202 without a stamper rejects with the pending operation', async () => {
    const otp = { ...authMethod, type: 'EMAIL_OTP', otpEncryptionTargetBundle: '{"version":"v1.0.0"}' };
    const challenged = setup([processing, { status: 200, body: otp }]);
    expect(await challenged.client.auth.credentials.challenge(CREDENTIAL)).toEqual(otp);
    expect(challenged.requests.map((r) => r.rawBody)).toEqual(['', '']);
    expect(challenged.sleeps).toEqual([500]);

    const oauth = setup([challenge]);
    const body = { type: 'OAUTH' as const, oidcToken: 'a.b.c', clientPublicKey: `02${'d'.repeat(64)}` };
    const error = await oauth.client.auth.credentials.verify(CREDENTIAL, body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureRequiredError);
    expect((error as SignatureRequiredError).pending.request).toMatchObject({ operationId: 'verifyAuthCredential', body });
  });

  it('an abort during the PROCESSING wait rejects with APIUserAbortError', async () => {
    const controller = new AbortController();
    const replies: Reply[] = [challenge, processing];
    const { client } = setup(replies, { sleep: () => (controller.abort(), new Promise<void>(() => {})) });
    const error = await client.auth.sessions.revoke(SESSION, { stamper: recordingStamper(), signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIUserAbortError);
  });
});

describe('dependencies', () => {
  it('the client depends on the contract only, never on @railyard/wallet (DESIGN: client -> contract)', async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const root = new URL('../../', import.meta.url);
    const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@railyard/contract']); // ky is inlined by the build, so a devDependency
    const sources = (await readdir(new URL('src/', root), { recursive: true })).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('test-support.ts'));
    for (const file of sources) {
      const text = await readFile(new URL(`src/${file}`, root), 'utf8');
      // Import statements only (TSDoc examples may show the wallet and the engine).
      expect(text, file).not.toMatch(/^(import|export)\b[^;]*?from ['"]@railyard\/(wallet|engine)['"]/m);
      expect(text, file).not.toMatch(/import\(['"]@railyard\/(wallet|engine)['"]\)/);
    }
  });

  it('complete() refuses a pending request whose path leaves its endpoint (query, fragment or dot segments)', async () => {
    const { client, requests } = setup([]);
    for (const path of ['/auth/sessions/X?y=/refresh', '/auth/sessions/../credentials/refresh', '/auth/sessions/%2e%2e/refresh']) {
      const forged = { status: 'SIGNATURE_REQUIRED', challenge: { payloadToSign: 'p', requestId: 'Request:1', expiresAt: '2030-01-01T00:00:00Z' },
        request: { operationId: 'refreshAuthSession', method: 'POST', path, body: {} } } as unknown as SignatureRequired;
      await expect(client.signedRetry.complete(forged, 'stamp')).rejects.toBeInstanceOf(RailyardError);
    }
    expect(requests).toHaveLength(0);
  });

  it('a stamper that never answers gives way to the AbortSignal', async () => {
    const { client, requests } = setup([challenge]);
    const controller = new AbortController();
    const hanging: WalletStamper = { stamp: () => new Promise<string>(() => undefined) };
    const waiting = client.internalAccounts.update(ACCOUNT, { privateEnabled: true }, { stamper: hanging, signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await waiting).toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
  });
});
