import type { Db } from './database.ts';
import { isTransaction } from './transactions.ts';
import { queuePerTurn } from './turn-queue.ts';

/**
 * The statements of one event-loop turn made as one (queued by queuePerTurn), each caller's promise
 * settling with its own item's result once the batch's statement has completed. The statement starts
 * after every call it answers, so a read sees each write acknowledged before it was asked for.
 *
 * `writeAll` must store every item or none (one statement is atomic) and return the results in the items'
 * order. If it fails, each item is written again on its own with `writeOne`: an item that breaks a
 * constraint then fails alone and its neighbours are stored. A batch of one, and a caller inside a
 * transaction (whose statements must be its own), use `writeOne` directly.
 *
 * For PostgreSQL, where every statement is a round trip: the clicks of a turn (insertClick) and the
 * facts of its availability checks (availabilityFacts).
 */
export function batchPerTurn<In, Out>(
  writeAll: (db: Db, items: In[]) => Promise<Out[]>,
  writeOne: (db: Db, item: In) => Promise<Out>,
): (db: Db, item: In) => Promise<Out> {
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
  const enqueue = queuePerTurn<Entry<In, Out>>((db, batch) => void flush(db, batch));

  return (db, item) => {
    if (isTransaction(db)) return writeOne(db, item);
    return new Promise<Out>((resolve, reject) => enqueue(db, { item, resolve, reject }));
  };
}

interface Entry<In, Out> {
  item: In;
  resolve: (value: Out) => void;
  reject: (error: unknown) => void;
}
