/**
 * Opt-in logging (levels, or the older debug switch) with redaction of credentials and signatures.
 * @module
 */

/** Where debug lines go: any object with a `log(line)` method (a `console`, a test's array, a pino adapter). */
export interface DebugLogger {
  log(line: string): void;
}

/** Replacement text for secrets in debug output. */
export const REDACTED = '[REDACTED]';

/** Headers whose values never appear in debug output. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'service-wallet-signature', 'cookie', 'set-cookie']);
/**
 * Body keys whose values never appear in debug output (compared case-insensitively): credentials, key material,
 * wallet signatures and stamps (ownership `signature`, passkey assertions, OTP bundles), and `identifier`
 * (a customer's SSN or ITIN, write-only in the API).
 */
const SECRET_KEYS = new Set([
  'clientsecret', 'password', 'secret', 'privatekey', 'apikey', 'identifier', 'signature', 'stamp', 'oidctoken',
  'encryptedotpbundle', 'encryptedsessionsigningkey', 'encryptedwalletcredentials',
]);

/** Headers as a plain object with secret values replaced; the scheme of `Authorization` (e.g. `Basic`) is kept. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) out[lower] = value;
    else if (lower.endsWith('authorization')) {
      const scheme = /^(\S+)\s/.exec(value)?.[1];
      out[lower] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[lower] = REDACTED;
  });
  return out;
}

/** A deep copy of a JSON value with every secret key's value (e.g. `clientSecret`) replaced. */
export function redactBody(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactBody(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactBody(item, depth + 1);
  }
  return out;
}

/** How much the client logs, least to most; each level includes those before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const LEVEL_RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * Where log lines go, by level: a `console`, pino, winston, or anything with these four methods. Each call gets one
 * line, already redacted.
 */
export interface LevelLogger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** The logging options of the client (see `ClientOptions`). */
export interface LoggingOptions {
  debug?: boolean | DebugLogger;
  logLevel?: LogLevel;
  logger?: LevelLogger;
}

const readEnv = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

const isLogLevel = (value: string | undefined): value is LogLevel => value !== undefined && Object.hasOwn(LEVEL_RANK, value);

/** `RAILYARD_DEBUG` is on unless unset, empty, `0` or `false`. */
const readEnvDebug = (): boolean => {
  const value = readEnv('RAILYARD_DEBUG');
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
};

/**
 * The level in force: `logLevel` when given; else `debug` when the `debug` option asks for it; else `RAILYARD_LOG`
 * when it names a level; else `debug` when `RAILYARD_DEBUG` is on; else off (the client is silent unless asked).
 * `viaDebugSwitch`: the level came from `debug` or `RAILYARD_DEBUG`, whose lines have always gone to stderr.
 */
function levelOf(options: LoggingOptions): { level: LogLevel; viaDebugSwitch: boolean } {
  if (options.logLevel !== undefined) {
    if (!isLogLevel(options.logLevel)) throw new TypeError(`logLevel must be one of ${Object.keys(LEVEL_RANK).join(', ')}, not ${String(options.logLevel)}`);
    return { level: options.logLevel, viaDebugSwitch: false };
  }
  if (options.debug === false) return { level: 'off', viaDebugSwitch: true };
  if (options.debug !== undefined) return { level: 'debug', viaDebugSwitch: true };
  const fromEnv = readEnv('RAILYARD_LOG')?.trim().toLowerCase();
  if (isLogLevel(fromEnv)) return { level: fromEnv, viaDebugSwitch: false };
  return { level: readEnvDebug() ? 'debug' : 'off', viaDebugSwitch: true };
}

/**
 * Writes log lines, prefixed `[railyard]`, after redacting known secrets. As a last line of defence every line, at
 * every level, is also scrubbed of the literal secret strings it was given (the client secret and the encoded Basic
 * credentials), wherever they occur.
 */
export class Logger {
  /** Whether debug lines are written: callers skip building them otherwise. */
  readonly enabled: boolean;
  readonly #rank: number;
  readonly #write: (level: Exclude<LogLevel, 'off'>, line: string) => void;
  readonly #secrets: string[];

  /**
   * @param options - `logLevel` and `logger`, or the older `debug` (`true`: every line to `console.error`; an object:
   *   every line to its `log`); see {@link levelOf} for the environment variables read when neither is given.
   * @param secrets - Literal strings that must never be printed.
   */
  constructor(options: LoggingOptions, secrets: string[] = []) {
    const { level, viaDebugSwitch } = levelOf(options);
    this.#rank = LEVEL_RANK[level];
    const { logger, debug } = options;
    if (logger !== undefined) this.#write = (at, line) => logger[at](line);
    else if (typeof debug === 'object' && debug !== null) this.#write = (_at, line) => debug.log(line);
    // The debug switch has always written to stderr; a level writes each line to the console method of its level.
    else if (viaDebugSwitch) this.#write = (_at, line) => console.error(line);
    else this.#write = (at, line) => console[at](line);
    this.enabled = this.enabledFor('debug');
    // Longest first, so a secret that contains another is replaced whole.
    this.#secrets = secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  }

  /** Whether lines of `level` are written. */
  enabledFor(level: Exclude<LogLevel, 'off'>): boolean {
    return LEVEL_RANK[level] <= this.#rank;
  }

  /** Logs one debug line (a no-op unless debug lines are on). `parts` are JSON-encoded after redaction. */
  log(message: string, parts?: Record<string, unknown>): void {
    this.at('debug', message, parts);
  }

  /** Logs one line at `level`, when that level is on. `parts` are appended as `key=value`, JSON-encoded. */
  at(level: Exclude<LogLevel, 'off'>, message: string, parts?: Record<string, unknown>): void {
    if (!this.enabledFor(level)) return;
    let line = `[railyard] ${message}`;
    if (parts) {
      for (const [key, value] of Object.entries(parts)) {
        if (value === undefined) continue;
        line += ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
      }
    }
    for (const secret of this.#secrets) line = line.split(secret).join(REDACTED);
    this.#write(level, line);
  }
}
