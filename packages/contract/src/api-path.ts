/**
 * The API's version, base path and methods: shared by the contract and its zod-free routes.
 * @module
 */

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The version segment every API path starts with. */
export const API_VERSION = '2025-10-13';
/** Base path of the API, e.g. `http://127.0.0.1:4100/2025-10-13`. */
export const BASE_PATH = `/${API_VERSION}`;

/** A base URL or origin without its trailing slashes (a loop: a `/\/+$/` pattern backtracks quadratically on `////…x`). */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return url.slice(0, end);
}
