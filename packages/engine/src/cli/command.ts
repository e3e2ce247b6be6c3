/** The shape of a `railyard` command (commands.ts lists them). */
import type { Remote } from './remote.js';

export type Flags = Record<string, string | boolean | undefined>;

/** One command: its words (`clock advance`), usage, example, and what it does. */
export interface Command {
  readonly words: readonly string[];
  readonly usage: string;
  readonly summary: string;
  readonly example: string;
  readonly flags?: Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>;
  readonly flagHelp?: string;
  /** The positional arguments it takes. */
  readonly positionals?: readonly string[];
  /** A flag that stands in for the positional arguments (`trigger --list` needs no EVENT_TYPE). */
  readonly positionalsUnlessFlag?: string;
  run(remote: Remote, flags: Flags, positionals: string[], out: Output): Promise<void>;
}

/** Where a command prints: text for people, or one JSON document. */
export interface Output {
  readonly json: boolean;
  print(text: string, value: unknown): void;
  /** One line of a command that goes on (`listen`, `--follow`): the text, or with `--json` the value as one JSON line. */
  printLine(text: string, value: unknown): void;
}

