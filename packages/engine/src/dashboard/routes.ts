import { ApiTokenPermission, dashboardEndpoints } from '@railyard/contract';
import { bind } from '../http/app.js';

/** HTTP binding of `GET /_sandbox/whoami`: who the request's credentials are (what the dashboard signs in with). */
export const dashboardRoutes = [
  bind(dashboardEndpoints.getSandboxWhoami, ({ tenant, tokenId, permissions }) => ({
    platformId: tenant.platform.id,
    credential: tokenId === undefined ? 'platform' as const : 'token' as const,
    id: tokenId ?? tenant.platform.clientId,
    permissions: [...(permissions ?? ApiTokenPermission.options)],
  })),
];
