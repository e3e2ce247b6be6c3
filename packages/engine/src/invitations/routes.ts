import { invitationEndpoints as e } from '@railyard/contract';
import { bind, type Binding } from '../http/app.js';
import { cancelInvitation, claimInvitation, createInvitation, expiryJob, findInvitation, listInvitations, INVITATION_EXPIRY_JOB, type TenantDirectory } from './invitations.js';

/** HTTP bindings of invitations (REFERENCE §18); codes are looked up across every platform of `directory`. */
export const invitationRoutes = (directory: TenantDirectory): Binding[] => [
  bind(e.createInvitation, ({ tenant, body }) => createInvitation(tenant, directory, body)),
  bind(e.getInvitation, ({ params }) => findInvitation(directory, params.invitationCode)),
  bind(e.claimInvitation, ({ params, body }) => claimInvitation(directory, params.invitationCode, body)),
  bind(e.listSandboxInvitations, ({ tenant, query }) => listInvitations(tenant, query)),
  bind(e.cancelInvitation, ({ tenant, params }) => cancelInvitation(tenant, directory, params.invitationCode)),
];

/** Timed jobs of invitations, by kind. */
export const invitationJobs = { [INVITATION_EXPIRY_JOB]: expiryJob };
