/** Durations as people type them on a command line: `6m`, `1h30m`, `90s`, `250ms`, `2d`, or plain milliseconds. */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of `text`, or undefined when it is not a duration (every part a whole number with a unit). */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+(ms|s|m|h|d))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return Number.isSafeInteger(total) ? total : undefined;
}
