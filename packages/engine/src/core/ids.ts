import type { ResourceType } from '@railyard/contract';
import { bytesToHex } from '@railyard/contract';
import { RESERVED_ID_ENDINGS } from '../sandbox/magic-values.js';
import { stringOfCodes } from './char-codes.js';

/** Makes resource ids of the form `<Type>:<uuid>`. Injected so tests can get predictable ids. */
export type IdGenerator = (type: ResourceType) => string;

/** Whether an id of `type` would trigger a sandbox outcome by its last three characters (see RESERVED_ID_ENDINGS). */
const reserved = (type: ResourceType, id: string): boolean => RESERVED_ID_ENDINGS[type]?.has(id.slice(-3)) === true;

/** Random bytes drawn 4 KiB at a time, 16 per id. */
const pool = new Uint8Array(4096);
let poolUsed = pool.length;
const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
/** The character codes of the id being written, reused (see {@link stringOfCodes}). */
const idCodes: number[] = [];

/**
 * `<type>:<uuid v4>` from the pool, written as character codes and made into one flat string at once: an id is kept for
 * ever, and `crypto.randomUUID()` joined to its type made some twenty intermediate strings per id (every create makes
 * several ids).
 */
function randomId(type: string): string {
  if (poolUsed === pool.length) {
    crypto.getRandomValues(pool);
    poolUsed = 0;
  }
  const at = poolUsed;
  poolUsed += 16;
  pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x40; // version 4
  pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80; // RFC 9562 variant
  let length = 0;
  for (let i = 0; i < type.length; i++) idCodes[length++] = type.charCodeAt(i);
  idCodes[length++] = 58; // ':'
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) idCodes[length++] = 45; // '-'
    const byte = pool[at + i]!;
    idCodes[length++] = HEX_CODES[byte >> 4]!;
    idCodes[length++] = HEX_CODES[byte & 15]!;
  }
  return stringOfCodes(idCodes, length);
}

/** Random v4 ids, the default, never ending in a trigger of their type. */
export const randomIds: IdGenerator = (type) => {
  for (;;) {
    const id = randomId(type);
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
