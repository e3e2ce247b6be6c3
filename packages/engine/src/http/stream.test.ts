import { describe, expect, it } from 'vitest';
import { readableOf, ReplyStream } from './stream.js';

describe('a streamed reply as a WHATWG body', () => {
  it('holds writers back while the reader does not read, and lets every waiting write go on once it does', async () => {
    let settled = 0;
    let ended = false;
    const body = readableOf(new ReplyStream((sink) => {
      // More writes than the queue holds, several of them waiting at once (a keep-alive beside a message).
      const writes = Array.from({ length: 40 }, (_, i) => sink.write(`chunk ${i}\n`).then(() => settled++));
      void Promise.all(writes).then(() => sink.end());
      return () => (ended = true);
    }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Nothing read yet: the writes past the queue's room wait.
    expect(settled).toBeLessThan(40);
    const text = await new Response(body).text();
    expect(text.split('\n').filter(Boolean)).toHaveLength(40);
    expect(settled).toBe(40);
    expect(ended).toBe(false);
  });

  it('stops the stream when the reader cancels, and lets waiting writes go', async () => {
    let stopped = false;
    let pending: Promise<void> | undefined;
    const body = readableOf(new ReplyStream((sink) => {
      for (let i = 0; i < 30; i++) pending = sink.write('x');
      return () => (stopped = true);
    }));
    await body.cancel();
    await pending;
    expect(stopped).toBe(true);
  });
});
