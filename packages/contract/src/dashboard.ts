import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { ApiTokenPermission } from './tokens.js';

/**
 * The sandbox's dashboard (`railyard serve` serves it at {@link DASHBOARD_PATH}) and what it, or any tool, asks of the
 * control plane to know who a credential is: `GET /_sandbox/whoami`.
 */

/** Where `railyard serve` serves the dashboard. */
export const DASHBOARD_PATH = '/_sandbox/dashboard';

/** Who a credential is: the platform's own credentials (every permission), or one of its API tokens (its permissions). */
export const SandboxWhoami = z
  .object({
    platformId: z.string(),
    /** `platform`: the platform's client id and secret; `token`: an API token's id and secret. */
    credential: z.enum(['platform', 'token']),
    /** The client id, or the token's id: the name the credential goes by (never its secret). */
    id: z.string(),
    /** What the credential may do; the platform's own credentials hold all three. */
    permissions: z.array(ApiTokenPermission),
  })
  .meta({ id: 'SandboxWhoami' });
export type SandboxWhoami = z.infer<typeof SandboxWhoami>;

export const dashboardEndpoints = {
  getSandboxWhoami: defineEndpoint({
    operationId: 'getSandboxWhoami', method: 'GET', path: '/_sandbox/whoami', tag: 'Sandbox control plane', controlPlane: true,
    summary: 'Who the credentials are: the platform, or which API token with which permissions',
    description:
      'Any valid credential may ask, whatever its permissions: the dashboard signs in with it, and a tool can show what ' +
      'it may do before it tries. Nothing secret is answered.',
    response: { status: 200, description: 'The credential', schema: SandboxWhoami },
  }),
} as const;
