/**
 * Request paths as a log may show them: a path parameter that an endpoint declares a bearer secret (`secrets.params`
 * in the contract: a device code, a hosted KYC link token, a card reveal token) is written as its name, `{code}`,
 * never as its value.
 */
import { BASE_PATH, endpoints, type Endpoint } from '@railyard/contract';

/**
 * One endpoint path with a secret parameter, cut after its last secret segment: a request path whose first segments
 * match it has those segments' values hidden, whatever follows (a sub-page, a typo, a trailing slash) and whatever the
 * method, so that a 404 or a 405 next to a secret route does not print the secret either.
 */
interface SecretTemplate {
  /** Each segment: a static one in lower case (matched regardless of case), or null for a parameter. */
  readonly segments: readonly (string | null)[];
  /** The `{name}` shown in place of a secret segment's value, by segment index. */
  readonly hidden: ReadonlyMap<number, string>;
}

/** The templates of every endpoint that declares a secret path parameter. */
export function secretTemplatesOf(list: Iterable<Pick<Endpoint, 'path' | 'secrets'>>): SecretTemplate[] {
  const templates: SecretTemplate[] = [];
  const seen = new Set<string>();
  for (const endpoint of list) {
    const secret = endpoint.secrets?.params;
    if (!secret || secret.length === 0) continue;
    const parts = endpoint.path.split('/').slice(1);
    const hidden = new Map<number, string>();
    parts.forEach((part, index) => {
      if (part.startsWith('{') && secret.includes(part.slice(1, -1))) hidden.set(index, part);
    });
    if (hidden.size === 0) continue;
    const end = Math.max(...hidden.keys()) + 1;
    const segments = parts.slice(0, end).map((part) => (part.startsWith('{') ? null : part.toLowerCase()));
    const key = `${segments.map((s) => s ?? '{}').join('/')} ${[...hidden.keys()].join(',')}`;
    if (seen.has(key)) continue; // the pages of one link share their prefix
    seen.add(key);
    templates.push({ segments, hidden });
  }
  return templates;
}

/** A segment as the router compares it: percent-decoded (when it decodes), in lower case for the static comparison. */
function comparable(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** Replaces, in `segments` from `offset` on, the values of every template's secret segments that match there. */
function hideFrom(segments: string[], offset: number, templates: readonly SecretTemplate[]): void {
  for (const template of templates) {
    if (segments.length - offset < template.segments.length) continue;
    const matches = template.segments.every((expected, i) => {
      const actual = segments[offset + i]!;
      return expected === null ? actual !== '' : comparable(actual) === expected;
    });
    if (!matches) continue;
    for (const [index, name] of template.hidden) segments[offset + index] = name;
  }
}

/**
 * A function from a request path (normalized as the engine routes it: dot segments resolved, no query) to the same
 * path with secret parameters shown as `{name}`. Paths under the base path and control-plane paths at the root both
 * count; a path no secret route starts with is returned as it is, but for doubled slashes, which are collapsed.
 */
export function secretPathRedactor(list: Iterable<Pick<Endpoint, 'path' | 'secrets'>> = Object.values(endpoints)): (path: string) => string {
  const templates = secretTemplatesOf(list);
  const base = BASE_PATH.split('/').slice(1);
  return (path) => {
    // Empty segments collapsed first: a doubled slash (a base URL joined to a path) must not move a secret out of place.
    const segments = path.replace(/\/{2,}/g, '/').split('/');
    // segments[0] is the '' before the leading slash.
    const underBase = base.every((part, i) => segments[1 + i] === part);
    // Every template is tried at the root and under the base path: a control-plane route is served at both, and an API
    // route asked for at the root (a 404) carries the secret all the same.
    hideFrom(segments, 1, templates);
    if (underBase) hideFrom(segments, 1 + base.length, templates);
    return segments.join('/');
  };
}

/** Hides secret path parameters; built on the first logged request (a server without a log never needs it). */
let hideSecrets: ((path: string) => string) | undefined;

/**
 * The path of a request target, origin-form (`/path?q`) or absolute-form (`http://h/path?q`), as the engine reads it
 * (see {@link incomingFromNode}: dot segments resolved, without the query and fragment), with its secret parameters
 * hidden. A target that is not a URL (the engine answered 400) is not shown: it could hold anything, credentials too.
 */
export function loggedPathOf(target: string): string {
  let pathname: string;
  try {
    pathname = new URL(target.startsWith('/') ? `http://railyard${target}` : target).pathname;
  } catch {
    return '(not a URL)';
  }
  return (hideSecrets ??= secretPathRedactor())(pathname);
}
