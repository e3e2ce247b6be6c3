/**
 * Decides whether a client may call the sandbox control plane (`/_sandbox/...`).
 * @module
 */

/** What the decision is based on. */
export interface SandboxGuardInput {
  /** The `sandbox` client option: `true` forces allow, `false` forces refuse. */
  sandbox: boolean | undefined;
  /** The base URL as given by the caller (`undefined` when the default was used). */
  baseUrl: string | undefined;
  /** Whether the caller gave a custom `fetch` (e.g. an in-memory engine). */
  customFetch: boolean;
  /** The effective base URL. */
  resolvedBaseUrl: string;
}

/** True for `localhost` (and `*.localhost`), `127.0.0.0/8` and `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The control plane is allowed when `sandbox: true` was given, or the base URL's host is loopback or has
 * `sandbox` in its name, or no base URL was given but a custom `fetch` was (an in-process engine).
 * `sandbox: false` always refuses. Everything else (a production host) is refused.
 *
 * @returns `undefined` when allowed, else the reason for refusing.
 */
export function sandboxRefusal(input: SandboxGuardInput): string | undefined {
  if (input.sandbox === true) return undefined;
  if (input.sandbox === false) return 'the client was created with `sandbox: false`';
  if (input.baseUrl === undefined && input.customFetch) return undefined;
  let hostname: string;
  try {
    hostname = new URL(input.resolvedBaseUrl).hostname;
  } catch {
    return `the base URL ${input.resolvedBaseUrl} cannot be parsed`;
  }
  if (isLoopbackHost(hostname) || hostname.toLowerCase().includes('sandbox')) return undefined;
  return `the base URL ${input.resolvedBaseUrl} is not a sandbox (not loopback and no "sandbox" in its host name); pass \`sandbox: true\` if it is one`;
}
