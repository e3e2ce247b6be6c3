import type { InvitationCreateRequest, UmaInvitation } from '@railyard/contract/routes';
import { invitationEndpoints } from '@railyard/contract/routes';
import type { APIPromise } from '../core/api-promise.js';
import type { BodyParams, ResultOf } from '../core/endpoint.js';
import type { RequestOptions } from '../core/types.js';
import { APIResource } from './resource.js';

/** An UMA invitation: PENDING, then CLAIMED, CANCELLED or EXPIRED. */
export type { UmaInvitation };
/** Body of {@link Invitations.create}: `inviterUma`, and optional `firstName`, `amountToSend` (display only), `expiresAt`. */
export type InvitationCreateParams = InvitationCreateRequest;

/**
 * UMA invitations: invite someone to get an UMA address (send them the invitation's `url`); their new provider, which
 * may be another platform, claims it, and you hear of it with `INVITATION.CLAIMED`. Claiming moves no money: pay the
 * invitee's new address yourself afterwards.
 */
export class Invitations extends APIResource {
  /** Creates an invitation; a {@link BadRequestError} `INVITATIONS_NOT_CONFIGURED` where the platform has none. */
  create(body: InvitationCreateParams, options?: RequestOptions): APIPromise<UmaInvitation> {
    return this._client.call(invitationEndpoints.createInvitation, { body }, options);
  }

  /** An invitation by its code (any platform may read it); a {@link NotFoundError} `INVITATION_NOT_FOUND` otherwise. */
  retrieve(invitationCode: string, options?: RequestOptions): APIPromise<UmaInvitation> {
    return this._client.call(invitationEndpoints.getInvitation, { params: { invitationCode } }, options);
  }

  /**
   * Claims an invitation for the invitee's new UMA address (as their provider). Only a PENDING one: a
   * {@link BadRequestError} `INVITATION_ALREADY_CLAIMED`, `INVITATION_CANCELLED`, or `INVALID_INPUT` once expired.
   */
  claim(invitationCode: string, inviteeUma: string, options?: RequestOptions): APIPromise<UmaInvitation> {
    return this._client.call(invitationEndpoints.claimInvitation, { params: { invitationCode }, body: { inviteeUma } }, options);
  }

  /** Cancels a PENDING invitation of yours; another platform's is a {@link PermissionDeniedError} (403). */
  cancel(invitationCode: string, options?: RequestOptions): APIPromise<UmaInvitation> {
    return this._client.call(invitationEndpoints.cancelInvitation, { params: { invitationCode } }, options);
  }
}
