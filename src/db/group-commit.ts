import { dialectOf, inTransaction, isSharedHandle } from './create-db.ts';
import type { Db } from './database.ts';

/**
 * Group commit for small independent writes (one row each) on SQLite: the writes that arrive within one
 * turn of the event loop run in one transaction, and each caller's promise settles only after that
 * transaction has committed, so nothing is acknowledged before it is stored. At commit SQLite appends every
 * page the transaction dirtied to the WAL; fifty clicks in one transaction share their table and index
 * pages instead of appending them fifty times.
 *
 * When the shared transaction fails on a constraint, each write is retried in a transaction of its own, so
 * that one bad write fails only its own caller; any other failure (the database locked or gone) fails
 * them all at once, as it would have failed each. Writes through a handle bound to a connection or a
 * transaction, and all writes on PostgreSQL (whose commits already share WAL flushes, and where a batch
 * would hold a pooled connection), go straight through.
 */
export function groupCommit<I, O>(write: (db: Db, item: I) => Promise<O>): (db: Db, item: I) => Promise<O> {
  const queues = new WeakMap<Db, Pending<I, O>[]>();

  async function flush(db: Db, batch: Pending<I, O>[]): Promise<void> {
    let results: O[];
    try {
      results = await inTransaction(db, async (trx) => {
        const out: O[] = [];
        for (const p of batch) out.push(await write(trx, p.item));
        return out;
      });
    } catch (error) {
      if (batch.length > 1 && isConstraintError(error)) {
        for (const p of batch) inTransaction(db, (trx) => write(trx, p.item)).then(p.resolve, p.reject);
      } else for (const p of batch) p.reject(error);
      return;
    }
    for (const [i, p] of batch.entries()) p.resolve(results[i]);
  }

  return (db, item) => {
    if (!isSharedHandle(db) || dialectOf(db) === 'postgres') return write(db, item);
    return new Promise<O>((resolve, reject) => {
      let queue = queues.get(db);
      if (!queue) {
        queue = [];
        queues.set(db, queue);
        setImmediate(() => {
          queues.delete(db);
          void flush(db, queue!);
        });
      }
      queue.push({ item, resolve, reject });
    });
  };
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}
