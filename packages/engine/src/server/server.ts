import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import { BASE_PATH, type WireReply } from '@railyard/contract';
import type { Engine } from '../engine.js';
import { decodeUtf8, errorReply, headersTooLarge, tooLarge, type Incoming } from '../http/app.js';
import { ApiError } from '../core/errors.js';
import { loggedPathOf } from './secret-paths.js';
import { isStreaming, type StreamingReply } from '../http/stream.js';
import { withDashboard, type DashboardOptions } from '../dashboard/dashboard.js';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 4100. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /**
   * Milliseconds a connection has to send a request's headers, counted from its first byte (or from connecting, for
   * an idle connection); past it the answer is 408. Default: 60 000, or `requestTimeoutMs` when that is shorter; 0
   * turns it off.
   */
  headersTimeoutMs?: number;
  /** Milliseconds a connection has to send a whole request, body included; past it the answer is 408. Default 300 000; 0 turns it off. */
  requestTimeoutMs?: number;
  /**
   * Called once per request the engine answered, after the answer is written (`railyard serve --log` prints
   * {@link formatRequestLogLine} of each). Connections refused before they formed a request are not reported.
   */
  onRequestLogged?: (entry: RequestLogEntry) => void;
  /**
   * The dashboard at `/_sandbox/dashboard` (docs/dashboard.md): on by default; `false` serves only the API. Give the
   * sandbox's secret key so sign-ins outlive a restart and every server of a shared sandbox accepts them.
   */
  dashboard?: DashboardOptions | false;
}

/** One answered request, for a request log. */
export interface RequestLogEntry {
  readonly method: string;
  /**
   * The path as the engine routed it (dot segments resolved), without the query (which may carry values nobody asked
   * to have logged), and with every path parameter the contract declares a bearer secret (`secrets.params`: device
   * codes, hosted KYC link tokens, card reveal tokens) written as its name: `/2025-10-13/agents/device-codes/{code}/redeem`.
   * A target that is not a URL is `(not a URL)`.
   */
  readonly path: string;
  readonly status: number;
  /** From the request's arrival to its answer being handed to the socket, in milliseconds. */
  readonly durationMs: number;
  /** The `x-request-id` the engine answered with: the id to quote when asking about the request. */
  readonly requestId: string | undefined;
}

/** A request log line: `POST /2025-10-13/customers 201 3.1ms req_k2j8s0fa1`. */
export const formatRequestLogLine = (entry: RequestLogEntry): string =>
  `${entry.method} ${entry.path} ${entry.status} ${entry.durationMs.toFixed(1)}ms ${entry.requestId ?? '-'}`;

/** The log entry of a request answered with `status`, which arrived at `startedAt` (`performance.now()`). */
const logEntry = (req: IncomingMessage, status: number, requestId: string | undefined, startedAt: number): RequestLogEntry => ({
  method: req.method ?? 'GET', path: loggedPathOf(req.url ?? '/'), status, durationMs: performance.now() - startedAt, requestId,
});

/** A listening standalone server. */
export interface RunningServer {
  /** The API base URL, e.g. `http://127.0.0.1:4100/2025-10-13`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Stops accepting connections and resolves when open ones are done. */
  close(): Promise<void>;
}

/**
 * Serves an engine over HTTP with Node's http module. Requests go to the engine as an {@link Incoming} built straight
 * from Node's message, and replies are written as they are: no WHATWG Request or Response objects on the way. What
 * Node refuses itself before a request exists (not HTTP, headers too large, too slow, an unsupported `Expect`) is
 * answered with the API's error object too.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { createEngine } from '@railyard/engine';
 * import { startServer } from '@railyard/engine/server';
 * import { createClient } from '@railyard/client';
 *
 * const server = await startServer(createEngine(), { port: 0 }); // port 0: any free port
 * const client = createClient({ baseUrl: server.baseUrl, clientId: 'sandbox-client-id', clientSecret: 'sandbox-client-secret' });
 * const customer = await client.customers.create({ customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' });
 * assert.equal(customer.customerType, 'INDIVIDUAL');
 * await server.close(); // closes the engine too
 * ```
 */
export function startServer(engine: Pick<Engine, 'handle' | 'close'>, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const requestTimeout = options.requestTimeoutMs ?? 300_000;
  const headersTimeout = options.headersTimeoutMs ?? Math.min(60_000, requestTimeout);
  const timeouts = { headersTimeout, requestTimeout };
  const onRequestLogged = options.onRequestLogged;
  const handle = options.dashboard === false ? engine.handle : withDashboard(engine.handle, options.dashboard);
  // Responses under way per connection (pipelined requests queue theirs): an error reply written on the socket must
  // not cut into one that has started.
  const responses = new WeakMap<Duplex, Set<ServerResponse>>();
  const serve = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    const socket = req.socket;
    const open = responses.get(socket) ?? new Set();
    responses.set(socket, open.add(res));
    res.once('close', () => open.delete(res));
    const startedAt = onRequestLogged ? performance.now() : 0;
    handle(incomingFromNode(req, res, hostForUrl, expectsContinue)).then(
      (reply) => {
        send(req, res, reply);
        if (onRequestLogged) onRequestLogged(logEntry(req, reply.status, reply.headers['x-request-id'], startedAt));
      },
      (error: unknown) => {
        fail(res, error);
        if (onRequestLogged) onRequestLogged(logEntry(req, 500, undefined, startedAt));
      },
    );
  };
  const server = createServer({
    ...timeouts,
    // Node looks for timed-out connections this often (30 s by default, which would let a 60 s timeout run to 90 s);
    // never more often than every 100 ms (a timeout of 0 turns timeouts off).
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.ceil(headersTimeout / 4))),
  }, (req, res) => serve(req, res, false));
  // Expect: 100-continue. The 100 goes out once the engine reads the body, so a request refused before that (no
  // credentials, a declared length over the limit) is answered without the client sending a body nobody reads.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => serve(req, res, true));
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    send(req, res, errorReply(new ApiError(417, 'INVALID_REQUEST_FORMAT', `Expect: ${req.headers.expect} is not supported; the only expectation this server meets is 100-continue`)));
  });
  server.on('clientError', (error: NodeError, socket: Duplex) => {
    // The parser reports the same error again for every later byte of a connection already answered.
    if (socket.writableEnded) return;
    const refusal = clientRefusal(error, timeouts);
    if (refusal === undefined || !socket.writable || [...(responses.get(socket) ?? [])].some((res) => res.headersSent)) {
      socket.destroy();
      return;
    }
    socket.end(rawReply(errorReply(refusal)));
    // The connection ends with the reply, as Node ends it: a client that keeps its side open lets it go a moment later.
    setTimeout(() => socket.destroy(), 1_000).unref();
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4100, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        baseUrl: `http://${hostForUrl}:${port}${BASE_PATH}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            engine.close();
            server.close(() => done());
            // Idle keep-alive sockets would otherwise hold the server open; busy ones get a moment to finish.
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 1000).unref();
          }),
      });
    });
  });
}

/** Writes an engine's reply. */
function send(req: IncomingMessage, res: ServerResponse, reply: WireReply) {
  // Node gave up on the request mid-body (a timeout, a broken chunk) and the connection has had its answer.
  if (req.socket.writableEnded) {
    if (isStreaming(reply)) reply.stream.discard();
    return;
  }
  if (isStreaming(reply)) {
    sendStream(req, res, reply);
    return;
  }
  // An explicit length lets Node send headers and body in one write instead of a chunked stream.
  if (reply.body !== null) reply.headers['content-length'] = String(Buffer.byteLength(reply.body));
  if (!req.complete) dropRestOfBody(req, reply);
  res.writeHead(reply.status, reply.headers);
  res.end(reply.body ?? undefined);
}

/**
 * The most a streamed reply may have waiting for a client that does not read; past it the connection is closed (an
 * event stream's client reconnects and resumes where it was).
 */
const MAX_UNREAD_STREAM_BYTES = 4 * 1024 * 1024;

/** Writes a streamed reply (server-sent events): the head at once, then each chunk as it comes, until either side ends. */
function sendStream(req: IncomingMessage, res: ServerResponse, reply: StreamingReply) {
  // The client went away before the head (a reset while the request was served): nobody to stream to.
  if (res.destroyed || req.socket.destroyed) {
    reply.stream.discard();
    return;
  }
  let open = true;
  let stop: () => void = () => undefined;
  // Registered before the stream opens: a close that comes at any point stops it.
  res.once('close', () => {
    open = false;
    stop();
  });
  // A failed write is the connection going: 'close' follows and stops the stream.
  res.on('error', () => undefined);
  if (!req.complete) dropRestOfBody(req, reply);
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  // Events are small and should leave at once, not wait to fill a packet.
  req.socket.setNoDelay(true);
  const writable = () => open && !res.writableEnded && !res.destroyed;
  stop = reply.stream.open({
    write: (chunk) => {
      if (!writable()) return Promise.resolve();
      if (res.write(chunk)) return Promise.resolve();
      if (res.writableLength > MAX_UNREAD_STREAM_BYTES) {
        res.destroy();
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    },
    end: () => {
      if (!writable()) return;
      open = false;
      res.end();
    },
  });
}

/** The most of a refused body's rest {@link dropRestOfBody} reads; past it the connection is closed. */
const MAX_DROPPED_BYTES = 64 * 1024 * 1024;

/**
 * The rest of a body the engine did not read (a 413) is read and dropped, so a client still sending it gets to the
 * end and reads the answer, and the connection serves its next request. Closing with the rest unread would not do:
 * the kernel resets a connection closed with data unread, and a client still writing then sees EPIPE or ECONNRESET
 * instead of the 413. A rest larger than {@link MAX_DROPPED_BYTES} is not worth reading: the answer says
 * `connection: close` when the declared length shows it, and a chunked body that grows past it loses its connection.
 */
function dropRestOfBody(req: IncomingMessage, reply: WireReply) {
  if (Number(req.headers['content-length'] ?? 0) > MAX_DROPPED_BYTES) {
    reply.headers.connection = 'close';
    return;
  }
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > MAX_DROPPED_BYTES) req.socket.destroy();
  });
  req.resume();
}

/** An error Node's HTTP parser or its timeout check reports: `code` is `HPE_…` or `ERR_HTTP_REQUEST_TIMEOUT`. */
type NodeError = Error & { code?: string; reason?: string };

/**
 * The answer to a connection Node gave up on before it formed a request; undefined for a broken connection
 * (ECONNRESET and the like), which takes no answer.
 */
function clientRefusal(error: NodeError, timeouts: { headersTimeout: number; requestTimeout: number }): ApiError | undefined {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'INVALID_REQUEST_FORMAT',
        `The request did not arrive in time: the headers are due within ${timeouts.headersTimeout} ms and the whole request within ${timeouts.requestTimeout} ms`);
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge(maxHeaderSize);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'INVALID_INPUT', "A chunk's extensions are larger than this server takes", {
        errors: [{ field: 'body', message: 'has chunk extensions larger than this server takes' }],
      });
    default:
      return error.code?.startsWith('HPE_')
        ? new ApiError(400, 'INVALID_REQUEST_FORMAT', `The request is not valid HTTP/1.1: ${error.reason ?? error.code}`)
        : undefined;
  }
}

/** A reply as the bytes of an HTTP/1.1 response that closes the connection, for a socket that has no response object. */
function rawReply(reply: WireReply): Buffer {
  const body = Buffer.from(reply.body ?? '', 'utf8');
  const head = [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? ''}`,
    ...Object.entries(reply.headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${body.byteLength}`,
    'connection: close',
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

function incomingFromNode(req: IncomingMessage, res: ServerResponse, host: string, expectsContinue: boolean): Incoming {
  const headers = req.headers;
  // The client of an `Expect: 100-continue` waits for this before it sends the body.
  let continueSent = !expectsContinue;
  const wantBody = () => {
    if (!continueSent) res.writeContinue();
    continueSent = true;
  };
  const target = req.url ?? '/';
  // Origin-form targets ("/path") are joined to the server's own address and port (the Host header is not trusted to
  // form the URL; links the sandbox hands out, such as a kycUrl, are built on this origin); absolute-form ones
  // ("http://h/path") are already URLs.
  const url = target.startsWith('/') ? `http://${host}:${req.socket.localPort}${target}` : target;
  return {
    method: req.method ?? 'GET',
    // Brute-force limits count failed attempts per source address.
    ...(req.socket.remoteAddress === undefined ? {} : { remoteAddress: req.socket.remoteAddress }),
    url,
    header: (name) => {
      const value = headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    headerList: () => Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value] as [string, string]])),
    text: async (limit) => decodeUtf8(await readBody(req, limit, wantBody)),
    bytes: (limit) => readBody(req, limit, wantBody),
    toRequest: () => {
      wantBody();
      const init: RequestInit & { duplex?: 'half' } = { method: req.method ?? 'GET', headers: headers as Record<string, string> };
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
        init.duplex = 'half';
      }
      return new Request(url, init);
    },
  };
}

/**
 * A request's body from Node's events (lighter than async iteration, which builds stream machinery per request),
 * refusing a declared or actual size above `limit` (413) without reading further.
 */
function readBody(req: IncomingMessage, limit: number, wantBody: () => void): Promise<Uint8Array> {
  if (Number(req.headers['content-length'] ?? NaN) > limit) return Promise.reject(tooLarge(limit));
  wantBody();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onBroken);
      req.off('aborted', onBroken);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        done();
        // Stop taking the body in: once the 413 is sent, the rest is read and dropped (see dropRestOfBody).
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onBroken = () => {
      done();
      // The client went away mid-body: nobody is left to answer, and it is not a sandbox failure.
      reject(new ApiError(400, 'INVALID_REQUEST_FORMAT', 'The request body could not be read to its end'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onBroken);
    req.on('aborted', onBroken);
  });
}

/** The engine maps every error itself; this only catches a failure to write the reply. */
function fail(res: ServerResponse, error: unknown) {
  console.error('[railyard] could not answer a request', error);
  if (res.headersSent) return res.destroy();
  res.writeHead(500, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 500, code: 'INTERNAL_ERROR', message: 'The sandbox could not answer this request' }));
}
