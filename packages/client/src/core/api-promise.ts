/**
 * The promise every API call returns.
 * @module
 */
import type { WireResponse } from './wire-response.js';

/** What the client keeps of a successful HTTP exchange before parsing its body. */
export interface RawAPIResponse {
  /** The final response (after any retries). */
  response: WireResponse;
  /** HTTP method of the request. */
  method: string;
  /** Full URL of the request. */
  url: string;
  /** How many retries were needed (0 when the first attempt succeeded). */
  retries: number;
}

/** Response metadata returned beside the data by {@link APIPromise.withResponse}. */
export interface ResponseInfo {
  /** HTTP status code. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Value of the `X-Request-Id` response header, if the server sent one. */
  requestId: string | undefined;
  /** How many retries the call needed before this response. */
  retries: number;
}

/** The parsed data of a call together with its {@link ResponseInfo}. */
export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/** Reads a response body as JSON: `undefined` for 204 and empty bodies, the text when it is not JSON. */
export async function parseJsonBody(response: WireResponse): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || type === '') {
    try {
      return JSON.parse(text);
    } catch {
      if (type.includes('json')) throw new SyntaxError(`The server sent invalid JSON (${text.slice(0, 100)})`);
      return text;
    }
  }
  return text;
}

/**
 * A `Promise` of a call's parsed data that also exposes the HTTP response:
 *
 * ```ts
 * const customer = await client.customers.retrieve(id);
 * const { data, response } = await client.customers.retrieve(id).withResponse();
 * console.log(response.requestId);
 * const raw: Response = await client.customers.retrieve(id).asResponse();
 * ```
 *
 * The request is sent as soon as the method is called; the body is parsed only when the data is asked for.
 */
export class APIPromise<T> extends Promise<T> {
  // Derived promises (`then`, `catch`, `finally`) are plain Promises.
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  readonly #raw: Promise<RawAPIResponse>;
  readonly #parse: (raw: RawAPIResponse) => Promise<T>;
  #parsed: Promise<WithResponse<T>> | undefined;

  /**
   * @param raw - The exchange, already under way.
   * @param parse - Turns the response into the data.
   */
  constructor(raw: Promise<RawAPIResponse>, parse: (raw: RawAPIResponse) => Promise<T>) {
    super((resolve) => resolve(undefined as T));
    this.#raw = raw;
    this.#parse = parse;
  }

  /** Builds an APIPromise of derived data from the same exchange (used by resources to post-process). */
  _thenUnwrap<U>(transform: (data: T, raw: RawAPIResponse) => U | Promise<U>): APIPromise<U> {
    return new APIPromise<U>(this.#raw, async (raw) => transform(await this.#parse(raw), raw));
  }

  /** The raw `Response`, body unread. Rejects with an {@link APIError} for error statuses, like the data does. */
  asResponse(): Promise<Response> {
    return this.#raw.then((raw) => raw.response.toResponse());
  }

  /** The parsed data together with the status, headers and request id of the response. */
  withResponse(): Promise<WithResponse<T>> {
    this.#parsed ??= this.#raw.then(async (raw) => ({
      data: await this.#parse(raw),
      response: {
        status: raw.response.status,
        headers: raw.response.headers,
        requestId: raw.response.headers.get('x-request-id') ?? undefined,
        retries: raw.retries,
      },
    }));
    return this.#parsed;
  }

  #data(): Promise<T> {
    return this.withResponse().then((result) => result.data);
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#data().then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#data().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#data().finally(onfinally);
  }
}
