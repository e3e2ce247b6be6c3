/**
 * The `railyard` commands that drive a running sandbox (DESIGN §3, the `/_sandbox/` control plane): each parses its
 * flags, makes its calls through {@link callSandbox}, and prints a line a person reads or, with `--json`, the answer.
 */
import { createReadStream, createWriteStream, renameSync, rmSync, statSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { parseDuration } from './duration.js';
import { callSandbox, CommandFailure, EXIT, REMOTE_FLAGS, REMOTE_HELP, remoteFrom } from './remote.js';
import type { Command, Flags, Output } from './command.js';
import { followEventLines, listen, logs } from './listen.js';
import { trigger } from './trigger.js';

/** What the clock endpoints answer. */
interface ClockState {
  readonly now: string;
  readonly mode: string;
}


const platformsCreate: Command = {
  words: ['platforms', 'create'],
  usage: 'railyard platforms create [--name NAME] [--regulated] [--skip-paperwork]',
  summary: 'Creates a platform with credentials of its own (POST /_sandbox/platforms) and prints them.',
  example: 'railyard platforms create --name "QA team" --regulated',
  flags: { name: { type: 'string' }, regulated: { type: 'boolean', default: false }, 'skip-paperwork': { type: 'boolean', default: false } },
  flagHelp: `  --name NAME           what the platform is called
  --regulated           customers go through KYC/KYB (off: they are approved as created)
  --skip-paperwork      regulated without the documents step`,
  async run(remote, flags, _positionals, out) {
    const body = { ...(flags.name === undefined ? {} : { name: flags.name }), regulated: flags.regulated === true, skipPaperwork: flags['skip-paperwork'] === true };
    const platform = await callSandbox(remote, 'POST', '/_sandbox/platforms', { body }) as { id: string; name: string; clientId: string; clientSecret: string };
    out.print([
      `Created platform ${platform.id} (${platform.name})`,
      `  client id:     ${platform.clientId}`,
      `  client secret: ${platform.clientSecret}`,
      `Use it: RAILYARD_CLIENT_ID=${platform.clientId} RAILYARD_CLIENT_SECRET=… railyard clock`,
    ].join('\n'), platform);
  },
};

const clockShow: Command = {
  words: ['clock'],
  usage: 'railyard clock',
  summary: "Prints the platform's clock (GET /_sandbox/clock): its time, and whether it is real or virtual.",
  example: 'railyard clock --json',
  async run(remote, _flags, _positionals, out) {
    const clock = await callSandbox(remote, 'GET', '/_sandbox/clock') as ClockState;
    out.print(`${clock.now} (${clock.mode} clock)`, clock);
  },
};

const clockAdvance: Command = {
  words: ['clock', 'advance'],
  usage: 'railyard clock advance DURATION',
  summary: "Moves a virtual clock on (POST /_sandbox/clock/advance), running every job that comes due on the way: timed outcomes, expiries, webhook retries. DURATION is 6m, 1h30m, 90s, 250ms, 2d, or milliseconds.",
  example: 'railyard clock advance 6m',
  positionals: ['DURATION'],
  async run(remote, _flags, [duration], out) {
    const ms = parseDuration(duration!);
    if (ms === undefined) throw new CommandFailure(`${duration} is not a duration: write it as 6m, 1h30m, 90s, 250ms, 2d, or milliseconds`, EXIT.usage);
    const clock = await callSandbox(remote, 'POST', '/_sandbox/clock/advance', { body: { ms } }) as ClockState;
    out.print(`Advanced ${duration} (${ms} ms): the clock reads ${clock.now}`, clock);
  },
};

const snapshotSave: Command = {
  words: ['snapshot', 'save'],
  usage: 'railyard snapshot save FILE',
  summary: "Writes the platform's whole state (GET /_sandbox/snapshot) to FILE, which `railyard snapshot load` gives back.",
  example: 'railyard snapshot save before-payouts.json',
  positionals: ['FILE'],
  async run(remote, _flags, [file], out) {
    // Written aside and renamed into place: a failure half way leaves no half file under the name.
    const aside = `${file}.${process.pid}.part`;
    let bytes = 0;
    try {
      await callSandbox(remote, 'GET', '/_sandbox/snapshot', {
        read: async (response) => {
          const total = Number(response.headers.get('content-length') ?? NaN);
          const progress = progressBar('saving', total);
          await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), counting((n) => progress((bytes += n))), createWriteStream(aside));
          progress.done();
        },
      });
      renameSync(aside, file!);
    } catch (error) {
      rmSync(aside, { force: true });
      throw error;
    }
    out.print(`Saved the snapshot to ${file} (${formatBytes(bytes)})`, { file, bytes });
  },
};

const snapshotLoad: Command = {
  words: ['snapshot', 'load'],
  usage: 'railyard snapshot load FILE',
  summary: "Puts the platform back as FILE (a `railyard snapshot save`) has it (POST /_sandbox/restore): every record, balance, token and pending job.",
  example: 'railyard snapshot load before-payouts.json',
  positionals: ['FILE'],
  async run(remote, _flags, [file], out) {
    let total: number;
    try {
      total = statSync(file!).size;
    } catch (error) {
      throw new CommandFailure(`Cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
    }
    const progress = progressBar('loading', total);
    let bytes = 0;
    const body = Readable.toWeb(createReadStream(file!).pipe(counting((n) => progress((bytes += n))))) as unknown as ReadableStream;
    await callSandbox(remote, 'POST', '/_sandbox/restore', { body });
    progress.done();
    out.print(`Restored ${file} (${formatBytes(total)}) into the platform of client id ${remote.clientId}`, { file, bytes: total });
  },
};

const events: Command = {
  words: ['events'],
  usage: 'railyard events [--type TYPE] [--limit N] [--follow]',
  summary: "Lists the events the platform emitted, newest first (GET /_sandbox/events), with each delivery's state; --follow then prints each new event as it happens.",
  example: 'railyard events --type OUTGOING_PAYMENT.COMPLETED --limit 5',
  flags: { type: { type: 'string' }, limit: { type: 'string', default: '20' }, follow: { type: 'boolean', default: false } },
  flagHelp: `  --type TYPE           only events of this type (SPEC §6), e.g. CUSTOMER.KYC_APPROVED (with --follow: TYPE,… )
  --limit N             how many (default 20, at most 100)
  --follow              after the list, print each new event as it happens, until Ctrl+C (with --json: a JSON line each)`,
  async run(remote, flags, _positionals, out) {
    const query = new URLSearchParams({ limit: String(flags.limit) });
    // The list takes one type; the stream takes several.
    if (typeof flags.type === 'string' && !flags.type.includes(',')) query.set('type', flags.type);
    const page = await callSandbox(remote, 'GET', `/_sandbox/events?${query}`) as { data: { id: string; type: string; timestamp: string; delivery?: { status: string } }[]; totalCount?: number };
    if (flags.follow === true) {
      // Oldest first, then the new ones as they come: one timeline, resumed after the newest listed.
      const types = typeof flags.type === 'string' ? flags.type.split(',').map((type) => type.trim()) : undefined;
      const shown = types === undefined ? page.data : page.data.filter((event) => types.includes(event.type));
      for (const event of [...shown].reverse()) out.printLine(`${event.timestamp}  ${event.type.padEnd(40)} ${event.id}`, event);
      // After the newest listed. With none listed, after an id no event has: the stream then starts from the platform's
      // first event, so one emitted between the list and the stream's start is not missed.
      await followEventLines(remote, { ...flags, after: page.data[0]?.id ?? 'none' }, out);
      return;
    }
    const lines = page.data.map((event) => `${event.timestamp}  ${event.type.padEnd(40)} ${event.id}  ${event.delivery?.status ?? 'not delivered'}`);
    out.print(lines.length === 0 ? 'No events' : lines.join('\n'), page);
  },
};

/** Every command, in the order `railyard --help` lists them. */
export const COMMANDS: readonly Command[] = [platformsCreate, clockShow, clockAdvance, snapshotSave, snapshotLoad, events, trigger, listen, logs];

/** The help of one command. */
const helpOf = (command: Command) => `Usage: ${command.usage} [--base-url URL] [--client-id ID] [--client-secret S] [--json]

${command.summary}

Example:
  ${command.example}

Flags:
${command.flagHelp === undefined ? '' : `${command.flagHelp}\n`}${REMOTE_HELP}`;

/** The lines of `railyard --help` that list the commands. */
export const COMMANDS_HELP = COMMANDS.map((command) => `  ${command.usage.padEnd(62)} ${command.summary.split(/(?<=\.) /)[0]}`).join('\n');

/** The command `argv` names (the longest match of its words), or undefined when it names none. */
export function commandOf(argv: readonly string[]): Command | undefined {
  const words = argv.filter((arg) => !arg.startsWith('-'));
  return [...COMMANDS].sort((a, b) => b.words.length - a.words.length).find((command) => command.words.every((word, i) => words[i] === word));
}

/** Runs the command `argv` names; resolves with the exit code, having printed what it did or why it failed. */
export async function runCommand(command: Command, argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = [...argv];
  for (const word of command.words) args.splice(args.indexOf(word), 1);
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...REMOTE_FLAGS, ...command.flags }, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${helpOf(command)}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed as { values: Flags; positionals: string[] };
  if (values.help === true) {
    console.log(helpOf(command));
    return EXIT.ok;
  }
  const wanted = command.positionalsUnlessFlag !== undefined && values[command.positionalsUnlessFlag] === true ? [] : command.positionals ?? [];
  if (positionals.length !== wanted.length) {
    console.error(`${positionals.length < wanted.length ? `Missing ${wanted.slice(positionals.length).join(' ')}` : `Unexpected ${positionals.slice(wanted.length).join(' ')}`}\n\n${helpOf(command)}`);
    return EXIT.usage;
  }
  const json = values.json === true;
  const out: Output = {
    json,
    print: (text, value) => console.log(json ? JSON.stringify(value, null, 2) : text),
    printLine: (text, value) => console.log(json ? JSON.stringify(value) : text),
  };
  try {
    await command.run(remoteFrom(values as Parameters<typeof remoteFrom>[0], env), values, positionals, out);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommandFailure) {
      console.error(error.message);
      return error.exitCode;
    }
    throw error;
  }
}

/** A stream that passes its bytes through, telling `seen` how many went by. */
function counting(seen: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen(chunk.length);
      done(null, chunk);
    },
  });
}

/** A progress line on a terminal's stderr (nothing when stderr is not a terminal: a script's log stays clean). */
function progressBar(verb: string, total: number): ((bytes: number) => void) & { done(): void } {
  const shown = process.stderr.isTTY === true;
  let last = 0;
  const update = (bytes: number) => {
    if (!shown || Date.now() - last < 100) return;
    last = Date.now();
    const share = Number.isFinite(total) && total > 0 ? ` of ${formatBytes(total)} (${Math.floor((bytes / total) * 100)}%)` : '';
    process.stderr.write(`\r${verb} ${formatBytes(bytes)}${share}   `);
  };
  return Object.assign(update, { done: () => shown && process.stderr.write('\r\x1b[K') });
}

/** `12.3 MB`. */
function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
