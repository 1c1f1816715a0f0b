import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseConnection, Driver, Dialect as KyselyDialect } from 'kysely';

// A unit of a group commit (inTransaction with `groupCommit`) must query only through the transaction
// handle it is given. On SQLite the group holds the one connection until every unit of it has finished,
// so a unit that queries through the service's handle (or opens a transaction, or joins a per-turn read or
// batch) waits for that connection, which waits for the unit: forever. Outside production every handle
// made by createDb checks for this: while a unit runs, a query that asks for a connection of its own, or
// anything queued for a later turn, fails at once with an Error saying so. In production nothing here
// runs (the server turns the check off), so the hot paths pay nothing for it.

const GROUP_UNIT_MISTAKE =
  'A unit of a group commit (inTransaction with { groupCommit: true }) queried through a handle other ' +
  'than the transaction handle it was given. Use that handle for every query of the unit: on SQLite the ' +
  'group holds the only connection until the unit ends, so any other handle would wait for it forever.';

/** The unit of a group commit running in this async context, if any; set only on guarded handles. */
const runningUnit = new AsyncLocalStorage<true>();

/** True once some handle checks its units; until then (production) nothing below is ever consulted. */
let guarding = false;

/** Throws when called from inside a unit of a group commit whose handle is guarded. */
export function checkOutsideGroupUnit(): void {
  if (guarding && runningUnit.getStore()) throw new Error(GROUP_UNIT_MISTAKE);
}

/** Runs one unit of a group commit so that checkOutsideGroupUnit recognises it; as it is when unguarded. */
export function runGroupUnit<H, T>(work: (handle: H) => Promise<T>, handle: H): Promise<T> {
  return guarding ? runningUnit.run(true, work, handle) : work(handle);
}

/** `work` as a unit that checkOutsideGroupUnit recognises wherever it runs; `work` itself when unguarded. */
export function asGroupUnit<H, T>(work: (handle: H) => Promise<T>): (handle: H) => Promise<T> {
  return guarding ? (handle) => runningUnit.run(true, work, handle) : work;
}

/**
 * `dialect` with every connection its handles ask for checked first: a transaction handle runs on the
 * connection it already holds and asks for none, so within a unit only another handle gets here.
 */
export function guardedDialect(dialect: KyselyDialect): KyselyDialect {
  guarding = true;
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => guardedDriver(dialect.createDriver()),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

function guardedDriver(driver: Driver): Driver {
  const guarded: Driver = {
    init: (options) => driver.init(options),
    acquireConnection: (options) => {
      checkOutsideGroupUnit();
      return driver.acquireConnection(options);
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    releaseConnection: (connection: DatabaseConnection, options) =>
      driver.releaseConnection(connection, options),
    destroy: (options) => driver.destroy(options),
  };
  if (driver.savepoint) guarded.savepoint = driver.savepoint.bind(driver);
  if (driver.rollbackToSavepoint) guarded.rollbackToSavepoint = driver.rollbackToSavepoint.bind(driver);
  if (driver.releaseSavepoint) guarded.releaseSavepoint = driver.releaseSavepoint.bind(driver);
  return guarded;
}
