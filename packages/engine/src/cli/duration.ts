/** Durations as people type them on a command line: `6m`, `1h30m`, `90s`, `250ms`, `2d`, or plain milliseconds. */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** The longest duration text taken (a longer one is a mistake, and reading it stays cheap). */
const MAX_LENGTH = 64;

/**
 * Milliseconds of `text`, or undefined when it is not a duration (every part a whole number with a unit). One pass
 * over the characters: no pattern that could backtrack.
 */
export function parseDuration(text: string): number | undefined {
  const input = text.trim();
  if (input === '' || input.length > MAX_LENGTH) return undefined;
  let total = 0;
  let at = 0;
  let parts = 0;
  while (at < input.length) {
    const start = at;
    while (at < input.length && input[at]! >= '0' && input[at]! <= '9') at++;
    if (at === start) return undefined;
    const amount = Number(input.slice(start, at));
    if (at === input.length) return parts === 0 ? amount : undefined; // bare milliseconds, alone only
    const unit = input.startsWith('ms', at) ? 'ms' : input[at]!;
    const ms = UNIT_MS[unit];
    if (ms === undefined) return undefined;
    total += amount * ms;
    at += unit.length;
    parts++;
  }
  return Number.isSafeInteger(total) ? total : undefined;
}
