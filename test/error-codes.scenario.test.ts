import { ALL_ERROR_CODES, ERROR_CODES, ERROR_STATUSES } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { triggers as core } from './error-codes/core.js';
import { triggers as umaCounterparty } from './error-codes/uma-counterparty.js';
import { triggers as sca } from './error-codes/sca.js';
import { triggers as bulkImport } from './error-codes/bulk-import.js';
import { triggers as lookups } from './error-codes/lookups.js';
import type { CodeTriggers } from './error-codes/triggers.js';
import { recordFigures } from './support/figures.js';
import { rawCaller } from './support/raw-api.js';
import { inProcess, ROOT_CREDENTIALS } from './support/transports.js';

// Every error code of the contract is produced by a request: each owner's module says how to trigger the codes it
// brings, and each trigger runs on an engine of its own, through the in-process transport, as the default platform.
// The answer must carry the code under a status the contract lists it for.

/** The trigger modules, one per owner. */
const MODULES: readonly (readonly [owner: string, triggers: CodeTriggers])[] = [
  ['core', core], ['uma-counterparty', umaCounterparty], ['sca', sca], ['bulk-import', bulkImport], ['lookups', lookups],
];

/** Codes of the contract no request can produce, each with the reason. Kept empty unless there is truly no way. */
const UNREACHABLE: ReadonlyMap<string, string> = new Map();

/** The statuses the contract lists `code` under (some codes, such as INVALID_INPUT, come with several). */
const statusesOf = (code: string): number[] =>
  ERROR_STATUSES.filter((status) => (ERROR_CODES[status] as readonly string[]).includes(code)).map(Number);

const cases = MODULES.flatMap(([owner, triggers]) => Object.entries(triggers).map(([code, trigger]) => ({ owner, code, trigger })));

describe('every error code', () => {
  it('has a trigger for every code of the contract (some codes have several, from different areas), and only for those', ({ task }) => {
    const triggered = new Set(cases.map((c) => c.code));
    const known = new Set<string>(ALL_ERROR_CODES);
    expect([...triggered].filter((code) => !known.has(code))).toEqual([]);
    expect(ALL_ERROR_CODES.filter((code) => !triggered.has(code) && !UNREACHABLE.has(code))).toEqual([]);
    recordFigures(task, {
      'codes in the contract': ALL_ERROR_CODES.length, 'codes triggered': triggered.size, triggers: cases.length,
      unreachable: UNREACHABLE.size, modules: MODULES.length,
    });
  });

  /** The status each code came with, for the figures. */
  const answered = new Map<string, number>();
  let triggersRun = 0;
  for (const { code, owner, trigger } of cases) {
    it(`${code} (${owner}): the trigger answers it under its status`, async () => {
      const transport = inProcess();
      try {
        const answer = await trigger({ call: rawCaller(transport, ROOT_CREDENTIALS), engine: transport.engine! });
        expect(answer.json?.code, answer.text.slice(0, 400)).toBe(code);
        expect(statusesOf(code)).toContain(answer.status);
        expect(answer.json.status).toBe(answer.status);
        answered.set(code, answer.status);
        triggersRun++;
      } finally {
        await transport.stop();
      }
    });
  }

  it('figures: codes answered, by status', ({ task }) => {
    const byStatus = new Map<number, number>();
    for (const status of answered.values()) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    recordFigures(task, {
      'codes answered as triggered': answered.size, statuses: byStatus.size,
      'by status': [...byStatus].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' '),
    });
    expect(triggersRun).toBe(cases.length);
  });
});
