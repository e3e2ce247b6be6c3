import { base64UrlEncode, utf8Encode, type Page } from '@railyard/contract';
import type { Collection, ListQuery } from './store.js';
import { invalidField } from './errors.js';

/** What a list endpoint asks of a collection, beside the page: its conditions and its order (newest first by default). */
export type ListConditions<T> = Omit<ListQuery<T>, 'after' | 'limit' | 'descending'> & { readonly descending?: boolean };

/**
 * One page of a collection, newest first or (for `sortOrder=asc`) oldest first (DESIGN §3). The cursor is the opaque
 * encoding of the last returned record's sequence number, so pages stay stable while records are added or removed
 * between calls, and the next page starts from its position without reading what came before.
 */
export function listPage<T extends { id: string }, R = T>(
  collection: Collection<T>,
  page: { limit: number; cursor?: string | undefined },
  conditions: ListConditions<T> = {},
  view: (value: T) => R = (v) => v as unknown as R,
): Page<R> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  // Named fields rather than a spread: V8 keeps what a spread copy points to alive through the next young-generation
  // collection, and this runs on every list request (docs/benchmarks.md).
  const result = collection.list({
    where: conditions.where,
    createdFrom: conditions.createdFrom,
    createdTo: conditions.createdTo,
    filter: conditions.filter,
    descending: conditions.descending ?? true,
    after,
    limit: page.limit,
  });
  const out: Page<R> = { data: result.entries.map((e) => view(e.value)), hasMore: result.hasMore, totalCount: result.total };
  if (result.hasMore) out.nextCursor = encodeCursor(result.entries[result.entries.length - 1]!.seq);
  return out;
}

/**
 * The conditions of the created and updated time ranges of a list query (inclusive bounds): created from the
 * collection's creation order, updated as a filter on `updatedAt`.
 */
export function timeRanges<T extends { updatedAt: string }>(
  query: { createdAfter?: string | undefined; createdBefore?: string | undefined; updatedAfter?: string | undefined; updatedBefore?: string | undefined },
): Pick<ListConditions<T>, 'createdFrom' | 'createdTo' | 'filter'> {
  const { updatedAfter, updatedBefore } = query;
  return {
    createdFrom: query.createdAfter === undefined ? undefined : rangeStart(query.createdAfter),
    createdTo: query.createdBefore === undefined ? undefined : rangeEnd(query.createdBefore),
    filter: updatedAfter === undefined && updatedBefore === undefined ? undefined : {
      key: `updated:${updatedAfter ?? ''}:${updatedBefore ?? ''}`,
      test: (record: T) => (updatedAfter === undefined || Date.parse(record.updatedAt) >= rangeStart(updatedAfter))
        && (updatedBefore === undefined || Date.parse(record.updatedAt) <= rangeEnd(updatedBefore)),
    },
  };
}

// atob rather than Buffer: the engine also runs in browsers behind msw's setupWorker.
const encodeCursor = (seq: number): string => base64UrlEncode(utf8Encode(`c1:${seq}`));

function decodeCursor(cursor: string): number {
  let text = '';
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    // falls through to the error below
  }
  const match = /^c1:(\d{1,15})$/.exec(text);
  if (!match) throw invalidField('cursor', 'cursor is not one this API returned; pass nextCursor from the previous page');
  return Number(match[1]);
}

/**
 * A copy of `source` without its undefined fields, built field by field in order. For a list, the conditions that were
 * given (an undefined value means "no condition on this index"); for a record, the fields it has. (Deleting the
 * undefined ones instead would turn a record into a slow dictionary-mode object for its whole life.)
 */
export function definedOnly<T extends object>(source: T): T {
  const out: Record<string, unknown> = {};
  for (const key in source) {
    const value = source[key];
    if (value !== undefined) out[key] = value;
  }
  return out as T;
}

/** Epoch ms a lower time bound starts at: a timestamp as given, a date-only bound at its UTC day's first millisecond. */
export const rangeStart = (bound: string): number => Date.parse(bound.length === 10 ? `${bound}T00:00:00.000Z` : bound);

/** Epoch ms an upper time bound ends at: a timestamp as given, a date-only bound at its UTC day's last millisecond. */
export const rangeEnd = (bound: string): number => Date.parse(bound.length === 10 ? `${bound}T23:59:59.999Z` : bound);

/**
 * One page of a fixed, ordered list (a sandbox directory rather than a collection), with the same cursors as
 * {@link listPage}: the cursor holds the position after the last returned item.
 */
export function pageOfList<T>(items: readonly T[], page: { limit: number; cursor?: string | undefined }): Page<T> {
  const start = page.cursor === undefined ? 0 : decodeCursor(page.cursor);
  const end = start + page.limit;
  const out: Page<T> = { data: items.slice(start, end), hasMore: end < items.length, totalCount: items.length };
  if (out.hasMore) out.nextCursor = encodeCursor(end);
  return out;
}
