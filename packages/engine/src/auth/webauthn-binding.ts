// How a passkey is bound to a web origin, as WebAuthn binds it (WebAuthn §5.1.3, §5.1.4; HTML's "registrable domain
// suffix"): the origin is a secure context (https, or http on localhost), and the RP ID is the origin's host or a
// registrable suffix of it, never a public suffix. An assertion must come from an origin within the RP ID the credential
// was registered with, and carry that RP ID's hash.

/**
 * Suffixes under which anyone can register names (a subset of the Public Suffix List): every top-level domain (a single
 * label), the common country second levels, and hosting domains that give each customer a subdomain. An RP ID may
 * never be one of these, so `wallet.example.co.uk` may use `example.co.uk` but not `co.uk`.
 */
export const PUBLIC_SUFFIXES: ReadonlySet<string> = new Set([
  // Country second levels.
  'co.uk', 'org.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'net.uk', 'ac.uk', 'gov.uk', 'nhs.uk', 'com.au', 'net.au', 'org.au', 'edu.au',
  'gov.au', 'co.nz', 'org.nz', 'net.nz', 'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'go.jp', 'com.br', 'net.br', 'org.br', 'com.mx', 'org.mx',
  'gob.mx', 'co.za', 'org.za', 'com.cn', 'net.cn', 'org.cn', 'co.in', 'net.in', 'org.in', 'com.sg', 'com.hk', 'co.kr', 'or.kr',
  'com.tr', 'com.ar', 'com.co', 'com.pe', 'co.il', 'com.ng', 'co.ke', 'com.ph', 'com.my', 'co.id', 'com.vn', 'com.tw', 'com.pl',
  'co.at', 'or.at', 'com.es', 'co.it', 'com.pt', 'com.de', 'com.ua', 'com.eg', 'com.sa', 'ae.org', 'eu.com', 'us.com', 'uk.com',
  // Hosting domains whose subdomains belong to different owners.
  'github.io', 'gitlab.io', 'vercel.app', 'netlify.app', 'pages.dev', 'workers.dev', 'web.app', 'firebaseapp.com', 'herokuapp.com',
  'appspot.com', 'azurewebsites.net', 'cloudfront.net', 'amazonaws.com', 'ngrok.io', 'ngrok-free.app', 'ngrok.app', 'onrender.com',
  'fly.dev', 'railway.app', 'glitch.me', 'repl.co', 'blogspot.com',
]);

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Whether `domain` is a public suffix: a single label (`com`, `app`), or one of {@link PUBLIC_SUFFIXES}. */
export const isPublicSuffix = (domain: string): boolean => (!domain.includes('.') && domain !== 'localhost') || PUBLIC_SUFFIXES.has(domain);

/** A host of the local machine, where browsers treat plain http as a secure context. */
const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';

/** The origin of a clientDataJSON as a URL, if it is an origin a browser may run WebAuthn on: https, or http locally. */
export function secureOrigin(origin: string | undefined): URL | undefined {
  if (origin === undefined || !URL.canParse(origin)) return undefined;
  const url = new URL(origin);
  if (url.origin !== origin) return undefined; // an origin has no path, query, fragment or credentials
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname) ? url : undefined;
}

/**
 * The RP IDs a page at `origin` may use, most specific first: its host and each parent domain down to (not including)
 * a public suffix. None for an IP address, which is no valid RP ID.
 */
export function rpIdCandidates(origin: URL): string[] {
  const host = origin.hostname.toLowerCase();
  if (IPV4.test(host) || host.startsWith('[')) return [];
  const labels = host.split('.');
  const candidates: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    const domain = labels.slice(i).join('.');
    if (isPublicSuffix(domain)) break;
    candidates.push(domain);
  }
  return candidates;
}

/** Whether a page at `origin` may use `rpId`: the RP ID is the origin's host or a registrable suffix of it. */
export const originWithinRpId = (origin: URL, rpId: string): boolean => rpIdCandidates(origin).includes(rpId.toLowerCase());
