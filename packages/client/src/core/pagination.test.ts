import { describe, expect, it } from 'vitest';
import { NotFoundError, Page, PagePromise, RailyardError } from '../index.js';
import { errorBody, individual, setup, type Recorded } from '../test-support.js';

const ids = ['Customer:1', 'Customer:2', 'Customer:3', 'Customer:4', 'Customer:5'];
/** A server with five customers that pages by `cursor` (the next index) and `limit`. */
const pagedServer = (req: Recorded) => {
  const limit = Number(req.search.get('limit') ?? 20);
  const start = Number(req.search.get('cursor') ?? 0);
  const data = ids.slice(start, start + limit).map((id) => individual(id));
  const next = start + limit;
  return { body: { data, hasMore: next < ids.length, ...(next < ids.length ? { nextCursor: String(next) } : {}), totalCount: ids.length } };
};

describe('pagination', () => {
  it('await gives the first page with helpers', async () => {
    const { client, requests } = setup(pagedServer);
    const promise = client.customers.list({ limit: 2 });
    expect(promise).toBeInstanceOf(PagePromise);
    const page = await promise;
    expect(page).toBeInstanceOf(Page);
    expect(page.data.map((c) => c.id)).toEqual(['Customer:1', 'Customer:2']);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toBe('2');
    expect(page.totalCount).toBe(5);
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second.data.map((c) => c.id)).toEqual(['Customer:3', 'Customer:4']);
    const third = await second.getNextPage();
    expect(third.data.map((c) => c.id)).toEqual(['Customer:5']);
    expect(third.hasNextPage()).toBe(false);
    expect(third.nextCursor).toBeUndefined();
    expect(() => third.getNextPage()).toThrow(RailyardError);
    expect(requests.map((r) => r.search.toString())).toEqual(['limit=2', 'limit=2&cursor=2', 'limit=2&cursor=4']);
  });

  it('for await over the promise walks all three pages, keeping the query', async () => {
    const { client, requests } = setup(pagedServer);
    const seen: string[] = [];
    for await (const customer of client.customers.list({ limit: 2, customerType: 'INDIVIDUAL' })) seen.push(customer.id);
    expect(seen).toEqual(ids);
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => r.search.get('cursor'))).toEqual([null, '2', '4']);
    expect(requests.every((r) => r.search.get('limit') === '2' && r.search.get('customerType') === 'INDIVIDUAL')).toBe(true);
  });

  it('iterating a page continues from it; iterPages yields pages', async () => {
    const { client } = setup(pagedServer);
    const first = await client.customers.list({ limit: 2 });
    const second = await first.getNextPage();
    const rest: string[] = [];
    for await (const c of second) rest.push(c.id);
    expect(rest).toEqual(['Customer:3', 'Customer:4', 'Customer:5']);
    const sizes: number[] = [];
    for await (const page of first.iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('stops early without fetching more when the loop breaks', async () => {
    const { client, requests } = setup(pagedServer);
    for await (const c of client.customers.list({ limit: 2 })) if (c.id === 'Customer:2') break;
    expect(requests).toHaveLength(1);
  });

  it('retries a failed page and surfaces errors from later pages', async () => {
    let calls = 0;
    const { client, requests } = setup((req) => {
      calls++;
      if (req.search.get('cursor') === '2' && calls === 2) return errorBody(503, 'SERVICE_UNAVAILABLE', 'x');
      if (req.search.get('cursor') === '4') return errorBody(404, 'REFERENCE_NOT_FOUND', 'cursor expired');
      return pagedServer(req);
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const c of client.customers.list({ limit: 2 })) seen.push(c.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(seen).toEqual(['Customer:1', 'Customer:2', 'Customer:3', 'Customer:4']);
    expect(requests.map((r) => r.search.get('cursor'))).toEqual([null, '2', '2', '4']);
  });

  it('refuses to loop forever on a cursor that does not advance', async () => {
    const { client } = setup([{ body: { data: [individual()], hasMore: true, nextCursor: 'same', totalCount: 99 } }]);
    const error = await (async () => {
      for await (const _ of client.customers.list()) void _;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RailyardError);
    expect((error as Error).message).toMatch(/did not advance/);
  });

  it('treats hasMore without a nextCursor as the last page', async () => {
    const { client, requests } = setup([{ body: { data: [individual()], hasMore: true, totalCount: 1 } }]);
    const all: unknown[] = [];
    for await (const c of client.customers.list()) all.push(c);
    expect(all).toHaveLength(1);
    expect(requests).toHaveLength(1);
  });

  it('withResponse works on a page promise', async () => {
    const { client } = setup(pagedServer);
    const { data, response } = await client.customers.list({ limit: 2 }).withResponse();
    expect(data.hasNextPage()).toBe(true);
    expect(response.requestId).toBe('req_1');
  });
});
