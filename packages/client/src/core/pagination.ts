/**
 * Cursor pagination: a page of items that knows how to fetch the next one, and a promise of a page that can also
 * be iterated item by item across all pages.
 * @module
 */
import type { Page as PageEnvelope } from '@railyard/contract/routes';
import { APIPromise, type RawAPIResponse } from './api-promise.js';
import { RailyardError } from './errors.js';

/** Fetches the page that starts at `cursor`. */
export type PageFetcher<Item> = (cursor: string) => PagePromise<Item>;

/**
 * One page of a list (`{data, hasMore, nextCursor, totalCount}`), with helpers to walk on:
 *
 * ```ts
 * let page = await client.customers.list({ limit: 50 });
 * while (true) {
 *   handle(page.data);
 *   if (!page.hasNextPage()) break;
 *   page = await page.getNextPage();
 * }
 * ```
 *
 * Iterating a page with `for await` yields its items and then those of every following page.
 */
export class Page<Item> implements PageEnvelope<Item>, AsyncIterable<Item> {
  /** The items of this page. */
  data: Item[];
  /** Whether more items follow this page. */
  hasMore: boolean;
  /** Cursor of the next page; present only when {@link Page.hasMore} is true. */
  nextCursor?: string;
  /** Number of items matching the query across all pages. */
  totalCount: number;
  readonly #fetchNext: PageFetcher<Item>;

  constructor(envelope: PageEnvelope<Item>, fetchNext: PageFetcher<Item>) {
    this.data = Array.isArray(envelope.data) ? envelope.data : [];
    this.hasMore = envelope.hasMore === true;
    if (typeof envelope.nextCursor === 'string') this.nextCursor = envelope.nextCursor;
    this.totalCount = envelope.totalCount;
    this.#fetchNext = fetchNext;
  }

  /** True when there is a next page to fetch (`hasMore` with a `nextCursor`). */
  hasNextPage(): boolean {
    return this.hasMore && typeof this.nextCursor === 'string' && this.nextCursor !== '';
  }

  /** Fetches the next page with the same query and request options. Throws when there is none. */
  getNextPage(): PagePromise<Item> {
    if (!this.hasNextPage()) {
      throw new RailyardError('No next page: check hasNextPage() before calling getNextPage().');
    }
    return this.#fetchNext(this.nextCursor as string);
  }

  /** Yields this page and every following page. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this;
    const seen = new Set<string>();
    yield page;
    while (page.hasNextPage()) {
      const cursor = page.nextCursor as string;
      if (seen.has(cursor)) throw new RailyardError(`Pagination did not advance: cursor ${cursor} was returned twice.`);
      seen.add(cursor);
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Yields every item of this page and of every following page, fetching pages as needed. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) {
      for (const item of page.data) yield item;
    }
  }
}

/**
 * The promise a list method returns. `await` it for the first {@link Page}; iterate it with `for await` to get
 * every item across all pages:
 *
 * ```ts
 * const first = await client.customers.list({ limit: 2 });
 * for await (const customer of client.customers.list({ limit: 2 })) console.log(customer.id);
 * ```
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  constructor(raw: Promise<RawAPIResponse>, parse: (raw: RawAPIResponse) => Promise<Page<Item>>) {
    super(raw, parse);
  }

  /** Yields every item of the first page and of every following page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    const first = await this;
    yield* first;
  }
}
