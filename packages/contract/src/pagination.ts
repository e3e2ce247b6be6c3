import { z } from 'zod';
import { IsoDate, MAX_LENGTH, Timestamp, cappedString } from './common.js';

/** Page size bounds of every paginated list. */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Query parameters every paginated list accepts. */
export const PageQuery = z.object({
  // A number, or its decimal digits as a query string carries it (no hex, exponents or blanks).
  limit: z
    .union([z.number(), cappedString(MAX_LENGTH.id).regex(/^\d{1,6}$/, { message: 'must be a whole number' }).transform(Number)])
    .pipe(z.number().int().min(1).max(PAGE_LIMIT_MAX))
    .default(PAGE_LIMIT_DEFAULT),
  cursor: cappedString(512).min(1).optional(),
});

/**
 * A bound of a time-range filter (`createdAfter`, `startDate`, …; inclusive): an ISO 8601 UTC timestamp, or a date
 * `YYYY-MM-DD`, which covers its whole UTC day (from its first millisecond as a lower bound, to its last as an upper).
 */
export const TimeBound = z.union([Timestamp, IsoDate], { message: 'must be an ISO 8601 UTC timestamp or a date YYYY-MM-DD' });

/** The created and updated time ranges of the lists that offer them (each bound inclusive). */
export const TimeRangeQuery = {
  createdAfter: TimeBound.optional(),
  createdBefore: TimeBound.optional(),
  updatedAfter: TimeBound.optional(),
  updatedBefore: TimeBound.optional(),
};

/**
 * A query parameter that takes several values, in each form clients send them: repeated (`?c=EUR&c=GBP`, what the
 * reference documents) and comma-joined (`?c=EUR,GBP` or `?c=EUR%2CGBP`, what generated SDKs send), or both at once.
 */
export const queryList = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .union([cappedString(MAX_LENGTH.text), z.array(cappedString(MAX_LENGTH.text))])
    .transform((value) => (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((part) => part.trim()).filter((part) => part !== ''))
    .pipe(z.array(item));

/** Sort order accepted by some lists. */
export const SortOrder = z.enum(['asc', 'desc']);

/** The fields every page shares besides `data` (one set of schemas for all of them). */
const PAGE_FIELDS = {
  hasMore: z.boolean(),
  nextCursor: z.string().optional(),
  totalCount: z.number().int().min(0),
};

/** The envelope of a paginated list: `{data, hasMore, nextCursor, totalCount}`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), ...PAGE_FIELDS });

// Declared with the zod-free routes, which describe the same pages to the client.
export type { Page } from './route.js';

/** The envelope of the few lists that are not paginated: `{data}`. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** Query boolean (`true`/`false` strings). */
export const QueryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');
