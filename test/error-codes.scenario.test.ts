import { ALL_ERROR_CODES, ERROR_CODES, ERROR_STATUSES } from '@railyard/contract';
import { describe, expect, it } from 'vitest';
import { triggers as core } from './error-codes/core.js';
import { triggers as umaCounterparty } from './error-codes/uma-counterparty.js';
import type { CodeTriggers } from './error-codes/triggers.js';
import { recordFigures } from './support/figures.js';
import { rawCaller } from './support/raw-api.js';
import { inProcess, ROOT_CREDENTIALS } from './support/transports.js';

// Every error code of the contract is produced by a request: each owner's module says how to trigger the codes it
// brings, and each trigger runs on an engine of its own, through the in-process transport, as the default platform.
// The answer must carry the code under a status the contract lists it for.

/** The trigger modules, one per owner. */
const MODULES: readonly (readonly [owner: string, triggers: CodeTriggers])[] = [['core', core], ['uma-counterparty', umaCounterparty]];

/** Codes whose triggers other modules bring (passkey enrollment, bulk imports). */
const OWNED_BY_OTHER_HELPERS: ReadonlySet<string> = new Set(['PASSKEY_ALREADY_ENROLLED', 'BULK_UPLOAD_JOB_NOT_FOUND']);

/** Codes of the contract no request can produce, each with the reason. Kept empty unless there is truly no way. */
const UNREACHABLE: ReadonlyMap<string, string> = new Map();

/** The statuses the contract lists `code` under (some codes, such as INVALID_INPUT, come with several). */
const statusesOf = (code: string): number[] =>
  ERROR_STATUSES.filter((status) => (ERROR_CODES[status] as readonly string[]).includes(code)).map(Number);

const cases = MODULES.flatMap(([owner, triggers]) => Object.entries(triggers).map(([code, trigger]) => ({ owner, code, trigger })));

describe('every error code', () => {
  it('has exactly one trigger, for a code of the contract, and together they cover every code not owned elsewhere or unreachable', ({ task }) => {
    const triggered = cases.map((c) => c.code);
    expect(triggered.filter((code, i) => triggered.indexOf(code) !== i)).toEqual([]);
    const known = new Set<string>(ALL_ERROR_CODES);
    expect(triggered.filter((code) => !known.has(code))).toEqual([]);
    const expected = ALL_ERROR_CODES.filter((code) => !OWNED_BY_OTHER_HELPERS.has(code) && !UNREACHABLE.has(code)).sort();
    expect([...triggered].sort()).toEqual(expected);
    recordFigures(task, {
      'codes in the contract': ALL_ERROR_CODES.length, 'codes triggered': triggered.length, 'owned by other modules': OWNED_BY_OTHER_HELPERS.size,
      unreachable: UNREACHABLE.size, modules: MODULES.length,
    });
  });

  /** The status each code came with, for the figures. */
  const answered = new Map<string, number>();
  for (const { code, owner, trigger } of cases) {
    it(`${code} (${owner}): the trigger answers it under its status`, async () => {
      const transport = inProcess();
      try {
        const answer = await trigger({ call: rawCaller(transport, ROOT_CREDENTIALS), engine: transport.engine! });
        expect(answer.json?.code, answer.text.slice(0, 400)).toBe(code);
        expect(statusesOf(code)).toContain(answer.status);
        expect(answer.json.status).toBe(answer.status);
        answered.set(code, answer.status);
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
    expect(answered.size).toBe(cases.length);
  });
});
