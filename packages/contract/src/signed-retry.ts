import { z } from 'zod';
import { Timestamp, resourceId } from './common.js';

// The wire of a signed retry (SPEC §4.2; REFERENCE §7): its headers, the first leg's 202 challenge and the answer to a
// retry accepted but not settled. Shared by the embedded-wallet operations and the other signed actions (a customer's
// email change), so it depends on nothing else of the contract.

/** Header carrying the wallet stamp of a signed retry. */
export const WALLET_SIGNATURE_HEADER = 'Service-Wallet-Signature';
/** Header carrying the single-use `requestId` of a signed retry. */
export const REQUEST_ID_HEADER = 'Request-Id';

/** Lifetime of a signed-retry challenge (typically 5 minutes). */
export const SIGNED_RETRY_TTL_MS = 5 * 60 * 1000;

/** Credential kinds. */
export const AuthMethodType = z.enum(['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP']).meta({ id: 'AuthMethodType' });
export type AuthMethodType = z.infer<typeof AuthMethodType>;

export const RequestId = resourceId('Request').meta({ id: 'RequestId' });

/** 202 of a signed-action first leg: stamp `payloadToSign` byte for byte and retry with it and `requestId`. */
export const SignedRetryChallenge = z
  .object({
    /** Present on `/auth/*` endpoints only. */
    type: AuthMethodType.optional(),
    payloadToSign: z.string(),
    requestId: RequestId,
    expiresAt: Timestamp,
  })
  .meta({ id: 'SignedRetryChallenge' });
export type SignedRetryChallenge = z.infer<typeof SignedRetryChallenge>;

/** 200 of a signed retry that was accepted but has not settled: re-send the identical request with backoff. */
export const WalletOperationProcessing = z
  .object({ status: z.literal('PROCESSING'), message: z.string() })
  .meta({ id: 'WalletOperationProcessing' });
export type WalletOperationProcessing = z.infer<typeof WalletOperationProcessing>;

/** The other answers of every signed operation: the first leg's challenge, and a retry accepted but not settled. */
export const signedLegs = [
  { status: 202, description: 'First leg: stamp payloadToSign and retry with Service-Wallet-Signature and Request-Id', schema: SignedRetryChallenge },
  { status: 200, description: 'Accepted, not settled: re-send the identical request', schema: WalletOperationProcessing },
] as const;
