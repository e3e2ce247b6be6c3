/**
 * Server-sent events as the WHATWG HTML standard defines them (§9.2 "Server-sent events"): the text of a message, and a
 * reader that turns a stream of bytes back into messages. The reader is the one `railyard listen` and `railyard
 * events --follow` use; browsers have their own (`EventSource`).
 */

/** One message: `data` is its text (lines joined with `\n`), `id` the last `id:` field seen on the stream so far. */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/**
 * The text of one message. `data` may hold newlines (each line is sent as a `data:` field); `id` and `event` may not
 * (an id with a newline would end its field early), and neither ever holds one here: event ids and types are the
 * engine's own.
 */
export function sseMessage(message: { readonly id?: string; readonly event?: string; readonly data: string }): string {
  let text = '';
  if (message.event !== undefined) text += `event: ${message.event}\n`;
  if (message.id !== undefined) text += `id: ${message.id}\n`;
  let start = 0;
  for (;;) {
    const end = message.data.indexOf('\n', start);
    text += `data: ${end < 0 ? message.data.slice(start) : message.data.slice(start, end)}\n`;
    if (end < 0) break;
    start = end + 1;
  }
  return `${text}\n`;
}

/** A comment line: ignored by readers, it keeps an idle connection from being closed by a proxy. */
export const sseComment = (text: string): string => `: ${text}\n\n`;

/** The field that tells a reader how long to wait before reconnecting, in milliseconds. */
export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`;

/**
 * The messages of an event stream's body, as they arrive. Linear in the body: each chunk is scanned once for line ends
 * (CRLF, LF or CR, as the standard allows), and an unfinished line is kept until the next chunk ends it.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  // The start of a line not ended yet, in the pieces it came in (joined once, when it ends).
  let pending: string[] = [];
  let lastId: string | undefined;
  let event = '';
  let data: string[] = [];
  let skipLineFeed = false;
  const field = (line: string): ServerSentEvent | undefined => {
    if (line === '') {
      const message = data.length === 0 ? undefined : { event: event === '' ? 'message' : event, data: data.join('\n'), id: lastId };
      event = '';
      data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') data.push(value);
    else if (name === 'event') event = value;
    else if (name === 'id' && !value.includes('\u0000')) lastId = value;
    return undefined;
  };
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      if (code === 10 && skipLineFeed && i === start && pending.length === 0) {
        skipLineFeed = false;
        start = i + 1;
        continue;
      }
      skipLineFeed = code === 13;
      const line = pending.length === 0 ? text.slice(start, i) : `${pending.join('')}${text.slice(start, i)}`;
      pending = [];
      const message = field(line);
      if (message) yield message;
      start = i + 1;
    }
    if (start < text.length) {
      skipLineFeed = false;
      pending.push(text.slice(start));
    }
  }
}
