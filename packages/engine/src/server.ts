/**
 * @railyard/engine/server: the standalone HTTP server and its Node-only pieces. Kept apart from the main entry so
 * that `@railyard/engine` and `@railyard/engine/msw` bundle for the browser with no Node built-ins.
 * @packageDocumentation
 */
export { startServer, formatRequestLogLine, type ServerOptions, type RunningServer, type RequestLogEntry } from './server/server.js';
export { publicOnlyWebhookFetch } from './webhooks/public-delivery.js';
export { SERVER_YOUNG_GENERATION_MB, serverThreadLimits } from './server/thread.js';
