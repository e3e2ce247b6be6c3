/**
 * JSON of replies. A stored record is frozen and never changed in place (core/freeze.ts), so its JSON is the same every
 * time it is sent: it is kept, for the records sent most recently, and a page of them is joined from the kept pieces
 * instead of serialized again. Anything not frozen (a view built for one reply) is serialized as usual.
 */

/** How many records' JSON one generation keeps; two generations are kept, so between this and twice this many. */
const GENERATION = 8192;
let young = new WeakMap<object, string>();
let old = new WeakMap<object, string>();
let youngSize = 0;

function keep(value: object, json: string): void {
  if (youngSize >= GENERATION) {
    old = young;
    young = new WeakMap();
    youngSize = 0;
  }
  young.set(value, json);
  youngSize++;
}

/** The JSON of one value: kept for frozen objects (stored records), computed for the rest. */
function jsonOfValue(value: unknown): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value) ?? 'null';
  const kept = young.get(value);
  if (kept !== undefined) return kept;
  const json = old.get(value) ?? JSON.stringify(value);
  keep(value, json);
  return json;
}

/**
 * The JSON text of a reply body. The same text `JSON.stringify` gives, except that a page's `data` comes first: a
 * single record and the records of a page (`{ data: [...] , ... }`) reuse their kept JSON.
 */
export function replyJson(body: unknown): string {
  if (body === null || typeof body !== 'object') return JSON.stringify(body);
  if (Object.isFrozen(body)) return jsonOfValue(body);
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || Array.isArray(body)) return JSON.stringify(body);
  let text = '{"data":[';
  for (let i = 0; i < data.length; i++) text += (i === 0 ? '' : ',') + jsonOfValue(data[i]);
  text += ']';
  // The page's other fields one by one, as JSON.stringify would write them (a spread copy without `data` would be
  // simpler, but keeps the page alive through the next young-generation collection: see docs/benchmarks.md).
  for (const key of Object.keys(body)) {
    if (key === 'data') continue;
    const value = JSON.stringify((body as Record<string, unknown>)[key]);
    if (value !== undefined) text += `,${JSON.stringify(key)}:${value}`;
  }
  return `${text}}`;
}
