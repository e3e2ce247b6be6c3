import type { z } from 'zod';
import type { ErrorStatus } from './errors.js';
import type { HttpMethod } from './api-path.js';

// Zod-free, so the routes entry (`@railyard/contract/routes`) shares them without pulling zod in.
export { API_VERSION, BASE_PATH, withoutTrailingSlashes, type HttpMethod } from './api-path.js';

/**
 * One operation of the API, described once: the engine routes and validates with it, the client types its calls
 * with it, and the OpenAPI document is generated from it.
 */
export interface Endpoint {
  /** Stable operation name, also the OpenAPI `operationId`. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path below the base path, with `{name}` parameters, e.g. `/customers/{customerId}`. */
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  /** OpenAPI tag: the SPEC area the operation belongs to. */
  readonly tag: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  /** JSON request body. */
  readonly body?: z.ZodType;
  /** True when the body may be omitted entirely (e.g. execute with an optional body). */
  readonly bodyOptional?: boolean;
  /** The body is multipart/form-data rather than JSON (document upload); the area serving it parses the form. */
  readonly multipart?: boolean;
  /**
   * `'required'`: the operation is refused (400, field `Idempotency-Key`) without an `Idempotency-Key` header. Every
   * mutating operation takes one; these need it.
   */
  readonly idempotencyKey?: 'required';
  /** Largest body accepted, in bytes (default 1 MiB); larger ones are 413 without being read further. */
  readonly maxBodyBytes?: number;
  /**
   * The success response. A `schema` of undefined means no body (204), unless `contentType` names a non-JSON body
   * (an HTML page).
   */
  readonly response: { readonly status: number; readonly description: string; readonly schema?: z.ZodType; readonly contentType?: string };
  /**
   * Other successful answers (a signed operation's 202 challenge and 200 PROCESSING, a quote's 202). One with the same
   * status as `response` is documented as a second form of it.
   */
  readonly alsoResponds?: readonly { readonly status: number; readonly description: string; readonly schema: z.ZodType }[];
  /**
   * Still served, but replaced: the OpenAPI document marks the operation `deprecated`, and `summary` names what
   * replaced it. Kept so clients written against the older paths keep working.
   */
  readonly deprecated?: boolean;
  /**
   * A GET that creates something (a legacy path that older clients call for what a POST now does): it takes an
   * `Idempotency-Key` as a POST does, and HEAD, which must change nothing, is not served for it (405).
   */
  readonly createsState?: boolean;
  /** Error statuses the operation documents, beyond the 400/401/404/405/413/500 every operation can return. */
  readonly errors?: readonly ErrorStatus[];
  /** Railyard's `/_sandbox/` control plane: served at the root as well as under the base path. */
  readonly controlPlane?: boolean;
  /**
   * Served without credentials (pages a customer opens from a link). The path must carry a `{platformId}` parameter,
   * which names the platform whose data the request reads.
   */
  readonly public?: boolean;
  /**
   * How the caller authenticates when not with the platform's Basic credentials: `'agent'`, an agent's Bearer access
   * token (AgentAuth; the request acts as the agent's customer, under its policy); `'none'`, no credentials at all, the
   * platform being named by a credential in the path (an agent's device code), or, for an operation whose path names
   * none, no platform at all (the health check, which reads no platform's data).
   */
  readonly auth?: 'agent' | 'none';
  /**
   * Bearer secrets the operation carries, so they are never kept or written where others read them: path parameters
   * that are one (a request log shows the parameter's name instead of its value); fields of the success answer that
   * are one (dotted paths), which the reply kept for an `Idempotency-Key` holds sealed, for the same credential's
   * retry; and fields shown once (`once`: a token's secret, an agent's access token, recovery codes, a wallet's
   * export), which the kept reply leaves out, so a replay answers without them.
   */
  readonly secrets?: { readonly params?: readonly string[]; readonly response?: readonly string[]; readonly once?: readonly string[] };
}

/** Declares an endpoint, keeping its literal types for inference. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** Parsed path parameters of an endpoint. */
export type ParamsOf<E extends Endpoint> = Out<E['params']>;
/** Parsed query of an endpoint (defaults applied). */
export type QueryOf<E extends Endpoint> = Out<E['query']>;
/** Parsed request body of an endpoint. */
export type BodyOf<E extends Endpoint> = Out<E['body']>;
/** Request body as a caller writes it (before defaults). */
export type BodyInputOf<E extends Endpoint> = In<E['body']>;
/** Query as a caller writes it. */
export type QueryInputOf<E extends Endpoint> = In<E['query']>;
/** Success response body of an endpoint. */
export type ResponseOf<E extends Endpoint> = E['response']['schema'] extends z.ZodType ? z.output<E['response']['schema']> : void;
