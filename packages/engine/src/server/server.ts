import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { BASE_PATH } from '@railyard/contract';
import type { Engine } from '../engine.js';
import { decodeUtf8, tooLarge, type Incoming } from '../http/app.js';
import { ApiError } from '../core/errors.js';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** Port to listen on; 0 picks a free one. Default 4100. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
}

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
 * from Node's message, and replies are written as they are: no WHATWG Request or Response objects on the way.
 */
export function startServer(engine: Engine, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const server = createServer((req, res) => {
    engine.handle(incomingFromNode(req, hostForUrl)).then(
      (reply) => {
        // An explicit length lets Node send headers and body in one write instead of a chunked stream.
        if (reply.body !== null) reply.headers['content-length'] = String(Buffer.byteLength(reply.body));
        // A body left unread (a 413) would stall a client still sending it on a kept-alive connection: close instead.
        if (!req.complete) reply.headers.connection = 'close';
        res.writeHead(reply.status, reply.headers);
        res.end(reply.body ?? undefined);
      },
      (error: unknown) => fail(res, error),
    );
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

function incomingFromNode(req: IncomingMessage, host: string): Incoming {
  const headers = req.headers;
  const target = req.url ?? '/';
  // Origin-form targets ("/path") are joined to the server's own address and port (the Host header is not trusted to
  // form the URL; links the sandbox hands out, such as a kycUrl, are built on this origin); absolute-form ones
  // ("http://h/path") are already URLs.
  const url = target.startsWith('/') ? `http://${host}:${req.socket.localPort}${target}` : target;
  return {
    method: req.method ?? 'GET',
    url,
    header: (name) => {
      const value = headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: async (limit) => decodeUtf8(await readBody(req, limit)),
    bytes: (limit) => readBody(req, limit),
    toRequest: () => {
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
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (Number(req.headers['content-length'] ?? NaN) > limit) return Promise.reject(tooLarge(limit));
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
        // Stop reading: the rest of an oversized body is not taken in (Node discards it, or closes the connection,
        // once the 413 is sent).
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
