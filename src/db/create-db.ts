import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, type RawBuilder, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, Db, Dialect } from './database.ts';

// pg returns int8 (bigint columns, count(*)) as strings; every such value here (ids, cents, epoch
// milliseconds, counts) is far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL connection-pool figures; SQLite has one connection and no pool */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** PostgreSQL only: schema to put first on the search_path (tests isolate each file this way). */
  searchPath?: string;
  /** PostgreSQL only: the most connections the pool opens (default 10) */
  poolSize?: number;
  /** PostgreSQL only: how long to wait for a connection (new or from the pool) before failing (503) */
  connectTimeoutMs?: number;
  /** PostgreSQL only: a statement running longer is cancelled (default 30 s; the request then gets 503) */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL only (default true): run the hot statements marked by `prepareOnPostgres` as named
   * prepared statements. Turn off behind a pooler that cannot keep them (PgBouncer before 1.21 in
   * transaction mode).
   */
  preparedStatements?: boolean;
  /**
   * SQLite file only: checkpoint the WAL from a thread of its own (see startCheckpointer) instead of in
   * the commit that fills it. For the server; tools and tests keep SQLite's inline checkpoints.
   */
  backgroundCheckpoints?: boolean;
}

/** A SQLite connection as queries run on it directly: the connection itself and its statement cache. */
export interface DirectConnection {
  database: SQLite.Database;
  prepare: (source: string) => SQLite.Statement;
}

/** The SQLite connection behind each handle made by createDb. */
const connections = new WeakMap<Db, DirectConnection>();

/**
 * The SQLite connection a query through `db` may run on directly, synchronously, instead of through
 * Kysely's queue for the one connection: the transaction's own connection for a handle of
 * sqliteTransaction, and for a handle made by createDb its connection while no transaction is open on
 * it (a query then sees exactly what the queued path would: committed data only). Undefined otherwise
 * (PostgreSQL, plugin-wrapped handles, and the service's handle during another unit's transaction,
 * whose queries must wait their turn or they would see, and write into, uncommitted work).
 */
export function directSqliteConnection(db: Db): DirectConnection | undefined {
  const connection = connections.get(db);
  if (!connection || (connection.database.inTransaction && !transactionHandles.has(db))) return undefined;
  return connection;
}

/** SQLite handles bound to the connection of an open transaction (see sqliteTransaction). */
const transactionHandles = new WeakSet<Db>();

/** True for a handle that is an open transaction: Kysely's (PostgreSQL) or one of sqliteTransaction. */
export function isTransaction(db: Db): boolean {
  return db.isTransaction || transactionHandles.has(db);
}

export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    // An 8 MiB page cache (this build's default is 16 MiB): the OS page cache keeps the rest of the file,
    // and the server stays within its memory budget (README, Performance).
    database.pragma('cache_size = -8192');
    forgetValueSamples(database);
    const checkpointer =
      options.backgroundCheckpoints && file !== ':memory:' ? startCheckpointer(database, file) : undefined;
    const prepare = statementCache(database);
    // Kysely prepares through the cache as well; everything else reaches the connection untouched.
    const forKysely = new Proxy(database, {
      get: (target, property) => (property === 'prepare' ? prepare : Reflect.get(target, property, target)),
    });
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: forKysely }) });
    connections.set(db, { database, prepare });
    return {
      db,
      dialect: 'sqlite',
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    Client: options.preparedStatements === false ? pg.Client : PreparingClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    // A database that does not answer (a black-holed host, a pool exhausted by slow queries) must fail
    // requests with 503 after a while, not hold them forever.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // No request may hold a connection forever behind a stuck query or lock.
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    options: options.searchPath ? `-c search_path=${options.searchPath},public` : undefined,
  });
  // An idle client losing its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, dialect: 'postgres', poolStats, close: () => db.destroy() };
}

/** The SQL of the statements run as named prepared statements on PostgreSQL, and their names. */
const statementNames = new Map<string, string>();

/**
 * Marks a PostgreSQL statement (a hot query compiled once, see reusableQuery) to run as a named prepared
 * statement: parsed and planned once per connection instead of at every execution, which is what
 * node-postgres does with unnamed statements. A point lookup's round trip: ~210 µs unnamed, ~70 µs
 * named, on this machine.
 */
export function prepareOnPostgres(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `waterbook_${statementNames.size + 1}`);
}

/** node-postgres's client, sending the marked statements by name (Kysely calls `query(sql, values)`). */
class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them through
  override query(...args: any[]): any {
    const name = args.length === 2 && typeof args[0] === 'string' ? statementNames.get(args[0]) : undefined;
    if (name) return super.query({ name, text: args[0], values: args[1] });
    return (super.query as (...a: unknown[]) => unknown)(...args);
  }
}

/** SQLite's own default: a commit that brings the WAL to this many pages checkpoints it. */
const INLINE_CHECKPOINT_PAGES = 1000;
/** With a checkpointer thread: the commit checkpoints only if the thread has fallen this far behind. */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;
const CHECKPOINT_INTERVAL_MS = 100;

// The checkpointer thread's whole program, in plain JavaScript: a worker compiling TypeScript would need
// several times the memory of the work itself.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file);
database.pragma('cache_size = -256');
const timer = setInterval(() => {
  try {
    database.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

/**
 * Checkpoints the WAL of `file` every 100 ms from a worker thread with a connection of its own.
 *
 * Why: a checkpoint copies the pages committed since the last one back into the database file and then
 * fsyncs the WAL and the file. Run by SQLite inline, in the commit that fills the WAL to 1,000 pages, it
 * held the event loop for ~13 ms each time; under a booking load that was a sixth of the server's time.
 * A PASSIVE checkpoint waits for no reader or writer, so the server's transactions go on meanwhile, and
 * durability is unchanged (the same synchronous=NORMAL commits, the same fsyncs, elsewhere).
 *
 * The server's own commits still checkpoint if the thread falls 10,000 pages behind, and again at
 * SQLite's 1,000 if the thread fails (its heap is capped: a thread that cannot start falls back so too).
 */
function startCheckpointer(database: SQLite.Database, file: string): { stop(): Promise<void> } {
  database.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: {
      file,
      intervalMs: CHECKPOINT_INTERVAL_MS,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
  });
  let stopping = false;
  const fallBack = () => {
    if (!stopping && database.open) database.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
  };
  worker.on('error', fallBack);
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      fallBack();
      resolve();
    }),
  );
  worker.unref(); // never what keeps a process alive
  return {
    async stop() {
      stopping = true;
      worker.ref(); // until it has closed its connection
      worker.postMessage('stop');
      await exited;
    },
  };
}

/**
 * Drops the index value samples (sqlite_stat4) that ANALYZE and PRAGMA optimize write in this build of
 * SQLite, keeping the table statistics (sqlite_stat1). With samples present SQLite re-plans a statement
 * whenever a value bound against a sampled index changes, which is at nearly every execution here: an
 * overlap check then cost 15-25 µs instead of 3-4 µs. The queries of this service are planned well from
 * table sizes alone. `analyze sqlite_schema` reloads the statistics into this connection.
 */
function forgetValueSamples(database: SQLite.Database): void {
  const samples = database.prepare("select 1 from sqlite_master where name = 'sqlite_stat4'").get();
  if (!samples || !database.prepare('select 1 from sqlite_stat4 limit 1').get()) return;
  try {
    database.exec('delete from sqlite_stat4; analyze sqlite_schema');
  } catch {
    // Only speed is at stake: with the file locked by another writer the samples stay until a later open.
  }
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small indexed query, so the
 * prepared statements are kept by SQL text (bounded, oldest dropped first). Statements are only run
 * whole (`all`/`run`), one at a time on the single connection, so sharing them is safe.
 */
function statementCache(database: SQLite.Database, limit = 500): (source: string) => SQLite.Statement {
  const cache = new Map<string, SQLite.Statement>();
  return (source) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = database.prepare(source);
      if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  };
}

export function dialectOf(db: Db): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Runs fn in one transaction. SQLite starts it with BEGIN IMMEDIATE so that the write lock is taken up
 * front: a transaction that reads and then writes can never fail half-way on a lock upgrade.
 */
export async function inTransaction<T>(db: Kysely<Database>, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') return db.transaction().execute(fn);
  return sqliteTransaction(db, sql`begin immediate`, fn);
}

/** fn inside `begin` ... commit on SQLite's one connection; rolled back when fn throws. */
function sqliteTransaction<T>(db: Kysely<Database>, begin: RawBuilder<unknown>, fn: (trx: Db) => Promise<T>) {
  return db.connection().execute(async (conn) => {
    await begin.execute(conn);
    transactionHandles.add(conn);
    const connection = connections.get(db);
    if (connection) connections.set(conn, connection);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    } finally {
      // a handle kept past its transaction must not run anything directly on the connection any more
      connections.delete(conn);
      transactionHandles.delete(conn);
    }
  });
}

/**
 * Runs several reads on one consistent snapshot (a report made of a few queries must not mix moments).
 * PostgreSQL: a read-only REPEATABLE READ transaction. SQLite: a deferred transaction, which in WAL mode
 * holds a read snapshot without taking the write lock, so writers are never blocked by it.
 */
export async function inReadSnapshot<T>(db: Kysely<Database>, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') {
    return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn);
  }
  return sqliteTransaction(db, sql`begin deferred`, fn);
}
