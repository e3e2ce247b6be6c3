/**
 * The SQLite store behind `railyard serve --data DIR` (better-sqlite3, server-side only: neither the engine's main
 * entry, its msw handlers nor the browser bundle load it). One file, `DIR/railyard.db`, in WAL mode, held by one
 * process at a time (an exclusive lock, taken at open, that the OS lets go when the process dies, a kill -9 included).
 * Records are kept as the JSON text the engine made, under the sequence number every cursor is made of.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fdatasync, fdatasyncSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createSealer } from '../core/secrets.js';
import type { StoredEntry } from '../core/store.js';
import type { CommitBatch, DurableBackend, StoredJob, StoredPlatform } from './backend.js';
import { DataStoreRefusal } from './refusal.js';

/** The schema this version writes, and reads (older ones are migrated, newer ones refused). */
export const SQLITE_SCHEMA_VERSION = 1;

/** Records read by one statement when the engine reads a collection back. */
const RECORDS_PER_READ = 2_000;

/** The migrations from each older schema to the next, in order (none yet: schema 1 is the first). */
const MIGRATIONS: readonly ((db: BetterSqlite3.Database) => void)[] = [];

// Records are keyed by a small number per (partition, collection) and their sequence number: short integer keys keep
// the B-tree compact and inserts cheap, where a text key repeating the platform id cost several times more.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS railyard_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS railyard_platforms (
  id TEXT PRIMARY KEY, client_id TEXT NOT NULL UNIQUE, record TEXT NOT NULL, clock_ms INTEGER, webhook_key TEXT, created_order INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS railyard_collections (
  id INTEGER PRIMARY KEY, partition TEXT NOT NULL, collection TEXT NOT NULL, next INTEGER NOT NULL DEFAULT 0, UNIQUE (partition, collection)
);
CREATE TABLE IF NOT EXISTS railyard_records (
  collection_id INTEGER NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (collection_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS railyard_jobs (
  partition TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL,
  PRIMARY KEY (partition, id)
) WITHOUT ROWID;
`;

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * The key stored secrets are sealed under (`RAILYARD_SECRET_KEY`). Without it, the key in `DIR/secret.key` is used,
   * made (random, readable by its owner only) on first start. A store sealed under one key refuses to open under another.
   */
  readonly secretKey?: string;
  /**
   * `normal` (default): an answered write survives the process being killed or crashing, not a power cut or an OS crash
   * (SQLite's WAL with `synchronous = NORMAL`). `full`: every commit is also flushed to the disk (an fdatasync, off the
   * event loop) before the requests in it are answered, so it survives a power cut; a client that waits for each answer
   * then gets about one answer per disk flush and connection.
   */
  readonly sync?: 'full' | 'normal';
  /** The engine version writing (kept in the file, to word a refusal by a later version). */
  readonly version?: string;
}

/** A data directory open for one engine: the backend to give `createEngine({ durable })`, and the key to seal under. */
export interface SqliteStore extends DurableBackend {
  /** The secret key the engine must seal under (given, or the directory's own). */
  readonly secretKey: string;
  /** The database file. */
  readonly file: string;
}

export { DataStoreRefusal };

/**
 * Opens (creating if needed) the data directory `dir`. Refuses, with a {@link DataStoreRefusal}, a directory another
 * process has open, a file from a newer schema, or a key other than the one the data was sealed under.
 */
export function openSqliteStore(dir: string, options: SqliteStoreOptions = {}): SqliteStore {
  const root = resolve(dir);
  try {
    mkdirSync(root, { recursive: true });
  } catch (error) {
    throw new DataStoreRefusal(`cannot create the data directory ${root}: ${(error as Error).message}`);
  }
  const file = join(root, 'railyard.db');
  const pidFile = join(root, 'railyard.pid');
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { timeout: 0 });
    db.pragma('journal_mode = WAL');
    // The lock is taken by the first write and kept until close: a second process is refused at its first statement.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED')) {
      const pid = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() : '';
      throw new DataStoreRefusal(`the data directory ${root} is in use by another railyard${pid ? ` (pid ${pid})` : ''}: stop it, or give another --data`);
    }
    throw new DataStoreRefusal(`cannot open ${file}: ${(error as Error).message}`);
  }
  try {
    // SQLite itself never waits for the disk on a commit (WAL, NORMAL: a commit survives the process being killed);
    // `full` adds an fsync of the WAL after each commit, off the event loop, that the commit's replies wait for.
    db.pragma('synchronous = NORMAL');
    // Checkpoints (the WAL copied into the database file) stall the commit that triggers them by 10–25 ms: they run
    // when the store is idle instead, or once the WAL holds a lot (see `checkpointer` below).
    db.pragma('wal_autocheckpoint = 0');
    writeFileSync(pidFile, `${process.pid}\n`);
    prepareSchema(db, root, options.version ?? 'unknown');
    const secretKey = options.secretKey ?? directoryKey(root);
    checkKey(db, root, secretKey);
    const wal = options.sync === 'full' ? openSync(`${file}-wal`, 'r+') : undefined;
    return Object.assign(backendOver(db, wal, () => rmSync(pidFile, { force: true })), { secretKey, file });
  } catch (error) {
    db.close();
    rmSync(pidFile, { force: true });
    throw error instanceof DataStoreRefusal ? error : new DataStoreRefusal(`cannot use ${file}: ${(error as Error).message}`);
  }
}

function prepareSchema(db: BetterSqlite3.Database, root: string, version: string): void {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  if (tables.length > 0 && !tables.includes('railyard_meta')) {
    throw new DataStoreRefusal(`${join(root, 'railyard.db')} is not a Railyard data file (it holds tables ${tables.slice(0, 3).join(', ')}): give an empty directory`);
  }
  db.exec(SCHEMA);
  const stored = db.prepare("SELECT value FROM railyard_meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
  if (stored === undefined) {
    db.prepare("INSERT INTO railyard_meta (key, value) VALUES ('schema_version', ?), ('created_by', ?)").run(String(SQLITE_SCHEMA_VERSION), version);
    return;
  }
  const schema = Number(stored);
  if (!(schema <= SQLITE_SCHEMA_VERSION)) {
    const writer = db.prepare("SELECT value FROM railyard_meta WHERE key = 'written_by'").pluck().get() as string | undefined;
    throw new DataStoreRefusal(`the data in ${root} has schema ${stored}${writer ? ` (written by railyard ${writer})` : ''}; this railyard reads up to schema ${SQLITE_SCHEMA_VERSION}: upgrade railyard`);
  }
  db.transaction(() => {
    for (let from = schema; from < SQLITE_SCHEMA_VERSION; from++) MIGRATIONS[from - 1]!(db);
    db.prepare("INSERT INTO railyard_meta (key, value) VALUES ('schema_version', ?), ('written_by', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
      .run(String(SQLITE_SCHEMA_VERSION), version);
  })();
}

/** A checkpoint runs after this long without a commit. */
const IDLE_CHECKPOINT_MS = 250;
/** …or at once when this much was written since the last one (a WAL that never stops growing under constant load). */
const WAL_CHECKPOINT_BYTES = 64 * 2 ** 20;

/** Copies the WAL into the database file when commits pause, so no request waits for it (or when the WAL is large). */
function checkpointer(db: BetterSqlite3.Database): { wrote(batch: CommitBatch): void; stop(): void } {
  let written = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    written = 0;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // A checkpoint that could not run is tried again after the next commit; commits go on meanwhile.
    }
  };
  return {
    wrote(batch) {
      for (const part of batch.partitions) for (const [, , body] of part.records) written += body === null ? 32 : body.length;
      if (written >= WAL_CHECKPOINT_BYTES) return run();
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, IDLE_CHECKPOINT_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearTimeout(timer);
    },
  };
}

/** The directory's own key: read from `secret.key`, or made there (owner-only) on first start. */
function directoryKey(root: string): string {
  const path = join(root, 'secret.key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  // Written aside and renamed into place: a crash half way never leaves an empty key file behind.
  const aside = `${path}.${process.pid}.tmp`;
  const fd = openSync(aside, 'wx', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(aside, path);
  return key;
}

/** Refuses a key other than the one the data was sealed under (its key id is kept; the key never is). */
function checkKey(db: BetterSqlite3.Database, root: string, secretKey: string): void {
  const keyId = createSealer(secretKey).keyId;
  const stored = db.prepare("SELECT value FROM railyard_meta WHERE key = 'key_id'").pluck().get() as string | undefined;
  if (stored === undefined) db.prepare("INSERT INTO railyard_meta (key, value) VALUES ('key_id', ?)").run(keyId);
  else if (stored !== keyId) {
    throw new DataStoreRefusal(`the data in ${root} is sealed under another secret key (key id ${stored}, given ${keyId}): start with the RAILYARD_SECRET_KEY it was made with${existsSync(join(root, 'secret.key')) ? ', or without one (to use DIR/secret.key)' : ''}`);
  }
}

function backendOver(db: BetterSqlite3.Database, wal: number | undefined, onClose: () => void): DurableBackend {
  const upsertPlatform = db.prepare(`INSERT INTO railyard_platforms (id, client_id, record, clock_ms, webhook_key, created_order)
    VALUES (@id, @clientId, @record, @clockMs, @webhookKey, (SELECT COALESCE(MAX(created_order), 0) + 1 FROM railyard_platforms))
    ON CONFLICT (id) DO UPDATE SET record = excluded.record, clock_ms = excluded.clock_ms, webhook_key = excluded.webhook_key`);
  const addCollection = db.prepare('INSERT INTO railyard_collections (partition, collection) VALUES (?, ?) RETURNING id').pluck();
  const clearPartition = db.prepare('DELETE FROM railyard_records WHERE collection_id IN (SELECT id FROM railyard_collections WHERE partition = ?)');
  const putRecord = db.prepare('INSERT OR REPLACE INTO railyard_records (collection_id, seq, body) VALUES (?, ?, ?)');
  const deleteRecord = db.prepare('DELETE FROM railyard_records WHERE collection_id = ? AND seq = ?');
  const putNext = db.prepare('UPDATE railyard_collections SET next = MAX(next, ?) WHERE id = ?');
  const putJob = db.prepare('INSERT OR REPLACE INTO railyard_jobs (partition, id, at, seq, kind, payload) VALUES (?, ?, ?, ?, ?, ?)');
  const deleteJob = db.prepare('DELETE FROM railyard_jobs WHERE partition = ? AND id = ?');
  const collectionIds = new Map<string, number>();
  for (const [id, partition, collection] of db.prepare('SELECT id, partition, collection FROM railyard_collections').raw().all() as [number, string, string][]) {
    collectionIds.set(`${partition}\u0000${collection}`, id);
  }
  const collectionId = (partition: string, collection: string): number => {
    const key = `${partition}\u0000${collection}`;
    let id = collectionIds.get(key);
    if (id === undefined) collectionIds.set(key, (id = addCollection.get(partition, collection) as number));
    return id;
  };
  const commit = db.transaction((batch: CommitBatch) => {
    for (const row of batch.platforms) upsertPlatform.run(row);
    for (const part of batch.partitions) {
      if (part.cleared) clearPartition.run(part.partition);
      for (const [collection, seq, body] of part.records) {
        if (body === null) deleteRecord.run(collectionId(part.partition, collection), seq);
        else putRecord.run(collectionId(part.partition, collection), seq, body);
      }
      for (const [collection, next] of part.next) putNext.run(next, collectionId(part.partition, collection));
      for (const [id, stored] of part.jobs) {
        if (stored === null) deleteJob.run(part.partition, id);
        else putJob.run(part.partition, id, stored.job.at, stored.seq, stored.job.kind, JSON.stringify(stored.job.payload ?? null));
      }
    }
  });
  // A transaction that failed leaves the ids it made unknown to the file: forget them all, and read them again.
  const committed = (batch: CommitBatch) => {
    try {
      commit(batch);
    } catch (error) {
      collectionIds.clear();
      for (const [id, partition, collection] of db.prepare('SELECT id, partition, collection FROM railyard_collections').raw().all() as [number, string, string][]) {
        collectionIds.set(`${partition}\u0000${collection}`, id);
      }
      throw error;
    }
  };
  const checkpoint = checkpointer(db);
  let open = true;
  let broken: Error | undefined;
  return {
    appliesAtOnce: true,
    platforms: () => (db.prepare('SELECT id, client_id AS clientId, record, clock_ms AS clockMs, webhook_key AS webhookKey FROM railyard_platforms ORDER BY created_order').all() as StoredPlatform[]),
    forEachCollection(visit) {
      const collections = db.prepare('SELECT id, partition, collection, next FROM railyard_collections ORDER BY id').raw().all() as [number, string, string, number][];
      const records = db.prepare(`SELECT seq, body FROM railyard_records WHERE collection_id = ? AND seq > ? ORDER BY seq LIMIT ${RECORDS_PER_READ}`).raw();
      for (const [id, partition, collection, next] of collections) {
        // Read in pieces, each one statement run to its end: the engine may read them later, between commits, which an
        // open cursor would block. Parsed as the store takes them, so no list of a million entries outlives a step.
        function* entries(): Generator<StoredEntry> {
          let after = -1;
          for (;;) {
            const rows = records.all(id, after) as [number, string][];
            for (const [seq, body] of rows) yield [seq, JSON.parse(body) as { id: string }];
            if (rows.length < RECORDS_PER_READ) return;
            after = rows[rows.length - 1]![0];
          }
        }
        visit(partition, collection, entries(), next);
      }
    },
    jobs() {
      const jobs = new Map<string, StoredJob[]>();
      const rows = db.prepare('SELECT partition, id, at, seq, kind, payload FROM railyard_jobs ORDER BY partition, at, seq').raw().iterate() as Iterable<[string, string, number, number, string, string]>;
      for (const [partition, id, at, seq, kind, payload] of rows) {
        let list = jobs.get(partition);
        if (!list) jobs.set(partition, (list = []));
        list.push({ job: { id, tenantId: partition, at, kind, payload: JSON.parse(payload) as unknown }, seq });
      }
      return jobs;
    },
    commit: (batch) => {
      if (!open) throw new Error('the data store is closed');
      // After a failed flush the kernel may have dropped the pages it could not write, and a later flush would not
      // say so: nothing more is taken until a restart, which reads what the file really holds.
      if (broken) throw broken;
      committed(batch);
      checkpoint.wrote(batch);
      if (wal === undefined) return undefined;
      return new Promise<void>((resolve, reject) => fdatasync(wal, (error) => {
        if (!error) return resolve();
        broken = new Error(`a flush to the disk failed (${error.message}): restart the server to go on`);
        reject(broken);
      }));
    },
    close: () => {
      if (!open) return;
      open = false;
      checkpoint.stop();
      if (wal !== undefined) {
        fdatasyncSync(wal); // the last commit's flush may still be on its way
        closeSync(wal);
      }
      db.close();
      onClose();
    },
  };
}
