import { WEBHOOK_EVENT_TYPES } from '@railyard/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.js';
import { createEngine } from '../engine.js';
import { startServer, type RunningServer } from '../server/server.js';
import { runRailyard } from '../testing/cli.js';

// `railyard trigger` as a user runs it: the built bin against a sandbox on a real socket (one on a virtual clock, one on
// the real clock), the event looked up afterwards in the sandbox's own event list.
const railyard = runRailyard;
const AUTH = { authorization: `Basic ${btoa('sandbox-client-id:sandbox-client-secret')}` };

let virtual: RunningServer;
let real: RunningServer;
beforeAll(async () => {
  virtual = await startServer(createEngine({ clock: new VirtualClock(Date.UTC(2026, 11, 2)) }), { port: 0 });
  real = await startServer(createEngine({ clock: 'real' }), { port: 0 });
});
afterAll(async () => {
  await virtual.close();
  await real.close();
});

describe('railyard trigger', () => {
  it('--list names every event type of the contract once: with what its trigger does, or why the sandbox never emits it', async () => {
    const listed = await railyard(['trigger', '--list', '--json']);
    expect(listed.code).toBe(0);
    const { recipes, notEmitted } = JSON.parse(listed.out) as { recipes: { type: string; how: string }[]; notEmitted: Record<string, string> };
    expect([...recipes.map((recipe) => recipe.type), ...Object.keys(notEmitted)].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(recipes.every((recipe) => recipe.how.length > 10)).toBe(true);
    const text = await railyard(['trigger', '--list']);
    expect(text.out).toMatch(/^ {2}OUTGOING_PAYMENT\.COMPLETED +\S/m);
  });

  it('makes the event fire, and prints the event id and the ids it made, which the sandbox has', async () => {
    const fired = await railyard(['trigger', 'OUTGOING_PAYMENT.COMPLETED', '--json', '--base-url', virtual.baseUrl]);
    expect(fired.code, fired.err).toBe(0);
    const { type, eventId, created } = JSON.parse(fired.out) as { type: string; eventId: string; created: Record<string, string> };
    expect(type).toBe('OUTGOING_PAYMENT.COMPLETED');
    const events = await (await fetch(`${virtual.baseUrl}/_sandbox/events?type=OUTGOING_PAYMENT.COMPLETED&limit=1`, { headers: AUTH })).json() as { data: { id: string; data: { id: string; status: string } }[] };
    expect(events.data[0]!.id).toBe(eventId);
    expect(events.data[0]!.data.status).toBe('COMPLETED');
    expect(Object.values(created)).toContain(events.data[0]!.data.id);
    // Again, on the same platform: new records, a new event.
    const again = await railyard(['trigger', 'OUTGOING_PAYMENT.COMPLETED', '--base-url', virtual.baseUrl]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/^Triggered OUTGOING_PAYMENT\.COMPLETED \(.+\)\n {2}event: +Webhook:\S+\n/);
    expect(again.out).not.toContain(eventId);
  });

  it('fires a timed event on a real clock when the wait is short, and refuses a long one with what to do', async () => {
    const short = await railyard(['trigger', 'CUSTOMER.KYC_APPROVED', '--base-url', real.baseUrl]);
    expect(short.code, short.err).toBe(0);
    const long = await railyard(['trigger', 'OUTGOING_PAYMENT.EXPIRED', '--base-url', real.baseUrl]);
    expect(long.code).toBe(1);
    expect(long.err).toContain('railyard serve --clock virtual');
  });

  it('refuses an unknown type (suggesting the one meant), a type the sandbox never emits, and a missing one', async () => {
    const typo = await railyard(['trigger', 'outgoing_payment.completed', '--base-url', virtual.baseUrl]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain('did you mean OUTGOING_PAYMENT.COMPLETED?');
    const never = await railyard(['trigger', 'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED', '--base-url', virtual.baseUrl]);
    expect(never.code).toBe(1);
    expect(never.err).toContain('The sandbox never emits INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED');
    const missing = await railyard(['trigger', '--base-url', virtual.baseUrl]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('Missing EVENT_TYPE');
  });
});
