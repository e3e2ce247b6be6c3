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
export function createDatabase(cluster: PostgresCluster, name: string): Promise<string>;
