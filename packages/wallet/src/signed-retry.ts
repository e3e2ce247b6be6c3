import type { WalletStamper } from './keys.js';

/** The two headers of a signed retry. */
export interface SignedRetryHeaders {
  'Service-Wallet-Signature': string;
  'Request-Id': string;
}

/**
 * Turns a 202 signed-retry challenge into the headers of the retry: stamps `payloadToSign` byte for byte with the session
 * key and pairs it with the single-use `requestId`. Repeat the identical request (same method, path and body) with them.
 *
 * ```ts
 * const first = await fetch(url, { method: 'POST', headers, body });          // 202 {payloadToSign, requestId, expiresAt}
 * const retry = await fetch(url, { method: 'POST', headers: { ...headers, ...(await signedRetryHeaders(await first.json(), session)) }, body });
 * ```
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { SessionKey, signedRetryHeaders } from '@railyard/wallet';
 *
 * const session = await SessionKey.generate();
 * const challenge = { payloadToSign: '{"type":"EXPORT"}', requestId: 'Request:7f3c' }; // the body of a 202
 * const headers = await signedRetryHeaders(challenge, session);
 * assert.equal(headers['Request-Id'], 'Request:7f3c');
 * assert.ok(headers['Service-Wallet-Signature'].length > 0);
 * ```
 */
export async function signedRetryHeaders(challenge: { payloadToSign: string; requestId: string }, stamper: WalletStamper): Promise<SignedRetryHeaders> {
  if (typeof challenge?.payloadToSign !== 'string' || typeof challenge.requestId !== 'string') {
    throw new TypeError('signedRetryHeaders needs the 202 body: { payloadToSign, requestId }');
  }
  return { 'Service-Wallet-Signature': await stamper.stamp(challenge.payloadToSign), 'Request-Id': challenge.requestId };
}
