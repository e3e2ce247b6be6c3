import type { ClockState, FieldError, Page, SandboxEvent, Snapshot } from '@railyard/contract';
import { Snapshot as SnapshotSchema } from '@railyard/contract';
import { z } from 'zod';
import { iso } from '../core/clock.js';
import { deepFreeze } from '../core/freeze.js';
import { eventsOf, type TenantContext } from '../core/context.js';
import { ApiError, invalidField, invalidInput } from '../core/errors.js';
import { definedOnly, listPage } from '../core/pagination.js';
import { LATEST_TIME, type Job } from '../core/scheduler.js';
import { toFieldErrors } from '../core/field-errors.js';
import { JOBS, SNAPSHOT_COLLECTIONS } from './snapshot-collections.js';

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

/** Erases the platform's data and pending jobs. Credentials and options stay. */
export function reset(tenant: TenantContext): void {
  tenant.store.clear();
  tenant.scheduler.importTenant(tenant.platform.id, []);
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
 * new state is built aside, so a snapshot that is refused changes nothing.
 */
export function restore(tenant: TenantContext, input: unknown): void {
  if (typeof input === 'object' && input !== null && madeHere.has(input)) {
    // One of this engine's own frozen snapshots: its records are valid and shared as they are.
    const { [JOBS]: jobs = [], ...state } = (input as Snapshot).collections;
    importState(tenant, state, jobs as Job[]);
    return;
  }
  const parsed = SnapshotSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw invalidInput(toFieldErrors(parsed.error.issues));
  const errors: FieldError[] = [];
  const collections: Record<string, unknown[]> = {};
  for (const [name, records] of Object.entries(parsed.data.collections)) {
    const schema = SNAPSHOT_COLLECTIONS[name];
    if (!schema) {
      errors.push({ field: `collections.${name}`, message: `is not a collection of this sandbox (known: ${Object.keys(SNAPSHOT_COLLECTIONS).join(', ')})`, constraint: { enum: Object.keys(SNAPSHOT_COLLECTIONS) } });
      continue;
    }
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
      if (name === JOBS && !tenant.scheduler.handles((record as Job).kind)) {
        errors.push({ field: `collections.${name}.${index}.kind`, message: `is not a kind of job this sandbox runs` });
      }
    });
    collections[name] = checked.data;
  }
  if (errors.length > 0) throw invalidInput(errors.slice(0, 100));
  const { [JOBS]: jobs = [], ...state } = collections;
  importState(tenant, state, jobs as Job[]);
}

function importState(tenant: TenantContext, state: Record<string, unknown[]>, jobs: readonly Job[]): void {
  try {
    tenant.store.import(state);
  } catch (error) {
    if (error instanceof RangeError) throw invalidField('collections', 'is nested too deeply to restore');
    throw error;
  }
  tenant.scheduler.importTenant(tenant.platform.id, jobs.map((job) => ({ ...job, tenantId: tenant.platform.id })));
}

/** Emitted events, newest first. */
export function listEvents(tenant: TenantContext, query: { limit: number; cursor?: string | undefined; type?: string | undefined }): Page<SandboxEvent> {
  return listPage(eventsOf(tenant), query, { where: definedOnly({ type: query.type }) });
}
