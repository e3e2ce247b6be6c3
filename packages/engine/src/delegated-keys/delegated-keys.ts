/**
 * Delegated keys: a P-256 key the service makes and keeps for one embedded wallet funding one card. While ACTIVE it
 * approves the card's pulls from the wallet in place of a session key (the cardholder is not there at each purchase);
 * without it, card decisioning cannot fund anything from the wallet (see {@link walletMayFund}).
 *
 * Creation is the signed retry of the other wallet operations run twice, the body identical on every leg:
 * 1. no signature headers: the key pair is made (kept as a draft under the challenge's request id) → 202;
 * 2. the payload stamped by an active session of the wallet: the key's signer exists, the key is PENDING, and a new
 *    challenge (its policy) → 202;
 * 3. that payload stamped: the key is ACTIVE → 201.
 * A flow left after leg 2 leaves the key PENDING, which blocks nothing. At most one ACTIVE key per funding source.
 * Revoking needs no signature: a revoked key approves nothing.
 *
 * The private half is not kept at all. A real service keeps it in its enclave to sign the card's pulls; in the sandbox
 * a pull needs only the key's ACTIVE status ({@link walletMayFund}) and nothing is ever signed with it, so it is
 * dropped the moment the pair is made, and neither the state nor a snapshot can hold it.
 */
import type { Card, DelegatedKey, DelegatedKeyListQuery, InternalAccount } from '@railyard/contract';
import { DelegatedKey as DelegatedKeySchema, DelegatedKeyCreateRequest, generateP256KeyPairHex } from '@railyard/contract';
import { z } from 'zod';
import { findInternalAccount } from '../accounts/internal-accounts.js';
import { sessionsOf } from '../auth/sessions.js';
import { signedAction, type SignedLegAnswer, type SignedRequest } from '../auth/signed-retry.js';
import { findCard } from '../cards/cards.js';
import { checkFundingSource, existingFundingSource, fundingSourceOf, type CardFundingSourceRecord } from '../cards/funding-sources.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, invalidField, invalidInput, notFound } from '../core/errors.js';
import { onField } from '../core/store.js';

export const DELEGATED_KEYS = 'delegatedKeys';
export const DELEGATED_KEY_DRAFTS = 'delegatedKeyDrafts';

/**
 * A stored key (snapshot-safe): the resource and the request id of its policy leg. The `privateKeyHex` of a snapshot
 * taken before private keys were dropped is accepted and left out, as any field the schema does not name.
 */
export const DelegatedKeyRecord = DelegatedKeySchema.extend({
  policyRequestId: z.string().optional(),
});
export type DelegatedKeyRecord = z.infer<typeof DelegatedKeyRecord>;

/**
 * The public key made by a first leg, waiting for the signed second leg; its id is the challenge's request id. An older
 * snapshot's `privateKeyHex` is accepted and left out.
 */
export const DelegatedKeyDraftRecord = z.object({
  id: z.string(),
  cardId: z.string(),
  fundingSourceId: z.string(),
  accountId: z.string(),
  nickname: z.string(),
  publicKey: z.string(),
  expiresAt: z.string(),
});
export type DelegatedKeyDraftRecord = z.infer<typeof DelegatedKeyDraftRecord>;

const keys = (tenant: TenantContext) => tenant.store.collection<DelegatedKeyRecord>(DELEGATED_KEYS, {
  indexes: { accountId: onField('accountId'), fundingSourceId: onField('fundingSourceId'), policyRequestId: onField('policyRequestId') },
});
const drafts = (tenant: TenantContext) => tenant.store.collection<DelegatedKeyDraftRecord>(DELEGATED_KEY_DRAFTS, { indexes: { accountId: onField('accountId') } });

/** The key as the API shows it: never its private half. */
export const delegatedKeyView = (record: DelegatedKeyRecord): DelegatedKey => ({
  id: record.id, cardId: record.cardId, fundingSourceId: record.fundingSourceId, accountId: record.accountId, publicKey: record.publicKey,
  nickname: record.nickname, status: record.status, createdAt: record.createdAt, updatedAt: record.updatedAt,
});

/**
 * What a create names: the card, the embedded wallet and their binding as recorded so far (404 for each that is not
 * there). Nothing is recorded here.
 */
function targetOf(
  tenant: TenantContext, body: z.output<typeof DelegatedKeyCreateRequest>,
): { card: Card; wallet: InternalAccount; fundingSource: CardFundingSourceRecord | undefined } {
  const card = findCard(tenant, body.cardId);
  let wallet: InternalAccount | undefined;
  try {
    wallet = findInternalAccount(tenant, body.internalAccountId);
  } catch {
    wallet = undefined;
  }
  if (wallet?.type !== 'EMBEDDED_WALLET') throw notFound('Embedded wallet', body.internalAccountId);
  return { card, wallet, fundingSource: checkFundingSource(tenant, card, wallet.id) };
}

const activeKeyOf = (tenant: TenantContext, fundingSourceId: string): DelegatedKeyRecord | undefined =>
  keys(tenant).findBy('fundingSourceId', fundingSourceId).find((key) => key.status === 'ACTIVE');

/** 409 while the funding source has an ACTIVE key. */
function assertNoActiveKey(tenant: TenantContext, fundingSourceId: string): void {
  const active = activeKeyOf(tenant, fundingSourceId);
  if (active) throw conflict(`Funding source ${fundingSourceId} already has the ACTIVE delegated key ${active.id}: revoke it first`, 'CONFLICT', { delegatedKeyId: active.id });
}

/** `POST /auth/delegated-keys`: one of the three legs, told apart by the `Request-Id` it carries. */
export async function createDelegatedKey(
  tenant: TenantContext, body: z.output<typeof DelegatedKeyCreateRequest>, request: SignedRequest,
): Promise<DelegatedKey | SignedLegAnswer> {
  const { card, wallet, fundingSource } = targetOf(tenant, body);
  if (fundingSource) assertNoActiveKey(tenant, fundingSource.id);
  const action = {
    accountId: wallet.id, activity: 'ACTIVITY_TYPE_CREATE_API_KEYS', signers: sessionsOf(tenant, wallet.id),
  };
  // The binding gets its id when the first leg is answered (a refused request records nothing).
  if (request.stamp === null && request.requestId === null) return keyPairLeg(tenant, body, wallet.id, fundingSourceOf(tenant, card, wallet.id).id, request);
  const draft = request.requestId === null ? undefined : drafts(tenant).get(request.requestId);
  if (draft) {
    const leg = await signedAction(tenant, request, { ...action, parameters: {} });
    if (!('signer' in leg)) return leg;
    return signerLeg(tenant, draft, request);
  }
  const pending = request.requestId === null ? undefined : keys(tenant).findBy('policyRequestId', request.requestId).find((key) => key.status === 'PENDING');
  if (pending) {
    const leg = await signedAction(tenant, request, { ...action, activity: 'ACTIVITY_TYPE_CREATE_POLICY', parameters: {} });
    if (!('signer' in leg)) return leg;
    // Checked again: another flow for the funding source may have finished while this one was being signed.
    assertNoActiveKey(tenant, pending.fundingSourceId);
    const current = keys(tenant).get(pending.id)!;
    return delegatedKeyView(keys(tenant).replace({ ...current, status: 'ACTIVE', updatedAt: tenant.nowIso() }));
  }
  // Not a challenge of this flow: the signed retry refuses it with the code that says why; nobody may sign it anyway.
  await signedAction(tenant, request, { ...action, parameters: {}, signers: () => undefined });
  throw new ApiError(401, 'UNAUTHORIZED', `Request-Id ${request.requestId} is not a challenge of a delegated-key creation`, { reason: 'unknown request id' });
}

/** Leg 1: the key pair is made and its public half kept as a draft under the challenge it answers (the private half is dropped). */
async function keyPairLeg(
  tenant: TenantContext, body: z.output<typeof DelegatedKeyCreateRequest>, accountId: string, fundingSourceId: string, request: SignedRequest,
): Promise<SignedLegAnswer> {
  const pair = await generateP256KeyPairHex();
  const leg = await signedAction(tenant, request, {
    accountId, activity: 'ACTIVITY_TYPE_CREATE_API_KEYS', signers: sessionsOf(tenant, accountId),
    parameters: { cardId: body.cardId, fundingSourceId, nickname: body.nickname, publicKey: pair.publicKeyCompressedHex },
  });
  if (!('challenge' in leg)) throw new Error('A first leg answers a challenge');
  // Drafts of the wallet whose challenge expired can never be signed: they go.
  const now = tenant.clock.now();
  for (const old of drafts(tenant).findBy('accountId', accountId)) if (Date.parse(old.expiresAt) <= now) drafts(tenant).delete(old.id);
  drafts(tenant).insert({
    id: leg.challenge.requestId, cardId: body.cardId, fundingSourceId, accountId, nickname: body.nickname,
    publicKey: pair.publicKeyCompressedHex, expiresAt: leg.challenge.expiresAt,
  });
  return leg;
}

/** Leg 2, signed: the key exists, PENDING, and its policy is the new challenge. */
async function signerLeg(tenant: TenantContext, draft: DelegatedKeyDraftRecord, request: SignedRequest): Promise<SignedLegAnswer> {
  drafts(tenant).delete(draft.id);
  const id = tenant.ids('DelegatedKey');
  const policy = await signedAction(tenant, { stamp: null, requestId: null, signable: request.signable }, {
    accountId: draft.accountId, activity: 'ACTIVITY_TYPE_CREATE_POLICY', signers: sessionsOf(tenant, draft.accountId),
    parameters: { delegatedKeyId: id, publicKey: draft.publicKey, cardId: draft.cardId, fundingSourceId: draft.fundingSourceId, effect: 'EFFECT_ALLOW' },
  });
  if (!('challenge' in policy)) throw new Error('A first leg answers a challenge');
  const now = tenant.nowIso();
  keys(tenant).insert({
    id, cardId: draft.cardId, fundingSourceId: draft.fundingSourceId, accountId: draft.accountId, publicKey: draft.publicKey,
    nickname: draft.nickname, status: 'PENDING', createdAt: now, updatedAt: now,
    policyRequestId: policy.challenge.requestId,
  });
  return policy;
}

/** A key by id, or 404. */
function findKey(tenant: TenantContext, delegatedKeyId: string): DelegatedKeyRecord {
  const key = keys(tenant).get(delegatedKeyId);
  if (!key) throw notFound('Delegated key', delegatedKeyId);
  return key;
}

/** `GET /auth/delegated-keys/{id}`. */
export const getDelegatedKey = (tenant: TenantContext, delegatedKeyId: string): DelegatedKey => delegatedKeyView(findKey(tenant, delegatedKeyId));

/** `GET /auth/delegated-keys`: by wallet and/or funding source, every status, oldest first, not paged. */
export function listDelegatedKeys(tenant: TenantContext, query: DelegatedKeyListQuery): { data: DelegatedKey[] } {
  const { accountId, fundingSourceId } = query;
  if (accountId === undefined && fundingSourceId === undefined) {
    const message = 'name the wallet (accountId), the funding source (fundingSourceId), or both';
    throw invalidInput([{ field: 'accountId', message }, { field: 'fundingSourceId', message }]);
  }
  const found = fundingSourceId === undefined ? keys(tenant).findBy('accountId', accountId!) : keys(tenant).findBy('fundingSourceId', fundingSourceId);
  return { data: found.filter((key) => accountId === undefined || key.accountId === accountId).map(delegatedKeyView) };
}

/** `DELETE /auth/delegated-keys/{id}`: an ACTIVE key becomes REVOKED; any other is 400. */
export function revokeDelegatedKey(tenant: TenantContext, delegatedKeyId: string): undefined {
  const key = findKey(tenant, delegatedKeyId);
  if (key.status !== 'ACTIVE') throw invalidField('delegatedKeyId', `${delegatedKeyId} is ${key.status}: only an ACTIVE key can be revoked`);
  keys(tenant).replace({ ...key, status: 'REVOKED', updatedAt: tenant.nowIso() });
  return undefined;
}

/**
 * Whether card decisioning may pull from `account` for `cardId`: any account but an embedded wallet, and an embedded
 * wallet only while an ACTIVE delegated key approves it for this card.
 */
export function walletMayFund(tenant: TenantContext, cardId: string, account: Pick<InternalAccount, 'id' | 'type'>): boolean {
  if (account.type !== 'EMBEDDED_WALLET') return true;
  const binding = existingFundingSource(tenant, cardId, account.id);
  return binding !== undefined && activeKeyOf(tenant, binding.id) !== undefined;
}
