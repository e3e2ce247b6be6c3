/**
 * Stored records and event payloads are shared, never copied: a record is replaced by a new object, never changed in
 * place, so an event can keep the version it announced, a snapshot can hand out the records as they are, and a reply
 * can reuse a record's JSON (http/json.ts). Every stored record is frozen (its own fields); tests run with
 * `RAILYARD_FREEZE_RECORDS=1`, which freezes everything a record holds as well, so that a change in place throws where
 * it happens.
 */
export const FREEZE_RECORDS = typeof process !== 'undefined' && process.env?.RAILYARD_FREEZE_RECORDS === '1';

/** Freezes `value` and everything it holds (in tests; see {@link FREEZE_RECORDS}). */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}


/** Freezes a record as the store takes it: its own fields always, everything it holds in tests. */
export function freezeStored<T>(record: T): T {
  return FREEZE_RECORDS ? deepFreeze(record) : Object.freeze(record);
}
