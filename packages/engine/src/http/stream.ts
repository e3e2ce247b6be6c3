import type { WireReply } from '@railyard/contract';

/**
 * Where a streamed reply writes: `write` hands a chunk to the client and resolves once the client has room for more
 * (so a slow reader holds the writer back instead of filling memory); `end` finishes the reply.
 */
export interface StreamSink {
  write(chunk: string): Promise<void>;
  end(): void;
}

/**
 * A reply body that goes on after its head is sent (server-sent events). Nothing runs until a transport opens it, so a
 * reply that is never sent (a HEAD, an in-memory call) costs nothing; `open` returns what stops it when the client goes.
 */
export class ReplyStream {
  constructor(
    readonly open: (sink: StreamSink) => () => void,
    /** Lets go of what the stream holds when it is never opened (a client gone before the head, a HEAD). */
    readonly discard: () => void = () => undefined,
  ) {}
}

/** A reply whose body is a {@link ReplyStream}: `body` is null and the transport opens `stream` once the head is sent. */
export interface StreamingReply extends WireReply {
  readonly stream: ReplyStream;
}

export const isStreaming = (reply: WireReply): reply is StreamingReply => (reply as Partial<StreamingReply>).stream instanceof ReplyStream;

/** A streamed reply as a WHATWG body: chunks are pulled as the reader asks for them; cancelling stops the stream. */
export function readableOf(stream: ReplyStream): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop: (() => void) | undefined;
  // Resolved when the reader asks for more (pull): writes wait for it once the queue is full (several may wait).
  let waiting: (() => void)[] = [];
  const room = () => {
    const ready = waiting;
    waiting = [];
    for (const resolve of ready) resolve();
  };
  let ended = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      stop = stream.open({
        write: (chunk) => {
          if (ended) return Promise.resolve();
          controller.enqueue(encoder.encode(chunk));
          return (controller.desiredSize ?? 1) > 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
        },
        end: () => {
          if (ended) return;
          ended = true;
          controller.close();
        },
      });
    },
    pull() {
      room();
    },
    cancel() {
      ended = true;
      room();
      stop?.();
    },
  }, { highWaterMark: 16 });
}
