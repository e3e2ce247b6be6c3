/**
 * Sessions of embedded wallets (SPEC §2.5; REFERENCE §6, §7): a verified credential's session, whose signing key
 * stamps signed retries. PASSKEY and OAUTH sessions always come with `encryptedSessionSigningKey`, a key the service
 * makes and seals to the supplied `clientPublicKey` (SPEC §2.5, §4.2); with a compressed `clientPublicKey` the client's
 * own key signs as well (the model of the reference's clients, REFERENCE §7), with an uncompressed one (legacy) only the
 * sealed key does. OTP sessions are signed by the client's TEK and carry no sealed key.
 */
import type { AuthSession } from '@railyard/contract';
import { compressP256PublicKey, generateP256KeyPairHex, SESSION_TTL_MS, sealSessionSigningKey } from '@railyard/contract';
import { z } from 'zod';
import type { TenantContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { credentials } from './records.js';

/** A stored session (snapshot-safe): the resource plus the public key that signs for it. */
export const AuthSessionRecord = z.object({
  id: z.string(),
  accountId: z.string(),
  credentialId: z.string(),
  type: z.enum(['PASSKEY', 'OAUTH', 'EMAIL_OTP', 'SMS_OTP']),
  nickname: z.string(),
  /** The session signing key's public half, compressed lowercase hex. */
  publicKey: z.string(),
  /** The public half of the sealed key (`encryptedSessionSigningKey`), when it signs beside `publicKey`. */
  sealedPublicKey: z.string().optional(),
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

/** Whether `publicKey` signs for a session: its key, or its sealed key; undefined (a legacy literal) signs for any. */
export const signsFor = (session: AuthSessionRecord, publicKey: string | undefined): boolean =>
  publicKey === undefined || session.publicKey === publicKey || session.sealedPublicKey === publicKey;

/** The active session of the account whose key this is; with undefined (a legacy literal), any active session. */
export function sessionSigning(tenant: TenantContext, accountId: string, publicKey: string | undefined): AuthSessionRecord | undefined {
  return activeSessions(tenant, accountId).find((s) => signsFor(s, publicKey));
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
 * Opens a session for a verified credential (see the module comment for which keys sign). An OTP's TEK is given
 * compressed. 404 when the credential was removed while the verification was under way: removing a credential ends
 * its sessions, so none may open after.
 */
export async function openSession(
  tenant: TenantContext, credential: { id: string; accountId: string; type: AuthSessionRecord['type']; nickname: string }, clientPublicKey: string,
): Promise<AuthSession> {
  const legacy = clientPublicKey.startsWith('04');
  const clientKey = compressP256PublicKey(clientPublicKey.toLowerCase());
  let encryptedSessionSigningKey: string | undefined;
  let sealedKey: string | undefined;
  if (legacy || credential.type === 'PASSKEY' || credential.type === 'OAUTH') {
    const pair = await generateP256KeyPairHex();
    encryptedSessionSigningKey = await sealSessionSigningKey(clientPublicKey.toLowerCase(), pair.privateKeyHex);
    sealedKey = pair.publicKeyCompressedHex;
  }
  // Checked after every await of the verification, before the write (a concurrent DELETE may have landed).
  if (!credentials(tenant).get(credential.id)) throw notFound('Credential', credential.id);
  const now = tenant.clock.now();
  const record: AuthSessionRecord = {
    id: tenant.ids('Session'), accountId: credential.accountId, credentialId: credential.id, type: credential.type, nickname: credential.nickname,
    // Legacy: only the sealed key signs. Otherwise the client's key signs, and the sealed key too when there is one.
    publicKey: legacy ? sealedKey! : clientKey,
    ...(sealedKey !== undefined && !legacy ? { sealedPublicKey: sealedKey } : {}),
    createdAt: new Date(now).toISOString(), updatedAt: new Date(now).toISOString(), expiresAt: new Date(now + SESSION_TTL_MS).toISOString(),
  };
  sessions(tenant).insert(record);
  return { ...sessionView(record), ...(encryptedSessionSigningKey ? { encryptedSessionSigningKey } : {}) };
}

/** Ends a session (and every session of a removed credential). */
export const endSession = (tenant: TenantContext, sessionId: string): void => void sessions(tenant).delete(sessionId);
export const endSessionsOf = (tenant: TenantContext, credentialId: string): void => {
  for (const s of sessions(tenant).findBy('credentialId', credentialId)) sessions(tenant).delete(s.id);
};
