import type { ClockState, Page, SandboxEvent, Snapshot } from '@railyard/contract';
import { Snapshot as SnapshotSchema } from '@railyard/contract';
import { iso } from '../core/clock.js';
import type { OutboxEvent, TenantContext } from '../core/context.js';
import { ApiError, invalidInput } from '../core/errors.js';
import { paginate } from '../core/pagination.js';
import type { Job } from '../core/scheduler.js';
import { toFieldErrors } from '../http/validate.js';

// The `/_sandbox/` control plane (DESIGN §3), as plain functions over a platform's context so the engine's in-process
// API and the HTTP routes share them.

const JOBS = 'jobs';

export function clockState(tenant: TenantContext): ClockState {
  return { now: iso(tenant.clock.now()), mode: tenant.clock.mode };
}

/** Advances the shared virtual clock, running due jobs of every platform in time order. */
export function advanceClock(tenant: TenantContext, ms: number): ClockState {
  if (tenant.clock.mode !== 'virtual') {
    throw new ApiError(409, 'CONFLICT', 'The clock is real and cannot be advanced; start the engine with a virtual clock (--clock virtual)');
  }
  tenant.scheduler.advance(ms);
  return clockState(tenant);
}

/** Erases the platform's data and pending jobs. Credentials and options stay. */
export function reset(tenant: TenantContext): void {
  tenant.store.clear();
  tenant.scheduler.importTenant(tenant.platform.id, []);
}

export function snapshot(tenant: TenantContext): Snapshot {
  return {
    format: 'railyard-snapshot@1',
    takenAt: iso(tenant.clock.now()),
    collections: { ...tenant.store.export(), [JOBS]: tenant.scheduler.exportTenant(tenant.platform.id) },
  };
}

/** Replaces the platform's state with a snapshot (validated first, so a bad one changes nothing). */
export function restore(tenant: TenantContext, input: unknown): void {
  const parsed = SnapshotSchema.safeParse(input);
  if (!parsed.success) throw invalidInput(toFieldErrors(parsed.error.issues));
  const { [JOBS]: jobs = [], ...collections } = parsed.data.collections;
  const broken = Object.entries(collections).flatMap(([name, records]) =>
    records.some((r) => r === null || typeof r !== 'object' || typeof (r as { id?: unknown }).id !== 'string')
      ? [{ field: `collections.${name}`, message: 'every record needs a string id' }]
      : []);
  if (broken.length > 0) throw invalidInput(broken);
  tenant.store.import(collections);
  tenant.scheduler.importTenant(tenant.platform.id, jobs as Job[]);
}

/** Emitted events, newest first. */
export function listEvents(tenant: TenantContext, query: { limit: number; cursor?: string | undefined; type?: string | undefined }): Page<SandboxEvent> {
  const entries = tenant.store
    .collection<OutboxEvent>('events')
    .newestFirst()
    .filter(({ value }) => query.type === undefined || value.type === query.type);
  return paginate(entries, query);
}
