import { readFileSync } from 'node:fs';

/** The vector files of `test/vectors/` (see their README). */
export type VectorFile = 'stamps.json' | 'otp-bundles.json' | 'session-key-bundles.json' | 'oauth-nonce.json' | 'webhooks.json';

/**
 * A file of interoperability vectors from `test/vectors/` (made by the reference service's own client libraries),
 * parsed. Every test that checks a wire format against them reads them through here, from inside the repo.
 */
export function readVectors<T = Record<string, unknown>>(file: VectorFile): T {
  return JSON.parse(readFileSync(new URL(`../vectors/${file}`, import.meta.url), 'utf8')) as T;
}
