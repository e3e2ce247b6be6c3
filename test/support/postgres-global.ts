// vitest's global setup: one throwaway PostgreSQL cluster for the whole run, where each test that needs a database
// makes its own (freshDatabase in postgres.mjs). A cluster per test file cost an initdb each (~1.3 s of CPU).
import { startPostgres } from './postgres.mjs';

export default async function startSharedCluster(): Promise<() => void> {
  const cluster = await startPostgres();
  process.env.RAILYARD_TEST_POSTGRES_URL = cluster.url;
  return () => cluster.destroy();
}
