/**
 * The in-memory wire between the client and an in-process engine. `engine.fetch` carries a dispatch function under
 * {@link IN_MEMORY_DISPATCH}; a client given that fetch sends plain objects through it instead of building WHATWG
 * Request and Response objects, which cost more than the whole sandbox call. Over HTTP nothing changes.
 * @module
 */

/** Property of an engine's `fetch` that holds its {@link InMemoryDispatch}. */
export const IN_MEMORY_DISPATCH: unique symbol = Symbol.for('railyard.in-memory-dispatch') as never;

/** A request on the in-memory wire: what an HTTP request would carry. */
export interface WireRequest {
  method: string;
  /** Absolute URL, e.g. `http://in-process.test/2025-10-13/customers?limit=2`. */
  url: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body text (JSON), if any. */
  body?: string;
}

/** A response on the in-memory wire. */
export interface WireReply {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | null;
}

/** Serves one request in memory. */
export type InMemoryDispatch = (request: WireRequest) => Promise<WireReply>;

/** The in-memory dispatch of a fetch function, when it is an engine's. */
export const inMemoryDispatchOf = (fetch: unknown): InMemoryDispatch | undefined =>
  typeof fetch === 'function' ? (fetch as unknown as Record<symbol, InMemoryDispatch | undefined>)[IN_MEMORY_DISPATCH] : undefined;
