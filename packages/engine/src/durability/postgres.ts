/**
 * The PostgreSQL store behind `railyard serve --database postgres://…` (node-postgres, server-side only): one sandbox
 * shared by several processes. Each platform is held by one process at a time, under a lease row with a fencing epoch:
 * a commit locks the lease rows of the platforms it writes and is refused, whole, when one of them is no longer this
 * process's at the epoch it took it with (a process that was stopped past its lease and woke up writes nothing). A
 * process loads a platform when it takes it, and lets it go when idle, so the sandbox may hold more than one process's
 * memory. Records are kept as the JSON text the engine made, under the sequence number every cursor is made of.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createSealer } from '../core/secrets.js';
import { DIRECTORY_PARTITION } from '../core/directory.js';
import type { StoredEntry } from '../core/store.js';
export type { LoadedPlatform };
import { type CommitBatch, FencedOut, type LoadedPlatform, type SharedBackend, type StoredPlatform } from './backend.js';
import { DataStoreRefusal } from './refusal.js';

/** The schema this version writes, and reads (older ones are migrated, newer ones refused). */
export const POSTGRES_SCHEMA_VERSION = 1;

/** How long a lease lasts without being renewed (a killed holder's platforms are taken over after it). */
export const LEASE_TTL_MS = 3_000;

/** The SQLSTATE {@link COMMIT_FUNCTION} raises when a platform of the batch is no longer this process's (ids in DETAIL). */
const FENCED_SQLSTATE = 'RYFNC';

/**
 * One commit as one function call: a single round trip, and a single transaction (a statement is its own). New
 * platforms get their lease; every other platform's lease row is locked (a takeover waits for this commit, and this
 * commit sees any takeover that came first) and must still be this holder's at the epoch it took it with, else nothing
 * is written. Returns the new platforms not stored because another process created their client id meanwhile (client
 * ids stay unique; the rest of the batch is stored).
 */
const COMMIT_FUNCTION = `
CREATE OR REPLACE FUNCTION railyard_commit(
  p_holder text, p_url text, p_ttl_ms double precision, p_fresh text[], p_ids text[], p_epochs bigint[],
  p_row_id text[], p_row_client_id text[], p_row_record text[], p_row_clock_ms double precision[], p_row_webhook_key text[],
  p_cleared text[], p_del_partition text[], p_del_collection text[], p_del_seq bigint[],
  p_put_partition text[], p_put_collection text[], p_put_seq bigint[], p_put_body text[],
  p_next_partition text[], p_next_collection text[], p_next bigint[],
  p_job_del_partition text[], p_job_del_id text[],
  p_job_partition text[], p_job_id text[], p_job_at double precision[], p_job_seq double precision[], p_job_kind text[], p_job_payload text[],
  p_owner_del text[], p_owner_id text[], p_owner_platform text[]
) RETURNS text[] LANGUAGE plpgsql AS $fn$
DECLARE
  made text[];
  lost text[];
  refused text[];
BEGIN
  WITH inserted AS (
    INSERT INTO railyard_leases (platform_id, holder, holder_url, epoch, expires_at)
    SELECT id, p_holder, p_url, 1, now() + p_ttl_ms * interval '1 millisecond' FROM unnest(p_fresh) AS id
    ON CONFLICT (platform_id) DO NOTHING RETURNING platform_id
  ) SELECT coalesce(array_agg(platform_id), '{}') INTO made FROM inserted;
  -- A lease this commit did not make (an earlier try made it, and its answer was lost) is checked like any other.
  PERFORM 1 FROM railyard_leases WHERE platform_id = ANY(p_ids) AND platform_id <> ALL(made) ORDER BY platform_id FOR SHARE;
  SELECT coalesce(array_agg(c.id), '{}') INTO lost FROM unnest(p_ids, p_epochs) AS c(id, epoch)
  WHERE c.id <> ALL(made) AND NOT EXISTS (SELECT 1 FROM railyard_leases l WHERE l.platform_id = c.id AND l.holder = p_holder AND l.epoch = c.epoch);
  IF cardinality(lost) > 0 THEN
    RAISE EXCEPTION 'platforms held by another process' USING ERRCODE = '${FENCED_SQLSTATE}', DETAIL = array_to_string(lost, ',');
  END IF;

  INSERT INTO railyard_platforms (id, client_id, record, clock_ms, webhook_key)
  SELECT * FROM unnest(p_row_id, p_row_client_id, p_row_record, p_row_clock_ms, p_row_webhook_key) ON CONFLICT DO NOTHING;
  UPDATE railyard_platforms p SET record = u.record, clock_ms = u.clock_ms, webhook_key = u.webhook_key
  FROM unnest(p_row_id, p_row_record, p_row_clock_ms, p_row_webhook_key) AS u(id, record, clock_ms, webhook_key) WHERE p.id = u.id;
  SELECT coalesce(array_agg(f.id), '{}') INTO refused FROM unnest(p_fresh) AS f(id)
  WHERE f.id = ANY(p_row_id) AND NOT EXISTS (SELECT 1 FROM railyard_platforms p WHERE p.id = f.id);

  DELETE FROM railyard_records WHERE partition = ANY(p_cleared);
  DELETE FROM railyard_records r USING unnest(p_del_partition, p_del_collection, p_del_seq) AS d(p, c, s)
  WHERE r.partition = d.p AND r.collection = d.c AND r.seq = d.s;
  INSERT INTO railyard_records (partition, collection, seq, body) SELECT * FROM unnest(p_put_partition, p_put_collection, p_put_seq, p_put_body)
  ON CONFLICT (partition, collection, seq) DO UPDATE SET body = excluded.body;
  INSERT INTO railyard_collections (partition, collection, next) SELECT * FROM unnest(p_next_partition, p_next_collection, p_next)
  ON CONFLICT (partition, collection) DO UPDATE SET next = GREATEST(railyard_collections.next, excluded.next);
  DELETE FROM railyard_jobs j USING unnest(p_job_del_partition, p_job_del_id) AS d(p, i) WHERE j.partition = d.p AND j.id = d.i;
  INSERT INTO railyard_jobs (partition, id, at, seq, kind, payload)
  SELECT * FROM unnest(p_job_partition, p_job_id, p_job_at, p_job_seq, p_job_kind, p_job_payload)
  ON CONFLICT (partition, id) DO UPDATE SET at = excluded.at, seq = excluded.seq, kind = excluded.kind, payload = excluded.payload;
  DELETE FROM railyard_directory WHERE id = ANY(p_owner_del);
  INSERT INTO railyard_directory (id, platform_id) SELECT * FROM unnest(p_owner_id, p_owner_platform) ON CONFLICT (id) DO NOTHING;
  RETURN refused;
END
$fn$;`;

// Text bodies, not jsonb: the engine writes and reads whole records, and text costs no parse on either side.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS railyard_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS railyard_platforms (
  id text PRIMARY KEY, client_id text NOT NULL UNIQUE, record text NOT NULL, clock_ms double precision, webhook_key text,
  created_order bigserial, wake_at double precision
);
CREATE INDEX IF NOT EXISTS railyard_platforms_wake_at ON railyard_platforms (wake_at) WHERE wake_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS railyard_collections (partition text, collection text, next bigint NOT NULL, PRIMARY KEY (partition, collection));
CREATE TABLE IF NOT EXISTS railyard_records (partition text, collection text, seq bigint, body text NOT NULL, PRIMARY KEY (partition, collection, seq));
CREATE TABLE IF NOT EXISTS railyard_jobs (
  partition text, id text, at double precision NOT NULL, seq double precision NOT NULL, kind text NOT NULL, payload text NOT NULL,
  PRIMARY KEY (partition, id)
);
CREATE TABLE IF NOT EXISTS railyard_directory (id text PRIMARY KEY, platform_id text NOT NULL);
CREATE INDEX IF NOT EXISTS railyard_directory_platform ON railyard_directory (platform_id);
CREATE TABLE IF NOT EXISTS railyard_leases (
  platform_id text PRIMARY KEY, holder text NOT NULL, holder_url text NOT NULL, epoch bigint NOT NULL, expires_at timestamptz NOT NULL
);
${COMMIT_FUNCTION}
`;

/** Any number, the same in every process: the lock a starting process holds while it prepares the schema. */
const STARTUP_LOCK = 0x7261696c;

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * The key stored secrets are sealed under (`RAILYARD_SECRET_KEY`); every process of one sandbox needs the same. Without
   * it, the database's own key is used (made on first start and kept in `railyard_meta`, so whoever reads the database
   * can open its secrets: give one to keep them apart).
   */
  readonly secretKey?: string;
  /** The engine version writing (kept in the database, to word a refusal by a later version). */
  readonly version?: string;
  /** Lease length (default {@link LEASE_TTL_MS}); renewed every third of it. */
  readonly leaseTtlMs?: number;
}

/** Who holds a platform, when it is not this process. */
export interface LeaseHolder {
  readonly holder: string;
  /** Where the holder answers (empty while it starts). */
  readonly url: string;
}

/** A database open for one process of a shared sandbox. */
export interface PostgresStore extends SharedBackend {
  /** The secret key every process of the sandbox seals under. */
  readonly secretKey: string;
  /** This process's name in the lease rows (new at every start). */
  readonly holder: string;
  /** Ends the start: other processes may start (and prepare the schema) from now on. */
  started(): Promise<void>;
  /** Where this process answers, written into its lease rows (forwarded requests go there). */
  advertise(url: string): Promise<void>;
  /** Takes the platform when nobody holds it (or its holder's lease ran out), else says who does. */
  acquire(platformId: string): Promise<{ readonly acquired: true } | { readonly acquired: false; readonly holder: LeaseHolder | undefined }>;
  /** The platform's state, for a platform this process just took. */
  load(platformId: string): Promise<LoadedPlatform>;
  /** Who holds a platform now, and whether that lease still runs (undefined: nobody ever took it). */
  holderOf(platformId: string): Promise<(LeaseHolder & { readonly live: boolean }) | undefined>;
  /** Renews every lease held; resolves to the platforms that were lost meanwhile (taken over). */
  renew(): Promise<string[]>;
  /** Lets the platform go (its changes committed first, by the caller): another process may take it at once. */
  release(platformId: string): Promise<void>;
  /** Forgets a platform without writing (it was lost). */
  forget(platformId: string): void;
  /** Every platform this process holds. */
  held(): string[];
  /** A platform created by any process, by client id. */
  platformWithClientId(clientId: string): Promise<StoredPlatform | undefined>;
  /** A platform created by any process, by id. */
  platformWithId(platformId: string): Promise<StoredPlatform | undefined>;
  /** Credential directory entries (`kind:key` ids) and the platform owning each. */
  owners(ids: readonly string[]): Promise<(readonly [id: string, platformId: string])[]>;
  /**
   * Platforms nobody serves that need a process: their holder died (its lease ran out), or a real-clock job of theirs
   * is due by `nowMs` (with `realClock`).
   */
  orphans(nowMs: number, realClock: boolean): Promise<string[]>;
}

/**
 * Connects to `url`, prepares (or migrates) the schema and checks the secret key. Refuses, with a
 * {@link DataStoreRefusal}, a database it cannot reach, one from a newer schema, or a key other than the one the data
 * was sealed under.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  // Bounded waits everywhere: a holder stopped in the middle of a transaction has it ended by the server, and a
  // request never waits on the database for ever (it answers 503 instead).
  const pool = new pg.Pool({
    connectionString: url, max: 6, connectionTimeoutMillis: 5_000, keepAlive: true,
    statement_timeout: 10_000, lock_timeout: 5_000, idle_in_transaction_session_timeout: 10_000, query_timeout: 15_000,
  });
  // A connection the server dropped (a restart) is replaced on next use; the error itself is answered by the query.
  pool.on('error', () => undefined);
  const where = describe(url);
  let startup: pg.PoolClient;
  try {
    startup = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DataStoreRefusal(`cannot reach the database ${where}: ${(error as Error).message}`);
  }
  try {
    await startup.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
    await prepareSchema(startup, where, options.version ?? 'unknown');
    const secretKey = options.secretKey ?? (await databaseKey(startup));
    await checkKey(startup, where, secretKey);
    const platforms = (await startup.query<PlatformRow>(`SELECT ${PLATFORM_COLUMNS} FROM railyard_platforms ORDER BY created_order`)).rows.map(storedPlatform);
    return backendOver(pool, startup, platforms, secretKey, options.leaseTtlMs ?? LEASE_TTL_MS);
  } catch (error) {
    startup.release();
    await pool.end().catch(() => undefined);
    throw error instanceof DataStoreRefusal ? error : new DataStoreRefusal(`cannot use the database ${where}: ${(error as Error).message}`);
  }
}

/** The database's address without its password, for messages. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(an address that is not a URL)';
  }
}

async function prepareSchema(client: pg.PoolClient, where: string, version: string): Promise<void> {
  const tables = (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'railyard_%'")).rows.map((row) => row.name);
  const stored = tables.includes('railyard_meta')
    ? (await client.query<{ value: string }>("SELECT value FROM railyard_meta WHERE key = 'schema_version'")).rows[0]?.value
    : undefined;
  if (stored !== undefined && !(Number(stored) <= POSTGRES_SCHEMA_VERSION)) {
    const writer = (await client.query<{ value: string }>("SELECT value FROM railyard_meta WHERE key = 'written_by'")).rows[0]?.value;
    throw new DataStoreRefusal(`the database ${where} has schema ${stored}${writer ? ` (written by railyard ${writer})` : ''}; this railyard reads up to schema ${POSTGRES_SCHEMA_VERSION}: upgrade railyard`);
  }
  await client.query(SCHEMA);
  await client.query("INSERT INTO railyard_meta (key, value) VALUES ('schema_version', $1), ('written_by', $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [String(POSTGRES_SCHEMA_VERSION), version]);
}

/** The database's own key: read from `railyard_meta`, or made there on first start. */
async function databaseKey(client: pg.PoolClient): Promise<string> {
  const made = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64');
  await client.query("INSERT INTO railyard_meta (key, value) VALUES ('secret_key', $1) ON CONFLICT (key) DO NOTHING", [made]);
  return (await client.query<{ value: string }>("SELECT value FROM railyard_meta WHERE key = 'secret_key'")).rows[0]!.value;
}

/** Refuses a key other than the one the data was sealed under (its key id is kept). */
async function checkKey(client: pg.PoolClient, where: string, secretKey: string): Promise<void> {
  const keyId = createSealer(secretKey).keyId;
  await client.query("INSERT INTO railyard_meta (key, value) VALUES ('key_id', $1) ON CONFLICT (key) DO NOTHING", [keyId]);
  const stored = (await client.query<{ value: string }>("SELECT value FROM railyard_meta WHERE key = 'key_id'")).rows[0]!.value;
  if (stored !== keyId) {
    throw new DataStoreRefusal(`the data in ${where} is sealed under another secret key (key id ${stored}, given ${keyId}): start every process with the RAILYARD_SECRET_KEY it was made with`);
  }
}

interface PlatformRow {
  id: string;
  clientId: string;
  record: string;
  clockMs: number | null;
  webhookKey: string | null;
}

const PLATFORM_COLUMNS = 'id, client_id AS "clientId", record, clock_ms AS "clockMs", webhook_key AS "webhookKey"';
const storedPlatform = (row: PlatformRow): StoredPlatform => ({ id: row.id, clientId: row.clientId, record: row.record, clockMs: row.clockMs, webhookKey: row.webhookKey });

/** Columns of a batch, one array per column, for `unnest` (one statement however many rows). */
class Columns<T extends unknown[]> {
  readonly columns: unknown[][];
  constructor(width: number) {
    this.columns = Array.from({ length: width }, () => []);
  }
  add(...values: T): void {
    values.forEach((value, i) => this.columns[i]!.push(value));
  }
  get size(): number {
    return this.columns[0]!.length;
  }
}

function backendOver(pool: pg.Pool, startup: pg.PoolClient | undefined, platforms: StoredPlatform[], secretKey: string, ttlMs: number): PostgresStore {
  const holder = randomUUID();
  /** The epoch of every platform held. */
  const epochs = new Map<string, number>();
  /** Platforms created here whose lease row the next commit makes. */
  const created = new Set<string>();
  let url = '';
  let open = true;

  const commit = async (batch: CommitBatch): Promise<void> => {
    if (!open) throw new Error('the data store is closed');
    const touched = new Set<string>();
    for (const row of batch.platforms) touched.add(row.id);
    for (const part of batch.partitions) {
      if (part.partition !== DIRECTORY_PARTITION) touched.add(part.partition);
      // A directory entry is its platform's: written only by that platform's holder.
      else for (const [, , body] of part.records) if (body !== null) touched.add((JSON.parse(body) as { platformId: string }).platformId);
    }
    const notHeld = [...touched].filter((id) => !epochs.has(id));
    if (notHeld.length > 0) throw new FencedOut(notHeld);
    const fresh = [...touched].filter((id) => created.has(id));
    const existing = [...touched].filter((id) => !created.has(id));

    const puts = new Columns<[string, string, number, string]>(4);
    const deletes = new Columns<[string, string, number]>(3);
    const nexts = new Columns<[string, string, number]>(3);
    const jobPuts = new Columns<[string, string, number, number, string, string]>(6);
    const jobDeletes = new Columns<[string, string]>(2);
    const ownerPuts = new Columns<[string, string]>(2);
    const ownerDeletes: string[] = [];
    const cleared: string[] = [];
    const platformRows = new Columns<[string, string, string, number | null, string | null]>(5);
    for (const row of batch.platforms) platformRows.add(row.id, row.clientId, row.record, row.clockMs, row.webhookKey);
    for (const part of batch.partitions) {
      if (part.partition === DIRECTORY_PARTITION) {
        // The directory is keyed by entry id alone: every process numbers its own copy.
        for (const [, , body, id] of part.records) {
          if (body === null) ownerDeletes.push(id);
          else ownerPuts.add(id, (JSON.parse(body) as { platformId: string }).platformId);
        }
        continue;
      }
      if (part.cleared) cleared.push(part.partition);
      for (const [collection, seq, body] of part.records) {
        if (body === null) deletes.add(part.partition, collection, seq);
        else puts.add(part.partition, collection, seq, body);
      }
      for (const [collection, next] of part.next) nexts.add(part.partition, collection, next);
      for (const [id, stored] of part.jobs) {
        if (stored === null) jobDeletes.add(part.partition, id);
        else jobPuts.add(part.partition, id, stored.job.at, stored.seq, stored.job.kind, JSON.stringify(stored.job.payload ?? null));
      }
    }

    // One statement, so one round trip however large the batch: the function is its own transaction.
    const stored = fresh.concat(existing);
    const advertised = url;
    let refused: string[];
    try {
      const { rows } = await pool.query<{ refused: string[] }>({
        name: 'railyard_commit',
        text: `SELECT railyard_commit(${Array.from({ length: 33 }, (_, i) => `$${i + 1}`).join(', ')}) AS refused`,
        values: [
          holder, url, ttlMs, fresh, stored, stored.map((id) => epochs.get(id)),
          ...platformRows.columns, cleared, ...deletes.columns, ...puts.columns, ...nexts.columns, ...jobDeletes.columns,
          ...jobPuts.columns, ownerDeletes, ...ownerPuts.columns,
        ],
      });
      refused = rows[0]!.refused;
    } catch (error) {
      if ((error as { code?: string }).code !== FENCED_SQLSTATE) throw error;
      const lost = String((error as { detail?: string }).detail ?? '').split(',').filter((id) => id !== '');
      for (const id of lost) epochs.delete(id);
      throw new FencedOut(lost);
    }
    for (const id of fresh) created.delete(id);
    // Leases made with the address this process had before it advertised one (a commit in flight while it did) get it
    // now: other processes pass requests to that address.
    if (fresh.length > 0 && advertised !== url) {
      await pool.query('UPDATE railyard_leases SET holder_url = $1 WHERE holder = $2 AND platform_id = ANY($3)', [url, holder, fresh]);
    }
    for (const id of refused) {
      const row = batch.platforms.find((candidate) => candidate.id === id);
      console.error(`[railyard] platform ${id} was not stored: another server created client id ${row?.clientId ?? '(unknown)'} at the same time`);
    }
  };

  const one = async <T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> => (await pool.query<T>(text, values)).rows;

  return {
    secretKey,
    holder,
    lazy: true,
    platforms: () => platforms,
    forEachCollection: () => undefined,
    jobs: () => new Map(),
    commit,
    created(platformId) {
      epochs.set(platformId, 1);
      created.add(platformId);
    },
    async started() {
      if (startup === undefined) return;
      const client = startup;
      startup = undefined;
      try {
        await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]);
      } finally {
        client.release();
      }
    },
    async advertise(address) {
      url = address;
      await pool.query('UPDATE railyard_leases SET holder_url = $1 WHERE holder = $2', [address, holder]);
    },
    async acquire(platformId) {
      const taken = await one<{ epoch: string }>(`INSERT INTO railyard_leases (platform_id, holder, holder_url, epoch, expires_at)
        VALUES ($1, $2, $3, 1, now() + $4 * interval '1 millisecond')
        ON CONFLICT (platform_id) DO UPDATE SET holder = excluded.holder, holder_url = excluded.holder_url, epoch = railyard_leases.epoch + 1, expires_at = excluded.expires_at
        WHERE railyard_leases.expires_at < now()
        RETURNING epoch`, [platformId, holder, url, ttlMs]);
      if (taken.length > 0) {
        epochs.set(platformId, Number(taken[0]!.epoch));
        return { acquired: true };
      }
      const [row] = await one<{ holder: string; holder_url: string }>('SELECT holder, holder_url FROM railyard_leases WHERE platform_id = $1', [platformId]);
      if (row?.holder === holder && epochs.has(platformId)) {
        // Ours already (taken by another request of this process while this was asked).
        return { acquired: true };
      }
      return { acquired: false, holder: row === undefined || row.holder === '' ? undefined : { holder: row.holder, url: row.holder_url } };
    },
    async load(platformId) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const [row] = (await client.query<PlatformRow>(`SELECT ${PLATFORM_COLUMNS} FROM railyard_platforms WHERE id = $1`, [platformId])).rows;
        if (row === undefined) throw new Error(`platform ${platformId} is not in the database`);
        const collections = new Map<string, { entries: StoredEntry[]; next: number }>();
        for (const { collection, next } of (await client.query<{ collection: string; next: string }>('SELECT collection, next FROM railyard_collections WHERE partition = $1', [platformId])).rows) {
          collections.set(collection, { entries: [], next: Number(next) });
        }
        const records = await client.query({ text: 'SELECT collection, seq, body FROM railyard_records WHERE partition = $1 ORDER BY collection, seq', values: [platformId], rowMode: 'array' });
        for (const [collection, seq, body] of records.rows as [string, string, string][]) {
          let found = collections.get(collection);
          if (!found) collections.set(collection, (found = { entries: [], next: 0 }));
          found.entries.push([Number(seq), JSON.parse(body) as { id: string }]);
        }
        const jobs = (await client.query<{ id: string; at: number; seq: number; kind: string; payload: string }>(
          'SELECT id, at, seq, kind, payload FROM railyard_jobs WHERE partition = $1 ORDER BY at, seq', [platformId])).rows
          .map(({ id, at, seq, kind, payload }) => ({ job: { id, tenantId: platformId, at, kind, payload: JSON.parse(payload) as unknown }, seq }));
        const owners = (await client.query<{ id: string; platform_id: string }>('SELECT id, platform_id FROM railyard_directory WHERE platform_id = $1', [platformId])).rows
          .map((entry) => [entry.id, entry.platform_id] as const);
        await client.query('COMMIT');
        client.release();
        return { row: storedPlatform(row), collections, jobs, owners };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(true); // not given to the next query
        throw error;
      }
    },
    async holderOf(platformId) {
      const [row] = await one<{ holder: string; holder_url: string; live: boolean }>('SELECT holder, holder_url, expires_at > now() AS live FROM railyard_leases WHERE platform_id = $1', [platformId]);
      return row === undefined ? undefined : { holder: row.holder, url: row.holder_url, live: row.live };
    },
    async renew() {
      if (epochs.size === 0) return [];
      const ids = [...epochs.keys()].filter((id) => !created.has(id));
      if (ids.length === 0) return [];
      const kept = await one<{ platform_id: string }>(`UPDATE railyard_leases l SET expires_at = now() + $3 * interval '1 millisecond'
        FROM unnest($1::text[], $2::bigint[]) AS h(id, epoch) WHERE l.platform_id = h.id AND l.epoch = h.epoch AND l.holder = $4
        RETURNING l.platform_id`, [ids, ids.map((id) => epochs.get(id)), ttlMs, holder]);
      const renewed = new Set(kept.map((row) => row.platform_id));
      // A platform taken while this was asked is not lost.
      const lost = ids.filter((id) => !renewed.has(id) && epochs.has(id));
      for (const id of lost) epochs.delete(id);
      return lost;
    },
    async release(platformId) {
      const epoch = epochs.get(platformId);
      epochs.delete(platformId);
      if (epoch === undefined) return;
      // Kept, with its epoch, so a later holder's epoch is higher still; an empty holder marks it let go, not lost. Its
      // next job's time is noted for the sweeps (a held platform's jobs are its holder's to run; a dead holder's
      // platforms are swept anyway).
      await pool.query(`WITH freed AS (
          UPDATE railyard_leases SET holder = '', holder_url = '', expires_at = '-infinity' WHERE platform_id = $1 AND holder = $2 AND epoch = $3 RETURNING platform_id
        )
        UPDATE railyard_platforms p SET wake_at = (SELECT min(at) FROM railyard_jobs j WHERE j.partition = p.id) WHERE p.id IN (SELECT platform_id FROM freed)`, [platformId, holder, epoch]);
    },
    forget(platformId) {
      epochs.delete(platformId);
    },
    holds: (platformId) => epochs.has(platformId),
    held: () => [...epochs.keys()],
    async platformWithClientId(clientId) {
      const [row] = await one<PlatformRow>(`SELECT ${PLATFORM_COLUMNS} FROM railyard_platforms WHERE client_id = $1`, [clientId]);
      return row === undefined ? undefined : storedPlatform(row);
    },
    async platformWithId(platformId) {
      const [row] = await one<PlatformRow>(`SELECT ${PLATFORM_COLUMNS} FROM railyard_platforms WHERE id = $1`, [platformId]);
      return row === undefined ? undefined : storedPlatform(row);
    },
    async owners(ids) {
      if (ids.length === 0) return [];
      return (await one<{ id: string; platform_id: string }>('SELECT id, platform_id FROM railyard_directory WHERE id = ANY($1)', [ids])).map((row) => [row.id, row.platform_id] as const);
    },
    async orphans(nowMs, realClock) {
      const rows = await one<{ id: string }>(`SELECT p.id FROM railyard_platforms p LEFT JOIN railyard_leases l ON l.platform_id = p.id
        WHERE (l.holder <> '' AND l.expires_at < now()) OR ($1 AND p.wake_at <= $2 AND (l.platform_id IS NULL OR l.expires_at < now()))
        ORDER BY p.created_order LIMIT 64`, [realClock, nowMs]);
      return rows.map((row) => row.id);
    },
    close() {
      if (!open) return;
      open = false;
      startup?.release();
      startup = undefined;
      void pool.end().catch(() => undefined);
    },
  };
}
