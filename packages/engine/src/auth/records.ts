/**
 * The stored credentials of embedded wallets (snapshot-safe), and the first one a new wallet gets. Kept apart from
 * credentials.ts so customer creation can provision a wallet without depending on the credential rules.
 */
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';

/** A stored credential (snapshot-safe): the resource plus what verifying it needs. */
export const AuthCredentialRecord = z.object({
  id: z.string(),
  accountId: z.string(),
  type: z.enum(['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP']),
  nickname: z.string(),
  credentialId: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** PASSKEY: the COSE public key (base64url) and the last sign counter. */
  passkey: z.object({
    publicKey: z.string(), counter: z.number().int().min(0), transports: z.array(z.string()).optional(),
    /** The RP ID the passkey was registered with: every assertion must carry its hash and come from within it. */
    rpId: z.string().optional(),
  }).optional(),
  /** OAUTH: the identity the token must keep naming. */
  oauth: z.object({ iss: z.string(), sub: z.string(), aud: z.string() }).optional(),
  /** OTP: the target key of the code last issued, and when. */
  otp: z.object({ targetPrivateKeyHex: z.string(), targetPublicKeyHex: z.string(), issuedAt: z.string() }).optional(),
  /** PASSKEY: the sign-in challenge outstanding, bound to the session key it will open. */
  passkeyChallenge: z.object({ requestId: z.string(), challenge: z.string(), clientPublicKey: z.string(), expiresAt: z.string() }).optional(),
});
export type AuthCredentialRecord = z.infer<typeof AuthCredentialRecord>;

export const AUTH_CREDENTIALS = 'authCredentials';
export const credentials = (tenant: TenantContext) => tenant.store.collection<AuthCredentialRecord>(AUTH_CREDENTIALS);

/** The first credential of a new embedded wallet: an email code to the customer's email (REFERENCE §6). */
export function provisionWalletCredential(tenant: TenantContext, accountId: string, email: string): AuthCredentialRecord {
  const now = tenant.nowIso();
  return credentials(tenant).insert({ id: tenant.ids('AuthMethod'), accountId, type: 'EMAIL_OTP', nickname: email, createdAt: now, updatedAt: now });
}

