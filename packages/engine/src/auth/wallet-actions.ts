/**
 * Signed actions on an embedded wallet and its sessions (SPEC §4.2; REFERENCE §6, §7): list and revoke sessions,
 * refresh one, export the wallet's credentials sealed to a fresh client key (never stored), and change its privacy.
 */
import type { AuthSession, InternalAccount, WalletExport } from '@railyard/contract';
import { AuthSessionRefreshRequest, bytesToHex, hexToBytes, sealExportBundle, WalletExportRequest } from '@railyard/contract';
import { z } from 'zod';
import { setPrivacy } from '../accounts/internal-accounts.js';
import type { TenantContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { findWallet } from './credentials.js';
import { credentials } from './records.js';
import { activeSessions, endSession, findSession, openSession, sessionsOf, sessionView } from './sessions.js';
import { signedAction, type SignedLegAnswer, type SignedRequest } from './signed-retry.js';
import { enclaveSigner } from './enclave.js';

/** `GET /auth/sessions?accountId=`: active sessions, never key material. */
export function listSessions(tenant: TenantContext, accountId: string): { data: AuthSession[] } {
  findWallet(tenant, accountId);
  return { data: activeSessions(tenant, accountId).map(sessionView) };
}

/** `DELETE /auth/sessions/{id}`: signed by any session of the account, this one included. */
export async function revokeSession(tenant: TenantContext, sessionId: string, request: SignedRequest): Promise<undefined | SignedLegAnswer> {
  const session = findSession(tenant, sessionId);
  const leg = await signedAction(tenant, request, {
    accountId: session.accountId, activity: 'ACTIVITY_TYPE_DELETE_SESSIONS', type: session.type, parameters: { sessionId },
    signers: sessionsOf(tenant, session.accountId),
  });
  if (!('signer' in leg)) return leg;
  endSession(tenant, sessionId);
  return undefined;
}

/** `POST /auth/sessions/{id}/refresh`: a new session of the same credential for the `clientPublicKey` of both legs. */
export async function refreshSession(
  tenant: TenantContext, sessionId: string, body: z.output<typeof AuthSessionRefreshRequest>, request: SignedRequest,
): Promise<AuthSession | SignedLegAnswer> {
  const session = findSession(tenant, sessionId);
  const leg = await signedAction(tenant, request, {
    accountId: session.accountId, activity: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION', type: session.type,
    parameters: { sessionId, clientPublicKey: body.clientPublicKey },
    signers: sessionsOf(tenant, session.accountId),
  });
  if (!('signer' in leg)) return leg;
  const credential = credentials(tenant).get(session.credentialId);
  if (!credential) throw notFound('Credential', session.credentialId);
  return openSession(tenant, credential, body.clientPublicKey);
}

export const WALLET_SECRETS = 'walletSecrets';

/**
 * A wallet's sealed secret: the 128 bits of BIP-39 entropy of its mnemonic, sealed under the engine's secret key
 * (core/secrets.ts); `id` is the wallet's account id. Snapshot-safe: nothing here opens without the key.
 */
export const WalletSecretRecord = z.object({ id: z.string(), sealed: z.string() });
export type WalletSecretRecord = z.infer<typeof WalletSecretRecord>;

const walletSecrets = (tenant: TenantContext) => tenant.store.collection<WalletSecretRecord>(WALLET_SECRETS);

/** What a wallet's entropy is sealed for: a sealed value copied onto another wallet does not open there. */
const walletContext = (accountId: string) => `wallet:${accountId}`;

/**
 * The wallet's mnemonic entropy: drawn at random (16 bytes) at its first export and kept sealed, so every later export
 * shows the same words. Entropy that is missing or does not open under this engine's key (a snapshot restored into an
 * engine with another secret key) is drawn anew and sealed under the current key: the wallet then exports new words.
 * Synchronous from the read to the write, so two exports at once keep one.
 */
function walletEntropy(tenant: TenantContext, accountId: string): Uint8Array {
  const stored = walletSecrets(tenant).get(accountId);
  const opened = stored === undefined ? undefined : tenant.secrets.open(stored.sealed, walletContext(accountId));
  if (opened !== undefined && /^[0-9a-f]{32}$/.test(opened)) return hexToBytes(opened);
  const entropy = crypto.getRandomValues(new Uint8Array(16));
  const record: WalletSecretRecord = { id: accountId, sealed: tenant.secrets.seal(bytesToHex(entropy), walletContext(accountId)) };
  if (stored === undefined) walletSecrets(tenant).insert(record);
  else walletSecrets(tenant).replace(record);
  return entropy;
}

/** The wallet's BIP-39 mnemonic (12 words): never stored in the clear, and only ever leaves sealed to a client key. */
async function mnemonicOf(tenant: TenantContext, accountId: string): Promise<string> {
  // The BIP-39 word list is loaded on the first export only.
  const [{ entropyToMnemonic }, { wordlist }] = await Promise.all([import('@scure/bip39'), import('@scure/bip39/wordlists/english')]);
  return entropyToMnemonic(walletEntropy(tenant, accountId), wordlist);
}

/** `POST /internal-accounts/{id}/export`: the mnemonic sealed to the fresh key of both legs, in a signed enclave bundle. */
export async function exportWallet(
  tenant: TenantContext, accountId: string, body: z.output<typeof WalletExportRequest>, request: SignedRequest,
): Promise<WalletExport | SignedLegAnswer> {
  const wallet = findWallet(tenant, accountId);
  const leg = await signedAction(tenant, request, {
    accountId: wallet.id, activity: 'ACTIVITY_TYPE_EXPORT_WALLET', parameters: { accountId: wallet.id, targetPublicKey: body.clientPublicKey },
    signers: sessionsOf(tenant, wallet.id),
  });
  if (!('signer' in leg)) return leg;
  const encryptedWalletCredentials = await sealExportBundle({
    clientPublicKeyHex: body.clientPublicKey, mnemonic: await mnemonicOf(tenant, wallet.id), organizationId: tenant.platform.id, signer: enclaveSigner,
  });
  return { id: wallet.id, encryptedWalletCredentials };
}

/** `PATCH /internal-accounts/{id}`: the wallet's privacy, a signed action. */
export async function updateWallet(
  tenant: TenantContext, accountId: string, body: { privateEnabled: boolean }, request: SignedRequest,
): Promise<InternalAccount | SignedLegAnswer> {
  const wallet = findWallet(tenant, accountId);
  const leg = await signedAction(tenant, request, {
    accountId: wallet.id, activity: 'ACTIVITY_TYPE_UPDATE_WALLET', parameters: { accountId: wallet.id, privateEnabled: body.privateEnabled },
    signers: sessionsOf(tenant, wallet.id),
  });
  if (!('signer' in leg)) return leg;
  return setPrivacy(tenant, wallet.id, body.privateEnabled);
}
