/**
 * Sessions of embedded wallets (SPEC §2.5; REFERENCE §6, §7): a verified credential's session, whose signing key
 * stamps signed retries. The client holds the key (a compressed `clientPublicKey`, or an OTP's TEK); in the legacy flow
 * (an uncompressed `clientPublicKey`) the service makes the key and seals it to the client (`encryptedSessionSigningKey`).
 */
import type { AuthSession } from '@railyard/contract';
import { compressP256PublicKey, generateP256KeyPairHex, SESSION_TTL_MS, sealSessionSigningKey } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { notFound } from '../core/errors.js';

/** A stored session (snapshot-safe): the resource plus the public key that signs for it. */
export const AuthSessionRecord = z.object({
  id: z.string(),
  accountId: z.string(),
  credentialId: z.string(),
  type: z.enum(['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP']),
  nickname: z.string(),
  /** The session signing key's public half, compressed lowercase hex. */
  publicKey: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiresAt: z.string(),
});
export type AuthSessionRecord = z.infer<typeof AuthSessionRecord>;

export const AUTH_SESSIONS = 'authSessions';
const sessions = (tenant: TenantContext) => tenant.store.collection<AuthSessionRecord>(AUTH_SESSIONS);

/** The session as the API shows it: never key material, except a legacy sealed key once, at creation. */
export const sessionView = (record: AuthSessionRecord): AuthSession => ({
  id: record.id, accountId: record.accountId, type: record.type, nickname: record.nickname,
  createdAt: record.createdAt, updatedAt: record.updatedAt, expiresAt: record.expiresAt,
});

const active = (tenant: TenantContext, record: AuthSessionRecord) => Date.parse(record.expiresAt) > tenant.clock.now();

/** The active sessions of an account. */
export const activeSessions = (tenant: TenantContext, accountId: string): AuthSessionRecord[] =>
  sessions(tenant).findBy('accountId', accountId).filter((s) => active(tenant, s));

/** The active session of the account whose key this is; with undefined (a legacy literal), any active session. */
export function sessionSigning(tenant: TenantContext, accountId: string, publicKey: string | undefined): AuthSessionRecord | undefined {
  return activeSessions(tenant, accountId).find((s) => publicKey === undefined || s.publicKey === publicKey);
}

/** The signers of an account's ordinary actions: any active session of it (see {@link sessionSigning}). */
export const sessionsOf = (tenant: TenantContext, accountId: string) => (publicKey: string | undefined): AuthSessionRecord | undefined =>
  sessionSigning(tenant, accountId, publicKey);

/** An active session by id, or 404. */
export function findSession(tenant: TenantContext, sessionId: string): AuthSessionRecord {
  const session = sessions(tenant).get(sessionId);
  if (!session || !active(tenant, session)) throw notFound('Session', sessionId);
  return session;
}

/**
 * Opens a session for a verified credential. `clientPublicKey`: compressed, the client's own key signs; uncompressed
 * (legacy), a fresh key is made and sealed to it. An OTP's TEK is given compressed.
 */
export async function openSession(
  tenant: TenantContext, credential: { id: string; accountId: string; type: AuthSessionRecord['type']; nickname: string }, clientPublicKey: string,
): Promise<AuthSession> {
  const legacy = clientPublicKey.startsWith('04');
  let publicKey = compressP256PublicKey(clientPublicKey.toLowerCase());
  let encryptedSessionSigningKey: string | undefined;
  if (legacy) {
    const pair = await generateP256KeyPairHex();
    encryptedSessionSigningKey = await sealSessionSigningKey(clientPublicKey.toLowerCase(), pair.privateKeyHex);
    publicKey = pair.publicKeyCompressedHex;
  }
  const now = tenant.clock.now();
  const record: AuthSessionRecord = {
    id: tenant.ids('Session'), accountId: credential.accountId, credentialId: credential.id, type: credential.type, nickname: credential.nickname,
    publicKey, createdAt: new Date(now).toISOString(), updatedAt: new Date(now).toISOString(), expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
  };
  sessions(tenant).insert(record);
  return { ...sessionView(record), ...(encryptedSessionSigningKey ? { encryptedSessionSigningKey } : {}) };
}

/** Ends a session (and every session of a removed credential). */
export const endSession = (tenant: TenantContext, sessionId: string): void => void sessions(tenant).delete(sessionId);
export const endSessionsOf = (tenant: TenantContext, credentialId: string): void => {
  for (const s of sessions(tenant).findBy('credentialId', credentialId)) sessions(tenant).delete(s.id);
};
