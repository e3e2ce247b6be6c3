import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { BASE_PATH } from '@railyard/contract';
import type { Engine } from '../engine.js';
import { bodyBytes, decodeUtf8, type Incoming } from '../http/app.js';

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
    text: async (limit) => decodeUtf8(await bodyBytes(req, headers['content-length'], limit)),
    bytes: (limit) => bodyBytes(req, headers['content-length'], limit),
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

/** The engine maps every error itself; this only catches a failure to write the reply. */
function fail(res: ServerResponse, error: unknown) {
  console.error('[railyard] could not answer a request', error);
  if (res.headersSent) return res.destroy();
  res.writeHead(500, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 500, code: 'INTERNAL_ERROR', message: 'The sandbox could not answer this request' }));
}
