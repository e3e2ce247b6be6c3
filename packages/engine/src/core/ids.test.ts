import { describe, expect, it } from 'vitest';
import { RESERVED_ID_ENDINGS } from '../sandbox/magic-values.js';
import { randomIds, sequentialIds } from './ids.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('random ids', () => {
  it('are <type>:<uuid v4>, all different, across many refills of the random pool', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => randomIds(i % 2 === 0 ? 'Transaction' : 'Webhook'));
    for (const [i, id] of ids.entries()) {
      const [type, uuid] = id.split(':');
      expect(type).toBe(i % 2 === 0 ? 'Transaction' : 'Webhook');
      expect(uuid).toMatch(UUID_V4);
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit shows up in every free position: the bytes are random, not a counter.
    const digitsAt = (position: number) => new Set(ids.map((id) => id.split(':')[1]![position]));
    for (const position of [0, 9, 15, 24, 35]) expect(digitsAt(position).size).toBe(16);
  });

  it('never end in a sandbox trigger of their type', () => {
    const reserved = RESERVED_ID_ENDINGS.Customer!;
    expect(reserved.size).toBeGreaterThan(0);
    for (let i = 0; i < 20000; i++) expect(reserved.has(randomIds('Customer').slice(-3))).toBe(false);
  });
});

describe('sequential ids', () => {
  it('count up across types and skip the numbers that would end in a trigger of the type', () => {
    const next = sequentialIds();
    const reserved = RESERVED_ID_ENDINGS.Customer!;
    const numbers = Array.from({ length: 1200 }, (_, i) => next(i % 3 === 0 ? 'Customer' : 'Quote'));
    const counters = numbers.map((id) => parseInt(id.slice(-12), 16));
    for (let i = 1; i < counters.length; i++) expect(counters[i]).toBeGreaterThan(counters[i - 1]!);
    for (const id of numbers.filter((id) => id.startsWith('Customer:'))) expect(reserved.has(id.slice(-3))).toBe(false);
    expect(numbers[1]).toMatch(/^Quote:00000000-0000-4000-8000-0000000000\d\d$/);
  });
});
