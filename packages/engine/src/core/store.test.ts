import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.js';
import { createMemoryStore } from './store.js';

interface Row { id: string; group: string }

describe('memory store', () => {
  it('keeps findBy indexes up to date through insert, replace and delete', () => {
    const rows = createMemoryStore().tenant('t').collection<Row>('rows');
    rows.insert({ id: '1', group: 'a' });
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['1']);
    rows.insert({ id: '2', group: 'a' });
    rows.replace({ id: '1', group: 'b' });
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['2']);
    expect(rows.findBy('group', 'b').map((r) => r.id)).toEqual(['1']);
    rows.delete('2');
    expect(rows.findBy('group', 'a')).toEqual([]);
  });

  it('exports, clears and imports a tenant without touching another', () => {
    const store = createMemoryStore();
    const t = store.tenant('t');
    t.collection<Row>('rows').insert({ id: '1', group: 'a' });
    store.tenant('u').collection<Row>('rows').insert({ id: '9', group: 'z' });
    const saved = t.export();
    t.clear();
    expect(t.collection('rows').size).toBe(0);
    t.import(saved);
    expect(t.collection<Row>('rows').get('1')).toEqual({ id: '1', group: 'a' });
    expect(t.collection<Row>('rows').findBy('group', 'a')).toHaveLength(1);
    expect(store.tenant('u').collection('rows').size).toBe(1);
  });

  it('paginates newest first and stays stable when records are added between pages', () => {
    const rows = createMemoryStore().tenant('t').collection<Row>('rows');
    for (const id of ['1', '2', '3', '4', '5']) rows.insert({ id, group: 'a' });
    const first = paginate(rows.newestFirst(), { limit: 2 });
    expect(first.data.map((r) => r.id)).toEqual(['5', '4']);
    rows.insert({ id: '6', group: 'a' });
    const second = paginate(rows.newestFirst(), { limit: 2, cursor: first.nextCursor });
    expect(second.data.map((r) => r.id)).toEqual(['3', '2']);
    expect(second.totalCount).toBe(6);
  });
});
