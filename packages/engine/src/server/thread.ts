/**
 * `railyard serve` runs the server on a worker thread, so that it can give that thread's V8 heap a larger young
 * generation than Node's default (which a process can only get from command-line flags). What the two threads
 * exchange is defined here.
 */
import { getHeapStatistics } from 'node:v8';
import type { CodeCacheFiles } from './code-cache.js';

/**
 * The young generation (MiB) `railyard serve` gives its server thread. Every request leaves some kilobytes of
 * garbage; with Node's default (16 MiB semi-spaces) a busy server scavenges many times a second, and each scavenge
 * also scans the old generation's pages, so at a million records a pause reached 5–10 ms and set the p99 of every
 * request. With this size scavenges are rarer and p99 stays near the median (docs/benchmarks.md). V8 grows the young
 * generation towards this size only under allocation pressure; an idle sandbox keeps a small one.
 */
export const SERVER_YOUNG_GENERATION_MB = 384;

/**
 * The resource limits of a server thread: {@link SERVER_YOUNG_GENERATION_MB}, and the old-generation limit of the
 * calling thread, so `--max-old-space-size` given to node still applies.
 */
export function serverThreadLimits(): { maxYoungGenerationSizeMb: number; maxOldGenerationSizeMb: number } {
  return { maxYoungGenerationSizeMb: SERVER_YOUNG_GENERATION_MB, maxOldGenerationSizeMb: Math.floor(getHeapStatistics().heap_size_limit / 2 ** 20) };
}

/** What the launcher hands the server thread: the parsed `railyard serve` flags and the credentials. */
export interface ServeSettings {
  readonly port: number;
  readonly host: string;
  readonly clock: 'real' | 'virtual';
  readonly clientId: string;
  readonly clientSecret: string;
  readonly regulated: boolean;
  readonly skipPaperwork: boolean;
  readonly strict: boolean;
  /** `--public`: webhooks to public addresses only, receivers' answers not shown. */
  readonly public: boolean;
  /** `--log` (or `RAILYARD_LOG`): a line per request and per webhook delivery attempt on stdout. */
  readonly log: boolean;
  /** `--log-format` (or `RAILYARD_LOG_FORMAT`): `text` lines, or one JSON object a line. */
  readonly logFormat: 'json' | 'text';
  /** `--max-platforms` (or `RAILYARD_MAX_PLATFORMS`): the most platforms the server holds. */
  readonly maxPlatforms: number;
  /** `RAILYARD_SECRET_KEY`: what stored secrets are sealed under (a random key per start when absent). */
  readonly secretKey?: string;
  /** `--data DIR` (or `RAILYARD_DATA`): state on SQLite in DIR, kept across restarts. */
  readonly data?: string;
  /** `--data-sync` (or `RAILYARD_DATA_SYNC`): `normal` (a commit survives a killed process) or `full` (a power cut too). */
  readonly dataSync?: 'full' | 'normal';
  /** `--database URL` (or `RAILYARD_DATABASE_URL`): state in PostgreSQL, shared with every process started on it. */
  readonly database?: string;
  /** `--advertise URL` (or `RAILYARD_ADVERTISE_URL`): where the other processes reach this one (default: its own address). */
  readonly advertise?: string;
}

/** What the server thread reports to the launcher. */
export type ServeReport = { readonly kind: 'listening'; readonly baseUrl: string } | { readonly kind: 'failed'; readonly message: string } | { readonly kind: 'stopped' };

/**
 * The launcher's first message: the server thread's bundle and its code cache, read on the launcher's thread while the
 * server thread boots (the two overlap on a machine with a core to spare), and transferred, not copied.
 */
export interface ServeBundle {
  readonly kind: 'bundle';
  readonly files: CodeCacheFiles;
}

/** What the launcher asks of the server thread once its bundle runs. */
export type ServeCommand = { readonly kind: 'stop' };
