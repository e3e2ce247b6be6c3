/**
 * @railyard/engine: the sandbox. `createEngine()` gives the whole API as a `fetch` handler; `@railyard/engine/msw`
 * serves it to msw (in Node or, through `setupWorker`, in a browser), and `@railyard/engine/server` and the
 * `railyard serve` bin over HTTP. This entry and `./msw` import no Node built-ins, so they bundle for the browser.
 * @packageDocumentation
 */
export { createEngine, type Engine, type EngineOptions, type SandboxControls } from './engine.js';
export { VirtualClock, RealClock, type Clock } from './core/clock.js';
export { createMemoryStore, type Store, type TenantStore, type Collection, type Entry } from './core/store.js';
export { Scheduler, type Job, type JobHandler } from './core/scheduler.js';
export type { FetchFunction, Incoming } from './http/app.js';
export { randomIds, sequentialIds, type IdGenerator } from './core/ids.js';
export { ApiError } from './core/errors.js';
export type { ThrottleLimits } from './core/throttle.js';
export { DEFAULT_CREDENTIALS, type Platform } from './platforms/registry.js';
export type { WebhookFetch } from './webhooks/delivery.js';
export { formatWebhookLogLine, type WebhookLogEntry } from './webhooks/log.js';
export { SANDBOX_ENCLAVE_PUBLIC_KEY_HEX } from './auth/enclave.js';
export { verifyStampSignature } from './auth/stamp-verify.js';
export type { OutboxEventOf, WebhookControls } from './engine.js';
