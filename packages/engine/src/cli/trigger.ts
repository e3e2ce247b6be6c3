/**
 * `railyard trigger EVENT_TYPE`: makes one event fire on a running sandbox, as `stripe trigger` does: it runs the
 * event's recipe (trigger/recipes.ts) through the public API, waits for the event, and prints what it made and the
 * event's id. `--list` lists every type with what its recipe does.
 */
import { WEBHOOK_EVENT_TYPES } from '@railyard/contract';
import { authorizationOf, type Created, type TriggerApi } from '../trigger/api.js';
import { NOT_EMITTED, recipeOf, TRIGGER_RECIPES, TriggerRefused } from '../trigger/recipes.js';
import type { Command } from './command.js';
import { callSandbox, CommandFailure, EXIT, type Remote } from './remote.js';

/** The longest stretch of sandbox time a recipe may wait out on a real clock; longer ones need `--clock virtual`. */
const REAL_CLOCK_WAIT_MS = 10_000;

/** How often the events are looked at while waiting for the triggered one. */
const POLL_MS = 100;

/** A recipe's calls over HTTP, to the sandbox `remote` names. */
function httpApi(remote: Remote, type: string): TriggerApi {
  return {
    call: (method, path, body, options = {}) => {
      const authorization = authorizationOf(options.auth);
      return callSandbox(remote, method, path, {
        ...(body === undefined ? {} : { body }),
        ...(authorization === undefined ? {} : { authorization }),
        ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
      });
    },
    upload: (path, fields, file) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
      return callSandbox(remote, 'POST', path, { body: form });
    },
    advance: async (ms) => {
      try {
        await callSandbox(remote, 'POST', '/_sandbox/clock/advance', { body: { ms } });
      } catch (error) {
        // 409: the clock is real. A short wait is waited out; a long one would hold the command for minutes.
        if (!(error instanceof CommandFailure && error.status === 409)) throw error;
        if (ms > REAL_CLOCK_WAIT_MS) {
          throw new CommandFailure(`${type} comes after ${formatDuration(ms)} of sandbox time, and this sandbox runs on the real clock: ` +
            'start it with `railyard serve --clock virtual`, whose clock the trigger moves on at once', EXIT.refused);
        }
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
    },
  };
}

/** `90 s`, `6 min`, `24 h`. */
function formatDuration(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

/** The newest event of `type` (its id), or undefined. */
async function newestOf(remote: Remote, type: string): Promise<string | undefined> {
  const page = await callSandbox(remote, 'GET', `/_sandbox/events?${new URLSearchParams({ type, limit: '1' })}`) as { data: { id: string }[] };
  return page.data[0]?.id;
}

export const trigger: Command = {
  words: ['trigger'],
  usage: 'railyard trigger EVENT_TYPE [--wait SECONDS] | --list',
  summary: 'Makes an event fire on the platform: creates what it needs through the API (a customer, a funded account, a quote…), waits for the event and prints the ids it made and the event id. --list lists every event type and how.',
  example: 'railyard trigger OUTGOING_PAYMENT.COMPLETED',
  positionals: ['EVENT_TYPE'],
  positionalsUnlessFlag: 'list',
  flags: { list: { type: 'boolean', default: false }, wait: { type: 'string', default: '15' } },
  flagHelp: `  --list                every event type, with what its trigger does
  --wait SECONDS        how long to wait for the event once its recipe ran (default 15)
  A trigger makes new records each time (it never changes the platform's settings). Events that come after sandbox
  time (an expiry, a retry) move a virtual clock on; on a real clock a wait over 10 s is refused with what to do.`,
  async run(remote, flags, [type], out) {
    if (flags.list === true) {
      const lines = [
        ...TRIGGER_RECIPES.map((recipe) => `  ${recipe.type.padEnd(42)} ${recipe.how}`),
        ...Object.entries(NOT_EMITTED).map(([never, why]) => `  ${never.padEnd(42)} (not emitted by the sandbox: ${why})`),
      ];
      out.print(`Event types railyard trigger fires:\n${lines.join('\n')}`, {
        recipes: TRIGGER_RECIPES.map((recipe) => ({ type: recipe.type, how: recipe.how })),
        notEmitted: NOT_EMITTED,
      });
      return;
    }
    const wait = Number(flags.wait);
    if (!Number.isFinite(wait) || wait < 0) throw new CommandFailure(`--wait takes seconds, not ${String(flags.wait)}`, EXIT.usage);
    const recipe = recipeOf(type!);
    if (recipe === undefined) {
      const never = (NOT_EMITTED as Record<string, string | undefined>)[type!];
      if (never !== undefined) throw new CommandFailure(`The sandbox never emits ${type}: ${never}`, EXIT.refused);
      const known = (WEBHOOK_EVENT_TYPES as readonly string[]).find((candidate) => candidate.toLowerCase() === type!.toLowerCase());
      throw new CommandFailure(`${type} is not an event type${known === undefined ? '' : ` (did you mean ${known}?)`}: \`railyard trigger --list\` lists them`, EXIT.usage);
    }
    const before = await newestOf(remote, recipe.type);
    let created: Created;
    try {
      created = await recipe.run(httpApi(remote, recipe.type));
    } catch (error) {
      // The platform is not set up for this event (no webhook endpoint): the recipe says what to do.
      if (error instanceof TriggerRefused) throw new CommandFailure(error.message, EXIT.refused);
      throw error;
    }
    const deadline = Date.now() + wait * 1000;
    let eventId = await newestOf(remote, recipe.type);
    while (eventId === before) {
      if (Date.now() > deadline) {
        throw new CommandFailure(`Ran the trigger (${recipe.how}), but no ${recipe.type} came within ${wait} s: ` +
          `made ${Object.entries(created).map(([name, id]) => `${name} ${id}`).join(', ') || 'nothing'}; see \`railyard events\``, EXIT.refused);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      eventId = await newestOf(remote, recipe.type);
    }
    const width = Math.max(5, ...Object.keys(created).map((name) => name.length)) + 1;
    out.print([
      `Triggered ${recipe.type} (${recipe.how})`,
      `  ${'event:'.padEnd(width + 1)} ${eventId}`,
      ...Object.entries(created).map(([name, id]) => `  ${`${name}:`.padEnd(width + 1)} ${id}`),
    ].join('\n'), { type: recipe.type, eventId, created });
  },
};
