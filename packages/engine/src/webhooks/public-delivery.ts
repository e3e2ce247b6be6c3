/**
 * The delivery transport of a public sandbox (Node only): an HTTP(S) POST that connects only to public addresses
 * (endpoint-policy.ts). A host name is resolved once, every address it resolves to is checked, and the connection goes
 * to a checked address: a name that resolves to a private address is never contacted, and a DNS answer that changes
 * between the check and the connection (DNS rebinding) cannot point it elsewhere. Redirects are not followed.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { MAX_ANSWER_BYTES, type WebhookFetch } from './delivery.js';
import { nonPublicRange } from './endpoint-policy.js';

/** What a host name resolves to. */
export type Resolve = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** Options of {@link createPublicOnlyFetch}; both default to the real thing and exist for tests. */
export interface PublicOnlyFetchOptions {
  /** Resolution of host names: `dns.lookup` (hosts file, then DNS, as any connection) by default. */
  readonly resolve?: Resolve;
  /** Why an address may not be contacted, or undefined when it may: {@link nonPublicRange} by default. */
  readonly refuse?: (address: string) => string | undefined;
}

/** An error for a receiver that may not be contacted. */
const refusal = (message: string) => Object.assign(new Error(message), { code: 'ERR_NON_PUBLIC_ADDRESS' });

/** A {@link WebhookFetch} that contacts public addresses only; see the module comment. */
export function createPublicOnlyFetch(options: PublicOnlyFetchOptions = {}): WebhookFetch {
  const resolve: Resolve = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
  const refuse = options.refuse ?? nonPublicRange;
  // Net calls this instead of its own resolution, and connects to what it returns: the checked addresses.
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addresses.map(({ address }) => ({ address, why: refuse(address) })).find(({ why }) => why !== undefined);
        if (addresses.length === 0) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
        // One non-public address is enough to refuse: which one a connection would pick is not ours to predict.
        else if (refused) callback(refusal(`${hostname} resolves to ${refused.address} (${refused.why}): not contacted`), '', 4);
        else if (lookupOptions.all) (callback as unknown as (error: null, all: typeof addresses) => void)(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
  // Own agents: a socket kept alive was connected by this lookup, never by another user of Node's global agents.
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

  return (url, init) =>
    new Promise<Response>((resolvePromise, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') throw refusal(`${target.protocol} is not http: or https:`);
      // Net does not look up an address written as one: check it here.
      const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
      const literal = isIP(host) === 0 ? undefined : refuse(host);
      if (literal !== undefined) throw refusal(`${host} (${literal}): not contacted`);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(target, { method: init.method, headers: init.headers, lookup, agent: agents[target.protocol], signal: init.signal }, (answer) => {
        readAnswer(answer).then((body) => {
          const status = answer.statusCode ?? 0;
          // A Response takes no body with these statuses, and no status outside 200–599 (it throws: the attempt fails).
          resolvePromise(new Response([204, 205, 304].includes(status) ? null : body, { status }));
        }).catch(reject);
      });
      request.on('error', reject);
      request.end(init.body);
    });
}

/** The first {@link MAX_ANSWER_BYTES} of an answer's body. */
function readAnswer(answer: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    answer.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.byteLength;
      if (size >= MAX_ANSWER_BYTES) {
        answer.destroy();
        resolve(new Uint8Array(Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES)));
      }
    });
    answer.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    answer.on('error', reject);
  });
}

/**
 * The delivery transport of `railyard serve --public`: give it as `webhooks.fetch` of an engine created with
 * `webhooks.publicEndpointsOnly` (Node only).
 */
export const publicOnlyWebhookFetch: WebhookFetch = createPublicOnlyFetch();
