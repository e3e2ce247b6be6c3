import { encryptOtp, SessionKey, signedRetryHeaders } from '@railyard/wallet';
import { callApi, type Json } from '../../packages/engine/src/testing/requests.js';

/**
 * Engine unit tests that need an embedded wallet's session or a delegated key: the wallet side played by
 * @railyard/wallet, the requests sent in process (callApi) as the default platform.
 */

/** The sandbox's one-time code (docs/sandbox.md). */
const OTP_CODE = '000000';

/** What the helpers need of an engine: its in-process fetch. */
type Engine = { fetch: (request: Request) => Promise<Response> };
type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: Json }>;
const caller = (engine: Engine): Call => (method, path, body, headers) => callApi(engine, method, path, body, headers);

/** Signs in to the wallet with its EMAIL_OTP credential: returns the session key, which stamps signed retries. */
export async function walletSession(engine: Engine, accountId: string): Promise<SessionKey> {
  const call = caller(engine);
  const credential = (await call('GET', `/auth/credentials?accountId=${accountId}`)).body.data.find((c: Json) => c.type === 'EMAIL_OTP');
  const { otpEncryptionTargetBundle } = (await call('POST', `/auth/credentials/${credential.id}/challenge`)).body;
  const enclaveKey = (await call('GET', '/_sandbox/enclave-key')).body.publicKeyHex as string;
  const key = await SessionKey.generate();
  const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await encryptOtp({ targetBundle: otpEncryptionTargetBundle, otpCode: OTP_CODE, tekPublicKey: key, pinnedEnclaveKey: enclaveKey }) };
  const first = await call('POST', `/auth/credentials/${credential.id}/verify`, body);
  const session = await call('POST', `/auth/credentials/${credential.id}/verify`, body, { ...(await signedRetryHeaders(first.body as never, key)) });
  if (session.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(session.body)}`);
  return key;
}

/**
 * The three legs of a delegated-key creation, each stamped by `key`: returns every answer (the last is the 201, or the
 * refusal that stopped the flow), so tests can check each leg.
 */
export async function delegatedKeyLegs(engine: Engine, body: Json, key: SessionKey): Promise<{ status: number; body: Json }[]> {
  const call = caller(engine);
  const answers = [await call('POST', '/auth/delegated-keys', body)];
  while (answers.at(-1)!.status === 202 && answers.length < 3) {
    answers.push(await call('POST', '/auth/delegated-keys', body, { ...(await signedRetryHeaders(answers.at(-1)!.body as never, key)) }));
  }
  return answers;
}
