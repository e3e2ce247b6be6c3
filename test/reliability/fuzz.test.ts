import { ApiErrorBody, ERROR_CODES, isErrorCodeFor, type ErrorStatus } from '@railyard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures, scaled } from '../support/figures.js';
import {
  operationsOf, parametersIn, resolve, sampleValue, SAMPLE_PNG, type OpenApiDocument, type OperationRef, type Schema,
} from '../support/openapi-requests.js';
import { ID_FIELDS, PlatformState } from '../support/platform-state.js';
import { populate } from '../support/populate.js';
import { rawCaller, type RawCall } from '../support/raw-api.js';
import { ENGINE_AND_SERVER, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';

// Fuzzing driven by the OpenAPI document the engine serves, so every operation (new ones included) is covered without
// editing this file. Each request starts as a valid one aimed at real records of a populated platform, then one or two
// mutations break it: wrong types, missing and extra fields, 1 MB strings, deep nesting, unicode, odd amounts,
// malformed ids and cursors, bad content types, invalid JSON, duplicate query parameters, path traversal in ids.
// Every answer must be below 500; every error must have the SPEC §2.4 shape with a code the contract lists for its
// status; and a refused request must change nothing (the platform's snapshot before and after is compared).

/** Requests per transport: in process, and over real sockets to the built server (each answer costs more there). */
const COUNTS: Record<string, number> = { 'in-process': scaled(10_000, 100_000), http: scaled(2_000, 20_000) };

/** A small, seeded generator: the same requests on every run; RAILYARD_FUZZ_SEED=<n> explores others. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof generator>;
const SEED = Number(process.env.RAILYARD_FUZZ_SEED ?? 20261126);

/** Values of a wrong type for whatever a field expects. */
const WRONG_TYPES: readonly unknown[] = [null, true, 0, -1, 1.5, 'x', '', [], {}, [null], { nested: { deeper: [1, 'a'] } }, 'true', '1'];
/** One of {@link WRONG_TYPES}, a copy of its own (later mutations must not change the shared one). */
const wrongValue = (random: { pick<T>(items: readonly T[]): T }): unknown => structuredClone(random.pick(WRONG_TYPES));
/** Strings no field expects. */
const UNICODE: readonly string[] = [
  '\u0000', '\ud800', '\udfff x', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\u202eevil\u202c', 'e\u0301\u0301\u0301', '\u200b\u200d\ufeff', 'Ω'.repeat(2_000), '💳💸🏦', '日本語の名前',
  '<script>alert(1)</script>', "'; DROP TABLE customers; --", '%00%ff', '\\u0000', '../../etc/passwd',
];
/** Amounts that are not a positive integer in range. */
const AMOUNTS: readonly unknown[] = [-1, 0, -0, 1.5, 0.1, 1e308, -1e308, 2 ** 53 + 1, 2 ** 63, 9_007_199_254_740_993, '100', 'NaN', '1e3', 1e-7];
/** Ids that are malformed, name nothing, or try to leave their path segment. */
const BAD_IDS: readonly string[] = [
  '', ' ', 'null', 'undefined', '0', '-1', 'Customer:', 'Customer:zzzz', 'Customer:00000000-0000-0000-0000-000000000000',
  'Quote:00000000-0000-4000-8000-000000000000', 'x'.repeat(5_000), '%00', '%ff%fe', '__proto__', 'constructor', 'toString', '💳',
  '..', '%2e%2e', '..%2F..%2F_sandbox%2Freset', '%2e%2e%2f%2e%2e%2fconfig', '..%5c..%5cconfig', 'Customer:1;DROP', 'a%2Fb', '%20%09%0a',
];
/** Cursors that the API never gave. */
const BAD_CURSORS: readonly string[] = [
  '', 'x', '====', btoa('{}'), btoa('{"position":-1}'), btoa('{"seq":"1e400"}'), btoa('null'), btoa('[1,2]'), btoa('9'.repeat(400)),
  'eyJ'.repeat(2_000), '%ff', '__proto__', btoa(JSON.stringify({ id: 'Customer:00000000-0000-4000-8000-000000000000' })),
];
/** Query values of the wrong kind. */
const BAD_QUERY_VALUES: readonly string[] = ['-1', '0', '1.5', '99999999999999999999', 'abc', '', 'not-a-date', '2020-13-45', 'maybe', '[]', '{}', 'null', '%00', 'x'.repeat(3_000)];
/** Bodies that are not valid JSON, or JSON of the wrong kind. */
const INVALID_JSON: readonly string[] = [
  '', ' ', '{', '{"a":', '{"a":1,}', "{'a':1}", 'NaN', '{"a":NaN}', '\ufeff{}', '{}{}', 'null', '[]', '"text"', '7', 'true',
  '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}', `${'['.repeat(100_000)}`, '{"a":"\\ud800"}', '{"a":"\\x41"}',
];
const CONTENT_TYPES: readonly string[] = [
  'text/plain', 'application/xml', 'multipart/form-data', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16',
  'application/octet-stream', 'application/jsonx', 'image/png', '*/*', 'application/json; boundary=x',
];

/** A path-segment value as a body field would carry it: percent-decoded where it decodes. */
function unescapeOrKeep(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** What a mutation does to the request under construction. */
interface Draft {
  path: string;
  query: [string, string][];
  /** A JSON value, a raw text body, or a form. */
  body: { json: unknown } | { text: string } | { form: [string, string | Blob][] } | undefined;
  contentType: string | undefined;
}

type Mutation = (draft: Draft, random: Random, ref: OperationRef, doc: OpenApiDocument) => void;

/** The object properties of a body, found at any depth (path of keys), to aim a mutation at. */
function propertyPaths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (at.length > 32) return out;
  if (Array.isArray(value)) value.forEach((item, i) => propertyPaths(item, [...at, i], out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      out.push([...at, key]);
      propertyPaths(inner, [...at, key], out);
    }
  }
  return out;
}

/** Sets (or, with `remove`, deletes) the value at a path of keys inside a JSON value. */
function setAt(root: unknown, path: (string | number)[], value: unknown, remove = false): void {
  let at = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete at[last];
  else Object.defineProperty(at, last, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies `change` to one property of the JSON body (any depth), or to a new top-level one when it has none. */
function atSomeProperty(draft: Draft, random: Random, change: (path: (string | number)[], root: Record<string, unknown>) => void): void {
  if (!draft.body || !('json' in draft.body) || typeof draft.body.json !== 'object' || draft.body.json === null) draft.body = { json: {} };
  const root = (draft.body as { json: Record<string, unknown> }).json;
  const paths = propertyPaths(root);
  change(paths.length > 0 ? random.pick(paths) : ['amount'], root);
}

/** In a form, the value of one field (or a new one). */
function atSomeField(draft: Draft, random: Random, value: string | Blob): boolean {
  if (!draft.body || !('form' in draft.body)) return false;
  const fields = draft.body.form;
  if (fields.length > 0 && random.chance(0.7)) fields[random.int(fields.length)]![1] = value;
  else fields.push([random.pick(['file', 'documentType', 'extra', '__proto__']), value]);
  return true;
}

const MUTATIONS: Record<string, Mutation> = {
  'wrong type': (draft, random) => {
    if (!atSomeField(draft, random, String(wrongValue(random)))) atSomeProperty(draft, random, (path, root) => setAt(root, path, wrongValue(random)));
  },
  'missing field': (draft, random) => {
    if (draft.body && 'form' in draft.body) draft.body.form.splice(random.int(draft.body.form.length + 1), 1);
    else atSomeProperty(draft, random, (path, root) => setAt(root, path, undefined, true));
  },
  'extra fields': (draft, random) => {
    const names = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'unknownField', 'ñandú', '', ' ', 'id', 'status', 'platformId'];
    for (let i = 1 + random.int(3); i > 0; i--) {
      const name = random.pick(names);
      if (!atSomeField(draft, random, 'extra')) {
        atSomeProperty(draft, random, (path, root) => {
          const parent = path.slice(0, -1);
          const holder = parent.reduce<any>((at, key) => at[key], root);
          if (typeof holder === 'object' && holder !== null && !Array.isArray(holder)) setAt(root, [...parent, name], wrongValue(random));
        });
      }
    }
  },
  '1 MB string': (draft, random) => {
    const big = random.pick(['a', 'é', '9', ' ']).repeat(1_000_000);
    if (!atSomeField(draft, random, big)) atSomeProperty(draft, random, (path, root) => setAt(root, path, big));
  },
  'deep nesting': (draft, random) => {
    const depth = random.pick([100, 1_000, 10_000, 50_000]);
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const inner = random.chance(0.5) ? nested : objects;
    // Built as text: a value this deep cannot go through JSON.stringify.
    const base = draft.body && 'json' in draft.body && typeof draft.body.json === 'object' && draft.body.json !== null ? draft.body.json : {};
    const text = JSON.stringify(base);
    draft.body = { text: text === '{}' ? `{"deep":${inner}}` : `${text.slice(0, -1)},"deep":${inner}}` };
    if (random.chance(0.5) && Object.keys(base).length > 0) {
      const key = random.pick(Object.keys(base));
      draft.body = { text: JSON.stringify({ ...base, [key]: 0 }).replace(/0}$/, `${inner}}`).replace(`"${key}":0,`, `"${key}":${inner},`) };
    }
  },
  unicode: (draft, random) => {
    if (!atSomeField(draft, random, random.pick(UNICODE))) atSomeProperty(draft, random, (path, root) => setAt(root, path, random.pick(UNICODE)));
  },
  'odd amount': (draft, random) => {
    atSomeProperty(draft, random, (path, root) => {
      const amountLike = propertyPaths(root).filter((p) => /amount|ms|limit|retries|volume|bps|fee/i.test(String(p[p.length - 1])));
      setAt(root, amountLike.length > 0 ? random.pick(amountLike) : path, random.pick(AMOUNTS));
    });
  },
  'malformed id': (draft, random, ref) => {
    const ids = parametersIn(ref.operation, 'path');
    if (ids.length > 0) {
      const name = random.pick(ids).name;
      draft.path = draft.path.replace(`{${name}}`, random.pick(BAD_IDS));
    } else {
      atSomeProperty(draft, random, (path, root) => {
        const idLike = propertyPaths(root).filter((p) => /Id$|^id$/.test(String(p[p.length - 1])));
        setAt(root, idLike.length > 0 ? random.pick(idLike) : path, unescapeOrKeep(random.pick(BAD_IDS)));
      });
    }
  },
  'path traversal': (draft, random) => {
    const escape = random.pick(['/..', '/../..', '/%2e%2e', '/%2e%2e/%2e%2e/_sandbox/reset', '/..%2f..%2fconfig', '/.%2e/customers', '//', '/%2F', '/./.']);
    const segments = draft.path.split('/');
    const at = 1 + random.int(Math.max(1, segments.length - 1));
    draft.path = `${segments.slice(0, at).join('/')}${escape}${at < segments.length ? `/${segments.slice(at).join('/')}` : ''}`;
  },
  'malformed cursor': (draft, random) => {
    draft.query = draft.query.filter(([name]) => name !== 'cursor');
    draft.query.push(['cursor', random.pick(BAD_CURSORS)]);
  },
  'bad query values': (draft, random, ref) => {
    const names = parametersIn(ref.operation, 'query').map((p) => p.name);
    for (const name of names.length > 0 ? names.filter(() => random.chance(0.6)) : ['limit']) {
      draft.query = draft.query.filter(([n]) => n !== name);
      draft.query.push([name, random.pick(BAD_QUERY_VALUES)]);
    }
  },
  'duplicate query parameters': (draft, random, ref) => {
    const names = [...parametersIn(ref.operation, 'query').map((p) => p.name), '__proto__', 'constructor', 'limit'];
    for (let i = 1 + random.int(3); i > 0; i--) {
      const name = random.pick(names);
      draft.query.push([name, random.pick(['1', '2', 'x', ''])], [name, random.pick(['100', 'USD', 'true'])]);
    }
  },
  'bad content type': (draft, random) => {
    draft.contentType = random.pick(CONTENT_TYPES);
    if (!draft.body) draft.body = { json: {} };
  },
  'invalid JSON': (draft, random) => {
    draft.body = { text: random.pick(INVALID_JSON) };
    draft.contentType = 'application/json';
  },
};
/**
 * How often each mutation is picked, relative to 1: a 1 MB body costs milliseconds to build, send and parse (most of it
 * in the fetch layer's body reading), a hundred times an ordinary one.
 */
const WEIGHTS: Record<string, number> = { '1 MB string': 0.25, 'deep nesting': 0.5 };
const MUTATION_NAMES = Object.keys(MUTATIONS).flatMap((mutation) => Array<string>(Math.round((WEIGHTS[mutation] ?? 1) * 4)).fill(mutation));

/** The document's operations whose success replaces the platform's state: the check puts the populated state back after one. */
const REPLACES_STATE = /^POST \/_sandbox\/(reset|restore)$/;

/**
 * The refusals the spec says change state, by operation, with the invalid fields such a refusal may list (none: it
 * lists none). Any other refusal, and any refusal listing other fields (a malformed request), must change nothing.
 */
const REFUSALS_THAT_CHANGE_STATE: Record<string, { readonly why: string; readonly fields?: readonly string[] }> = {
  'POST /customers/external-accounts/{externalAccountId}/verify': { why: 'a failed verify consumes its challenge and leaves the account UNVERIFIED (SPEC §3.1)' },
  'POST /platform/external-accounts/{externalAccountId}/verify': { why: 'a failed verify consumes its challenge and leaves the account UNVERIFIED (SPEC §3.1)' },
  'POST /quotes/{quoteId}/authorize': { why: 'a wrong code counts towards the SCA lockout (REFERENCE §9)', fields: ['code'] },
  'POST /sca/login/complete': { why: 'a wrong code counts towards the SCA lockout (REFERENCE §9)', fields: ['code'] },
  'POST /customers/external-accounts/{externalAccountId}/trust/confirm': { why: 'a wrong code counts towards the SCA lockout (REFERENCE §9)', fields: ['code'] },
  'POST /customers/external-accounts/{externalAccountId}/untrust/confirm': { why: 'a wrong code counts towards the SCA lockout (REFERENCE §9)', fields: ['code'] },
  'POST /auth/credentials/{credentialId}/verify': { why: 'a passkey assertion uses up its challenge, verified or not (REFERENCE §7)' },
};

/** The platform goes back to its populated state this often, so what valid requests add does not pile up. */
const RESTORE_EVERY = 200;

/** Object.prototype's own members when the test starts: a request that adds one has polluted every object. */
const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Whether two states hold the same records: the same objects, or records equal as JSON. */
function sameState(a: Record<string, readonly unknown[]> | string, b: Record<string, readonly unknown[]> | string): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  return names.every((name) => {
    const [left, right] = [a[name]!, b[name]];
    return right !== undefined && left.length === right.length && left.every((record, i) => record === right[i] || JSON.stringify(record) === JSON.stringify(right[i]));
  });
}

describe.each(ENGINE_AND_SERVER.map((make) => [make().name, make] as const))('fuzz over %s', (name, make) => {
  let transport: Transport;
  let call: RawCall;
  let doc: OpenApiDocument;
  let populated: PlatformState;
  /** The populated agent's access token: the agent's own operations are sent with it. */
  let agentToken: string;

  let platformId: string;

  /**
   * The platform's state: in process, the engine's own frozen snapshot (its records are shared, never changed in place,
   * so a record that is the same object is the same record); over HTTP, the snapshot's text.
   */
  const stateNow = async (): Promise<Record<string, readonly unknown[]> | string> => {
    if (transport.engine) return transport.engine.sandbox(platformId).snapshot().collections as Record<string, readonly unknown[]>;
    const { text } = await call('GET', '/_sandbox/snapshot');
    return text.replace(/"takenAt":"[^"]*",?/, '');
  };

  beforeAll(async () => {
    transport = make();
    await transport.start();
    const platform = await transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: `fuzz ${name}` });
    platformId = platform.id;
    call = rawCaller(transport, platform);
    ({ agentToken } = await populate(transport.clientFor(platform), call));
    doc = (await call('GET', '/_sandbox/openapi.json')).json;
    populated = new PlatformState((await call('GET', '/_sandbox/snapshot')).json);
  }, 60_000);
  afterAll(() => transport.stop());

  /** A kyc link's token is its record's id. */
  const kycLinkTokens = () => (populated.snapshot.collections.kycLinks ?? []).map((link) => (link as { id: string }).id).concat('no-such-token');

  /** A valid request for the operation, aimed at the populated platform's records. */
  function validDraft(ref: OperationRef, random: Random): Draft {
    const idFor = (field: string, schema: Schema = {}): string | undefined => {
      const types = ID_FIELDS[field];
      if (!types) return undefined;
      const pattern = resolve(doc, schema).pattern as string | undefined;
      const candidates = populated.idsOf(types).filter((id) => pattern === undefined || new RegExp(pattern).test(id));
      return candidates.length > 0 ? random.pick(candidates) : undefined;
    };
    let path = ref.path;
    for (const parameter of parametersIn(ref.operation, 'path')) {
      const value = parameter.name === 'token' ? random.pick(kycLinkTokens())
        : parameter.name === 'receiverUmaAddress' ? '$success.usd@uma.sandbox.railyard.dev'
          : idFor(parameter.name, parameter.schema) ?? `{${parameter.name}}`;
      if (!value.startsWith('{')) path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    }
    const query: [string, string][] = [];
    for (const parameter of parametersIn(ref.operation, 'query')) {
      const id = idFor(parameter.name, parameter.schema);
      if (id !== undefined && (parameter.required || random.chance(0.5))) query.push([parameter.name, id]);
      else if (parameter.required) query.push([parameter.name, String(sampleValue(doc, parameter.schema ?? {}))]);
    }
    const content = ref.operation.requestBody?.content;
    let body: Draft['body'];
    if (content?.['application/json']) body = { json: sampleValue(doc, content['application/json'].schema, (field, schema) => idFor(field, schema)) };
    else if (content?.['multipart/form-data']) {
      const fields = sampleValue(doc, content['multipart/form-data'].schema, (field, schema) => idFor(field, schema)) as Record<string, unknown>;
      body = { form: Object.entries(fields).map(([field, value]) => [field, field === 'file' ? new Blob([SAMPLE_PNG], { type: 'image/png' }) : String(value)]) };
    }
    return { path, query, body, contentType: body && 'json' in body ? 'application/json' : undefined };
  }

  /** Sends a draft as it is: exactly one request. */
  async function send(ref: OperationRef, draft: Draft) {
    const method = ref.method;
    const query = draft.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    const path = `${draft.path}${query === '' ? '' : `?${query}`}`;
    const headers: Record<string, string> = draft.contentType === undefined ? {} : { 'content-type': draft.contentType };
    if (ref.operation.security?.some((scheme) => 'AgentAuth' in scheme)) headers.authorization = `Bearer ${agentToken}`;
    if (draft.body === undefined || method === 'GET') return { path, answer: await call(method, path, { headers }) };
    if ('form' in draft.body) {
      const form = new FormData();
      for (const [field, value] of draft.body.form) form.append(field, value);
      return { path, answer: await call(method, path, { form, headers }) };
    }
    const text = 'text' in draft.body ? draft.body.text : JSON.stringify(draft.body.json) ?? '';
    return { path, answer: await call(method, path, { body: text, headers }) };
  }

  it('every operation of the document, malformed: no 5xx, every error in the §2.4 shape with a listed code, no refused request changes state', async ({ task }) => {
    const random = generator(SEED);
    const operations = operationsOf(doc);
    const count = COUNTS[name]!;
    const serverErrors: string[] = [];
    const badShapes: string[] = [];
    const unlistedCodes: string[] = [];
    const changedByRefusal: string[] = [];
    const byMutation = new Map<string, number>();
    const byStatus = new Map<number, number>();
    let documentedChanges = 0;
    let before = await stateNow();
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const ref = operations[i % operations.length]!;
      const draft = validDraft(ref, random);
      // One request in ten stays valid (the operation's own paths run too); the others get one to three mutations.
      const applied = random.chance(0.1) ? [] : Array.from({ length: 1 + (random.chance(0.25) ? 1 + random.int(2) : 0) }, () => random.pick(MUTATION_NAMES));
      for (const mutation of applied) MUTATIONS[mutation]!(draft, random, ref, doc);
      for (const mutation of applied.length > 0 ? applied : ['none (valid)']) byMutation.set(mutation, (byMutation.get(mutation) ?? 0) + 1);
      const { path, answer } = await send(ref, draft);
      byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      const label = `${ref.method} ${path.slice(0, 160)} [${applied.join(', ')}] → ${answer.status}`;
      if (answer.status >= 500) serverErrors.push(`${label} ${answer.text.slice(0, 300)}`);
      const html = answer.headers.get('content-type')?.startsWith('text/html');
      if (answer.status >= 400 && !html) {
        const parsed = ApiErrorBody.safeParse(answer.json);
        if (!parsed.success || parsed.data.status !== answer.status) badShapes.push(`${label} ${answer.text.slice(0, 300)}`);
        else if (!(answer.status in ERROR_CODES) || !isErrorCodeFor(answer.status as ErrorStatus, parsed.data.code)) unlistedCodes.push(`${label} ${parsed.data.code}`);
      }
      const after = await stateNow();
      if (answer.status >= 400 && !sameState(before, after)) {
        const documented = REFUSALS_THAT_CHANGE_STATE[`${ref.method} ${ref.path}`];
        const listed: string[] = (answer.json?.details?.errors ?? []).map((error: { field: string }) => error.field);
        if (documented && listed.every((field) => documented.fields?.includes(field))) documentedChanges++;
        else changedByRefusal.push(`${label} ${answer.json?.code ?? ''}`);
      }
      before = after;
      if ((answer.status < 300 && REPLACES_STATE.test(`${ref.method} ${ref.path}`)) || i % RESTORE_EVERY === RESTORE_EVERY - 1) {
        expect((await call('POST', '/_sandbox/restore', { body: populated.snapshot })).status).toBe(204);
        before = await stateNow();
      }
    }
    const seconds = (performance.now() - started) / 1000;
    recordFigures(task, {
      'requests sent': count, operations: operations.length, '5xx': serverErrors.length, 'bodies breaking §2.4': badShapes.length,
      'codes outside the contract': unlistedCodes.length, 'refused requests that changed state': changedByRefusal.length,
      'refusals that change state as the spec says': documentedChanges,
      statuses: [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' '),
      mutations: [...byMutation].sort(([, a], [, b]) => b - a).map(([mutation, n]) => `${mutation} ${n}`).join(', '),
      'requests/s': Math.round(count / seconds),
    });
    expect(serverErrors.slice(0, 20)).toEqual([]);
    expect(badShapes.slice(0, 20)).toEqual([]);
    expect(unlistedCodes.slice(0, 20)).toEqual([]);
    expect(changedByRefusal.slice(0, 20)).toEqual([]);
    // Bodies and queries named __proto__ and constructor reached the engine in this process: nothing was added to Object.
    if (transport.engine) expect(Object.getOwnPropertyNames(Object.prototype).filter((key) => !PROTOTYPE_MEMBERS.has(key))).toEqual([]);
  }, 600_000);
});
