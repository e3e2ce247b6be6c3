/**
 * Agents, platform side (REFERENCE §20.1, §20.3, §20.4): an agent acts for one customer under a policy. It connects
 * by redeeming a device code (without credentials), which gives it its Bearer access token once. Of both, only their
 * SHA-256 is kept, and the engine's credential directory finds the platform of each, whatever the number of platforms.
 * Deleting the agent ends its token at once: every request reads the agent's record.
 *
 * An agent is a credential: a caller may create one, change its policy, resume it or issue it a device code only
 * while holding what the agent may do (in API-token terms: `tokenPermissionsOfAgent`).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { Agent, AgentDeviceCode, AgentPolicy, AgentUsage, ApiTokenPermission, FieldError, Page } from '@railyard/contract';
import { Agent as AgentSchema, AgentCreateRequest, AgentListQuery, AgentPolicyUpdate, AgentUpdateRequest, bytesToHex, tokenPermissionsOfAgent } from '@railyard/contract';
import { z } from 'zod';
import { convertMinorUnits, MARKET } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError, conflict, notFound } from '../core/errors.js';
import { randomHex } from '../core/ids.js';
import { definedOnly, listPage, timeRanges } from '../core/pagination.js';
import { onField } from '../core/store.js';
import { findCustomer } from '../customers/customers.js';
import { assertMayGrant } from '../tokens/tokens.js';

export const AGENTS = 'agents';
export const AGENT_DEVICE_CODES = 'agentDeviceCodes';
/** How long a device code may be redeemed (the reference's example shows a day). */
export const DEVICE_CODE_TTL_MS = 24 * 3_600_000;

/**
 * An agent as kept: the API's fields (usage as counted for its day and month, see {@link usageOf}), and the SHA-256 of
 * its access token once connected.
 */
export const AgentRecord = AgentSchema.omit({ usage: true }).extend({
  usage: z.object({ day: z.string(), month: z.string(), dailyTransactionCount: z.number().int().min(0), dailySpend: z.number().int().min(0), monthlySpend: z.number().int().min(0) }),
  accessTokenSha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  /** The client id of the platform that issued its access token and device codes (core/directory.ts). */
  issuer: z.string().optional(),
});
export type AgentRecord = z.infer<typeof AgentRecord>;

/**
 * A device code as kept: its id is the SHA-256 of the code (the code itself is a bearer secret, shown once);
 * `replaced` once a newer one was issued.
 */
export const AgentDeviceCodeRecord = z.object({
  id: z.string(), agentId: z.string(), expiresAt: z.string(), redeemed: z.boolean(), replaced: z.boolean(),
  /** The client id of the platform that issued it (core/directory.ts). */
  issuer: z.string().optional(),
});
type AgentDeviceCodeRecord = z.infer<typeof AgentDeviceCodeRecord>;

const agents = (tenant: TenantContext) => tenant.store.collection<AgentRecord>(AGENTS, {
  indexes: {
    customerId: onField('customerId'), isPaused: onField('isPaused'), isConnected: onField('isConnected'), accessTokenSha256: onField('accessTokenSha256'),
  },
  createdAt: (a) => Date.parse(a.createdAt),
});
const deviceCodes = (tenant: TenantContext) => tenant.store.collection<AgentDeviceCodeRecord>(AGENT_DEVICE_CODES, { indexes: { agentId: onField('agentId') } });

const sha256Hex = (text: string): string => bytesToHex(sha256(new TextEncoder().encode(text)));
/** A device code's id: its SHA-256, of the code in upper case (codes are read case-insensitively). */
const deviceCodeId = (code: string): string => sha256Hex(code.toUpperCase());
const today = (tenant: TenantContext) => tenant.nowIso().slice(0, 10);

/** The usage counts as they stand now: a new day (or month) starts from zero. */
export function usageOf(tenant: TenantContext, record: AgentRecord): AgentUsage {
  const day = today(tenant);
  const month = day.slice(0, 7);
  const sameDay = record.usage.day === day;
  const sameMonth = record.usage.month === month;
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();
  const [year, m] = month.split('-').map(Number) as [number, number];
  return {
    dailyTransactionCount: sameDay ? record.usage.dailyTransactionCount : 0,
    dailySpend: sameDay ? record.usage.dailySpend : 0,
    monthlySpend: sameMonth ? record.usage.monthlySpend : 0,
    dailyResetDate: next.slice(0, 10),
    monthlyResetMonth: m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`,
  };
}

/** Counts a payment the agent made, in its limits' currency. */
export function countSpend(tenant: TenantContext, agentId: string, amount: number): void {
  const record = findAgentRecord(tenant, agentId);
  const usage = usageOf(tenant, record);
  const day = today(tenant);
  save(tenant, {
    ...record,
    usage: { day, month: day.slice(0, 7), dailyTransactionCount: usage.dailyTransactionCount + 1, dailySpend: usage.dailySpend + amount, monthlySpend: usage.monthlySpend + amount },
  });
}

const view = (tenant: TenantContext, record: AgentRecord): Agent => {
  const { accessTokenSha256: _token, usage: _counts, issuer: _issuer, ...agent } = record;
  return { ...agent, usage: usageOf(tenant, record) };
};

function save(tenant: TenantContext, record: AgentRecord): AgentRecord {
  agents(tenant).replace(record);
  return record;
}

function touch(tenant: TenantContext, record: AgentRecord, changes: Partial<AgentRecord>): Agent {
  return view(tenant, save(tenant, { ...record, ...changes, updatedAt: tenant.nowIso() }));
}

/** The agent's record, or 404. */
export function findAgentRecord(tenant: TenantContext, agentId: string): AgentRecord {
  const found = agents(tenant).get(agentId);
  if (!found) throw notFound('Agent', agentId);
  return found;
}

export const findAgent = (tenant: TenantContext, agentId: string): Agent => view(tenant, findAgentRecord(tenant, agentId));

/** 403 unless `holder` holds what an agent with `policy` may do (see {@link tokenPermissionsOfAgent}). */
const assertMayEmpower = (holder: readonly ApiTokenPermission[] | undefined, policy: AgentPolicy, what: string) =>
  assertMayGrant(holder, tokenPermissionsOfAgent(policy.permissions), what);

/**
 * Currencies of a policy the sandbox can price (limits in any other cannot be weighed): field errors for the
 * binding's check, on create (`policy.` prefix) and on a policy PATCH.
 */
export function policyCurrencyErrors(policy: unknown, prefix = ''): FieldError[] {
  const errors: FieldError[] = [];
  const known = Object.keys(MARKET);
  const check = (value: unknown, field: string) => {
    if (typeof value === 'string' && !Object.hasOwn(MARKET, value)) {
      errors.push({ field: `${prefix}${field}`, message: `${value} has no sandbox exchange rate, so limits in it cannot be weighed: use one of ${known.join(', ')}`, constraint: { enum: known } });
    }
  };
  const object = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined);
  check(object(object(policy)?.spendingLimits)?.currency, 'spendingLimits.currency');
  check(object(object(policy)?.approvalThresholds)?.currency, 'approvalThresholds.currency');
  return errors;
}

/** `POST /agents`: the agent, and its first device code; only what the caller holds may be granted. */
export function createAgent(tenant: TenantContext, request: z.output<typeof AgentCreateRequest>, holder?: readonly ApiTokenPermission[]): { agent: Agent; deviceCode: AgentDeviceCode } {
  assertMayEmpower(holder, request.policy, 'This agent');
  const customer = findCustomer(tenant, request.customerId);
  if (customer.isDeleted) throw new ApiError(410, 'CUSTOMER_DELETED', `Customer ${request.customerId} was deleted`);
  const now = tenant.nowIso();
  const day = now.slice(0, 10);
  const record: AgentRecord = {
    id: tenant.ids('Agent'), name: request.name, customerId: request.customerId, isPaused: false, isConnected: false,
    policy: request.policy, usage: { day, month: day.slice(0, 7), dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 },
    createdAt: now, updatedAt: now, issuer: tenant.platform.clientId,
  };
  agents(tenant).insert(record);
  return { agent: view(tenant, record), deviceCode: issueDeviceCode(tenant, record.id) };
}

export function listAgents(tenant: TenantContext, query: z.output<typeof AgentListQuery>): Page<Agent> {
  return listPage(agents(tenant), query, {
    where: definedOnly({ customerId: query.customerId, isPaused: query.isPaused, isConnected: query.isConnected }),
    ...timeRanges<AgentRecord>(query),
  }, (record) => view(tenant, record));
}

/**
 * `PATCH /agents/{id}`: a new name, or paused (a paused agent starts nothing; what it started goes on). Resuming
 * gives the agent back what it may do: only a caller holding that may.
 */
export function updateAgent(tenant: TenantContext, agentId: string, request: z.output<typeof AgentUpdateRequest>, holder?: readonly ApiTokenPermission[]): Agent {
  const record = findAgentRecord(tenant, agentId);
  if (request.isPaused === false && record.isPaused) assertMayEmpower(holder, record.policy, `Resuming agent ${agentId}`);
  return touch(tenant, record, definedOnly({ name: request.name, isPaused: request.isPaused }));
}

/** `DELETE /agents/{id}`: its token stops working at once; its actions stay readable in the approvals list. */
export function deleteAgent(tenant: TenantContext, agentId: string): void {
  const record = findAgentRecord(tenant, agentId);
  agents(tenant).delete(agentId);
  if (record.accessTokenSha256 !== undefined) tenant.directory.unregister('agentToken', record.accessTokenSha256, tenant.platform.id);
  for (const code of deviceCodes(tenant).findBy('agentId', agentId)) {
    deviceCodes(tenant).delete(code.id);
    tenant.directory.unregister('deviceCode', code.id, tenant.platform.id);
  }
}

/**
 * `PATCH /agents/{id}/policy`: what is sent replaces what was, field by field; `spendingLimits` merges, and a new
 * currency re-expresses the limits not sent (and what was spent) in it.
 */
export function updatePolicy(tenant: TenantContext, agentId: string, request: z.output<typeof AgentPolicyUpdate>, holder?: readonly ApiTokenPermission[]): Agent {
  const record = findAgentRecord(tenant, agentId);
  const current = record.policy.spendingLimits;
  let limits = current;
  let usage = record.usage;
  if (request.spendingLimits !== undefined) {
    const currency = request.spendingLimits.currency ?? current.currency;
    const convert = (amount: number) => convertMinorUnits(amount, current.currency, currency);
    const reexpressed = (value: number | null | undefined) => (value === null || value === undefined ? value : convert(value));
    limits = {
      ...current,
      currency,
      perTransactionLimit: convert(current.perTransactionLimit),
      ...(current.dailyLimit === undefined ? {} : { dailyLimit: reexpressed(current.dailyLimit) }),
      ...(current.monthlyLimit === undefined ? {} : { monthlyLimit: reexpressed(current.monthlyLimit) }),
      ...definedOnly(request.spendingLimits),
    };
    usage = { ...usage, dailySpend: convert(usage.dailySpend), monthlySpend: convert(usage.monthlySpend) };
  }
  const policy: AgentPolicy = { ...record.policy, ...definedOnly({ ...request, spendingLimits: undefined }), spendingLimits: limits };
  // Any change of a policy sets what the agent may do from now on (a higher limit is more money): the caller must hold it.
  assertMayEmpower(holder, policy, `This policy of agent ${agentId}`);
  return touch(tenant, record, { policy, usage });
}

// ---------------------------------------------------------------------------------------------------------------------
// Device codes and access tokens

/** `XXXX` of letters and digits that cannot be misread (no 0/O, 1/I). */
function readableGroup(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => alphabet[b % alphabet.length]).join('');
}

/** A new device code, shown this once; earlier unredeemed ones of the agent stop working. */
function issueDeviceCode(tenant: TenantContext, agentId: string): AgentDeviceCode {
  for (const earlier of deviceCodes(tenant).findBy('agentId', agentId)) {
    if (!earlier.redeemed && !earlier.replaced) deviceCodes(tenant).replace({ ...earlier, replaced: true });
  }
  const code = `${readableGroup()}${readableGroup()}-AGENT-${readableGroup()}-${readableGroup()}`;
  const record: AgentDeviceCodeRecord = {
    id: deviceCodeId(code), agentId, expiresAt: new Date(tenant.clock.now() + DEVICE_CODE_TTL_MS).toISOString(), redeemed: false, replaced: false,
    issuer: tenant.platform.clientId,
  };
  deviceCodes(tenant).insert(record);
  tenant.directory.register('deviceCode', record.id, tenant.platform.id);
  return { code, agentId, expiresAt: record.expiresAt, redeemed: false };
}

/**
 * `POST /agents/{id}/device-codes`: a new code, the earlier unredeemed ones no longer valid; 409 once connected.
 * The code connects the agent: only a caller holding what the agent may do may issue one.
 */
export function regenerateDeviceCode(tenant: TenantContext, agentId: string, holder?: readonly ApiTokenPermission[]): AgentDeviceCode {
  const record = findAgentRecord(tenant, agentId);
  assertMayEmpower(holder, record.policy, `A device code of agent ${agentId}`);
  if (record.isConnected) throw conflict(`Agent ${agentId} is connected already: delete it and create another to connect a new install`);
  return issueDeviceCode(tenant, agentId);
}

function findDeviceCode(tenant: TenantContext, code: string): AgentDeviceCodeRecord {
  const found = deviceCodes(tenant).get(deviceCodeId(code));
  // The code is a bearer secret: the answer does not repeat it (a near miss would show the code in error logs).
  if (!found) throw new ApiError(404, 'REFERENCE_NOT_FOUND', 'No such device code: it was never issued, or its agent was deleted');
  return found;
}

/** `GET /agents/device-codes/{code}/status`: the code as the caller sent it (in upper case), and whether it was redeemed. */
export function deviceCodeStatus(tenant: TenantContext, code: string): { code: string; redeemed: boolean } {
  return { code: code.toUpperCase(), redeemed: findDeviceCode(tenant, code).redeemed };
}

/** The directory key of a device code (how an unauthenticated redeem finds its platform). */
export const deviceCodeKey = deviceCodeId;

/** Whether this platform issued the device code. */
export const holdsDeviceCode = (tenant: TenantContext, code: string): boolean => deviceCodes(tenant).has(deviceCodeId(code));

/** The directory keys of the access tokens and device codes the platform issued itself (claimed after a restore). */
export function agentCredentialKeys(tenant: TenantContext): (readonly ['agentToken' | 'deviceCode', string])[] {
  const keys: (readonly ['agentToken' | 'deviceCode', string])[] = [];
  const own = (issuer: string | undefined) => issuer === tenant.platform.clientId;
  for (const agent of agents(tenant).values()) if (agent.accessTokenSha256 !== undefined && own(agent.issuer)) keys.push(['agentToken', agent.accessTokenSha256]);
  for (const code of deviceCodes(tenant).values()) if (own(code.issuer)) keys.push(['deviceCode', code.id]);
  return keys;
}

/**
 * `POST /agents/device-codes/{code}/redeem`, without credentials: the agent's access token, this once; the agent is
 * connected. 400 for a code redeemed, replaced or expired.
 */
export function redeemDeviceCode(tenant: TenantContext, code: string): { agentId: string; agentName: string; accessToken: string; policy: AgentPolicy } {
  const found = findDeviceCode(tenant, code);
  const refuse = (why: string) => {
    throw new ApiError(400, 'INVALID_INPUT', `This device code ${why}`, { errors: [{ field: 'code', message: why }] });
  };
  if (found.redeemed) refuse('was redeemed already: its access token was given then, once');
  if (found.replaced) refuse('was replaced by a newer one: redeem the latest');
  if (tenant.clock.now() >= Date.parse(found.expiresAt)) refuse(`expired at ${found.expiresAt}: issue a new one (POST /agents/{agentId}/device-codes)`);
  const agent = findAgentRecord(tenant, found.agentId);
  const accessToken = `gat_${randomHex(20)}`;
  deviceCodes(tenant).replace({ ...found, redeemed: true });
  const accessTokenSha256 = sha256Hex(accessToken);
  save(tenant, { ...agent, isConnected: true, accessTokenSha256, updatedAt: tenant.nowIso() });
  tenant.directory.register('agentToken', accessTokenSha256, tenant.platform.id);
  return { agentId: agent.id, agentName: agent.name, accessToken, policy: agent.policy };
}

/** The SHA-256 of an access token: how it is kept, and its directory key. */
export const accessTokenKey = sha256Hex;

/** The agent whose access token has this SHA-256, or undefined (the token itself is never kept). */
export const agentWithTokenHash = (tenant: TenantContext, accessTokenSha256: string): AgentRecord | undefined =>
  agents(tenant).findBy('accessTokenSha256', accessTokenSha256)[0];
