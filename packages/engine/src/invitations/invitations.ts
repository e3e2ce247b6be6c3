/**
 * UMA invitations (REFERENCE §18). An invitation lives with the platform that created it, under its code; the
 * invitee's new provider, which may be another platform, reads and claims it by code, so a code is found through the
 * engine's credential directory ({@link TenantDirectory}), whatever the number of platforms. Claiming moves no money; it tells the inviting platform
 * (INVITATION.CLAIMED), which then pays the new address itself.
 *
 * PENDING → CLAIMED (claim), CANCELLED (cancel, by the creator only) or EXPIRED (at `expiresAt`, on the clock or when
 * read after it).
 */
import { UmaInvitation, type InvitationClaimRequest, type InvitationCreateRequest } from '@railyard/contract';
import { z } from 'zod';
import { currencyOf } from '../config/currencies.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, invalidField, notFound } from '../core/errors.js';
import { randomHex } from '../core/ids.js';
import { findCustomerByUmaAddress } from '../customers/customers.js';
import { listPage } from '../core/pagination.js';
import type { Page } from '@railyard/contract';

export const INVITATIONS = 'invitations';
/** Clock-job kind: an invitation reaches its `expiresAt`. */
export const INVITATION_EXPIRY_JOB = 'invitations.expire';

/** Where an invitation code is looked up: the context of the platform the credential directory says owns it. */
export interface TenantDirectory {
  ownerOf(code: string): TenantContext | undefined;
}

/** An invitation as kept: the API's fields, keyed by its code. */
export const InvitationRecord = UmaInvitation.extend({
  id: z.string(),
  /** The client id of the platform that created it: a restore makes its code found again only there (core/directory.ts). */
  issuer: z.string().optional(),
});
type InvitationRecord = z.infer<typeof InvitationRecord>;
const invitations = (tenant: TenantContext) => tenant.store.collection<InvitationRecord>(INVITATIONS);
const view = ({ id: _code, issuer: _issuer, ...invitation }: InvitationRecord): UmaInvitation => invitation;

/** `POST /invitations`: PENDING, with a fresh code no platform of the engine uses. */
export function createInvitation(tenant: TenantContext, directory: TenantDirectory, request: z.output<typeof InvitationCreateRequest>): UmaInvitation {
  if (!tenant.platform.invitations) {
    throw new ApiError(400, 'INVITATIONS_NOT_CONFIGURED', 'Invitations are not configured for this platform (no invitation branding is set)');
  }
  let code: string;
  do code = randomHex(4);
  while (tenant.directory.owner('invitation', code) !== undefined);
  // The amount is shown in the inviter's currency: the first of the customer at that address, else USD.
  const inviter = findCustomerByUmaAddress(tenant, request.inviterUma.toLowerCase());
  const currency = (inviter as { currencies?: string[] } | undefined)?.currencies?.[0] ?? 'USD';
  const record: InvitationRecord = {
    id: code, code, createdAt: tenant.nowIso(), claimedAt: undefined, url: `https://uma.me/i/${code}`, expiresAt: request.expiresAt,
    inviterUma: request.inviterUma, inviteeUma: undefined, status: 'PENDING', firstName: request.firstName,
    amountToSend: request.amountToSend === undefined ? undefined : { amount: request.amountToSend, currency: currencyOf(currency) },
    issuer: tenant.platform.clientId,
  };
  invitations(tenant).insert(record);
  tenant.directory.register('invitation', code, tenant.platform.id);
  if (request.expiresAt !== undefined) {
    tenant.schedule(Math.max(0, Date.parse(request.expiresAt) - tenant.clock.now()), INVITATION_EXPIRY_JOB, { code }, `invitation-expiry/${code}`);
  }
  return view(expiredIfDue(tenant, record));
}

/** The platform holding an invitation, and its record, or undefined. */
function locate(directory: TenantDirectory, code: string): { owner: TenantContext; record: InvitationRecord } | undefined {
  const owner = directory.ownerOf(code);
  const record = owner === undefined ? undefined : invitations(owner).get(code);
  return record === undefined ? undefined : { owner: owner!, record: expiredIfDue(owner!, record) };
}

function found(directory: TenantDirectory, code: string): { owner: TenantContext; record: InvitationRecord } {
  const hit = locate(directory, code);
  if (!hit) throw notFound('Invitation', code, 'INVITATION_NOT_FOUND');
  return hit;
}

/** A PENDING invitation past its `expiresAt` is EXPIRED, whenever it is read. */
function expiredIfDue(owner: TenantContext, record: InvitationRecord): InvitationRecord {
  if (record.status !== 'PENDING' || record.expiresAt === undefined || owner.clock.now() < Date.parse(record.expiresAt)) return record;
  return save(owner, { ...record, status: 'EXPIRED' });
}

function save(owner: TenantContext, record: InvitationRecord): InvitationRecord {
  invitations(owner).replace(record);
  return record;
}

/** `GET /_sandbox/invitations`: the platform's own invitations, newest first (each EXPIRED once past its `expiresAt`). */
export function listInvitations(tenant: TenantContext, query: { limit: number; cursor?: string | undefined }): Page<UmaInvitation> {
  return listPage(invitations(tenant), query, {}, (record) => view(expiredIfDue(tenant, record)));
}

/** `GET /invitations/{code}`: any platform may read it. */
export const findInvitation = (directory: TenantDirectory, code: string): UmaInvitation => view(found(directory, code).record);

/** 400 for an invitation that is not PENDING: its code says why. */
function requirePending(record: InvitationRecord): void {
  if (record.status === 'CLAIMED') throw new ApiError(400, 'INVITATION_ALREADY_CLAIMED', `Invitation ${record.code} was claimed by ${record.inviteeUma}`);
  if (record.status === 'CANCELLED') throw new ApiError(400, 'INVITATION_CANCELLED', `Invitation ${record.code} was cancelled`);
  if (record.status === 'EXPIRED') throw invalidField('invitationCode', `invitation ${record.code} expired at ${record.expiresAt}`);
}

/** `POST /invitations/{code}/claim`, by any platform: CLAIMED, and the inviting platform hears of it. */
export function claimInvitation(directory: TenantDirectory, code: string, request: z.output<typeof InvitationClaimRequest>): UmaInvitation {
  const { owner, record } = found(directory, code);
  requirePending(record);
  const claimed = save(owner, { ...record, status: 'CLAIMED', inviteeUma: request.inviteeUma, claimedAt: owner.nowIso() });
  owner.cancelJob(`invitation-expiry/${code}`);
  owner.emit('INVITATION.CLAIMED', view(claimed));
  return view(claimed);
}

/** `POST /invitations/{code}/cancel`: only by the platform that created it (403 FORBIDDEN for another). */
export function cancelInvitation(tenant: TenantContext, directory: TenantDirectory, code: string): UmaInvitation {
  const { owner, record } = found(directory, code);
  if (owner.platform.id !== tenant.platform.id) throw new ApiError(403, 'FORBIDDEN', `Invitation ${code} was created by another platform; only it may cancel it`);
  requirePending(record);
  owner.cancelJob(`invitation-expiry/${code}`);
  return view(save(owner, { ...record, status: 'CANCELLED' }));
}

/** The directory keys of the invitations the platform created itself (claimed after a restore). */
export const invitationCredentialKeys = (tenant: TenantContext) =>
  Array.from(invitations(tenant).values()).filter((record) => record.issuer === tenant.platform.clientId).map((record) => ['invitation', record.code] as const);

/** The expiry job. */
export const expiryJob = (tenant: TenantContext, payload: unknown): void => {
  const record = invitations(tenant).get((payload as { code: string }).code);
  if (record !== undefined) expiredIfDue(tenant, record);
};
