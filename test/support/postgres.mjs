// A throwaway PostgreSQL cluster for the tests and benchmarks of `railyard serve --database`: initdb into a temporary
// folder, a server on a free loopback port (its socket in that folder too), trust authentication, gone on stop.
// PostgreSQL refuses to run as root: as root, every server command runs as the `postgres` user (runuser).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder holding initdb and pg_ctl: on PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
export function postgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath.slice(0, -'/initdb'.length);
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).filter((v) => existsSync(join(debian, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length > 0) return join(debian, versions[0], 'bin');
  throw new Error('PostgreSQL is not installed: the --database tests need initdb and pg_ctl (Debian: apt-get install -y postgresql; .ci/run installs it)');
}

const asServerUser = (command, args) => (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]);

function run(command, args) {
  const [file, argv] = asServerUser(command, args);
  execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A free loopback port (the server binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster; resolves to its `url` and the moves the fault tests need: `stop()` (a fast shutdown), `start()`
 * again on the same port and data, `kill()` (immediate: no checkpoint, as a crash), and `destroy()` (stopped and removed).
 */
export async function startPostgres() {
  const bin = postgresBin();
  const root = mkdtempSync(join(tmpdir(), 'railyard-pg-'));
  chmodSync(root, 0o777);
  const data = join(root, 'data');
  const port = await freePort();
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', root]);
  run(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'railyard', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const pgCtl = (...args) => run(join(bin, 'pg_ctl'), ['-D', data, '-s', ...args]);
  const start = () => pgCtl('-w', '-o', options, '-l', join(root, 'server.log'), 'start');
  start();
  return {
    url: `postgres://railyard@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop: () => pgCtl('-w', '-m', 'fast', 'stop'),
    kill: () => pgCtl('-w', '-m', 'immediate', 'stop'),
    destroy() {
      try {
        pgCtl('-w', '-m', 'immediate', 'stop');
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the cluster (one per test file that needs its own). */
export async function createDatabase(cluster, name) {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

let databases = 0;

/**
 * A database of its own for a test: on the cluster the test run shares (`RAILYARD_TEST_POSTGRES_URL`, started once by
 * vitest's global setup, test/support/postgres-global.ts), or on a cluster of its own when run otherwise. `destroy`
 * drops it (or stops that cluster). Tests that stop or restart PostgreSQL itself start a cluster of their own.
 */
export async function freshDatabase() {
  const shared = process.env.RAILYARD_TEST_POSTGRES_URL;
  if (shared === undefined) {
    const cluster = await startPostgres();
    return { url: cluster.url, destroy: () => cluster.destroy() };
  }
  const name = `test_${process.pid}_${++databases}_${Math.random().toString(36).slice(2, 8)}`;
  const url = await createDatabase({ url: shared }, name);
  return {
    url,
    async destroy() {
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: shared });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
