/** A throwaway PostgreSQL cluster (see postgres.mjs). */
export interface PostgresCluster {
  readonly url: string;
  readonly port: number;
  /** Starts it again (after `stop` or `kill`), on the same port and data. */
  start(): void;
  /** A fast shutdown. */
  stop(): void;
  /** An immediate shutdown, as a crash: no checkpoint. */
  kill(): void;
  /** Stopped and removed. */
  destroy(): void;
}
export function postgresBin(): string;
export function freePort(): Promise<number>;
export function startPostgres(): Promise<PostgresCluster>;
export function createDatabase(cluster: Pick<PostgresCluster, 'url'>, name: string): Promise<string>;
/** A database of its own for a test (on the run's shared cluster when there is one); `destroy` drops it. */
export function freshDatabase(): Promise<{ readonly url: string; destroy(): void | Promise<void> }>;
