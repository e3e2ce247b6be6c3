import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '@railyard/contract';
import type { Engine } from '../engine.js';

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

/** Serves an engine over HTTP with Node's http module. */
export function startServer(engine: Engine, options: ServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: engine.fetch, port: options.port ?? 4100, hostname: host }, (info: AddressInfo) => {
      const hostForUrl = host.includes(':') ? `[${host}]` : host;
      resolve({
        baseUrl: `http://${hostForUrl}:${info.port}${BASE_PATH}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            engine.close();
            server.close(() => done());
            // Keep-alive sockets would otherwise hold the server open.
            (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
          }),
      });
    });
    server.once('error', reject);
  });
}
