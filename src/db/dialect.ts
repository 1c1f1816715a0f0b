import { type Kysely, PostgresAdapter, type SelectQueryBuilder } from 'kysely';
import type { Db, Dialect } from './database.ts';

// Where SQLite and PostgreSQL need different SQL, a repository branches on dialectOf, one small function
// per query.

// biome-ignore lint/suspicious/noExplicitAny: migrations ask too, with handles typed against no Database
export function dialectOf(db: Kysely<any>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The rows a select reads, locked until the transaction ends: `FOR UPDATE` on PostgreSQL. SQLite needs
 * no row lock: its write transactions start with BEGIN IMMEDIATE (see inTransaction), so they run one at
 * a time, and the query is returned as it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: any select of any table
export function forUpdate<Query extends SelectQueryBuilder<any, any, any>>(db: Db, query: Query): Query {
  return dialectOf(db) === 'postgres' ? (query.forUpdate() as Query) : query;
}
