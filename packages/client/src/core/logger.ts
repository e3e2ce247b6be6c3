/**
 * Opt-in debug logging with redaction of credentials and signatures.
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

const readEnvDebug = (): boolean => {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.RAILYARD_DEBUG;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
};

/**
 * Writes debug lines, prefixed `[railyard]`, after redacting known secrets. As a last line of defence every line is
 * also scrubbed of the literal secret strings it was given (the client secret and the encoded Basic credentials),
 * wherever they occur.
 */
export class Logger {
  readonly enabled: boolean;
  readonly #sink: DebugLogger | undefined;
  readonly #secrets: string[];

  /**
   * @param debug - `true` logs to `console.error`; an object logs to it; `false` disables; `undefined` follows `RAILYARD_DEBUG`.
   * @param secrets - Literal strings that must never be printed.
   */
  constructor(debug: boolean | DebugLogger | undefined, secrets: string[] = []) {
    if (typeof debug === 'object' && debug !== null) this.#sink = debug;
    else if (debug === true || (debug === undefined && readEnvDebug())) this.#sink = { log: (line) => console.error(line) };
    this.enabled = this.#sink !== undefined;
    // Longest first, so a secret that contains another is replaced whole.
    this.#secrets = secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  }

  /** Logs one line (a no-op when disabled). `parts` are JSON-encoded after redaction. */
  log(message: string, parts?: Record<string, unknown>): void {
    if (!this.#sink) return;
    let line = `[railyard] ${message}`;
    if (parts) {
      for (const [key, value] of Object.entries(parts)) {
        if (value === undefined) continue;
        line += ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
      }
    }
    for (const secret of this.#secrets) line = line.split(secret).join(REDACTED);
    this.#sink.log(line);
  }
}
