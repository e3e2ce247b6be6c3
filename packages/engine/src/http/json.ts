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

/**
 * The JSON of one value: for frozen objects (stored records) the kept JSON when there is one, kept when `keepIt`;
 * computed for the rest.
 */
function jsonOfValue(value: unknown, keepIt: boolean): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value) ?? 'null';
  const kept = young.get(value);
  if (kept !== undefined) return kept;
  const json = old.get(value) ?? JSON.stringify(value);
  if (keepIt) keep(value, json);
  return json;
}

/**
 * The JSON text of a reply body. The same text `JSON.stringify` gives, except that a page's `data` comes first: a
 * single record and the records of a page (`{ data: [...] , ... }`) reuse their kept JSON, and keep theirs when
 * `keepJson` (the app keeps it for reads: the JSON a write answers with is rarely asked for again at once).
 */
export function replyJson(body: unknown, keepJson = true): string {
  if (body === null || typeof body !== 'object') return JSON.stringify(body);
  if (body instanceof JsonText) return body.text;
  if (Object.isFrozen(body)) return jsonOfValue(body, keepJson);
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data) || Array.isArray(body)) return JSON.stringify(body);
  let text = '{"data":[';
  for (let i = 0; i < data.length; i++) text += (i === 0 ? '' : ',') + jsonOfValue(data[i], keepJson);
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

/** JSON text already written, sent as it is (see {@link jsonInSlices}). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Lets timers and other requests run: `setImmediate` where there is one (Node), a zero timeout elsewhere. */
const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/**
 * The text `JSON.stringify(value)` gives, written in slices of `elementsPerSlice` array elements with the event loop
 * free in between: a platform's whole state (a snapshot of 150,000 records is 60 MB of JSON) would otherwise hold every
 * other request for a third of a second. Plain objects are walked, arrays are sliced, and each array element is
 * serialized whole. The value must not change meanwhile (stored records never do).
 */
export async function jsonInSlices(value: unknown, elementsPerSlice = 2000): Promise<JsonText> {
  const parts: string[] = [];
  let sinceYield = 0;
  const write = async (node: unknown): Promise<void> => {
    if (Array.isArray(node)) {
      parts.push('[');
      for (let i = 0; i < node.length; i++) {
        parts.push((i > 0 ? ',' : '') + (JSON.stringify(node[i]) ?? 'null'));
        if (++sinceYield >= elementsPerSlice) {
          sinceYield = 0;
          await yieldToEventLoop();
        }
      }
      parts.push(']');
    } else if (isPlainObject(node)) {
      parts.push('{');
      let first = true;
      for (const [key, inner] of Object.entries(node)) {
        if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue;
        parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        await write(inner);
      }
      parts.push('}');
    } else {
      parts.push(JSON.stringify(node));
    }
  };
  await write(value);
  return new JsonText(parts.join(''));
}

/** An object JSON.stringify writes member by member (not a Date or anything else with its own `toJSON`). */
const isPlainObject = (node: unknown): node is Record<string, unknown> =>
  typeof node === 'object' && node !== null && typeof (node as { toJSON?: unknown }).toJSON !== 'function';
