import type { Db } from './database.ts';
import { isTransaction } from './transactions.ts';
import { queuePerTurn } from './turn-queue.ts';

/**
 * One read shared by every caller of one event-loop turn. The first caller schedules the read for the end
 * of the turn (setImmediate, after the turn's I/O callbacks); callers until it starts join it, later ones
 * schedule the next. A caller is answered by a read that started after its call, so it sees every write
 * that was acknowledged before it asked, exactly as with a read of its own. Inside a transaction the read
 * is the caller's own.
 */
export function readSharedPerTurn<T>(read: (db: Db) => Promise<T>): (db: Db) => Promise<T> {
  const enqueue = queuePerTurn<Waiter<T>>((db, waiters) => {
    read(db).then(
      (value) => {
        for (const waiter of waiters) waiter.resolve(value);
      },
      (error) => {
        for (const waiter of waiters) waiter.reject(error);
      },
    );
  });
  return (db) => {
    if (isTransaction(db)) return read(db);
    return new Promise<T>((resolve, reject) => enqueue(db, { resolve, reject }));
  };
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}
