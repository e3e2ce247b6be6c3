import { answerText } from '../../packages/engine/src/testing/requests.js';
import type { Transport } from './transports.js';

/** One answer of the API as it came: status, headers, the body text and, when it is JSON, the parsed body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON, loosely typed: checks read whatever the answer holds. */
  readonly json: any;
}

/** What a raw call sends besides method and path: a JSON body (or exact body text), a form, extra headers. */
export interface RawCallOptions {
  readonly body?: unknown;
  readonly form?: FormData;
  readonly headers?: Record<string, string>;
}

/** A raw API call as one platform: exactly one HTTP request, no client retries, so checks can count what was sent. */
export type RawCall = (method: string, path: string, options?: RawCallOptions) => Promise<RawAnswer>;

/** Basic credentials as the Authorization header carries them. */
export const basicAuth = (credentials: { clientId: string; clientSecret: string }): string =>
  `Basic ${btoa(`${credentials.clientId}:${credentials.clientSecret}`)}`;

/**
 * Raw calls through a transport as the platform of `credentials` (none: a public call). A string body is sent as it is
 * (a signed retry must repeat its first leg byte for byte); anything else as JSON.
 */
export function rawCaller(transport: Pick<Transport, 'raw'>, credentials?: { clientId: string; clientSecret: string }): RawCall {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...(credentials ? { authorization: basicAuth(credentials) } : {}), ...options.headers };
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await transport.raw(path, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual' });
    const text = await answerText(response);
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
}
