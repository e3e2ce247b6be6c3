/**
 * `@railyard/contract/routes`: the contract without zod, for clients that run in a browser. The route of every
 * operation (method, path, idempotency and body flags, and its types for the compiler), a declared type for every
 * resource, request body, query and response (generated from the schemas: `Customer`, `CustomerCreateRequest`, …),
 * the constants a client needs, and the in-memory wire of an in-process engine.
 * @packageDocumentation
 */
export * from './routes.generated.js';
export type * from './types.generated.js';
export type { Page, Route, RouteTypes } from './route.js';
export { API_VERSION, BASE_PATH, withoutTrailingSlashes, type HttpMethod } from './api-path.js';
export { IN_MEMORY_DISPATCH, inMemoryDispatchOf, type InMemoryDispatch, type WireReply, type WireRequest } from './transport.js';
export { derToP1363, p1363ToDer } from './wallet-crypto/p256.js';
