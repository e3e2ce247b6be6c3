import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../core/store.js';
import { jsonInSlices, replyJson } from './json.js';

describe('reply JSON', () => {
  it('is the JSON.stringify text for single values, pages (data first) and non-page objects', () => {
    const record = Object.freeze({ id: 'a', amount: 1, nested: { x: [1, 2] }, later: undefined });
    const page = { data: [record, { id: 'b' }], hasMore: true, totalCount: 2, nextCursor: 'YzE6Mg' };
    expect(replyJson(record)).toBe(JSON.stringify(record));
    expect(replyJson(page)).toBe(JSON.stringify(page));
    expect(JSON.parse(replyJson({ hasMore: false, data: [] }))).toEqual({ data: [], hasMore: false });
    expect(replyJson({ data: [record] })).toBe(`{"data":[${JSON.stringify(record)}]}`);
    expect(replyJson([record])).toBe(JSON.stringify([record]));
    expect(replyJson({ status: 400, code: 'INVALID_INPUT' })).toBe('{"status":400,"code":"INVALID_INPUT"}');
    expect(replyJson({ data: [undefined, null, 'x'] })).toBe('{"data":[null,null,"x"]}');
  });

  it('reuses a stored record’s JSON, and serializes anything not frozen afresh', () => {
    const store = createMemoryStore().tenant('t').collection<{ id: string; status: string }>('rows');
    const stored = store.insert({ id: '1', status: 'PENDING' });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(replyJson(stored)).toBe('{"id":"1","status":"PENDING"}');
    // A change is a new record: the new object gets its own JSON.
    const replaced = store.replace({ ...stored, status: 'COMPLETED' });
    expect(replyJson({ data: [replaced] })).toBe('{"data":[{"id":"1","status":"COMPLETED"}]}');
    // The kept text is what is sent again (records are never changed in place, so it cannot go stale).
    const shallow = Object.freeze({ id: '3', inner: { v: 1 } });
    expect(replyJson(shallow)).toBe('{"id":"3","inner":{"v":1}}');
    shallow.inner.v = 2;
    expect(replyJson(shallow)).toBe('{"id":"3","inner":{"v":1}}');
    // A view built for one reply may be changed by its maker: it is never kept.
    const view: { id: string; status: string } = { id: '2', status: 'PENDING' };
    expect(replyJson({ data: [view] })).toBe('{"data":[{"id":"2","status":"PENDING"}]}');
    view.status = 'FAILED';
    expect(replyJson({ data: [view] })).toBe('{"data":[{"id":"2","status":"FAILED"}]}');
  });

  it('keeps a bounded number of records: older ones are serialized again, with the same text', () => {
    const records = Array.from({ length: 20_000 }, (_, i) => Object.freeze({ id: String(i) }));
    for (const record of records) replyJson(record);
    expect(replyJson(records[0])).toBe('{"id":"0"}');
    expect(replyJson(records[19_999])).toBe('{"id":"19999"}');
  });
});

describe('jsonInSlices', () => {
  it('writes the text JSON.stringify writes', async () => {
    const value = {
      format: 'x', skipped: undefined, when: new Date(0), nested: { list: [1, 'two', null, undefined, { a: [3] }], empty: [] },
      collections: { many: Array.from({ length: 25 }, (_, i) => ({ id: `r${i}`, tags: ['a'], gone: undefined })) },
    };
    expect((await jsonInSlices(value, 7)).text).toBe(JSON.stringify(value));
  });

  it('lets other work run between slices', async () => {
    const order: string[] = [];
    const written = jsonInSlices({ records: Array.from({ length: 10 }, (_, i) => ({ i })) }, 3).then(() => order.push('written'));
    setImmediate(() => order.push('timer'));
    await written;
    // Written in one go, the JSON would be done before any timer could fire.
    expect(order).toEqual(['timer', 'written']);
  });
});
