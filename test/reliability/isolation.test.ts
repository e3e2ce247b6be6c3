import { isErrorCodeFor } from '@railyard/contract';
import type { RailyardClient } from '@railyard/client';
import { DecryptionKey, SessionKey } from '@railyard/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures } from '../support/figures.js';
import { EXECUTE_KEY, KEYED_CUSTOMER, populate, type Populated } from '../support/populate.js';
import { ID_FIELDS, PlatformState } from '../support/platform-state.js';
import {
  operationsOf, parametersIn, resolve, sampleBody, type OpenApiDocument, type OperationRef, type Parameter, type Schema,
} from '../support/openapi-requests.js';
import { rawCaller, type RawAnswer, type RawCall } from '../support/raw-api.js';
import { ENGINE_AND_SERVER, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';

// Tenant isolation (DESIGN: each platform's data is its own). Platform A gets one of everything; then platform B, driven
// by the OpenAPI document the engine serves (so a new route is walked without editing this file), calls every
// operation that names an id with A's ids, every list and read with A's values as filters, and every sandbox control.
// B must get 404 (or an empty list), never A's data, and A's whole state and clock must not move.

/**
 * Path parameters that are not record ids: A's values for them, from its state, or (bearer tokens its state keeps only
 * as hashes) from what populating A handed out.
 */
const VALUE_FIELDS: Record<string, (state: PlatformState, populated: Populated) => readonly string[]> = {
  token: (_state, populated) => populated.bearer.token,
  issuerTransactionToken: (state) => (state.snapshot.collections.cardSimulations ?? []).map((record) => (record as { id: string }).id),
  invitationCode: (state) => (state.snapshot.collections.invitations ?? []).map((record) => (record as { id: string }).id),
  code: (_state, populated) => populated.bearer.code,
  receiverUmaAddress: (state) => state.valuesAt('umaAddress'),
};

/**
 * Operations that reach another platform's record on purpose, by a value that is itself the credential or is meant to
 * be shared: not walked as a leak, with why.
 */
const SHARED_ON_PURPOSE: Record<string, string> = {
  'POST /agents/device-codes/{code}/redeem': 'the device code is the credential: whoever holds it connects the agent (REFERENCE §20.4)',
  'GET /invitations/{invitationCode}': "the invitee's new provider, which may be another platform, reads the invitation by its code (REFERENCE §18)",
  'POST /invitations/{invitationCode}/claim': "the invitee's new provider, which may be another platform, claims it by its code (REFERENCE §18)",
};
/** Operations on another platform's shared record that refuse with another status than 404 (REFERENCE §18: cancel is 403). */
const REFUSED_WITH: Record<string, number> = { 'POST /invitations/{invitationCode}/cancel': 403 };

/** Whether an operation is an agent's own (AgentAuth): B sends it as B's agent. */
const isAgentOperation = (ref: OperationRef) => ref.operation.security?.some((scheme) => 'AgentAuth' in scheme) === true;

/**
 * Plain values a sampled body needs to get past validation to the lookup (rules the schema alone cannot say): the first
 * candidate the property's pattern accepts.
 */
const PLAIN_VALUES: Record<string, readonly string[]> = {
  currency: ['USD'], currencyCode: ['USD'], receivingCurrencyCode: ['USD'], senderUmaAddress: ['$alice@uma.sandbox.railyard.dev'],
  // An SCA code, or a simulated card currency's code.
  code: ['123456', 'USD'],
  documentNumber: ['X1234567'], issuingAuthority: ['US Department of State'], identifier: ['123-45-6789'],
  // A card change needs one field: a state its enum takes.
  state: ['FROZEN'],
  // An agent change needs one field: a name.
  name: ['isolation probe'],
};

/** Query filters whose values are stored under another name. */
const FILTER_FIELDS: Record<string, readonly string[]> = {
  sourceCurrency: ['currency'], destinationCurrency: ['currency'],
  countryCode: ['country'], accountIdentifier: ['accountId', 'umaAddress'], senderAccountIdentifier: ['accountId', 'umaAddress'], receiverAccountIdentifier: ['accountId', 'umaAddress'],
};

/** A request body as text, to see which values it names. */
const describeBody = (body: { json: unknown } | { form: FormData } | undefined): string =>
  body === undefined ? '' : 'json' in body ? JSON.stringify(body.json) : JSON.stringify([...body.form.entries()].map(([k, v]) => [k, String(v)]));

/**
 * Whether `text` shows `value`. A value of digits only (an account number) counts where it stands alone, not inside a
 * longer run of digits: B's own sandbox bank details are digits derived from B's ids (a 32-digit PIX code, 12-digit
 * account numbers), and an 8-digit number of A's turns up inside them by chance now and then.
 */
function shows(text: string, value: string): boolean {
  if (!/^\d+$/.test(value)) return text.includes(value);
  const isDigit = (index: number) => index >= 0 && index < text.length && text.charCodeAt(index) >= 48 && text.charCodeAt(index) <= 57;
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (!isDigit(at - 1) && !isDigit(at + value.length)) return true;
  }
  return false;
}

/** One call B made and what it got. */
interface Probe {
  readonly label: string;
  readonly sent: string;
  readonly answer: RawAnswer;
}

describe.each(ENGINE_AND_SERVER.map((make) => [make().name, make] as const))('isolation over %s', (_name, make) => {
  let transport: Transport;
  let doc: OpenApiDocument;
  let a: { id: string; client: RailyardClient; call: RawCall; credentials: { clientId: string; clientSecret: string } };
  let b: { id: string; client: RailyardClient; call: RawCall };
  let before: PlatformState;
  let aClock: string;
  let leaked: string[];
  let plainValues: Record<string, readonly string[]>;
  /** B's own agent's access token, for the agent operations B probes. */
  let bAgentToken: string;
  let populated: Populated;

  const stateOf = async (call: RawCall) => new PlatformState((await call('GET', '/_sandbox/snapshot')).json);

  beforeAll(async () => {
    transport = make();
    await transport.start();
    const root = transport.clientFor(ROOT_CREDENTIALS);
    const platformA = await root.sandbox.platforms.create({ name: 'isolation A' });
    const platformB = await root.sandbox.platforms.create({ name: 'isolation B' });
    a = { id: platformA.id, client: transport.clientFor(platformA), call: rawCaller(transport, platformA), credentials: platformA };
    b = { id: platformB.id, client: transport.clientFor(platformB), call: rawCaller(transport, platformB) };
    const bCustomer = await b.client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'B Agent Owner' });
    const bAgent = await b.client.agents.create({
      name: 'B bot', customerId: bCustomer.id,
      policy: { permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'CREATE_TRANSFERS', 'MANAGE_EXTERNAL_ACCOUNTS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 100_000 } },
    });
    bAgentToken = (await b.call('POST', `/agents/device-codes/${bAgent.deviceCode.code}/redeem`)).json.accessToken;
    populated = await populate(a.client, a.call);
    doc = (await b.call('GET', '/_sandbox/openapi.json')).json;
    before = await stateOf(a.call);
    aClock = (await a.client.sandbox.clock.get()).now;
    leaked = [...before.secrets(), ...populated.bearer.token, ...populated.bearer.code];
    // Session keys are points on the curve, compressed or not: a pattern alone cannot make one.
    const sessionKey = await SessionKey.generate();
    const exportKey = await DecryptionKey.generate();
    plainValues = { ...PLAIN_VALUES, clientPublicKey: [sessionKey.publicKeyCompressedHex, exportKey.publicKeyUncompressedHex] };
  });
  afterAll(() => transport.stop());

  /** A's state and clock are exactly what they were before B's calls. */
  async function expectAUntouched() {
    expect((await stateOf(a.call)).snapshot).toEqual(before.snapshot);
    expect((await a.client.sandbox.clock.get()).now).toBe(aClock);
  }

  /** What of A an answer shows that B did not send itself. */
  const leaksIn = (probe: Probe) => leaked.filter((secret) => shows(probe.answer.text, secret) && !shows(probe.sent, secret));

  let probes = 0;
  /** Sends one request as B, recording what was sent (A's ids in it may be echoed back; nothing else of A may). */
  async function probe(method: string, path: string, body?: { json: unknown } | { form: FormData }, asAgent = false): Promise<Probe> {
    const sent = `${decodeURIComponent(path)} ${describeBody(body)}`;
    // Every change carries a fresh Idempotency-Key, as a client sends it (some operations refuse a change without one).
    const headers: Record<string, string> = method === 'GET' ? {} : { 'idempotency-key': `isolation-${++probes}` };
    if (asAgent) headers.authorization = `Bearer ${bAgentToken}`;
    const answer = await b.call(method, path, body === undefined ? { headers } : 'json' in body ? { body: body.json, headers } : { form: body.form, headers });
    return { label: `${method} ${path}`, sent, answer };
  }

  /** A's values for a path parameter: its ids of the parameter's type, or the values stored under the parameter's name. */
  function aValuesOf(parameter: Parameter): string[] | undefined {
    if (parameter.name === 'platformId') return [b.id]; // a public page names its platform: B's own, with A's tokens
    const types = ID_FIELDS[parameter.name];
    if (types) return before.idsOf(types);
    const values = VALUE_FIELDS[parameter.name]?.(before, populated);
    return values === undefined ? undefined : [...values];
  }

  /**
   * Fills a body or query with ids where it names one (A's, or for a control ids no platform has), and with the plain
   * values validation needs; an id the property's pattern accepts where there is one (transfer-in pulls from an
   * ExternalAccount into an InternalAccount).
   */
  const filler = (idsFor: (types: readonly string[]) => string[], umaAddress: () => string | undefined) => (name: string, schema: Schema = {}) => {
    const resolved = resolve(doc, schema);
    const pattern = resolved.pattern as string | undefined;
    const allowed = resolved.enum as unknown[] | undefined;
    const fits = (candidate: string) => (pattern === undefined || new RegExp(pattern).test(candidate)) && (allowed === undefined || allowed.includes(candidate));
    const types = ID_FIELDS[name];
    if (types) return idsFor(types).find(fits) ?? idsFor(types)[0];
    if (name === 'receiverUmaAddress') return umaAddress();
    // A plain value is a string: a field of the same name that takes an object (a simulated card's currency) is sampled.
    if (resolved.type === 'object' || resolved.properties !== undefined) return undefined;
    return plainValues[name]?.find(fits);
  };
  const fillWithA = filler((types) => before.idsOf(types), () => before.valuesAt('umaAddress')[0]);
  const fillWithNobody = filler((types) => types.map((type) => `${type}:00000000-0000-4000-8000-000000000000`), () => '$nobody@example.com');

  /** Every combination of A's values for the path parameters of an operation (undefined: a parameter A has no value for). */
  function pathsWithA(ref: OperationRef): string[] | undefined {
    let paths = [ref.path];
    for (const parameter of parametersIn(ref.operation, 'path')) {
      const values = aValuesOf(parameter);
      if (!values || values.length === 0) return undefined;
      paths = paths.flatMap((path) => values.map((value) => path.replace(`{${parameter.name}}`, encodeURIComponent(value))));
    }
    return paths;
  }

  /** The query of an operation's required parameters and ids, filled by `fill` (an SCA login names its customer there). */
  function queryOf(ref: OperationRef, fill: typeof fillWithA): string {
    const query = new URLSearchParams();
    for (const parameter of parametersIn(ref.operation, 'query')) {
      const value = fill(parameter.name, parameter.schema);
      if (parameter.required || (value !== undefined && ID_FIELDS[parameter.name])) {
        if (typeof value === 'string') query.set(parameter.name, value);
      }
    }
    const text = query.toString();
    return text === '' ? '' : `?${text}`;
  }

  it('every operation naming an id, called by B with each of A\'s ids, answers 404 and changes nothing of A', async ({ task }) => {
    const operations = operationsOf(doc);
    const unmapped: string[] = [];
    const refused: string[] = [];
    const leaks: string[] = [];
    const walked = new Set<string>();
    const answeredAsForNobody = new Set<string>();
    let calls = 0;
    for (const ref of operations) {
      const hasPathIds = parametersIn(ref.operation, 'path').length > 0;
      const body = ref.method === 'GET' ? undefined : sampleBody(doc, ref.operation, fillWithA);
      const query = queryOf(ref, fillWithA);
      const namesAnId = hasPathIds || before.secrets().some((secret) => `${query} ${describeBody(body)}`.includes(secret));
      if (!namesAnId) continue;
      if (SHARED_ON_PURPOSE[`${ref.method} ${ref.path}`] !== undefined) {
        walked.add(`${ref.method} ${ref.path}`);
        continue;
      }
      const agent = isAgentOperation(ref);
      const paths = pathsWithA(ref);
      if (!paths) {
        unmapped.push(`${ref.method} ${ref.path}`);
        continue;
      }
      walked.add(`${ref.method} ${ref.path}`);
      // An id in a body may be refused as an invalid field rather than a 404: then exactly as an id nobody has is.
      const control = hasPathIds ? undefined : (await probe(ref.method, `${ref.path}${queryOf(ref, fillWithNobody)}`, sampleBody(doc, ref.operation, fillWithNobody), agent)).answer;
      for (const path of paths) {
        // A fresh body each time: a form is consumed by sending it.
        const result = await probe(ref.method, `${path}${query}`, ref.method === 'GET' ? undefined : sampleBody(doc, ref.operation, fillWithA), agent);
        calls++;
        const { status, json } = result.answer;
        const expected = REFUSED_WITH[`${ref.method} ${ref.path}`];
        const notFound = expected !== undefined ? status === expected : status === 404 && (ref.operation.security?.length === 0 || isErrorCodeFor(404, String(json?.code)));
        const asForNobody = control !== undefined && status < 500 && control.status === status && control.json?.code === json?.code;
        if (!notFound && !asForNobody) refused.push(`${result.label} → ${status} ${json?.code ?? ''} ${json?.message ?? ''}`.trim());
        if (!notFound && asForNobody) answeredAsForNobody.add(`${ref.method} ${ref.path} ${status} ${json?.code}`);
        const shown = leaksIn(result);
        if (shown.length > 0) leaks.push(`${result.label} shows ${shown.join(', ')}`);
      }
    }
    // The walk covered every operation of the document with a path parameter.
    const idBearing = operations.filter((ref) => parametersIn(ref.operation, 'path').length > 0).map((ref) => `${ref.method} ${ref.path}`);
    expect(unmapped, 'path parameters this check has no value of A for: populate A with one, or map the parameter').toEqual([]);
    expect(idBearing.filter((route) => !walked.has(route))).toEqual([]);
    expect(refused).toEqual([]);
    expect(leaks).toEqual([]);
    await expectAUntouched();
    recordFigures(task, {
      'routes walked': walked.size, 'of which path-id routes': idBearing.length, calls, 'refused as for an id nobody has': answeredAsForNobody.size,
      leaks: leaks.length + refused.length,
    });
  });

  it('every read and list of B, filtered by each of A\'s ids and values, shows nothing of A', async ({ task }) => {
    const reads = operationsOf(doc).filter((ref) => ref.method === 'GET' && parametersIn(ref.operation, 'path').length === 0);
    const unmapped: string[] = [];
    const leaks: string[] = [];
    let calls = 0;
    let lists = 0;
    let recordLists = 0;
    for (const ref of reads) {
      // What B itself has in this list (its own platform accounts, say): the only items any filter may show it.
      const asB = isAgentOperation(ref) ? { headers: { authorization: `Bearer ${bAgentToken}` } } : {};
      const own = new Set<string>(((await b.call('GET', ref.path, asB)).json?.data ?? []).map((item: { id?: string }) => item.id));
      const cursor = (await a.call('GET', `${ref.path}?limit=1`)).json?.nextCursor as string | undefined;
      const filters = parametersIn(ref.operation, 'query');
      const required = filters.filter((f) => f.required);
      for (const filter of filters) {
        const values = filter.name === 'cursor' ? (cursor ? [cursor] : []) : filterValues(filter);
        if (values === undefined) {
          unmapped.push(`${ref.path}?${filter.name}`);
          continue;
        }
        for (const value of values) {
          const query = new URLSearchParams();
          for (const other of required) if (other !== filter) query.set(other.name, filterValues(other)?.[0] ?? '');
          query.set(filter.name, value);
          const result = await probe('GET', `${ref.path}?${query}`, undefined, isAgentOperation(ref));
          calls++;
          const data = result.answer.json?.data;
          if (Array.isArray(data)) lists++;
          if (Array.isArray(data) && data.some((item: { id?: string }) => item.id !== undefined)) recordLists++;
          // Records carry ids; items without one (market exchange rates) belong to no platform.
          const foreign = Array.isArray(data) ? data.filter((item: { id?: string }) => item.id !== undefined && !own.has(item.id)) : [];
          const shown = leaksIn(result);
          if (foreign.length > 0 || shown.length > 0 || result.answer.status >= 500) {
            leaks.push(`${result.label} → ${result.answer.status}: ${foreign.length} items not B's; shows ${shown.join(', ')}`);
          }
        }
      }
    }
    expect(unmapped, 'query filters this check has no value of A for').toEqual([]);
    expect(leaks).toEqual([]);
    await expectAUntouched();
    recordFigures(task, { 'reads walked': reads.length, 'filtered calls': calls, 'list answers': lists, 'lists with records': recordLists, leaks: leaks.length });

    /** A's values for a filter: what A stores under its name, limited to what the filter's schema allows; dates around all of A's. */
    function filterValues(filter: Parameter): string[] | undefined {
      const schema: Schema = resolve(doc, filter.schema ?? {});
      const types = ID_FIELDS[filter.name];
      const stored = types ? before.idsOf(types) : (FILTER_FIELDS[filter.name] ?? [filter.name]).flatMap((field) => before.valuesAt(field));
      const allowed: string[] | undefined = Array.isArray(schema.enum) ? schema.enum.map(String) : undefined;
      if (allowed) return stored.some((v) => allowed.includes(v)) ? stored.filter((v) => allowed.includes(v)) : allowed;
      if (stored.length > 0) return stored;
      // isIncludingDeleted is a boolean the document gives no type (noted in the report).
      if (schema.type === 'boolean' || /^(is|has)[A-Z]/.test(filter.name)) return ['true', 'false'];
      if (schema.type === 'integer' || schema.type === 'number') return [String(schema.maximum ?? 100)];
      if (/After$|^start/.test(filter.name)) return ['2000-01-01T00:00:00.000Z'];
      if (/Before$|^end/.test(filter.name)) return ['2100-01-01T00:00:00.000Z'];
      return undefined;
    }
  });

  it('B\'s sandbox controls never touch A: every control and simulation, restore of A\'s own state, reset, A\'s keys and names', async ({ task }) => {
    const results: (Probe & { holdingACopy: boolean })[] = [];
    // From B's restore of A's state to B's reset, B's answers show B's copy of A's values: those are B's own then.
    let holdingACopy = false;
    const send = async (method: string, path: string, json?: unknown, headers?: Record<string, string>) => {
      const answer = await b.call(method, path, { ...(json === undefined ? {} : { body: json }), ...(headers ? { headers } : {}) });
      results.push({ label: `${method} ${path}`, sent: `${decodeURIComponent(path)} ${JSON.stringify(json) ?? ''}`, answer, holdingACopy });
      return answer;
    };
    // Every control and simulation the document lists (those with ids in their path were walked above), as sampled.
    const controls = operationsOf(doc).filter((ref) => /^\/_?sandbox\//.test(ref.path) && parametersIn(ref.operation, 'path').length === 0);
    for (const ref of controls) {
      const body = sampleBody(doc, ref.operation, fillWithA);
      await send(ref.method, `${ref.path}${queryOf(ref, fillWithA)}`, body && 'json' in body ? body.json : undefined);
    }
    expect((await send('GET', '/_sandbox/snapshot')).json.collections).not.toHaveProperty('customers.0');
    expect((await send('GET', '/_sandbox/events')).json.data).toEqual([]);
    // A's Idempotency-Keys are A's: B's identical execute under A's key is B's own request (404), not A's replay.
    const quotesOfA = before.snapshot.collections.quotes!.map((q) => q as { id: string; transactionId: string });
    const statusOf = (quote: { transactionId: string }) =>
      (before.snapshot.collections.transactions as { id: string; status: string }[]).find((t) => t.id === quote.transactionId)!.status;
    const paidQuote = quotesOfA.find((q) => statusOf(q) !== 'PENDING')!;
    expect((await send('POST', `/quotes/${paidQuote.id}/execute`, undefined, { 'idempotency-key': EXECUTE_KEY })).status).toBe(404);

    // B takes A's state as its own: a copy, whose changes and jobs stay B's.
    holdingACopy = true;
    expect((await send('POST', '/_sandbox/restore', before.snapshot)).status).toBe(204);
    const pendingQuote = quotesOfA.find((q) => statusOf(q) === 'PENDING')!;
    expect((await send('POST', `/quotes/${pendingQuote.id}/execute`)).status).toBe(200);
    // B's clock moves, running B's copies of A's jobs; A's clock does not (expectAUntouched).
    const bClock = (await send('GET', '/_sandbox/clock')).json.now;
    const advanced = await send('POST', '/_sandbox/clock/advance', { ms: 7 * 24 * 3_600_000 });
    expect(Date.parse(advanced.json.now) - Date.parse(bClock)).toBe(7 * 24 * 3_600_000);
    await send('PUT', '/_sandbox/limits', { dailyVolume: { USD: 1 } });
    await send('PUT', '/_sandbox/wallet-processing', { retries: 3 });
    await send('POST', '/sandbox/webhooks/test', { url: 'http://127.0.0.1:9/unreachable' });
    await send('PATCH', '/config', { webhookEndpoint: 'http://127.0.0.1:9/unreachable' });
    expect((await send('POST', '/_sandbox/reset')).status).toBe(204);
    holdingACopy = false;
    // A platform with A's client id is refused (409, not a takeover): expectAUntouched reads A with its credentials.
    expect((await send('POST', '/_sandbox/platforms', { clientId: a.credentials.clientId, clientSecret: 'taken-over' })).status).toBe(409);
    // Names are per platform: A's request, repeated by B under A's key with A's platformCustomerId, makes B's own customer.
    const reused = await send('POST', KEYED_CUSTOMER.path, KEYED_CUSTOMER.body, { 'idempotency-key': KEYED_CUSTOMER.key });
    expect(reused.status, reused.text).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(before.ids.get('Customer')?.has(reused.json.id)).toBe(false);

    const serverErrors = results.filter((r) => r.answer.status >= 500);
    expect(serverErrors.map((r) => `${r.label} ${r.answer.text}`)).toEqual([]);
    const shown = results.filter((r) => !r.holdingACopy).flatMap((r) => leaksIn(r).map((secret) => `${r.label} shows ${secret}`));
    expect(shown).toEqual([]);
    await expectAUntouched();
    expect((await stateOf(b.call)).idsOf(['Customer'])).toEqual([reused.json.id]);
    recordFigures(task, { 'controls walked': controls.length, 'control calls': results.length, '5xx': serverErrors.length, 'A changed': 0 });
  });
});
