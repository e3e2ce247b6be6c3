import type { Page } from '@railyard/contract';
import type { Entry } from './store.js';
import { invalidField } from './errors.js';

/**
 * Cursor pagination over entries sorted by sequence, newest first or (for `sortOrder=asc`) oldest first (DESIGN §3).
 * The cursor is the opaque encoding of the last returned entry's sequence number, so pages stay stable while records
 * are added or removed between calls.
 */
export function paginate<T, R = T>(
  entries: Entry<T>[],
  query: { limit: number; cursor?: string | undefined },
  view: (value: T) => R = (v) => v as unknown as R,
): Page<R> {
  let start = 0;
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    const ascending = entries.length > 1 && entries[0]!.seq < entries[entries.length - 1]!.seq;
    start = entries.findIndex((e) => (ascending ? e.seq > after : e.seq < after));
    if (start === -1) start = entries.length;
  }
  const slice = entries.slice(start, start + query.limit);
  const hasMore = start + query.limit < entries.length;
  const page: Page<R> = { data: slice.map((e) => view(e.value)), hasMore, totalCount: entries.length };
  if (hasMore) page.nextCursor = encodeCursor(slice[slice.length - 1]!.seq);
  return page;
}

// btoa/atob rather than Buffer: the engine also runs in browsers behind msw's setupWorker.
const encodeCursor = (seq: number): string => btoa(`c1:${seq}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

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

/** Epoch ms a lower time bound starts at: a timestamp as given, a date-only bound at its UTC day's first millisecond. */
export const rangeStart = (bound: string): number => Date.parse(bound.length === 10 ? `${bound}T00:00:00.000Z` : bound);

/** Epoch ms an upper time bound ends at: a timestamp as given, a date-only bound at its UTC day's last millisecond. */
export const rangeEnd = (bound: string): number => Date.parse(bound.length === 10 ? `${bound}T23:59:59.999Z` : bound);
