import type { ApiTokenPermission, ClockState, FieldError, InternalAccount, Page, SandboxEvent, SandboxJob, Snapshot } from '@railyard/contract';
import { Snapshot as SnapshotSchema, tokenPermissionsOfAgent } from '@railyard/contract';
import { assertMayGrant, type ApiTokenRecord } from '../tokens/tokens.js';
import type { AgentRecord } from '../agents/agents.js';
import { z } from 'zod';
import { iso } from '../core/clock.js';
import { deepFreeze } from '../core/freeze.js';
import { eventsOf, type TenantContext } from '../core/context.js';
import { ApiError, invalidField, invalidInput } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { LATEST_TIME, type Job } from '../core/scheduler.js';
import { toFieldErrors } from '../core/field-errors.js';
import { postedTotals, type LedgerEntry } from '../ledger/ledger.js';
import { credentialKeysOf, JOBS, SNAPSHOT_COLLECTIONS } from './snapshot-collections.js';
import { stablecoinStateErrors } from '../stablecoins/operations.js';
import { openPlatformAccounts } from '../accounts/internal-accounts.js';
import { API_TOKENS } from '../tokens/tokens.js';
import { AGENTS } from '../agents/agents.js';

// The `/_sandbox/` control plane (DESIGN §3), as plain functions over a platform's context so the engine's in-process
// API and the HTTP routes share them.

export function clockState(tenant: TenantContext): ClockState {
  return { now: iso(tenant.clock.now()), mode: tenant.clock.mode };
}

/** Advances the shared virtual clock, running due jobs of every platform in time order. */
export function advanceClock(tenant: TenantContext, ms: number): ClockState {
  if (tenant.clock.mode !== 'virtual') {
    throw new ApiError(409, 'CONFLICT', 'The clock is real and cannot be advanced; start the engine with a virtual clock (--clock virtual)');
  }
  if (tenant.clock.now() + ms > LATEST_TIME) {
    throw invalidField('ms', `would move the clock past ${iso(LATEST_TIME)}, the latest time a date can show`, { maximum: LATEST_TIME - tenant.clock.now() });
  }
  tenant.scheduler.advance(ms);
  return clockState(tenant);
}

/**
 * Erases the platform's data and pending jobs (its API tokens and agents too). Its own credentials and options stay,
 * and so does its ownership of the credentials it issued: a restore of its own earlier state brings them back.
 */
export function reset(tenant: TenantContext): void {
  tenant.store.clear();
  tenant.scheduler.importTenant(tenant.platform.id, []);
  openPlatformAccounts(tenant);
}

/** The platform's state: the store's own records (as JSON over HTTP; see {@link frozenSnapshot} in process). */
export function snapshot(tenant: TenantContext): Snapshot {
  return {
    format: 'railyard-snapshot@2',
    takenAt: iso(tenant.clock.now()),
    collections: { ...tenant.store.export(), [JOBS]: tenant.scheduler.exportTenant(tenant.platform.id) },
  };
}

/** Snapshots this engine made and froze: valid and unchangeable, so restoring one needs no check. */
const madeHere = new WeakSet<object>();

/**
 * A snapshot for in-process use, sharing the store's records instead of copying them: frozen, so neither the caller
 * nor the engine can change the other's state (records are replaced, never changed in place, so freezing costs only the
 * first snapshot of each record). To edit one, copy it first (`structuredClone`).
 */
export function frozenSnapshot(tenant: TenantContext): Snapshot {
  const made = deepFreeze(snapshot(tenant));
  madeHere.add(made);
  return made;
}

/**
 * Replaces the platform's state with a snapshot. Every record is checked against its collection's schema first and the
 * new state is built aside, so a snapshot that is refused changes nothing. A restore puts API tokens and agents in
 * place: `holder` (the caller's token permissions; undefined for the platform's own credentials) must hold what each
 * of them may do (403 otherwise). Jobs already due run as part of the restore.
 */
export function restore(tenant: TenantContext, input: unknown, holder?: readonly ApiTokenPermission[]): void {
  if (typeof input === 'object' && input !== null && madeHere.has(input)) {
    // One of this engine's own frozen snapshots: its records are valid and shared as they are.
    const { [JOBS]: jobs = [], ...state } = (input as Snapshot).collections;
    importState(tenant, state, jobs as Job[]);
    return;
  }
  // Depth first: a payload nested deeper than any record the engine makes could not be frozen, served or snapshotted.
  if (depthOf(input, MAX_SNAPSHOT_DEPTH) > MAX_SNAPSHOT_DEPTH) throw invalidField('collections', `is nested deeper than ${MAX_SNAPSHOT_DEPTH} levels, deeper than any state this sandbox makes`);
  const parsed = SnapshotSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw invalidInput(toFieldErrors(parsed.error.issues));
  const errors: FieldError[] = [];
  const collections = new Map<string, unknown[]>();
  errors.push(...unknownCollectionErrors(input));
  for (const [name, records] of Object.entries(parsed.data.collections)) {
    const schema = Object.hasOwn(SNAPSHOT_COLLECTIONS, name) ? SNAPSHOT_COLLECTIONS[name] : undefined;
    if (!schema) continue;
    const checked = z.array(schema).safeParse(records, { reportInput: true });
    if (!checked.success) {
      errors.push(...toFieldErrors(checked.error.issues, `collections.${name}`));
      continue;
    }
    const ids = new Set<string>();
    checked.data.forEach((record, index) => {
      const { id } = record as { id: string };
      if (ids.has(id)) errors.push({ field: `collections.${name}.${index}.id`, message: `repeats id ${id}` });
      ids.add(id);
      if (name === JOBS) errors.push(...jobErrors(tenant, record as Job, `collections.${name}.${index}`));
    });
    collections.set(name, checked.data.map((record, index) => inKeyOrderOf(record, records[index])));
  }
  if (errors.length === 0) errors.push(...balanceErrors(collections), ...stablecoinStateErrors(collections));
  if (errors.length > 0) throw invalidInput(errors.slice(0, 100));
  assertRestoredGrants(holder, collections);
  const jobs = (collections.get(JOBS) ?? []) as Job[];
  collections.delete(JOBS);
  importState(tenant, Object.fromEntries(collections), jobs);
}

/**
 * `parsed` with its keys in the order `sent` has them. Parsing lists keys in schema order, so a restored record would
 * otherwise serialize differently from the one the snapshot was taken of (replies compared as text would change).
 */
function inKeyOrderOf(parsed: unknown, sent: unknown): unknown {
  if (Array.isArray(parsed)) return Array.isArray(sent) ? parsed.map((item, index) => inKeyOrderOf(item, sent[index])) : parsed;
  if (typeof parsed !== 'object' || parsed === null || typeof sent !== 'object' || sent === null) return parsed;
  const source = parsed as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) if (Object.hasOwn(source, key)) ordered[key] = inKeyOrderOf(source[key], (sent as Record<string, unknown>)[key]);
  for (const key of Object.keys(source)) if (!Object.hasOwn(ordered, key)) ordered[key] = source[key];
  return ordered;
}

/** The collections of a snapshot that this sandbox does not have (a name such as `constructor` included). */
function unknownCollectionErrors(snapshot: unknown, names: (collections: object) => string[] = Object.keys): FieldError[] {
  const collections = (snapshot as { collections?: unknown } | null)?.collections;
  if (typeof collections !== 'object' || collections === null || Array.isArray(collections)) return [];
  const known = Object.keys(SNAPSHOT_COLLECTIONS);
  return names(collections)
    .filter((name) => !Object.hasOwn(SNAPSHOT_COLLECTIONS, name))
    .map((name) => ({ field: `collections.${name}`, message: `is not a collection of this sandbox (known: ${known.join(', ')})`, constraint: { enum: known } }));
}

/**
 * For the HTTP route, run on the body as sent: a collection named `__proto__`, which parsing the body drops (it would
 * otherwise be restored as nothing, silently). Every other name is checked by {@link restore}.
 */
export const droppedCollectionErrors = (snapshot: unknown): FieldError[] =>
  unknownCollectionErrors(snapshot, (collections) => Object.keys(collections).filter((name) => name === '__proto__'));

/** How deep restored state may nest: far beyond any record the engine makes, far within what a reply can serialize. */
const MAX_SNAPSHOT_DEPTH = 64;

/** The nesting depth of `value`, counted up to `limit + 1` (a deeper value is not walked further). */
function depthOf(value: unknown, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const inner of Object.values(node)) if (typeof inner === 'object' && inner !== null) stack.push([inner, depth + 1]);
  }
  return deepest;
}

/** A restored job is one the engine could have scheduled: a kind it runs, and an id it could have given. */
function jobErrors(tenant: TenantContext, job: Job, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!tenant.scheduler.handles(job.kind)) errors.push({ field: `${field}.kind`, message: 'is not a kind of job this sandbox runs' });
  if (!JOB_ID.test(job.id)) errors.push({ field: `${field}.id`, message: 'is not a job id this sandbox gives (job-<number>, or a name)', constraint: { pattern: JOB_ID.source } });
  return errors;
}

/** Job ids the scheduler gives (`job-17`) or areas name (`quotes.expire:Quote:…`): short, and without control characters. */
const JOB_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Money comes only from the ledger: every internal account's balance must be what the restored ledger's postings to
 * it add up to, in the account's currency (a snapshot cannot mint money by editing a balance).
 */
function balanceErrors(collections: ReadonlyMap<string, unknown[]>): FieldError[] {
  const posted = postedTotals((collections.get('ledger') ?? []) as LedgerEntry[]);
  const errors: FieldError[] = [];
  ((collections.get('internalAccounts') ?? []) as InternalAccount[]).forEach((account, index) => {
    const sum = posted.get(`${account.id} ${account.balance.currency.code}`) ?? 0;
    if (account.balance.amount !== sum) {
      errors.push({
        field: `collections.internalAccounts.${index}.balance.amount`,
        message: `is ${account.balance.amount}, but the ledger's ${account.balance.currency.code} postings to ${account.id} add up to ${sum}`,
      });
    }
  });
  return errors;
}

/** 403 unless `holder` holds what every API token and agent of a restored state may do: a restore grants them. */
function assertRestoredGrants(holder: readonly ApiTokenPermission[] | undefined, collections: ReadonlyMap<string, unknown[]>): void {
  if (holder === undefined) return;
  for (const token of (collections.get(API_TOKENS) ?? []) as ApiTokenRecord[]) assertMayGrant(holder, token.permissions, `Restoring API token ${token.id}`);
  for (const agent of (collections.get(AGENTS) ?? []) as AgentRecord[]) assertMayGrant(holder, tokenPermissionsOfAgent(agent.policy.permissions), `Restoring agent ${agent.id}`);
}

function importState(tenant: TenantContext, state: Record<string, unknown[]>, jobs: readonly Job[]): void {
  try {
    tenant.store.import(state);
  } catch (error) {
    if (error instanceof RangeError) throw invalidField('collections', 'is nested too deeply to restore');
    throw error;
  }
  tenant.scheduler.importTenant(tenant.platform.id, jobs.map((job) => ({ ...job, tenantId: tenant.platform.id })));
  // The platform's own restored credentials are found again through the directory (in a server that did not know them).
  tenant.directory.claim(tenant.platform.id, credentialKeysOf(tenant));
  // A snapshot made before platforms held their own accounts gets them now, as a new platform has them.
  openPlatformAccounts(tenant);
  tenant.scheduler.runDueNow();
}

/** Emitted events, newest first. */
export function listEvents(tenant: TenantContext, query: { limit: number; cursor?: string | undefined; type?: string | undefined; resource?: string | undefined }): Page<SandboxEvent> {
  return listPage(eventsOf(tenant), query, { where: definedOnly({ type: query.type, resource: query.resource }) });
}

/** The first record id (`Type:…`) a job's payload names: the record it acts on. */
function resourceOf(payload: unknown): string | undefined {
  if (payload === null || typeof payload !== 'object') return undefined;
  for (const value of Object.values(payload)) if (typeof value === 'string' && /^[A-Z][A-Za-z]{1,40}:\S/.test(value)) return value;
  return undefined;
}

/** `GET /_sandbox/jobs`: the platform's pending jobs, soonest first. */
export function listJobs(tenant: TenantContext, query: { limit: number; dueBefore?: string | undefined }): { data: SandboxJob[]; hasMore: boolean; totalCount: number } {
  const until = query.dueBefore === undefined ? undefined : Date.parse(query.dueBefore);
  const { jobs, total } = tenant.scheduler.upcoming(tenant.platform.id, query.limit, until);
  const data = jobs.map((job): SandboxJob => {
    const resource = resourceOf(job.payload);
    return { id: job.id, kind: job.kind, runAt: new Date(job.at).toISOString(), ...(resource === undefined ? {} : { resource }) };
  });
  return { data, hasMore: total > data.length, totalCount: total };
}
