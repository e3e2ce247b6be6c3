import { REQUEST_ID_HEADER, WALLET_SIGNATURE_HEADER } from '@railyard/contract';
import { isSignedLegAnswer, type SignedLegAnswer, type SignedRequest } from '../auth/signed-retry.js';
import { HttpResult, type Incoming } from './app.js';

/** The `Service-Wallet-Signature` stamp of a request, or null. */
export const walletSignatureOf = (request: Incoming): string | null => request.header(WALLET_SIGNATURE_HEADER.toLowerCase());

/** The signature headers of a request and the exact request they sign, for a signed operation. */
export const signedRequestOf = (request: Incoming, signable: string): SignedRequest => ({
  stamp: walletSignatureOf(request),
  requestId: request.header(REQUEST_ID_HEADER.toLowerCase()),
  signable,
});

/** The exact body text of a request, from the `signable` fingerprint a route gets (method and path, NUL, body). */
export const bodyTextOf = (signable: string): string => signable.slice(signable.indexOf('\u0000') + 1);

/**
 * A signed operation's answer as HTTP: the first leg's challenge is a 202, accepted-but-not-settled a 200; neither is
 * replayed under an Idempotency-Key (the signed retry carries the same key and must reach the operation). The
 * operation's own result passes through.
 */
export async function signedAnswer<T>(answer: Promise<T | SignedLegAnswer>): Promise<T | HttpResult> {
  const result = await answer;
  if (!isSignedLegAnswer(result)) return result;
  return 'challenge' in result ? new HttpResult(202, result.challenge, {}, false) : new HttpResult(200, result.processing, {}, false);
}
