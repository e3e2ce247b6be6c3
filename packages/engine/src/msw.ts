/**
 * @railyard/engine/msw: msw request handlers that serve an engine to the app under test, with `setupServer` in Node or
 * `setupWorker` in the browser (msw is an optional peer dependency).
 * @packageDocumentation
 */
import { http, type RequestHandler } from 'msw';
import { BASE_PATH, withoutTrailingSlashes } from '@railyard/contract';
import type { Engine } from './engine.js';

/** Options of {@link createHandlers}. */
export interface HandlerOptions {
  /** Origin the app under test calls, e.g. `https://api.example.test`. Default `http://127.0.0.1:4100`. */
  origin?: string;
}

/**
 * msw request handlers that answer the API from an engine, for `setupServer(...createHandlers(engine))` in Node or
 * `setupWorker` in the browser.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { setupServer } from 'msw/node';
 * import { createEngine } from '@railyard/engine';
 * import { createHandlers } from '@railyard/engine/msw';
 *
 * const engine = createEngine();
 * const server = setupServer(...createHandlers(engine, { origin: 'https://api.example.test' }));
 * server.listen();
 * // The app's own requests to https://api.example.test/2025-10-13/* now reach the sandbox.
 * const response = await fetch('https://api.example.test/2025-10-13/customers', {
 *   headers: { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}` },
 * });
 * assert.equal(response.status, 200);
 * server.close();
 * engine.close();
 * ```
 */
export function createHandlers(engine: Engine, options: HandlerOptions = {}): RequestHandler[] {
  const origin = withoutTrailingSlashes(options.origin ?? 'http://127.0.0.1:4100');
  const serve = ({ request }: { request: Request }) => engine.fetch(request);
  return [
    http.all(`${origin}${BASE_PATH}/*`, serve),
    http.all(`${origin}/_sandbox/*`, serve),
  ];
}
