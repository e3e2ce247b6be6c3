import { endpoints, requiredPermissions, type ApiTokenPermission } from '@railyard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFigures } from '../support/figures.js';
import { operationsOf, sampleBody, type OpenApiDocument, type OperationRef } from '../support/openapi-requests.js';
import { populate } from '../support/populate.js';
import { rawCaller, type RawCall } from '../support/raw-api.js';
import { ENGINE_AND_SERVER, ROOT_CREDENTIALS, type Transport } from '../support/transports.js';

// API token permissions on every route (REFERENCE §19, §11): the OpenAPI document the engine serves is walked (so a new
// route is covered without editing this file) with a token of each single permission. A token without the operation's
// permission gets 403 FORBIDDEN naming it, and changes nothing; a token with it gets past the check.

const PERMISSIONS: readonly ApiTokenPermission[] = ['VIEW', 'TRANSACT', 'MANAGE'];
/** Control-plane moves that would end the walk by erasing the tokens themselves. */
const ERASES_TOKENS = new Set(['resetSandbox', 'restoreSandbox']);
const byOperationId = new Map(Object.values(endpoints).map((e) => [e.operationId, e]));

describe.each(ENGINE_AND_SERVER.map((make) => [make().name, make] as const))('API token permissions over %s', (_name, make) => {
  let transport: Transport;
  let platform: RawCall;
  let doc: OpenApiDocument;
  const callers = new Map<ApiTokenPermission, RawCall>();

  beforeAll(async () => {
    transport = make();
    await transport.start();
    const created = await transport.clientFor(ROOT_CREDENTIALS).sandbox.platforms.create({ name: 'permissions' });
    const client = transport.clientFor(created);
    platform = rawCaller(transport, created);
    await populate(client, platform);
    for (const permission of PERMISSIONS) {
      const token = (await platform('POST', '/tokens', { body: { name: `only ${permission}`, permissions: [permission] } })).json;
      callers.set(permission, rawCaller(transport, { clientId: token.clientId, clientSecret: token.clientSecret }));
    }
    doc = (await platform('GET', '/_sandbox/openapi.json')).json;
  });
  afterAll(() => transport.stop());

  /** The operations a token may call: every one behind Basic credentials (public pages, device-code redeems and agents' own operations take none). */
  const guarded = (): OperationRef[] => operationsOf(doc).filter((ref) => ref.operation.security === undefined);
  const pathOf = (ref: OperationRef) => ref.path.replace(/\{[^{}]+\}/g, 'x');
  const send = (call: RawCall, ref: OperationRef) => {
    const body = ref.method === 'GET' ? undefined : sampleBody(doc, ref.operation);
    const options = body === undefined ? {} : 'json' in body ? { body: body.json } : { form: body.form };
    return call(ref.method, pathOf(ref), { ...options, headers: { 'idempotency-key': crypto.randomUUID() } });
  };

  it('refuses every operation to a token without its permission: 403 FORBIDDEN naming it, nothing changed', async ({ task }) => {
    const before = (await platform('GET', '/_sandbox/snapshot')).json;
    const wrong: string[] = [];
    let refusals = 0;
    for (const ref of guarded()) {
      const needed = requiredPermissions(byOperationId.get(ref.operation.operationId)!);
      for (const permission of PERMISSIONS.filter((p) => needed.length > 1 || p !== needed[0])) {
        const answer = await send(callers.get(permission)!, ref);
        refusals++;
        const missing = needed.find((p) => p !== permission);
        if (answer.status !== 403 || answer.json?.code !== 'FORBIDDEN' || answer.json?.details?.requiredPermission !== missing) {
          wrong.push(`${permission} ${ref.method} ${ref.path} → ${answer.status} ${answer.json?.code ?? ''}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect((await platform('GET', '/_sandbox/snapshot')).json.collections).toEqual(before.collections);
    recordFigures(task, { operations: guarded().length, refusals });
  });

  it('lets a token with the permission past the check on every operation', async ({ task }) => {
    const wrong: string[] = [];
    const statuses = new Map<number, number>();
    for (const ref of guarded().filter((r) => !ERASES_TOKENS.has(r.operation.operationId) && requiredPermissions(byOperationId.get(r.operation.operationId)!).length === 1)) {
      const needed = requiredPermissions(byOperationId.get(ref.operation.operationId)!)[0]!;
      const answer = await send(callers.get(needed)!, ref);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      // A 401 UNAUTHORIZED is the token refused; other 401s are the operation's own checks (a signature it verifies).
      if (answer.json?.code === 'UNAUTHORIZED' || answer.json?.details?.requiredPermission !== undefined || answer.status >= 500) {
        wrong.push(`${needed} ${ref.method} ${ref.path} → ${answer.status} ${answer.json?.code ?? ''}`);
      }
    }
    expect(wrong).toEqual([]);
    recordFigures(task, { statuses: [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ') });
  });
});
