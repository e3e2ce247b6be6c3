/**
 * The signed-retry pattern (SPEC §4.2 rules 1–5, §5 items 3–4; REFERENCE §6, §7), one mechanism for every signed
 * operation. The first request carries no signature: it gets 202 with `payloadToSign` (service-minted JSON text),
 * a single-use `requestId` and `expiresAt`. The client stamps the payload byte for byte with a session key and repeats
 * the identical request with `Service-Wallet-Signature` and `Request-Id`; only then does the operation run.
 *
 * The retry is checked in this order, each with its 401 code: Request-Id without a signature (WALLET_SIGNATURE_MISSING),
 * a signature without Request-Id (REQUEST_ID_MISSING), an unreadable stamp (WALLET_SIGNATURE_MALFORMED), an unknown,
 * used or expired request id (UNAUTHORIZED), a different request than the first leg (WALLET_SIGNATURE_BODY_MISMATCH),
 * and a key that may not sign or a signature that does not verify (WALLET_SIGNATURE_INVALID).
 */
import type { SignedRetryChallenge, WalletOperationProcessing } from '@railyard/contract';
import { decodeWalletStamp, REQUEST_ID_HEADER, SIGNED_RETRY_TTL_MS, WALLET_SIGNATURE_HEADER } from '@railyard/contract';
import { verifyStampSignature } from './stamp-verify.js';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { LEGACY_WALLET_SIGNATURE } from '../sandbox/magic-values.js';
import { takeWalletProcessing } from '../platforms/config.js';

/** A first leg waiting for its signed retry (snapshot-safe); id is the request id. */
export const SignedRequestRecord = z.object({
  id: z.string(),
  accountId: z.string(),
  /** Method, path and exact body of the first leg: the retry must match it. */
  request: z.string(),
  payloadToSign: z.string(),
  /** A key that must sign (an OTP's TEK); otherwise any active session key of the account that `signers` allows. */
  signerPublicKey: z.string().optional(),
  expiresAt: z.string(),
  used: z.boolean(),
});
export type SignedRequestRecord = z.infer<typeof SignedRequestRecord>;

export const SIGNED_REQUESTS = 'signedRequests';
const requests = (tenant: TenantContext) => tenant.store.collection<SignedRequestRecord>(SIGNED_REQUESTS);

/**
 * Who may sign: the signer (a session, for the operation to use) behind a compressed public key in hex, or undefined.
 * Called with undefined for the sandbox's legacy literal, which names no key: any signer the action allows.
 */
export type SignerLookup<S> = (publicKeyCompressedHex: string | undefined) => S | undefined;

export interface SignedAction<S> {
  readonly accountId: string;
  /** `ACTIVITY_TYPE_*` of the payload. */
  readonly activity: string;
  /** What the payload says the action does; the signer approves exactly this. */
  readonly parameters: Record<string, unknown>;
  /** The credential type, on `/auth/*` endpoints (REFERENCE §6: the 202 carries `type` there only). */
  readonly type?: SignedRetryChallenge['type'];
  /** The keys that may sign and what each stands for; undefined: nobody may. */
  readonly signers: SignerLookup<S>;
  /** A single key that must sign instead (the TEK of an OTP verification), with what it stands for. */
  readonly requiredSigner?: { publicKeyHex: string; signer: S };
}

const unauthorized = (code: 'WALLET_SIGNATURE_MISSING' | 'WALLET_SIGNATURE_MALFORMED' | 'WALLET_SIGNATURE_BODY_MISMATCH' | 'WALLET_SIGNATURE_INVALID' | 'REQUEST_ID_MISSING' | 'UNAUTHORIZED', message: string) =>
  new ApiError(401, code, message, code === 'UNAUTHORIZED' ? { reason: message } : undefined);

/**
 * Checks a `Service-Wallet-Signature` stamp over `payload`: readable (else 401 WALLET_SIGNATURE_MALFORMED), made by a
 * key `signers` allows and verifying over the exact payload bytes (else 401 WALLET_SIGNATURE_INVALID). The sandbox's
 * legacy literal skips the ECDSA check (SPEC §4.6) but still needs a signer the action allows. Returns the signer.
 */
export async function checkStamp<S>(stamp: string, payload: string, signers: SignerLookup<S>): Promise<S> {
  if (stamp === LEGACY_WALLET_SIGNATURE) {
    const signer = signers(undefined);
    if (signer === undefined) throw unauthorized('WALLET_SIGNATURE_INVALID', 'No active session of this account may sign this action');
    return signer;
  }
  let decoded: ReturnType<typeof decodeWalletStamp>;
  try {
    decoded = decodeWalletStamp(stamp);
  } catch (error) {
    throw unauthorized('WALLET_SIGNATURE_MALFORMED', `${WALLET_SIGNATURE_HEADER} is not a stamp: ${(error as Error).message}`);
  }
  const signer = signers(decoded.publicKey);
  if (signer === undefined) throw unauthorized('WALLET_SIGNATURE_INVALID', 'The stamp is signed by a key that is not an active session of this account (or not one allowed for this action)');
  if (!(await verifyStampSignature(decoded, payload))) {
    throw unauthorized('WALLET_SIGNATURE_INVALID', 'The stamp signature does not verify over payloadToSign: sign its exact bytes with the session key');
  }
  return signer;
}

/** What a signed request carries: its signature headers (null when absent) and the exact request it signs. */
export interface SignedRequest {
  readonly stamp: string | null;
  readonly requestId: string | null;
  /** Method, path and exact body text: the retry must repeat them. */
  readonly signable: string;
}

/** An answer of a signed operation other than its result: the first leg's challenge, or accepted but not settled. */
export type SignedLegAnswer = { readonly challenge: SignedRetryChallenge } | { readonly processing: WalletOperationProcessing };

/** Whether an operation's answer is a {@link SignedLegAnswer} rather than its result. */
export const isSignedLegAnswer = (value: unknown): value is SignedLegAnswer =>
  typeof value === 'object' && value !== null && ('challenge' in value || 'processing' in value);

/** The retry passed every check: the operation may run, on behalf of `signer`. */
export interface Signed<S> {
  readonly signer: S;
  /** What was signed: the first leg's payload, with the parameters it named then. */
  readonly payloadToSign: string;
}

/**
 * Runs one leg of a signed action. The first leg answers the challenge (the API's 202); the retry answers the signer
 * once every check passes, and the caller then performs the operation.
 */
export async function signedAction<S>(tenant: TenantContext, request: SignedRequest, action: SignedAction<S>): Promise<SignedLegAnswer | Signed<S>> {
  const { stamp, requestId, signable } = request;
  if (stamp === null && requestId === null) return { challenge: firstLeg(tenant, signable, action) };
  if (stamp === null) throw unauthorized('WALLET_SIGNATURE_MISSING', `A signed retry carries the ${WALLET_SIGNATURE_HEADER} header: the stamp of payloadToSign`);
  if (requestId === null) throw unauthorized('REQUEST_ID_MISSING', `A signed retry carries the ${REQUEST_ID_HEADER} header: the requestId of the 202 challenge`);

  const pending = requests(tenant).get(requestId);
  if (!pending || pending.accountId !== action.accountId) throw unauthorized('UNAUTHORIZED', `Request-Id ${requestId} is not a challenge of this account: start the request again without signature headers`);
  if (pending.used) throw unauthorized('UNAUTHORIZED', `Request-Id ${requestId} was already used: each challenge signs one request`);
  if (Date.parse(pending.expiresAt) <= tenant.clock.now()) throw unauthorized('UNAUTHORIZED', `Request-Id ${requestId} expired at ${pending.expiresAt}: start the request again`);
  if (pending.request !== signable) {
    throw unauthorized('WALLET_SIGNATURE_BODY_MISMATCH', 'The retry differs from the request that got the challenge: repeat it byte for byte (method, path and body)');
  }

  const required = pending.signerPublicKey;
  const signers: SignerLookup<S> = required === undefined
    ? action.signers
    : (publicKey) => (publicKey === undefined || publicKey === required ? action.requiredSigner?.signer : undefined);
  const signer = await checkStamp(stamp, pending.payloadToSign, signers);
  // Checked again after the await: a concurrent retry with the same id may have used it meanwhile.
  if (requests(tenant).get(requestId)!.used) throw unauthorized('UNAUTHORIZED', `Request-Id ${requestId} was already used: each challenge signs one request`);
  // Accepted but not settled (SPEC §4.2 rule 4): the id stays open, and the identical request is sent again.
  if (takeWalletProcessing(tenant)) {
    return { processing: { status: 'PROCESSING', message: 'The operation is accepted and not settled yet: send the identical request again' } };
  }
  requests(tenant).replace({ ...pending, used: true });
  return { signer, payloadToSign: pending.payloadToSign };
}

function firstLeg<S>(tenant: TenantContext, signable: string, action: SignedAction<S>): SignedRetryChallenge {
  const now = tenant.clock.now();
  const payloadToSign = JSON.stringify({
    organizationId: tenant.platform.id,
    parameters: action.parameters,
    timestampMs: String(now),
    type: action.activity,
  });
  const record: SignedRequestRecord = {
    id: tenant.ids('Request'), accountId: action.accountId, request: signable, payloadToSign,
    ...(action.requiredSigner ? { signerPublicKey: action.requiredSigner.publicKeyHex } : {}),
    expiresAt: new Date(now + SIGNED_RETRY_TTL_MS).toISOString(), used: false,
  };
  requests(tenant).insert(record);
  const challenge: SignedRetryChallenge = {
    ...(action.type ? { type: action.type } : {}), payloadToSign, requestId: record.id, expiresAt: record.expiresAt,
  };
  return challenge;
}
