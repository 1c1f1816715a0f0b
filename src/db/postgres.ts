import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import { guardGroupCommitUnits } from './unit-guard.ts';

// The PostgreSQL side of createDb: the pool, its figures, and the client that runs hot statements as named
// prepared statements.

// pg returns int8 (bigint columns, count(*)) as strings; every such value here (ids, cents, epoch
// milliseconds, counts) is far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface PostgresOptions {
  /** schema to put first on the search_path (tests isolate each file this way) */
  searchPath?: string;
  /** the most connections the pool opens (default 10) */
  poolSize?: number;
  /** how long to wait for a connection (new or from the pool) before failing (503) */
  connectTimeoutMs?: number;
  /** a statement running longer is cancelled (default 30 s; the request then gets 503) */
  statementTimeoutMs?: number;
  /**
   * Default true: run the hot statements marked by `prepareOnPostgres` as named prepared statements. Turn
   * off behind a pooler that cannot keep them (PgBouncer before 1.21 in transaction mode).
   */
  preparedStatements?: boolean;
  /** fail a group-commit unit at once when it queries through another handle (see unit-guard.ts) */
  guardGroupCommitUnits?: boolean;
}

export function openPostgres(
  url: string,
  options: PostgresOptions,
): { db: Kysely<Database>; poolStats: () => PoolStats } {
  const pool = new pg.Pool({
    Client: options.preparedStatements === false ? pg.Client : PreparingClient,
    connectionString: url,
    max: options.poolSize ?? 10,
    // A database that does not answer (a black-holed host, a pool exhausted by slow queries) must fail
    // requests with 503 after a while, not hold them forever.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // No request may hold a connection forever behind a stuck query or lock.
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // No parallel query: the service's statements read small index ranges (a summary's rollup days and
    // edge rows, a page, a booking's facts), where starting parallel workers cost more than they save and
    // take cores from the concurrent requests; a 90-day summary's totals ran in 7-11 ms with workers and
    // 2-3 ms without at decisions §17's scale.
    options: [
      '-c max_parallel_workers_per_gather=0',
      ...(options.searchPath ? [`-c search_path=${options.searchPath},public`] : []),
    ].join(' '),
  });
  // An idle client losing its server (restart, network) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  if (options.guardGroupCommitUnits) guardGroupCommitUnits(db);
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, poolStats };
}

/** The SQL of the statements run as named prepared statements on PostgreSQL, and their names. */
const statementNames = new Map<string, string>();

/**
 * Marks a PostgreSQL statement (a hot query compiled once, see preparedQuery) to run as a named prepared
 * statement: parsed and planned once per connection instead of at every execution, which is what
 * node-postgres does with unnamed statements, and which costs a point lookup most of its round trip.
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
