import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listPage, type ListConditions } from './pagination.js';
import { SeqList } from './seq-list.js';
import { SPLIT_AT } from './sharded-map.js';
import { CHUNK } from './slots.js';
import { createMemoryStore, type Collection, type CollectionOptions } from './store.js';

interface Row { id: string; group: string; tags?: string[]; createdAt?: number; note?: string }

const ROWS: CollectionOptions<Row> = {
  indexes: { group: (r) => r.group, tag: (r) => r.tags ?? [] },
  createdAt: (r) => r.createdAt ?? 0,
};
const rowsOf = () => createMemoryStore().tenant('t').collection<Row>('rows', ROWS);
const ids = (page: { data: Row[] }) => page.data.map((r) => r.id);

/** Every page of a list, following nextCursor; also the totalCount each page reported. */
function walk(collection: Collection<Row>, limit: number, conditions: ListConditions<Row> = {}) {
  const pages: string[][] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = listPage(collection, { limit, cursor }, conditions);
    pages.push(ids(page));
    totals.push(page.totalCount);
    if (!page.hasMore) return { pages, totals };
    cursor = page.nextCursor;
  }
}

describe('SeqList', () => {
  it('matches a sorted array through random adds and deletes, across chunk splits and merges', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 3000 })), { maxLength: 4000 }), (ops) => {
      const list = new SeqList();
      const model = new Set<number>();
      for (const [add, value] of ops) {
        if (add) {
          list.add(value);
          model.add(value);
        } else {
          expect(list.delete(value)).toBe(model.delete(value));
        }
      }
      const sorted = [...model].sort((a, b) => a - b);
      expect(list.size).toBe(sorted.length);
      expect([...list.between(0, Infinity, false)]).toEqual(sorted);
      expect([...list.between(0, Infinity, true)]).toEqual([...sorted].reverse());
      for (const probe of [0, 1, 500, 1500, 2999, 3001]) {
        expect(list.rank(probe)).toBe(sorted.filter((v) => v < probe).length);
        expect(list.has(probe)).toBe(model.has(probe));
        expect([...list.between(probe, probe + 700, false)]).toEqual(sorted.filter((v) => v >= probe && v <= probe + 700));
        expect([...list.between(probe, probe + 700, true)]).toEqual(sorted.filter((v) => v >= probe && v <= probe + 700).reverse());
        expect(list.countBetween(probe, probe + 700)).toBe(sorted.filter((v) => v >= probe && v <= probe + 700).length);
      }
      sorted.forEach((value, rank) => {
        if (rank % 97 === 0) expect(list.at(rank)).toBe(value);
      });
    }), { numRuns: 40 });
  });

  it('appends in order into chunks of bounded size', () => {
    const list = new SeqList();
    for (let i = 1; i <= 100_000; i++) list.add(i);
    expect(list.size).toBe(100_000);
    expect([list.first, list.last, list.at(54_321), list.rank(54_322)]).toEqual([1, 100_000, 54_322, 54_321]);
  });
});

describe('memory collections', () => {
  it('refuses a second record with an id it holds, and keeps the first where it was', () => {
    const rows = rowsOf();
    rows.insert({ id: '1', group: 'a' });
    rows.insert({ id: '2', group: 'a' });
    expect(() => rows.insert({ id: '1', group: 'b' })).toThrow('duplicate id 1');
    expect(rows.get('1')).toEqual({ id: '1', group: 'a' });
    expect(rows.size).toBe(2);
    expect(rows.findBy('group', 'b')).toEqual([]);
    rows.replace({ id: '1', group: 'c' });
    expect([...rows.values()].map((r) => `${r.id}${r.group}`)).toEqual(['1c', '2a']);
    rows.insert({ id: '3', group: 'a' });
    expect(listPage(rows, { limit: 10 }, {}).data.map((r) => r.id)).toEqual(['3', '2', '1']);
  });

  it('keeps findBy indexes up to date through insert, replace and delete, in insertion order', () => {
    const rows = rowsOf();
    rows.insert({ id: '1', group: 'a' });
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['1']);
    rows.insert({ id: '2', group: 'a' });
    rows.replace({ id: '1', group: 'b' });
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['2']);
    expect(rows.findBy('group', 'b').map((r) => r.id)).toEqual(['1']);
    rows.replace({ id: '1', group: 'a' });
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['1', '2']);
    rows.delete('2');
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['1']);
    // A field without a declared index gets one on its first lookup.
    rows.insert({ id: '3', group: 'c', note: 'x' });
    expect(rows.findBy('note', 'x').map((r) => r.id)).toEqual(['3']);
    rows.insert({ id: '4', group: 'c', note: 'x' });
    expect(rows.findBy('note', 'x').map((r) => r.id)).toEqual(['3', '4']);
  });

  it('keeps records, ids, unique and shared index keys right once its maps spread over shards and its records over chunks, through export and import', () => {
    const t = createMemoryStore().tenant('t');
    const rows = t.collection<Row>('rows', ROWS);
    const count = Math.max(SPLIT_AT, 2 * CHUNK) + 1_000; // past the maps' split, and into a third chunk of records
    for (let i = 1; i <= count; i++) rows.insert({ id: `row-${i}`, group: `g${i % 3}`, note: `n${i}`, createdAt: i });
    expect(() => rows.insert({ id: 'row-7', group: 'g0' })).toThrow('duplicate id row-7');
    rows.replace({ id: 'row-7', group: 'moved', note: 'renamed', createdAt: 7 });
    for (let i = 10; i <= count; i += 10) rows.delete(`row-${i}`);
    const expected = count - Math.floor(count / 10);
    expect(rows.size).toBe(expected);
    expect(rows.get('row-7')?.group).toBe('moved');
    expect(rows.get('row-10')).toBeUndefined();
    expect(rows.has(`row-${count - 1}`)).toBe(true);
    expect(rows.findBy('note', 'n7')).toEqual([]);
    expect(rows.findBy('note', 'renamed').map((r) => r.id)).toEqual(['row-7']);
    expect(rows.findBy('note', `n${count - 1}`).map((r) => r.id)).toEqual([`row-${count - 1}`]);
    expect(rows.findBy('group', 'moved').map((r) => r.id)).toEqual(['row-7']);
    const g1 = listPage(rows, { limit: 3 }, { where: { group: 'g1' } });
    expect(g1.totalCount).toBe([...rows.values()].filter((r) => r.group === 'g1').length);
    expect(ids(g1)).toEqual([...rows.values()].filter((r) => r.group === 'g1').slice(-3).reverse().map((r) => r.id));

    const saved = t.export();
    t.clear();
    expect([rows.size, rows.get('row-1'), rows.findBy('note', 'n1')]).toEqual([0, undefined, []]);
    t.import(saved);
    expect(rows.size).toBe(expected);
    expect(rows.findBy('note', 'renamed').map((r) => r.id)).toEqual(['row-7']);
    expect(rows.findBy('note', `n${count - 1}`).map((r) => r.id)).toEqual([`row-${count - 1}`]);
    // An import numbers the records afresh (cursors of the old numbering do not carry over), in the same order.
    const imported = listPage(rows, { limit: 3 }, { where: { group: 'g1' } });
    expect([ids(imported), imported.totalCount, imported.hasMore]).toEqual([ids(g1), g1.totalCount, true]);
  });

  it('pages newest first and oldest first, stable while records are added and removed between pages', () => {
    const rows = rowsOf();
    for (let i = 1; i <= 7; i++) rows.insert({ id: String(i), group: 'a' });
    const first = listPage(rows, { limit: 3 });
    expect([ids(first), first.hasMore, first.totalCount]).toEqual([['7', '6', '5'], true, 7]);
    rows.insert({ id: '8', group: 'a' }); // newer than the cursor: not on later pages
    rows.delete('4'); // the next record after the cursor: skipped
    rows.delete('6'); // already shown
    const second = listPage(rows, { limit: 3, cursor: first.nextCursor });
    expect([ids(second), second.hasMore, second.totalCount]).toEqual([['3', '2', '1'], false, 6]);
    expect(walk(rows, 2, { descending: false }).pages).toEqual([['1', '2'], ['3', '5'], ['7', '8']]);
    // The cursor of a deleted record still marks its position.
    rows.delete('5');
    expect(ids(listPage(rows, { limit: 10, cursor: first.nextCursor }))).toEqual(['3', '2', '1']);
  });

  it('lists by one index, several (all must hold), multi-key indexes, a filter and a creation-time range, with exact totals', () => {
    const rows = rowsOf();
    for (let i = 1; i <= 60; i++) {
      rows.insert({ id: String(i), group: i % 3 === 0 ? 'fizz' : 'other', tags: i % 5 === 0 ? ['buzz', 'five'] : [], createdAt: 1000 + i * 10, note: i % 2 === 0 ? 'even' : 'odd' });
    }
    const fizz = walk(rows, 7, { where: { group: 'fizz' } });
    expect(fizz.pages.flat()).toEqual(Array.from({ length: 20 }, (_, k) => String(60 - 3 * k)));
    expect(new Set(fizz.totals)).toEqual(new Set([20]));
    const fizzBuzz = walk(rows, 1, { where: { group: 'fizz', tag: 'buzz' } });
    expect(fizzBuzz.pages.flat()).toEqual(['60', '45', '30', '15']);
    expect(fizzBuzz.totals[0]).toBe(4);
    const evenFizz = walk(rows, 3, { where: { group: 'fizz' }, filter: { key: 'even', test: (r) => r.note === 'even' } });
    expect(evenFizz.pages.flat()).toEqual(['60', '54', '48', '42', '36', '30', '24', '18', '12', '6']);
    expect(evenFizz.totals[0]).toBe(10);
    // Created in [1100, 1200]: rows 10..20.
    const range = walk(rows, 4, { createdFrom: 1100, createdTo: 1200, descending: false });
    expect(range.pages.flat()).toEqual(Array.from({ length: 11 }, (_, k) => String(10 + k)));
    expect(range.totals[0]).toBe(11);
    expect(walk(rows, 4, { where: { tag: 'buzz' }, createdFrom: 1100, createdTo: 1200 }).pages.flat()).toEqual(['20', '15', '10']);
    expect(listPage(rows, { limit: 5 }, { createdFrom: 5000 })).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect(listPage(rows, { limit: 5 }, { where: { group: 'none' } })).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('keeps the counts of filtered lists right as records come, change and go', () => {
    const rows = rowsOf();
    const even = { where: { group: 'g' }, filter: { key: 'even', test: (r: Row) => r.note === 'even' } };
    for (let i = 1; i <= 5000; i++) rows.insert({ id: String(i), group: 'g', note: i % 2 === 0 ? 'even' : 'odd' });
    expect(listPage(rows, { limit: 1 }, even).totalCount).toBe(2500);
    rows.insert({ id: 'x', group: 'g', note: 'even' });
    rows.replace({ id: '1', group: 'g', note: 'even' });
    rows.replace({ id: '2', group: 'g', note: 'odd' });
    rows.replace({ id: '4', group: 'h', note: 'even' });
    rows.delete('6');
    expect(listPage(rows, { limit: 1 }, even).totalCount).toBe(2500 + 1 + 1 - 1 - 1 - 1);
  });

  it('falls back to checking creation times when records did not arrive in creation order', () => {
    const rows = rowsOf();
    rows.insert({ id: 'late', group: 'a', createdAt: 300 });
    rows.insert({ id: 'early', group: 'a', createdAt: 100 });
    rows.insert({ id: 'middle', group: 'a', createdAt: 200 });
    expect(walk(rows, 1, { createdFrom: 150, createdTo: 350 }).pages.flat()).toEqual(['middle', 'late']);
    expect(listPage(rows, { limit: 5 }, { createdTo: 150 }).totalCount).toBe(1);
  });

  it('refuses a cursor it did not make', () => {
    expect(() => listPage(rowsOf(), { limit: 1, cursor: 'nonsense' })).toThrow(/cursor/);
  });
});

describe('tenant stores', () => {
  it('export, clear and import one tenant without touching another; indexes and lists work on the imported records', () => {
    const store = createMemoryStore();
    const t = store.tenant('t');
    const rows = t.collection<Row>('rows', ROWS);
    for (let i = 1; i <= 5; i++) rows.insert({ id: String(i), group: i % 2 ? 'odd' : 'even', createdAt: i });
    store.tenant('u').collection<Row>('rows').insert({ id: '9', group: 'z' });
    const saved = structuredClone(t.export());
    t.clear();
    expect(rows.size).toBe(0);
    expect(rows.findBy('group', 'odd')).toEqual([]);
    t.import(saved);
    expect(rows.get('1')).toEqual({ id: '1', group: 'odd', createdAt: 1 });
    expect(rows.findBy('group', 'odd').map((r) => r.id)).toEqual(['1', '3', '5']);
    expect(walk(rows, 2, { where: { group: 'odd' } }).pages).toEqual([['5', '3'], ['1']]);
    expect(walk(rows, 10, { createdFrom: 2, createdTo: 4 }).pages).toEqual([['4', '3', '2']]);
    expect(store.tenant('u').collection('rows').size).toBe(1);
  });

  it('an import builds every index as it goes, on-demand ones too, and keeps track of records out of creation order', () => {
    const t = createMemoryStore().tenant('t');
    const rows = t.collection<Row>('rows', ROWS);
    rows.insert({ id: 'old', group: 'a', note: 'x' });
    expect(rows.findBy('note', 'x').map((r) => r.id)).toEqual(['old']); // defines an index on `note`
    expect(listPage(rows, { limit: 5 }, { where: { group: 'a' } }).totalCount).toBe(1); // a kept count, to be dropped
    t.import({
      rows: [
        { id: 'late', group: 'a', tags: ['p', 'q', 'p'], createdAt: 300, note: 'x' },
        { id: 'early', group: 'b', tags: ['q'], createdAt: 100 },
        { id: 'middle', group: 'a', createdAt: 200, note: 'x' },
      ],
    });
    expect(rows.findBy('note', 'x').map((r) => r.id)).toEqual(['late', 'middle']);
    expect(walk(rows, 10, { where: { tag: 'q' } }).pages).toEqual([['early', 'late']]);
    expect(walk(rows, 10, { where: { tag: 'p' } })).toEqual({ pages: [['late']], totals: [1] });
    expect(listPage(rows, { limit: 5 }, { where: { group: 'a' } }).totalCount).toBe(2);
    expect(walk(rows, 1, { createdFrom: 150, createdTo: 350 }).pages.flat()).toEqual(['middle', 'late']);
    rows.insert({ id: 'newest', group: 'a', createdAt: 400 });
    expect(walk(rows, 10, { where: { group: 'a' }, createdFrom: 250 }).pages).toEqual([['newest', 'late']]);
  });

  it('after an import in creation order, a record older than the newest imported one is still found by its date', () => {
    const t = createMemoryStore().tenant('t');
    const rows = t.collection<Row>('rows', ROWS);
    t.import({ rows: [{ id: 'first', group: 'a', createdAt: 100 }, { id: 'last', group: 'a', createdAt: 300 }] });
    rows.insert({ id: 'backdated', group: 'a', createdAt: 200 });
    expect(walk(rows, 10, { createdFrom: 150, createdTo: 250 })).toEqual({ pages: [['backdated']], totals: [1] });
  });

  it('an import whose index keys cannot be computed changes nothing', () => {
    const t = createMemoryStore().tenant('t');
    const keyed: CollectionOptions<Row> = {
      indexes: { group: (r) => { if (r.group === 'unkeyable') throw new Error('no key for this record'); return r.group; } },
    };
    const rows = t.collection<Row>('rows', keyed);
    rows.insert({ id: '1', group: 'a' });
    expect(() => t.import({ rows: [{ id: '2', group: 'b' }, { id: '3', group: 'unkeyable' }] })).toThrow(/no key/);
    expect([...rows.values()].map((r) => r.id)).toEqual(['1']);
    expect(walk(rows, 10, { where: { group: 'a' } }).pages).toEqual([['1']]);
    expect(walk(rows, 10, { where: { group: 'b' } }).pages).toEqual([[]]);
  });

  it('an import with a repeated id changes nothing', () => {
    const t = createMemoryStore().tenant('t');
    t.collection<Row>('rows', ROWS).insert({ id: '1', group: 'a' });
    expect(() => t.import({ rows: [{ id: '2', group: 'b' }, { id: '2', group: 'c' }] })).toThrow(/duplicate/);
    const rows = t.collection<Row>('rows');
    expect([...rows.values()]).toEqual([{ id: '1', group: 'a' }]);
    expect(rows.findBy('group', 'a').map((r) => r.id)).toEqual(['1']);
    expect(rows.findBy('group', 'b')).toEqual([]);
  });
});

describe('index maintenance', () => {
  it('skips an index whose fields a replace leaves as they were, and recomputes one whose fields changed', () => {
    let computed = 0;
    const rows = createMemoryStore().tenant('t').collection<Row>('rows', {
      indexes: { group: { keys: (r) => { computed++; return r.group; }, reads: ['group'] } },
    });
    const first = rows.insert({ id: '1', group: 'a', note: 'x' });
    computed = 0;
    rows.replace({ ...first, note: 'y' });
    expect(computed).toBe(0);
    rows.replace({ ...first, group: 'b' });
    expect(computed).toBe(2);
    expect(rows.findBy('group', 'b').map((r) => r.id)).toEqual(['1']);
    expect(rows.findBy('group', 'a')).toEqual([]);
  });
});

describe('the journal and reloads (a durable store behind the memory one)', () => {
  it('hears every insert, replace, delete and clear under the record’s sequence number, and a restore as a clear then puts', () => {
    const heard: unknown[] = [];
    const store = createMemoryStore({
      journal: {
        put: (tenant, collection, seq, record) => heard.push(['put', tenant, collection, seq, record.id]),
        delete: (tenant, collection, seq, previous) => heard.push(['delete', tenant, collection, seq, previous.id]),
        clear: (tenant) => heard.push(['clear', tenant]),
      },
    });
    const rows = store.tenant('t').collection<Row>('rows', ROWS);
    rows.insert({ id: 'a', group: 'g' });
    rows.insert({ id: 'b', group: 'g' });
    rows.replace({ id: 'a', group: 'h' });
    rows.delete('b');
    const saved = store.tenant('t').export();
    store.tenant('t').import(saved);
    store.tenant('t').clear();
    expect(heard).toEqual([
      ['put', 't', 'rows', 1, 'a'], ['put', 't', 'rows', 2, 'b'], ['put', 't', 'rows', 1, 'a'], ['delete', 't', 'rows', 2, 'b'],
      ['clear', 't'], ['put', 't', 'rows', 1, 'a'], ['clear', 't'],
    ]);
  });

  it('a reload keeps every record under its number, so cursors made before still page on, and never gives a number out twice', () => {
    const first = createMemoryStore();
    const rows = first.tenant('t').collection<Row>('rows', ROWS);
    for (let i = 1; i <= 7; i++) rows.insert({ id: `r${i}`, group: i % 2 ? 'odd' : 'even', createdAt: i });
    rows.delete('r3');
    rows.delete('r7'); // the last number given out: a reload must not give it again
    const page = listPage(rows, { limit: 2 }, {});
    const stored = new Map([['rows', [1, 2, 4, 5, 6].map((seq) => [seq, rows.get(`r${seq}`)!] as const)]]);

    const second = createMemoryStore();
    second.load('t', stored, new Map([['rows', 8]]));
    const again = second.tenant('t').collection<Row>('rows', ROWS);
    expect(ids(listPage(again, { limit: 10, cursor: page.nextCursor }, {}))).toEqual(ids(listPage(rows, { limit: 10, cursor: page.nextCursor }, {})));
    expect(again.findBy('group', 'even').map((r) => r.id)).toEqual(['r2', 'r4', 'r6']);
    again.insert({ id: 'r8', group: 'even', createdAt: 8 });
    rows.insert({ id: 'r8', group: 'even', createdAt: 8 });
    expect(ids(listPage(again, { limit: 10 }, {}))).toEqual(ids(listPage(rows, { limit: 10 }, {})));
    expect(() => second.load('u', new Map([['rows', [[2, { id: 'x' }], [1, { id: 'y' }]] as const]]))).toThrow(/is not after the last one placed/);
  });

  it('reads records given for later a few at a time, and all that are left on first use: nothing sees a collection half read', () => {
    const stored = (count: number) => Array.from({ length: count }, (_, i) => [i + 1, { id: `r${i + 1}`, group: i % 2 ? 'even' : 'odd' }] as const);
    const pulled: number[] = [];
    const counted = (entries: readonly (readonly [number, Row])[]) => (function* () {
      for (const entry of entries) {
        pulled.push(entry[0]);
        yield entry;
      }
    })();
    const store = createMemoryStore();
    store.loadLater('t', 'rows', counted(stored(5)), 9);
    store.loadLater('t', 'others', counted(stored(3)), 3);
    const rows = store.tenant('t').collection<Row>('rows', ROWS); // registered (indexes declared) before any is read
    expect(store.loadSome(2)).toBe(true);
    expect(pulled).toEqual([1, 2]);
    // The first use reads the rest of that collection, not of the others.
    expect(rows.findBy('group', 'odd').map((r) => r.id)).toEqual(['r1', 'r3', 'r5']);
    expect(pulled).toEqual([1, 2, 3, 4, 5]);
    expect(rows.size).toBe(5);
    expect(rows.insert({ id: 'r10', group: 'odd' }) && listPage(rows, { limit: 1 }, {}).totalCount).toBe(6);
    expect(store.loadSome(2)).toBe(true);
    expect(store.loadSome(2)).toBe(false);
    expect(pulled).toEqual([1, 2, 3, 4, 5, 1, 2, 3]);
    expect(store.tenant('t').collection<Row>('others').size).toBe(3);
    expect(store.loadSome(2)).toBe(false);
    // The record inserted after the reads is still the newest.
    expect(listPage(rows, { limit: 1 }, {}).data[0]!.id).toBe('r10');
    expect(rows.get('r10')).toBeDefined();

    // A clear (a reset or a restore) drops what was still to read.
    const later = createMemoryStore();
    later.loadLater('t', 'rows', counted(stored(4)), 4);
    pulled.length = 0;
    later.tenant('t').clear();
    expect(later.loadSome(10)).toBe(false);
    expect(pulled).toEqual([]);
    expect(later.tenant('t').collection<Row>('rows').size).toBe(0);
  });
});
