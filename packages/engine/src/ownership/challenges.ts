/**
 * Ownership challenges (SPEC §2.2, §3.1, §4.1; REFERENCE §2.3): the rules, independent of storage and routing.
 *
 * The routes (once external accounts exist) keep an {@link OwnershipChallengeRecord} per challenge in a store collection,
 * call {@link challengeRefusal} before starting one, {@link startChallenge} to build it, and {@link evaluateVerify} on
 * `POST .../verify`; every verify attempt consumes the challenge. LIVENESS completes through a clock job
 * ({@link LIVENESS_JOB}, {@link LIVENESS_DELAY_MS} later) that sets the account ACTIVE.
 */
import { z } from 'zod';
import { tokenHash } from '../core/secrets.js';
import { signatureFamily, type SignatureFamily } from './families.js';
import type { verifyWalletSignature } from './signatures.js';

/** A WALLET_SIGNATURE or LIVENESS challenge expires 10 minutes after it starts (engine clock). */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;
/** A LIVENESS check resolves this long after it starts. */
export const LIVENESS_DELAY_MS = 30 * 1000;
/** Clock-job kind that resolves a LIVENESS challenge. */
export const LIVENESS_JOB = 'ownership.liveness';

/**
 * Stored challenge (a store collection; snapshot-safe). A WALLET_SIGNATURE challenge keeps its nonce and the message
 * to sign (only the wallet's signature over them verifies). A LIVENESS challenge's token is a bearer credential of its
 * verification link: the record keeps its SHA-256 (hex), never the token or the link, which are in the answer only.
 * A LIVENESS record of an older snapshot (its `nonce` the token, with its `verificationLink`) is restored that way.
 */
export const OwnershipChallengeRecord = z.preprocess(withoutLivenessToken, z.object({
  id: z.string(),
  platformId: z.string(),
  externalAccountId: z.string(),
  method: z.enum(['WALLET_SIGNATURE', 'LIVENESS']),
  /** WALLET_SIGNATURE: the nonce in the message. */
  nonce: z.string().optional(),
  messageToSign: z.string().optional(),
  /** LIVENESS: the SHA-256 of the link's token. */
  tokenHash: z.string().optional(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** OUTSTANDING until a verify attempt (or the liveness job) consumes it. */
  state: z.enum(['OUTSTANDING', 'CONSUMED']),
}));
export type OwnershipChallengeRecord = z.infer<typeof OwnershipChallengeRecord>;

/** An older snapshot's LIVENESS record: its token (`nonce`) hashed, its `verificationLink` left out. */
function withoutLivenessToken(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || (input as { method?: unknown }).method !== 'LIVENESS') return input;
  const { nonce, verificationLink: _link, ...rest } = input as Record<string, unknown>;
  if (typeof nonce !== 'string') return 'verificationLink' in input ? rest : input;
  return { ...rest, tokenHash: typeof rest.tokenHash === 'string' ? rest.tokenHash : tokenHash(nonce) };
}

/** What the rules need to know of an external account. */
export interface OwnedAccount {
  id: string;
  status: string;
  ownershipType?: string | undefined;
  accountInfo: { accountType: string; address?: string | undefined };
}

const EVM_WALLETS = new Set(['BASE_WALLET', 'ETHEREUM_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET']);
/** Self-custody wallets: on-chain addresses the customer holds the keys of. */
const SELF_CUSTODY_WALLETS = new Set([...EVM_WALLETS, 'SOLANA_WALLET', 'SPARK_WALLET', 'TRON_WALLET', 'BITCOIN_L1']);
const CHALLENGEABLE_STATUSES = new Set(['PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED']);

/** The signature family of a wallet account: EVM types, Solana, or a Bitcoin-style address; undefined if unsupported. */
export const walletSignatureFamily = (account: OwnedAccount): SignatureFamily | undefined => {
  const type = account.accountInfo.accountType;
  if (EVM_WALLETS.has(type)) return 'EVM';
  if (type === 'SOLANA_WALLET') return 'SOLANA';
  return signatureFamily(type) === 'BITCOIN' ? 'BITCOIN' : undefined;
};

/**
 * Why a challenge cannot start (→ 409), or undefined when it can: only a FIRST_PARTY self-custody wallet in
 * PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED; WALLET_SIGNATURE also needs a chain whose signatures we verify.
 */
export const challengeRefusal = (account: OwnedAccount, method: 'WALLET_SIGNATURE' | 'LIVENESS'): string | undefined => {
  if (account.ownershipType !== 'FIRST_PARTY') return 'Ownership challenges are only for FIRST_PARTY accounts';
  if (!SELF_CUSTODY_WALLETS.has(account.accountInfo.accountType) || !account.accountInfo.address) {
    return 'Ownership challenges are only for self-custody wallets';
  }
  if (!CHALLENGEABLE_STATUSES.has(account.status)) {
    return `The account is ${account.status}; a challenge needs PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED`;
  }
  if (method === 'WALLET_SIGNATURE' && !walletSignatureFamily(account)) {
    return `WALLET_SIGNATURE is not available for ${account.accountInfo.accountType}; use LIVENESS`;
  }
  return undefined;
};

/** The exact text a wallet signs: names the account, the address, a one-time nonce and the expiry. */
export const buildMessageToSign = (input: { accountId: string; address: string; nonce: string; expiresAt: string }): string =>
  [
    'Railyard wallet ownership verification',
    `Account: ${input.accountId}`,
    `Address: ${input.address}`,
    `Nonce: ${input.nonce}`,
    `Expires: ${input.expiresAt}`,
  ].join('\n');

/** The public 201 body of a challenge (OwnershipChallenge). */
export type ChallengeResponse =
  | { method: 'WALLET_SIGNATURE'; messageToSign: string; expiresAt: string }
  | { method: 'LIVENESS'; verificationLink: string; token: string; expiresAt: string };

/**
 * Builds a challenge for an eligible account: the record to keep, and the 201 body (which alone carries a LIVENESS
 * token and its link). `nonce` is random (hex): the WALLET_SIGNATURE nonce, or the LIVENESS token; `now` the engine
 * clock.
 */
export const startChallenge = (input: {
  id: string;
  platformId: string;
  account: OwnedAccount;
  method: 'WALLET_SIGNATURE' | 'LIVENESS';
  nonce: string;
  now: Date;
  /** Base URL of the hosted liveness page, e.g. `http://127.0.0.1:4100/hosted/liveness`. */
  livenessBaseUrl: string;
}): { record: OwnershipChallengeRecord; response: ChallengeResponse } => {
  const expiresAt = new Date(input.now.getTime() + CHALLENGE_TTL_MS).toISOString();
  const base = {
    id: input.id,
    platformId: input.platformId,
    externalAccountId: input.account.id,
    method: input.method,
    createdAt: input.now.toISOString(),
    expiresAt,
    state: 'OUTSTANDING' as const,
  };
  if (input.method === 'LIVENESS') {
    const verificationLink = `${input.livenessBaseUrl.replace(/\/$/, '')}/${encodeURIComponent(input.id)}?token=${input.nonce}`;
    return {
      record: { ...base, tokenHash: tokenHash(input.nonce) },
      response: { method: 'LIVENESS', verificationLink, token: input.nonce, expiresAt },
    };
  }
  const messageToSign = buildMessageToSign({ accountId: input.account.id, address: input.account.accountInfo.address!, nonce: input.nonce, expiresAt });
  return { record: { ...base, nonce: input.nonce, messageToSign }, response: { method: 'WALLET_SIGNATURE', messageToSign, expiresAt } };
};

/** Outcome of `POST .../verify`: ACTIVE → 200; INVALID/EXPIRED → 400 and UNVERIFIED; NO_CHALLENGE → 409. */
export type VerifyOutcome = 'ACTIVE' | 'INVALID' | 'EXPIRED' | 'NO_CHALLENGE';

/** The latest outstanding WALLET_SIGNATURE challenge of an account, if any. */
export const outstandingWalletChallenge = (
  challenges: readonly OwnershipChallengeRecord[],
  accountId: string,
): OwnershipChallengeRecord | undefined =>
  challenges
    .filter((c) => c.externalAccountId === accountId && c.method === 'WALLET_SIGNATURE' && c.state === 'OUTSTANDING')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];

/**
 * Decides a verify attempt. The caller consumes the challenge whenever the outcome is not NO_CHALLENGE, and moves the
 * account to ACTIVE or UNVERIFIED (emitting EXTERNAL_ACCOUNT.STATUS_UPDATED on a change).
 */
export const evaluateVerify = (input: {
  account: OwnedAccount;
  challenge: OwnershipChallengeRecord | undefined;
  signature: string;
  signatureScheme?: string | undefined;
  now: Date;
  /** The signature check (signatures.ts, loaded on first use). */
  verify: typeof verifyWalletSignature;
}): VerifyOutcome => {
  const { challenge, account } = input;
  if (!challenge || challenge.state !== 'OUTSTANDING' || challenge.method !== 'WALLET_SIGNATURE' || challenge.externalAccountId !== account.id) {
    return 'NO_CHALLENGE';
  }
  if (input.now.getTime() >= Date.parse(challenge.expiresAt)) return 'EXPIRED';
  const family = walletSignatureFamily(account);
  const address = account.accountInfo.address;
  if (!family || !address || !challenge.messageToSign) return 'INVALID';
  const ok = input.verify({ family, address, message: challenge.messageToSign, signature: input.signature, signatureScheme: input.signatureScheme });
  return ok ? 'ACTIVE' : 'INVALID';
};
