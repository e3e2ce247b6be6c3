import { describe, expect, it } from 'vitest';
import { readServerSentEvents, sseComment, sseMessage, sseRetry } from './sse.js';

/** The messages of a body that arrives in these chunks. */
async function messagesOf(...chunks: string[]) {
  const encoder = new TextEncoder();
  async function* body() {
    for (const chunk of chunks) yield encoder.encode(chunk);
  }
  const messages = [];
  for await (const message of readServerSentEvents(body())) messages.push(message);
  return messages;
}

describe('server-sent events', () => {
  it('writes a message each reader reads back, data lines joined, comments and retry fields skipped', async () => {
    const text = `${sseRetry(1000)}${sseComment('connected')}${sseMessage({ id: 'Webhook:1', data: '{"a":1}' })}${sseMessage({ event: 'note', data: 'two\nlines' })}`;
    expect(text).toBe('retry: 1000\n\n: connected\n\nid: Webhook:1\ndata: {"a":1}\n\nevent: note\ndata: two\ndata: lines\n\n');
    expect(await messagesOf(text)).toEqual([
      { event: 'message', data: '{"a":1}', id: 'Webhook:1' },
      // The last id seen stays the stream's id, as the standard says.
      { event: 'note', data: 'two\nlines', id: 'Webhook:1' },
    ]);
  });

  it('reads CRLF and CR line ends, and lines and line ends split across chunks', async () => {
    expect(await messagesOf('id: 7\r\ndata: x\r\n\r\ndata: y\r\rdata', ':z\n', '\n')).toEqual([
      { event: 'message', data: 'x', id: '7' },
      { event: 'message', data: 'y', id: '7' },
      { event: 'message', data: 'z', id: '7' },
    ]);
    // A CR at a chunk's end and its LF at the next chunk's start are one line end, not an empty line between.
    expect(await messagesOf('data: a\r', '\ndata: b\r', '\n\r', '\n')).toEqual([{ event: 'message', data: 'a\nb', id: undefined }]);
    // A message split in the middle of a field, byte by byte.
    expect(await messagesOf(...'data: split\n\n'.split(''))).toEqual([{ event: 'message', data: 'split', id: undefined }]);
  });

  it('drops a message without data and an unfinished one at the end', async () => {
    expect(await messagesOf('event: empty\n\ndata: cut')).toEqual([]);
  });
});
