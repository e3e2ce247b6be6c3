/**
 * Option types shared by the client and its resources.
 * @module
 */
import type { HttpMethod } from '@railyard/contract/routes';

/**
 * Options accepted as the last argument of every method.
 *
 * ```ts
 * await client.customers.create(body, { idempotencyKey: 'signup-42', timeout: 5_000 });
 * ```
 */
export interface RequestOptions {
  /** Milliseconds to wait for a response, per attempt; overrides the client's `timeout`. `Infinity` disables it. */
  timeout?: number;
  /** Aborts the call (including any pending retry); the call then rejects with `APIUserAbortError`. */
  signal?: AbortSignal;
  /**
   * The `Idempotency-Key` header. Mutating calls (POST, PUT, PATCH, DELETE) get a generated `railyard-<uuid>` key
   * when this is omitted, and the same key is sent on every retry. Pass your own key to make a call safe to repeat
   * across processes, or `null` to send no key at all. A POST without a key is never retried.
   */
  idempotencyKey?: string | null;
  /** Extra headers. A `null` or `undefined` value removes a header the client would send. */
  headers?: Record<string, string | null | undefined>;
  /** How many times to retry a failed attempt; overrides the client's `maxRetries`. `0` disables retries. */
  maxRetries?: number;
}

/** A low-level request: a method and a path below the base URL, with an optional query and JSON body. */
export interface APIRequest {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`, already encoded (e.g. `/customers/Customer%3A...`). */
  path: string;
  /** Query parameters; `undefined`/`null` values are dropped. */
  query?: Record<string, unknown>;
  /** JSON body. Omit it for requests without a body. */
  body?: unknown;
}

/** Arguments of the low-level `client.get/post/put/patch/delete` helpers. */
export interface RequestArgs extends RequestOptions {
  /** Query parameters; `undefined`/`null` values are dropped. */
  query?: Record<string, unknown>;
  /** JSON body. */
  body?: unknown;
}
