/**
 * A zod-free description of one API operation: what a client needs to send it, and (as types only) what it takes
 * and returns. The route table (`@railyard/contract/routes`) is generated from the contract's endpoints.
 * @module
 */
import type { HttpMethod } from './api-path.js';

/** The types of an operation, carried by {@link Route} for the compiler only. */
export interface RouteTypes {
  /** Path parameters, e.g. `{ customerId: string }`; `undefined` when the path has none. */
  params: unknown;
  /** The query as a caller writes it; `undefined` when the operation takes none. */
  query: unknown;
  /** The request body as a caller writes it (fields with defaults optional); `undefined` when there is none. */
  body: unknown;
  /** The success response body; `void` when there is none (204). */
  result: unknown;
  /** True when the body may be omitted. */
  bodyOptional: boolean;
}

/** One operation as the client sends it: no schemas, only what building the request needs. */
export interface Route<T extends RouteTypes = RouteTypes> {
  /** Stable operation name, also the OpenAPI `operationId`. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path below the base path, with `{name}` parameters, e.g. `/customers/{customerId}`. */
  readonly path: string;
  /** The body may be omitted entirely. */
  readonly bodyOptional?: boolean;
  /** The body is multipart/form-data rather than JSON. */
  readonly multipart?: boolean;
  /** The operation is refused without an `Idempotency-Key` header. */
  readonly idempotencyKey?: 'required';
  /** Type-level only, never set at runtime: what the operation takes and returns. */
  readonly types?: T;
}

/** A page of items as the API returns it. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}
