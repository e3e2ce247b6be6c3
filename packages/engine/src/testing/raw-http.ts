import { connect, type Socket } from 'node:net';

/** A reply read off a raw socket: the final response, and the statuses of any interim (1xx) responses before it. */
export interface RawReply {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly interim: number[];
  /** True when the server closed the connection after the reply. */
  readonly closed: boolean;
}

/**
 * Test helper: opens a TCP connection to `port`, lets `send` write whatever it likes (bytes no HTTP client would send),
 * and resolves with the first final response, parsed. Rejects when the connection closes before a whole response, or
 * after `timeoutMs`.
 */
export function rawExchange(port: number, send: (socket: Socket) => void, timeoutMs = 5_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => send(socket));
    let data = Buffer.alloc(0);
    const interim: number[] = [];
    let reply: Omit<RawReply, 'closed'> | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no whole reply within ${timeoutMs} ms: ${data.toString('latin1').slice(0, 300)}`));
    }, timeoutMs);
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      if (reply) resolve({ ...reply, closed });
      else reject(new Error(`closed before a whole reply: ${data.toString('latin1').slice(0, 300)}`));
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      for (;;) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
        const headers = Object.fromEntries(lines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }));
        if (status >= 100 && status < 200) {
          interim.push(status);
          data = data.subarray(end + 4);
          continue;
        }
        const length = Number(headers['content-length'] ?? 0);
        if (data.length < end + 4 + length) return;
        reply = { status, headers, body: data.subarray(end + 4, end + 4 + length).toString('utf8'), interim };
        // A reply with Connection: close settles when the server closes; otherwise a close within a moment still counts.
        if (headers.connection !== 'close') setTimeout(() => finish(false), 50);
        return;
      }
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
  });
}

/** Test helper: sends `text` as it is and resolves with the reply (see {@link rawExchange}). */
export const rawRequest = (port: number, text: string, timeoutMs?: number): Promise<RawReply> =>
  rawExchange(port, (socket) => socket.write(text), timeoutMs);
