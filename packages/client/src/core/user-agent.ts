/** This package's version, set by the build (tsup `define`, see tsup.base.ts); absent when run from source. */
declare const RAILYARD_VERSION: string | undefined;

/** The client package's version, fixed at build time; `development` when run from source (the tests). */
export const CLIENT_VERSION: string = typeof RAILYARD_VERSION === 'string' ? RAILYARD_VERSION : 'development';

type Versions = { node?: string; bun?: string };

/**
 * The `User-Agent` the client sends: `railyard-client/<version> node/<version>` (or `bun/<version>`), so a server's
 * logs tell which SDK and runtime called. None in a browser or worker: there the browser sets the User-Agent, and a
 * header of our own would make every request need a CORS preflight its server may not allow.
 */
export function userAgentHeaders(versions: Versions | undefined = runtimeVersions()): Record<string, string> {
  const runtime = versions?.bun !== undefined ? `bun/${versions.bun}` : versions?.node !== undefined ? `node/${versions.node}` : undefined;
  return runtime === undefined ? {} : { 'user-agent': `railyard-client/${CLIENT_VERSION} ${runtime}` };
}

const runtimeVersions = (): Versions | undefined => (globalThis as { process?: { versions?: Versions } }).process?.versions;
