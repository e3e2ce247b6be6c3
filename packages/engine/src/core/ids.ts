import type { ResourceType } from '@railyard/contract';
import { bytesToHex } from '@railyard/contract';
import { RESERVED_ID_ENDINGS } from '../sandbox/magic-values.js';

/** Makes resource ids of the form `<Type>:<uuid>`. Injected so tests can get predictable ids. */
export type IdGenerator = (type: ResourceType) => string;

/** Whether an id of `type` would trigger a sandbox outcome by its last three characters (see RESERVED_ID_ENDINGS). */
const reserved = (type: ResourceType, id: string): boolean => RESERVED_ID_ENDINGS[type]?.has(id.slice(-3)) === true;

/**
 * Random v4 ids, the default, never ending in a trigger of their type. Joined rather than concatenated: an id is kept
 * for ever, and a joined string is one flat string where a concatenation would keep a rope of its parts.
 */
export const randomIds: IdGenerator = (type) => {
  for (;;) {
    const id = [type, crypto.randomUUID()].join(':');
    if (!reserved(type, id)) return id;
  }
};

/**
 * Deterministic ids from a counter: `Customer:00000000-0000-4000-8000-000000000001`, then …02. Handy for snapshots
 * and golden files; the counter is shared by all types so ids never repeat within one engine, and skips a number that
 * would give an id of its type a trigger ending.
 */
export function sequentialIds(start = 1): IdGenerator {
  let next = start;
  return (type) => {
    for (;;) {
      const hex = (next++).toString(16).padStart(12, '0');
      const id = [type, `00000000-0000-4000-8000-${hex}`].join(':');
      if (!reserved(type, id)) return id;
    }
  };
}

/** `bytes` random bytes as lowercase hex: nonces, secrets, the random part of credentials. */
export function randomHex(bytes: number): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(bytes)));
}
