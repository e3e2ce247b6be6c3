import { API_VERSION, BASE_PATH, controlPlaneEndpoints as e } from '@railyard/contract';
import { bind, bindUnscoped, HttpResult } from '../http/app.js';
import { ENGINE_VERSION } from '../version.js';
import { jsonInSlices } from '../http/json.js';
import type { PlatformRegistry } from '../platforms/registry.js';
import * as control from './control.js';
import { setSandboxLimits, setWalletProcessing } from '../platforms/config.js';

/** HTTP bindings of the control plane. */
export const controlPlaneRoutes = (platforms: PlatformRegistry, openapi: () => Record<string, unknown>) => [
  bindUnscoped(e.getSandboxHealth, healthOf(performance.now())),
  bind(e.getSandboxClock, ({ tenant }) => control.clockState(tenant)),
  bind(e.advanceSandboxClock, ({ tenant, body }) => control.advanceClock(tenant, body.ms)),
  bind(e.resetSandbox, ({ tenant }) => control.reset(tenant)),
  // Taken at once (records never change in place), written in slices: a large state does not hold other requests.
  bind(e.getSandboxSnapshot, async ({ tenant }) => new HttpResult(200, await jsonInSlices(control.snapshot(tenant)))),
  bind(e.restoreSandbox, ({ tenant, body, permissions }) => control.restore(tenant, body, permissions), ({ body }) => control.droppedCollectionErrors(body)),
  bind(e.listSandboxEvents, ({ tenant, query }) => control.listEvents(tenant, query)),
  bind(e.listSandboxJobs, ({ tenant, query }) => control.listJobs(tenant, query)),
  bind(e.createSandboxPlatform, ({ body }) => publicPlatform(platforms.create(body))),
  bind(e.setSandboxLimits, ({ tenant, body }) => setSandboxLimits(tenant, body)),
  bind(e.setSandboxWalletProcessing, ({ tenant, body }) => setWalletProcessing(tenant, body.retries)),
  // The document names the origin it was asked at (a browser page's msw origin, a shared host), not the default
  // standalone address.
  bind(e.getOpenApiDocument, ({ request }) => ({ ...openapi(), servers: [{ url: `${new URL(request.url).origin}${BASE_PATH}` }] })),
];

/** The health check's answer for an engine started at `startedAt` (`performance.now()`: real time, whatever the clock). */
const healthOf = (startedAt: number) => () => ({
  status: 'ok' as const, version: ENGINE_VERSION, apiVersion: API_VERSION, uptimeSeconds: Math.floor((performance.now() - startedAt) / 1000),
});

/** What the control plane tells about a platform. */
export const publicPlatform = (p: { id: string; name: string; clientId: string; clientSecret: string; regulated: boolean; skipPaperwork: boolean; strict: boolean; cards: boolean; invitations: boolean }) => ({
  id: p.id, name: p.name, clientId: p.clientId, clientSecret: p.clientSecret, regulated: p.regulated, skipPaperwork: p.skipPaperwork, strict: p.strict, cards: p.cards,
  invitations: p.invitations,
});
