import type { Kysely } from 'kysely';
import type { Database, Dialect } from './database.ts';
import { openPostgres, type PoolStats, type PostgresOptions } from './postgres.ts';
import { openSqlite, type SqliteOptions } from './sqlite.ts';

export type { PoolStats } from './postgres.ts';

/** Connecting: a database URL becomes a handle. SQLite's and PostgreSQL's settings live in their files. */
export interface DbHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL connection-pool figures; SQLite has one connection and no pool */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
}

/**
 * The options of each database apply to it only (see PostgresOptions and SqliteOptions).
 * `guardGroupCommitUnits` (both, default true): a unit of a group commit that queries through any handle
 * but its own fails at once instead of waiting forever (see unit-guard.ts); the server turns it off in
 * production, where it would cost a check per query.
 */
export type CreateDbOptions = PostgresOptions & SqliteOptions;

export function createDb(url: string, options: CreateDbOptions = {}): DbHandle {
  const guardGroupCommitUnits = options.guardGroupCommitUnits ?? true;
  if (url.startsWith('sqlite:')) {
    const { db, close } = openSqlite(url.slice('sqlite:'.length), { ...options, guardGroupCommitUnits });
    return { db, dialect: 'sqlite', close };
  }
  const { db, poolStats } = openPostgres(url, { ...options, guardGroupCommitUnits });
  return { db, dialect: 'postgres', poolStats, close: () => db.destroy() };
}
