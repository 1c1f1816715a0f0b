import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { type CompiledQuery, Kysely, type QueryResult, type RawBuilder, SqliteDialect, sql } from 'kysely';
import { DEFAULT_SQLITE_DIR } from '../config.ts';
import { StartupError } from '../lib/startup-errors.ts';
import type { Database, Db } from './database.ts';
import { guardGroupCommitUnits } from './unit-guard.ts';

// The SQLite side of createDb: the connection's settings, its statement cache, the WAL checkpointer, and
// the direct path by which hot statements skip Kysely's queue for the one connection.

export interface SqliteOptions {
  /** checkpoint the WAL from a thread of its own (see startCheckpointer); ignored for :memory: */
  backgroundCheckpoints?: boolean;
  /** fail a group-commit unit at once when it queries through another handle (see unit-guard.ts) */
  guardGroupCommitUnits?: boolean;
  /**
   * With `:memory:` only: start from a copy of this database image (as better-sqlite3's `serialize` makes
   * it) instead of an empty database. Tests copy one migrated image rather than migrate each database.
   */
  image?: Buffer;
}

/** A SQLite connection as queries run on it directly: the connection itself and its statement cache. */
export interface DirectConnection {
  database: SQLite.Database;
  prepare: (source: string) => SQLite.Statement;
}

/** The SQLite connection behind each handle made by openSqlite, and behind each open transaction's. */
const connections = new WeakMap<Db, DirectConnection>();

/** SQLite handles bound to the connection of an open transaction (see bindTransactionHandle). */
const transactionHandles = new WeakSet<Db>();

/**
 * The SQLite connection a query through `db` may run on directly, synchronously, instead of through
 * Kysely's queue for the one connection: the transaction's own connection for a transaction's handle,
 * and for a handle made by openSqlite its connection while no transaction is open on it (a query then
 * sees exactly what the queued path would: committed data only). Undefined otherwise (PostgreSQL,
 * plugin-wrapped handles, and the service's handle during another unit's transaction, whose queries must
 * wait their turn or they would see, and write into, uncommitted work).
 */
export function directSqliteConnection(db: Db): DirectConnection | undefined {
  const connection = connections.get(db);
  if (!connection || (connection.database.inTransaction && !transactionHandles.has(db))) return undefined;
  return connection;
}

/** True for a handle bound to an open SQLite transaction (see bindTransactionHandle). */
export function isSqliteTransactionHandle(db: Db): boolean {
  return transactionHandles.has(db);
}

/** Marks `handle` as the open transaction on `db`'s connection: its hot statements then run directly. */
export function bindTransactionHandle(db: Db, handle: Db): void {
  transactionHandles.add(handle);
  const connection = connections.get(db);
  if (connection) connections.set(handle, connection);
}

/** A handle kept past its transaction must not run anything directly on the connection any more. */
export function releaseTransactionHandle(handle: Db): void {
  connections.delete(handle);
  transactionHandles.delete(handle);
}

/** Runs a compiled statement on a SQLite connection directly, synchronously, as Kysely's driver would. */
export function executeDirect<Row>(
  connection: DirectConnection,
  query: CompiledQuery<Row>,
): QueryResult<Row> {
  const statement = connection.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

/**
 * Runs a compiled statement: on SQLite directly on the connection whenever that is safe (see
 * directSqliteConnection), skipping Kysely's queue for the one connection; otherwise through Kysely.
 */
export async function executeCompiled<Row>(db: Db, query: CompiledQuery<Row>): Promise<QueryResult<Row>> {
  const connection = directSqliteConnection(db);
  if (connection) return executeDirect(connection, query);
  return db.executeQuery<Row>(query);
}

/**
 * fn inside `begin` ... commit on SQLite's one connection; rolled back when fn throws. While it runs, the
 * handle fn is given is bound to the connection (see bindTransactionHandle).
 */
export function sqliteTransaction<T>(
  db: Db,
  begin: RawBuilder<unknown>,
  fn: (trx: Db) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    await begin.execute(conn);
    bindTransactionHandle(db, conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn).catch(() => {});
      throw error;
    } finally {
      releaseTransactionHandle(conn);
    }
  });
}

/** Opens a SQLite file (or :memory:) with this service's settings; `close` also stops the checkpointer. */
export function openSqlite(
  file: string,
  options: SqliteOptions,
): { db: Kysely<Database>; close(): Promise<void> } {
  if (options.image && file !== ':memory:') throw new Error('a database image opens only as :memory:');
  if (file !== ':memory:') requireDirectory(file);
  const database = new SQLite(options.image ?? file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // A page cache smaller than this build's default: the OS page cache keeps the rest of the file, and the
  // server stays within its memory budget (README, Performance).
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
  if (options.guardGroupCommitUnits) guardGroupCommitUnits(db);
  connections.set(db, { database, prepare });
  return {
    db,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * The directory of a database file must exist, except the default one, which is made: opening a file in
 * a mistyped directory would otherwise start on a new, empty database (decisions §18).
 */
function requireDirectory(file: string): void {
  const directory = dirname(resolve(file));
  if (existsSync(directory)) return;
  if (directory !== resolve(DEFAULT_SQLITE_DIR))
    throw new StartupError(
      `the directory of the SQLite database does not exist: ${directory} (DATABASE_URL=sqlite:${file})`,
    );
  mkdirSync(directory, { recursive: true });
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
 * Checkpoints the WAL of `file` periodically from a worker thread with a connection of its own.
 *
 * Why: a checkpoint copies the pages committed since the last one back into the database file and then
 * fsyncs the WAL and the file. Run by SQLite inline, in the commit that fills the WAL, it holds the event
 * loop for the whole copy and both fsyncs; under a booking load that was a large share of the server's
 * time. A PASSIVE checkpoint waits for no reader or writer, so the server's transactions go on meanwhile,
 * and durability is unchanged (the same synchronous=NORMAL commits, the same fsyncs, elsewhere).
 *
 * The server's own commits still checkpoint if the thread falls far behind, and at SQLite's default
 * again if the thread fails (its heap is capped: a thread that cannot start falls back so too).
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
 * whenever a value bound against a sampled index changes, which is at nearly every execution here, and
 * the re-planning costs several times the overlap check itself. The queries of this service are planned
 * well from table sizes alone. `analyze sqlite_schema` reloads the statistics into this connection.
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
