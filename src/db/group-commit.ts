import { CompiledQuery, type QueryResult, sql } from 'kysely';
import type { Db } from './database.ts';
import {
  type DirectConnection,
  directSqliteConnection,
  executeCompiled,
  executeDirect,
  sqliteTransaction,
} from './sqlite.ts';
import { queuePerTurn } from './turn-queue.ts';
import { runGroupUnit } from './unit-guard.ts';

/**
 * Group commit on SQLite, reached through `inTransaction(db, work, { groupCommit: true })` for units of
 * work (a booking request) and through `preparedInsert(..., { groupCommit: true })` for single statements
 * (a click). The units that start within one turn of the event loop run one after another in one
 * transaction, each in a savepoint of its own, and each caller's promise settles only after that
 * transaction has committed, so nothing is acknowledged before it is stored.
 *
 * Why: at commit SQLite appends every page the transaction dirtied to the WAL, and checkpoints copy them
 * back. Units committed together share their table, index and rollup pages instead of writing them once
 * each.
 *
 * Each unit still sees the writes of the units before it (one connection, one transaction), so rules
 * checked against the database (no overlapping bookings) hold across the group exactly as across separate
 * transactions. A unit that throws is rolled back to its savepoint and fails alone. If the transaction
 * itself fails (the database locked or gone), every unit of the group fails with it: none was stored.
 *
 * A unit must use only the handle it is given: one waiting on anything else (the network, or another
 * handle of this database, which would wait for the group's own connection) holds up the whole group or
 * waits forever; outside production the latter fails at once (unit-guard.ts).
 */
export function joinGroupCommit<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    enqueue(db, { work, resolve: resolve as (value: unknown) => void, reject }),
  );
}

/**
 * One statement sharing the commit of its turn's group, like a unit of joinGroupCommit; resolves with its
 * result (rows, or an insert's `insertId`) once the group has committed. It needs no savepoint: a
 * statement that fails inside a transaction is undone by SQLite alone, leaving the transaction and the
 * other units' writes as they were. A group made only of statements, while no other transaction holds the
 * connection, runs synchronously on the connection from BEGIN to COMMIT, without Kysely or a promise per
 * statement: no other work can come between its statements.
 */
export function joinGroupCommitAsStatement<Row>(
  db: Db,
  statement: CompiledQuery<Row>,
): Promise<QueryResult<Row>> {
  return new Promise<QueryResult<Row>>((resolve, reject) =>
    enqueue(db, { statement, resolve: resolve as (value: unknown) => void, reject }),
  );
}

type Unit = (
  | { work: (trx: Db) => Promise<unknown>; statement?: undefined }
  | { statement: CompiledQuery<unknown>; work?: undefined }
) & {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

const enqueue = queuePerTurn<Unit>((db, group) => {
  const connection = directSqliteConnection(db);
  if (connection && group.every((unit) => unit.statement)) commitStatements(connection, group);
  else void commitGroup(db, group);
});

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
const succeeded = (value: unknown): Outcome => ({ ok: true, value });
const failed = (error: unknown): Outcome => ({ ok: false, error });

function settle(group: Unit[], outcomes: Outcome[]): void {
  for (const [i, unit] of group.entries()) {
    const outcome = outcomes[i];
    if (outcome.ok) unit.resolve(outcome.value);
    else unit.reject(outcome.error);
  }
}

/** A group of statements only, from BEGIN IMMEDIATE to COMMIT in one synchronous run. */
function commitStatements(connection: DirectConnection, group: Unit[]): void {
  const outcomes: Outcome[] = [];
  try {
    executeDirect(connection, BEGIN_IMMEDIATE);
    for (const unit of group) {
      try {
        outcomes.push(succeeded(executeDirect(connection, unit.statement as CompiledQuery<unknown>)));
      } catch (error) {
        // Errors that end the whole transaction (I/O, a full disk) fail the group: nothing was stored.
        if (!connection.database.inTransaction) throw error;
        outcomes.push(failed(error));
      }
    }
    executeDirect(connection, COMMIT);
  } catch (error) {
    try {
      if (connection.database.inTransaction) executeDirect(connection, ROLLBACK);
    } catch {
      // the group fails with its first error; a rollback that fails too changes nothing for it
    }
    for (const unit of group) unit.reject(error);
    return;
  }
  settle(group, outcomes);
}

async function commitGroup(db: Db, group: Unit[]): Promise<void> {
  let outcomes: Outcome[];
  try {
    outcomes = await sqliteTransaction(db, sql`begin immediate`, async (trx) => {
      const settled: Outcome[] = [];
      for (const unit of group) {
        if (unit.statement) {
          const outcome = await executeCompiled(trx, unit.statement).then(succeeded, failed);
          // as in commitStatements: an error that ended the transaction fails the group
          if (!outcome.ok && !directSqliteConnection(trx)?.database.inTransaction) throw outcome.error;
          settled.push(outcome);
          continue;
        }
        await executeCompiled(trx, SAVEPOINT);
        try {
          settled.push(succeeded(await runGroupUnit(unit.work, trx)));
        } catch (error) {
          await executeCompiled(trx, ROLLBACK_TO);
          settled.push(failed(error));
        }
        await executeCompiled(trx, RELEASE);
      }
      return settled;
    });
  } catch (error) {
    for (const unit of group) unit.reject(error);
    return;
  }
  settle(group, outcomes);
}
