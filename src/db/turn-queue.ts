import type { Db } from './database.ts';
import { checkOutsideGroupUnit } from './unit-guard.ts';

/**
 * The items of one event-loop turn, per database handle: the first item schedules `flush` for the end of
 * the turn (setImmediate, after the turn's I/O callbacks), and items queued until then join its batch;
 * later ones start the next. The per-turn scheduling of group commit, of batchPerTurn and of
 * readSharedPerTurn. Queuing from inside a unit of a group commit is refused (see unit-guard.ts): the
 * flush would wait for the group, and the group for the unit.
 */
export function queuePerTurn<T>(flush: (db: Db, items: T[]) => void): (db: Db, item: T) => void {
  const pending = new WeakMap<Db, T[]>();
  return (db, item) => {
    checkOutsideGroupUnit();
    let batch = pending.get(db);
    if (!batch) {
      const created: T[] = [];
      pending.set(db, created);
      setImmediate(() => {
        pending.delete(db);
        flush(db, created);
      });
      batch = created;
    }
    batch.push(item);
  };
}
