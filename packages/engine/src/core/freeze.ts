/**
 * Stored records and event payloads are shared, never copied: a record is replaced by a new object, never changed in
 * place, so an event can keep the version it announced, a snapshot can hand out the records as they are, and a reply
 * can reuse a record's JSON (http/json.ts). The store freezes every record it takes, with everything it holds, so a
 * change in place throws where it happens instead of corrupting what was shared.
 */

/**
 * Freezes `value` and everything it holds. An object already frozen is taken to be frozen throughout (everything this
 * module freezes is), so shared parts are not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  // Walked without Object.values: every stored record passes here, and the array it makes is garbage at once.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
  } else {
    for (const key in value) if (Object.hasOwn(value, key)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
