import { describe, expect, it } from 'vitest';
import { CHUNK, Slots } from './slots.js';

describe('Slots', () => {
  it('numbers from 1 and reads, replaces and skips deleted slots across chunks as an array would', () => {
    const slots = new Slots<string>();
    const array: (string | undefined)[] = [undefined];
    expect(slots.length).toBe(1);
    for (let i = 1; i <= 2 * CHUNK + 10; i++) {
      expect(slots.push(`r${i}`)).toBe(i);
      array.push(`r${i}`);
    }
    for (const seq of [1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, 2 * CHUNK + 10]) {
      slots.set(seq, seq % 2 ? undefined : `changed ${seq}`);
      array[seq] = seq % 2 ? undefined : `changed ${seq}`;
    }
    expect(slots.length).toBe(array.length);
    for (const seq of [0, 1, 2, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 2 * CHUNK, 2 * CHUNK + 10, 2 * CHUNK + 11]) {
      expect(slots.at(seq)).toBe(array[seq]);
    }
    const kept = [...array.entries()].filter((entry): entry is [number, string] => entry[1] !== undefined);
    const visited: [number, string][] = [];
    slots.forEach((value, seq) => visited.push([seq, value]));
    expect(visited).toEqual(kept);
    expect([...slots.values()]).toEqual(kept.map(([, value]) => value));
    expect(slots.findSeq((value) => value === `changed ${2 * CHUNK}`)).toBe(2 * CHUNK);
    expect(slots.findSeq((value) => value === `r${2 * CHUNK + 5}`)).toBe(2 * CHUNK + 5);
    expect(slots.findSeq((value) => value === `r${CHUNK + 1}`)).toBeUndefined(); // deleted
  });
});
