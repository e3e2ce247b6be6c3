import { z } from 'zod';
import { CurrencyAmount, IdParam, MinorUnits, Timestamp, cappedString } from './common.js';
import { UmaAddress } from './customers.js';
import { defineEndpoint } from './endpoint.js';
import { PageQuery, pageOf } from './pagination.js';

// UMA invitations (REFERENCE §18): a platform invites someone to get an UMA address; the invitee's new provider (which
// may be another platform) claims the invitation, and the inviting platform then pays the new address. No money moves
// with the invitation itself.

export const InvitationStatus = z.enum(['PENDING', 'CLAIMED', 'CANCELLED', 'EXPIRED']).meta({ id: 'InvitationStatus' });
export type InvitationStatus = z.infer<typeof InvitationStatus>;

export const UmaInvitation = z
  .object({
    /** Eight hex characters: the invitation's identity everywhere. */
    code: z.string(),
    createdAt: Timestamp,
    claimedAt: Timestamp.optional(),
    /** The claim page to send the invitee. */
    url: z.string(),
    expiresAt: Timestamp.optional(),
    inviterUma: z.string(),
    inviteeUma: z.string().optional(),
    status: InvitationStatus,
    firstName: z.string().optional(),
    /** What the inviter means to send, in the inviter's currency: display only. */
    amountToSend: CurrencyAmount.optional(),
  })
  .meta({ id: 'UmaInvitation' });
export type UmaInvitation = z.infer<typeof UmaInvitation>;

export const InvitationCreateRequest = z
  .object({
    inviterUma: UmaAddress,
    firstName: cappedString(255).trim().min(1).optional(),
    /** Minor units of the inviter's currency; shown to the invitee, never moved. */
    amountToSend: MinorUnits.optional(),
    /** Omit for an invitation that never expires. */
    expiresAt: Timestamp.optional(),
  })
  .meta({ id: 'InvitationCreateRequest' });
export type InvitationCreateRequest = z.input<typeof InvitationCreateRequest>;

export const InvitationClaimRequest = z.object({ inviteeUma: UmaAddress }).meta({ id: 'InvitationClaimRequest' });
export type InvitationClaimRequest = z.input<typeof InvitationClaimRequest>;

const tag = 'Invitations';
const codeParams = z.object({ invitationCode: IdParam });

export const invitationEndpoints = {
  createInvitation: defineEndpoint({
    operationId: 'createInvitation', method: 'POST', path: '/invitations', tag, body: InvitationCreateRequest,
    summary: 'Invite someone to an UMA address; send them its url',
    description: '400 INVITATIONS_NOT_CONFIGURED when the platform has no invitation branding (a sandbox platform created with invitations: false).',
    response: { status: 201, description: 'The invitation, PENDING', schema: UmaInvitation },
  }),
  getInvitation: defineEndpoint({
    operationId: 'getInvitation', method: 'GET', path: '/invitations/{invitationCode}', tag, params: codeParams,
    summary: 'Retrieve an invitation by its code (any platform may: the invitee may join another)',
    response: { status: 200, description: 'The invitation', schema: UmaInvitation }, errors: [404],
  }),
  claimInvitation: defineEndpoint({
    operationId: 'claimInvitation', method: 'POST', path: '/invitations/{invitationCode}/claim', tag, params: codeParams, body: InvitationClaimRequest,
    summary: "Claim an invitation for the invitee's new UMA address: CLAIMED, and INVITATION.CLAIMED to the inviting platform",
    description: 'Only a PENDING invitation: 400 INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED, or INVALID_INPUT once expired. Moves no money.',
    response: { status: 200, description: 'The invitation, CLAIMED', schema: UmaInvitation }, errors: [404],
  }),
  listSandboxInvitations: defineEndpoint({
    operationId: 'listSandboxInvitations', method: 'GET', path: '/_sandbox/invitations', tag: 'Sandbox control plane', controlPlane: true,
    query: PageQuery,
    summary: "The platform's invitations, newest first (Railyard's control plane: the reference reads them only by code)",
    response: { status: 200, description: 'A page of invitations', schema: pageOf(UmaInvitation) },
  }),
  cancelInvitation: defineEndpoint({
    operationId: 'cancelInvitation', method: 'POST', path: '/invitations/{invitationCode}/cancel', tag, params: codeParams,
    summary: 'Cancel a PENDING invitation (only the platform that created it: 403 otherwise)',
    response: { status: 200, description: 'The invitation, CANCELLED', schema: UmaInvitation }, errors: [403, 404],
  }),
} as const;
