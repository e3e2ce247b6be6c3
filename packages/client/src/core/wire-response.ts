import type { WireReply } from '@railyard/contract/routes';

/**
 * A response as the client handles it, from either transport: a WHATWG Response over HTTP, or a plain reply from an
 * in-process engine. The body text is read once and cached; {@link WireResponse.toResponse} gives a real Response.
 */
export interface WireResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  /** The body as text (read once, cached). */
  text(): Promise<string>;
  /** A WHATWG Response with an unread body. */
  toResponse(): Response;
}

/** Wraps a fetch Response; the body is read from a clone so the original stays unread for `asResponse()`. */
export function wireFromResponse(response: Response): WireResponse {
  let text: Promise<string> | undefined;
  return {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    text: () => (text ??= response.clone().text()),
    toResponse: () => response,
  };
}

/** Wraps a reply of the in-memory wire; a Response is only built if someone asks for one. */
export function wireFromReply(reply: WireReply): WireResponse {
  let headers: Headers | undefined;
  const wire: WireResponse = {
    status: reply.status,
    ok: reply.status >= 200 && reply.status < 300,
    get headers() {
      return (headers ??= new Headers(reply.headers));
    },
    text: () => Promise.resolve(reply.body ?? ''),
    toResponse: () => new Response(reply.body, { status: reply.status, headers: reply.headers }),
  };
  return wire;
}
