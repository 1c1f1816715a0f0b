import { isTransaction } from './create-db.ts';
import type { Db } from './database.ts';

/**
 * Writes of one event-loop turn made by one statement: the first caller schedules the batch for the end of
 * the turn (setImmediate, after the turn's I/O callbacks), later callers of the turn join it, and each
 * caller's promise settles with its own item's result once the batch's statement has completed.
 *
 * `writeAll` must store every item or none (one statement is atomic) and return the results in the items'
 * order. If it fails, each item is written again on its own with `writeOne`: an item that breaks a
 * constraint then fails alone and its neighbours are stored. A batch of one, and a caller inside a
 * transaction (whose writes must be its own), use `writeOne` directly.
 *
 * For PostgreSQL, where every statement is a round trip and a commit: see insertClick.
 */
export function batchPerTurn<In, Out>(
  writeAll: (db: Db, items: In[]) => Promise<Out[]>,
  writeOne: (db: Db, item: In) => Promise<Out>,
): (db: Db, item: In) => Promise<Out> {
  const pending = new WeakMap<Db, Entry<In, Out>[]>();

  async function flush(db: Db, batch: Entry<In, Out>[]): Promise<void> {
    let results: Out[] | undefined;
    if (batch.length > 1)
      results = await writeAll(
        db,
        batch.map((entry) => entry.item),
      ).catch(() => undefined);
    for (const [i, entry] of batch.entries()) {
      if (results) entry.resolve(results[i]);
      else writeOne(db, entry.item).then(entry.resolve, entry.reject);
    }
  }

  return (db, item) => {
    if (isTransaction(db)) return writeOne(db, item);
    return new Promise<Out>((resolve, reject) => {
      let batch = pending.get(db);
      if (!batch) {
        const created: Entry<In, Out>[] = [];
        pending.set(db, created);
        setImmediate(() => {
          pending.delete(db);
          void flush(db, created);
        });
        batch = created;
      }
      batch.push({ item, resolve, reject });
    });
  };
}

interface Entry<In, Out> {
  item: In;
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
}
