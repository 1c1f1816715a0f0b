import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Database } from './database.ts';

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
 * Makes every query through `db` itself (not through the transactions it opens, which hold a connection
 * of their own) check first that it is not issued by a unit of a group commit. Kysely offers no hook
 * that runs before a query waits for its connection, so the handle's executor, through which each query
 * and each transaction of the handle asks for one, is wrapped; the handles of its transactions get
 * executors of their own and stay as they are.
 */
export function guardGroupCommitUnits(db: Kysely<Database>): void {
  guarding = true;
  const executor = db.getExecutor();
  const provideConnection = executor.provideConnection.bind(executor);
  executor.provideConnection = (consumer) => {
    checkOutsideGroupUnit();
    return provideConnection(consumer);
  };
}
