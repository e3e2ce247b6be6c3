import type { ResourceType } from '@railyard/contract';

/** Makes resource ids of the form `<Type>:<uuid>` (SPEC §1). Injected so tests can get predictable ids. */
export type IdGenerator = (type: ResourceType) => string;

/**
 * Random v4 ids, the default. Joined rather than concatenated: an id is kept for ever, and a joined string is one flat
 * string where a concatenation would keep a rope of its parts (more memory per record).
 */
export const randomIds: IdGenerator = (type) => [type, crypto.randomUUID()].join(':');

/**
 * Deterministic ids from a counter: `Customer:00000000-0000-4000-8000-000000000001`, then …02. Handy for snapshots
 * and golden files; the counter is shared by all types so ids never repeat within one engine.
 */
export function sequentialIds(start = 1): IdGenerator {
  let next = start;
  return (type) => {
    const hex = (next++).toString(16).padStart(12, '0');
    return [type, `00000000-0000-4000-8000-${hex}`].join(':');
  };
}
