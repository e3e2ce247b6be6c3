import { ACCESS, type AccessRule, type AgentPermission, type ApiTokenPermission } from '@railyard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures } from '../support/figures.js';
import { operationsOf, sampleBody, type OpenApiDocument, type OperationRef } from '../support/openapi-requests.js';
import { ID_FIELDS, PlatformState } from '../support/platform-state.js';
import { populate } from '../support/populate.js';
import { rawCaller, type RawAnswer, type RawCall } from '../support/raw-api.js';
import { ENGINE_AND_SERVER, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';

// The access model, tried cell by cell (issue 32): every operation of the OpenAPI document the engine serves (so a new
// operation is tried without editing this file) × every kind of credential, each cell expected allowed or refused by
// the operation's row of the contract's ACCESS table (which cites REFERENCE for each row). A cell is refused when the
// answer is the credential's refusal: 401 UNAUTHORIZED, 403 naming the permission or the agent rule it lacks, or 429 (a credential
// locked by the brute-force limits); any other answer got past the access check (a 404 for a sampled id, a 400 for a
// sampled body). An operation without a row fails.

type Credentials = { clientId: string; clientSecret: string };
type Expectation = 'allowed' | 'refused';

const PERMISSIONS: readonly ApiTokenPermission[] = ['VIEW', 'TRANSACT', 'MANAGE'];
/** Every non-empty set of token permissions. */
const PERMISSION_SETS: ApiTokenPermission[][] = [1, 2, 3, 4, 5, 6, 7].map((bits) => PERMISSIONS.filter((_, i) => bits & (1 << i)));
const AGENT_PERMISSIONS: readonly AgentPermission[] = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
/**
 * Control-plane moves that erase or replace the tokens the walk uses: tried last (the restore, then the reset), and
 * where allowed, with the platform's own credentials only, after every refusal.
 */
const LAST = ['restoreSandbox', 'resetSandbox'];
/** Operations that reach another platform's record by a code meant to be shared (REFERENCE §18, §20.4). */
const SHARED_BY_CODE = new Set(['redeemAgentDeviceCode', 'getInvitation', 'claimInvitation']);

/** Whether an answer is a refusal by the access model rather than the operation's own answer. */
function refusedByAccess(answer: RawAnswer): boolean {
  // Other 401 codes are an operation's own checks (a wallet stamp, a signature it verifies), past the credential's.
  if ((answer.status === 401 && answer.json?.code === 'UNAUTHORIZED') || answer.status === 429) return true;
  const details = answer.json?.details;
  return answer.status === 403 && (details?.requiredPermission !== undefined || details?.rule === 'permissions' || details?.rule === 'isPaused');
}

const ruleOf = (ref: OperationRef): AccessRule | undefined => (Object.hasOwn(ACCESS, ref.operation.operationId) ? ACCESS[ref.operation.operationId] : undefined);

/** A credential kind: how its requests are made, and what the table expects of it for an operation (undefined: not tried). */
interface Kind {
  readonly name: string;
  readonly call: RawCall;
  readonly expect: (rule: AccessRule, ref: OperationRef) => Expectation | undefined;
  /** Path values to send instead of `x` (another platform's ids). */
  readonly path?: (ref: OperationRef) => string | undefined;
}

describe.each(ENGINE_AND_SERVER.map((make) => [make().name, make] as const))('the access matrix over %s', (_name, make) => {
  let transport: Transport;
  let doc: OpenApiDocument;
  const kinds: Kind[] = [];

  beforeAll(async () => {
    transport = make();
    await transport.start();
    const root = transport.clientFor(ROOT_CREDENTIALS);
    const a = await root.sandbox.platforms.create({ name: 'access matrix A' });
    const b = await root.sandbox.platforms.create({ name: 'access matrix B' });
    const asA = rawCaller(transport, a);
    await populate(transport.clientFor(a), asA);
    doc = (await asA('GET', '/_sandbox/openapi.json')).json;
    const stateOfA = new PlatformState((await asA('GET', '/_sandbox/snapshot')).json);

    kinds.push({ name: "the platform's own credentials", call: asA, expect: (rule) => (rule.auth === 'basic' ? 'allowed' : rule.auth === 'agent' ? 'refused' : undefined) });
    for (const permissions of PERMISSION_SETS) {
      const token = (await asA('POST', '/tokens', { body: { name: permissions.join('+'), permissions } })).json as Credentials;
      kinds.push({
        name: `a token with ${permissions.join('+')}`, call: rawCaller(transport, token),
        expect: (rule) => (rule.auth !== 'basic' ? undefined : rule.token.every((p) => permissions.includes(p)) ? 'allowed' : 'refused'),
      });
    }
    const deleted = (await asA('POST', '/tokens', { body: { name: 'deleted', permissions: [...PERMISSIONS] } })).json;
    await asA('DELETE', `/tokens/${deleted.id}`);
    kinds.push({ name: 'a deleted token', call: rawCaller(transport, deleted), expect: (rule) => (rule.auth === 'basic' ? 'refused' : undefined) });
    kinds.push({ name: 'no credential', call: rawCaller(transport), expect: (rule) => (rule.auth === 'basic' || rule.auth === 'agent' ? 'refused' : 'allowed') });

    // Another platform's own credentials on A's records: path-id operations with A's ids; a code meant to be shared reaches A.
    const withIdsOfA = (ref: OperationRef): string | undefined => {
      const names = [...ref.path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
      if (names.length === 0 || names.some((name) => ID_FIELDS[name] === undefined)) return undefined;
      let path = ref.path;
      for (const name of names) {
        const id = stateOfA.idsOf(ID_FIELDS[name]!)[0];
        if (id === undefined) return undefined;
        path = path.replace(`{${name}}`, encodeURIComponent(id));
      }
      return path;
    };
    kinds.push({
      name: "another platform's credentials, on A's records", call: rawCaller(transport, b), path: withIdsOfA,
      expect: (rule, ref) => (rule.auth !== 'basic' || withIdsOfA(ref) === undefined ? undefined : SHARED_BY_CODE.has(ref.operation.operationId) ? 'allowed' : 'refused'),
    });

    // Agents of A's customer: every permission, each one missing, paused; and an agent's token on platform routes.
    const customer = stateOfA.idsOf(['Customer'])[0]!;
    const agentOf = async (name: string, permissions: readonly AgentPermission[], paused = false): Promise<RawCall> => {
      const created = (await asA('POST', '/agents', {
        body: { name, customerId: customer, policy: { permissions, defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000_000 } } },
      })).json;
      const { accessToken } = (await asA('POST', `/agents/device-codes/${created.deviceCode.code}/redeem`)).json;
      if (paused) await asA('PATCH', `/agents/${created.agent.id}`, { body: { isPaused: true } });
      const bearer = rawCaller(transport);
      return (method, path, options = {}) => bearer(method, path, { ...options, headers: { ...options.headers, authorization: `Bearer ${accessToken}` } });
    };
    const full = await agentOf('every permission', AGENT_PERMISSIONS);
    kinds.push({ name: 'an agent with every permission', call: full, expect: (rule) => (rule.auth === 'agent' ? 'allowed' : rule.auth === 'basic' ? 'refused' : undefined) });
    for (const missing of AGENT_PERMISSIONS) {
      kinds.push({
        name: `an agent without ${missing}`, call: await agentOf(`without ${missing}`, AGENT_PERMISSIONS.filter((p) => p !== missing)),
        expect: (rule) => (rule.auth !== 'agent' ? undefined : rule.agent === missing ? 'refused' : 'allowed'),
      });
    }
    kinds.push({
      name: 'a paused agent', call: await agentOf('paused', AGENT_PERMISSIONS, true),
      // A paused agent reads, and starts nothing (REFERENCE §20.2).
      expect: (rule, ref) => (rule.auth !== 'agent' ? undefined : ref.method === 'GET' ? 'allowed' : 'refused'),
    });
  }, 120_000);
  afterAll(() => transport.stop());

  it('has a row of the ACCESS table for every operation the engine serves, and each row says how its operation authenticates', () => {
    const refs = operationsOf(doc);
    expect(refs.filter((ref) => ruleOf(ref) === undefined).map((ref) => `${ref.method} ${ref.path}`)).toEqual([]);
    const served = new Set(refs.map((ref) => ref.operation.operationId));
    expect(Object.keys(ACCESS).filter((id) => !served.has(id))).toEqual([]);
    const declared = (ref: OperationRef) => {
      const security = ref.operation.security;
      if (security === undefined) return 'basic';
      if (security.some((scheme) => 'AgentAuth' in scheme)) return 'agent';
      return ref.path.includes('{platformId}') ? 'link' : 'none';
    };
    expect(refs.filter((ref) => ruleOf(ref)!.auth !== declared(ref)).map((ref) => `${ref.operation.operationId}: ${ruleOf(ref)!.auth} / ${declared(ref)}`)).toEqual([]);
    expect(Object.values(ACCESS).filter((rule) => !/REFERENCE|SPEC|DESIGN/.test(rule.cite))).toEqual([]);
  });

  it('answers every cell as the table says: nothing allowed that is refused, nothing refused that is allowed', async ({ task }) => {
    const order = (ref: OperationRef) => LAST.indexOf(ref.operation.operationId);
    const refs = operationsOf(doc).sort((x, y) => order(x) - order(y));
    const own = kinds[0]!;
    const attempts = new Map<string, number>();
    const allowedWhereRefused: string[] = [];
    const refusedWhereAllowed: string[] = [];
    const fiveHundreds: string[] = [];
    for (const ref of refs) {
      const rule = ruleOf(ref)!;
      const last = LAST.includes(ref.operation.operationId);
      for (const kind of last ? [...kinds.slice(1), own] : kinds) {
        const expected = kind.expect(rule, ref);
        if (expected === undefined || (last && expected === 'allowed' && kind !== own)) continue;
        const body = ref.method === 'GET' ? undefined : sampleBody(doc, ref.operation);
        const options = body === undefined ? {} : 'json' in body ? { body: body.json } : { form: body.form };
        const path = kind.path?.(ref) ?? ref.path.replace(/\{[^{}]+\}/g, 'x');
        const answer = await kind.call(ref.method, path, { ...options, headers: { 'idempotency-key': crypto.randomUUID() } });
        attempts.set(kind.name, (attempts.get(kind.name) ?? 0) + 1);
        const cell = `${kind.name} × ${ref.method} ${ref.path} → ${answer.status} ${answer.json?.code ?? ''}`;
        if (answer.status >= 500) fiveHundreds.push(cell);
        // Another platform's records: refused means not found, or refused before anything was looked up (a sampled body
        // that does not validate); REFERENCE §18's cancel answers 403. Anything else would tell of A's record.
        const refused = kind.path ? [400, 403, 404].includes(answer.status) : refusedByAccess(answer);
        if (expected === 'refused' && !refused) allowedWhereRefused.push(cell);
        if (expected === 'allowed' && refused) refusedWhereAllowed.push(cell);
      }
    }
    recordFigures(task, {
      operations: refs.length,
      ...Object.fromEntries([...attempts].map(([name, count]) => [`attempts: ${name}`, count])),
      'allowed where refused': allowedWhereRefused.length,
      'refused where allowed': refusedWhereAllowed.length,
      '5xx': fiveHundreds.length,
    });
    expect(allowedWhereRefused).toEqual([]);
    expect(refusedWhereAllowed).toEqual([]);
    expect(fiveHundreds).toEqual([]);
  }, 300_000);
});
