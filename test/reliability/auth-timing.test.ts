import { performance } from 'node:perf_hooks';
import { constantTimeEqual } from '../../packages/engine/src/platforms/registry.js';
import { expect, it } from 'vitest';
import { recordFigures, scaled } from '../support/figures.js';

// The Basic-auth secret comparison must not stop at the first differing character: otherwise a caller times guesses
// and learns the secret a character at a time. A long secret makes any position dependence obvious (a plain `===`
// answers an early mismatch ~1000× faster than a late one), so a generous bound still catches it without flaking.

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

it('compares a Basic-auth secret in time independent of where a guess differs', ({ task }) => {
  // Flat strings (a Buffer round trip), so no string-rope walking blurs the comparison being timed.
  const flat = (text: string) => Buffer.from(text).toString();
  const secret = flat('s'.repeat(256 * 1024));
  const earlyMiss = flat(`x${secret.slice(1)}`);
  const lateMiss = flat(`${secret.slice(0, -1)}x`);
  const rounds = scaled(60, 600);
  const early: number[] = [];
  const late: number[] = [];
  const time = (guess: string, into: number[]) => {
    const started = performance.now();
    const equal = constantTimeEqual(guess, secret);
    into.push(performance.now() - started);
    expect(equal).toBe(false);
  };
  // Interleaved, so a slow moment of the machine lands on both alike.
  for (let i = 0; i < rounds; i++) {
    time(earlyMiss, early);
    time(lateMiss, late);
  }
  const lateOverEarly = median(late) / median(early);
  recordFigures(task, {
    rounds,
    'median µs, first char differs': Number((median(early) * 1000).toFixed(1)),
    'median µs, last char differs': Number((median(late) * 1000).toFixed(1)),
    'late/early ratio': Number(lateOverEarly.toFixed(2)),
  });
  expect(lateOverEarly).toBeLessThan(3);
  expect(lateOverEarly).toBeGreaterThan(1 / 3);
});
