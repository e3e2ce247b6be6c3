// Test support (not part of the package): a scripted fake `fetch` that records every request.
import { createClient, type ClientOptions, type RailyardClient } from './index.js';

/** A request as the fake server saw it. */
export interface Recorded {
  method: string;
  url: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  /** Parsed JSON body, or undefined when there was none. */
  body: unknown;
  rawBody: string;
  /** The signal fetch was given. */
  signal: AbortSignal;
}

/** One scripted answer: a response description, an error to throw, 'hang' to never answer (until aborted). */
export type Reply =
  | { status?: number; body?: unknown; headers?: Record<string, string>; raw?: string }
  | Error
  | 'hang'
  | 'hang-ignoring-signal';

export type Script = Reply[] | ((req: Recorded, index: number) => Reply | Promise<Reply>);

/** A fake fetch: answers from the script in order (the last entry repeats) and records requests. */
export function fakeFetch(script: Script) {
  const requests: Recorded[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const rawBody = request.body ? await request.text() : '';
    const url = new URL(request.url);
    const recorded: Recorded = {
      method: request.method,
      url: request.url,
      path: url.pathname,
      search: url.searchParams,
      headers: request.headers,
      body: rawBody === '' ? undefined : JSON.parse(rawBody),
      rawBody,
      signal: request.signal,
    };
    const index = requests.length;
    requests.push(recorded);
    const reply = typeof script === 'function' ? await script(recorded, index) : script[Math.min(index, script.length - 1)]!;
    if (reply instanceof Error) throw reply;
    if (reply === 'hang-ignoring-signal') return new Promise<Response>(() => {});
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) => {
        const signal = request.signal;
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    const status = reply.status ?? 200;
    const headers = new Headers({ 'x-request-id': `req_${index + 1}`, ...reply.headers });
    if (reply.raw !== undefined) return new Response(reply.raw, { status, headers });
    if (reply.body === undefined || status === 204) return new Response(null, { status, headers });
    headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(reply.body), { status, headers });
  };
  return { fetch, requests };
}

export const BASE = 'http://127.0.0.1:4100/2025-10-13';
export const CLIENT_ID = 'platform_test';
export const CLIENT_SECRET = 'sk_test_very-secret-value';

/** A client on a fake fetch whose retry sleeps are recorded instead of waited, with jitter off. */
export function setup(script: Script, options: ClientOptions = {}) {
  const { fetch, requests } = fakeFetch(script);
  const sleeps: number[] = [];
  const client: RailyardClient = createClient({
    baseUrl: BASE,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0,
    ...options,
  });
  return { client, requests, sleeps, fetch };
}

/** An error body as the API sends it. */
export const errorBody = (status: number, code: string, message: string, details?: Record<string, unknown>) => ({
  status,
  body: { status, code, message, ...(details ? { details } : {}) },
});

export const individual = (id = 'Customer:0190c5a4-7b7e-4d3e-9f4e-6a0b8c1d2e3f') => ({
  id,
  customerType: 'INDIVIDUAL' as const,
  platformCustomerId: 'pc-1',
  currencies: ['USD'],
  umaAddress: '$pc-1@railyard.test',
  kycStatus: 'UNVERIFIED' as const,
  fullName: 'Ada Lovelace',
  createdAt: '2025-10-13T00:00:00.000Z',
  updatedAt: '2025-10-13T00:00:00.000Z',
  isDeleted: false,
});
