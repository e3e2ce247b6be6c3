/**
 * `Idempotency-Key` values: generated per call, repeated on every retry of that call.
 * @module
 */
import type { RequestOptions } from './types.js';

/** A random v4 UUID; `crypto.randomUUID` where available (it is missing in insecure browser contexts). */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Generates an `Idempotency-Key` value: `railyard-<uuid>`. */
export const generateIdempotencyKey = (): string => `railyard-${uuid()}`;

/**
 * Request options that always carry an idempotency key, for calls that must never run without one (executing a
 * payment): the caller's `idempotencyKey`, else their `Idempotency-Key` header, else a generated key, even when
 * `idempotencyKey: null` or an empty or `null` header asks for none. The header is folded into `idempotencyKey`, so it
 * is set exactly once.
 */
export function requireIdempotencyKey(options: RequestOptions | undefined): RequestOptions {
  const headers: Record<string, string | null | undefined> = {};
  let fromHeader: string | null | undefined;
  for (const [name, value] of Object.entries(options?.headers ?? {})) {
    if (name.toLowerCase() === 'idempotency-key') fromHeader = value;
    else headers[name] = value;
  }
  return { ...options, headers, idempotencyKey: options?.idempotencyKey || fromHeader || generateIdempotencyKey() };
}
