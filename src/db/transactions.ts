import { sql } from 'kysely';
import type { Db } from './database.ts';
import { dialectOf } from './dialect.ts';
import { joinGroupCommit } from './group-commit.ts';
import { isSqliteTransactionHandle, sqliteTransaction } from './sqlite.ts';
import { asGroupUnit } from './unit-guard.ts';

// Services open transactions, repositories never do (docs/architecture.md). Every transaction starts here.

export interface TransactionOptions {
  /**
   * Share the commit with the other units of work that start in the same turn of the event loop (group
   * commit on SQLite, see group-commit.ts), for small, frequent units such as a booking request. The
   * unit must query only through the `trx` it is given; outside production any other query fails at once
   * (unit-guard.ts). On a handle that already is a transaction the unit simply runs in it; on PostgreSQL
   * (whose commits already share WAL flushes, and where a group would hold a pooled connection) each unit
   * has a transaction of its own.
   */
  groupCommit?: boolean;
}

/**
 * Runs fn in one transaction. SQLite starts it with BEGIN IMMEDIATE so that the write lock is taken up
 * front: a transaction that reads and then writes can never fail half-way on a lock upgrade.
 */
export function inTransaction<T>(
  db: Db,
  fn: (trx: Db) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  if (options?.groupCommit) {
    if (isTransaction(db)) return fn(db);
    if (dialectOf(db) === 'postgres') return db.transaction().execute(asGroupUnit(fn));
    return joinGroupCommit(db, fn);
  }
  if (dialectOf(db) === 'postgres') return db.transaction().execute(fn);
  return sqliteTransaction(db, sql`begin immediate`, fn);
}

/**
 * Runs several reads on one consistent snapshot: every answer assembled from more than one statement (a
 * row and its children, a page and its count, a report) reads through it, or a write committing between
 * its statements would show rows of two moments. PostgreSQL: a read-only REPEATABLE READ transaction.
 * SQLite: a deferred transaction, which in WAL mode holds a read snapshot without taking the write lock, so
 * writers are never blocked by it. On a handle that already is a transaction, fn simply runs in it (one
 * answer's reads nest: a storefront reads its vendor, then a page of listings).
 */
export function inReadSnapshot<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (isTransaction(db)) return fn(db);
  if (dialectOf(db) === 'postgres') {
    return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(fn);
  }
  return sqliteTransaction(db, sql`begin deferred`, fn);
}

/** True for a handle that is an open transaction: Kysely's (PostgreSQL) or one of SQLite's. */
export function isTransaction(db: Db): boolean {
  return db.isTransaction || isSqliteTransactionHandle(db);
}
