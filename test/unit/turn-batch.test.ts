import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import type { Db } from '../../src/db/database.ts';
import { inTransaction } from '../../src/db/transactions.ts';
import { batchPerTurn } from '../../src/db/turn-batch.ts';

// batchPerTurn on plain items: what it hands to the batch and single writers, and who gets which result.
// PostgreSQL's click inserts run on it (clicks.repository.ts); click-group-commit.test.ts covers them.

let handle: DbHandle;
beforeAll(() => {
  handle = createDb('sqlite::memory:');
});
afterAll(() => handle.close());

/** A writer that records each call: batches as arrays, single writes as items. */
function recorder(options: { failBatch?: boolean; refuse?: number } = {}) {
  const calls: (number | number[])[] = [];
  const write = batchPerTurn<number, string>(
    async (_db, items) => {
      calls.push(items);
      if (options.failBatch) throw new Error('batch refused');
      return items.map((n) => `batch:${n}`);
    },
    async (_db, item) => {
      calls.push(item);
      if (item === options.refuse) throw new Error(`item ${item} refused`);
      return `one:${item}`;
    },
  );
  return { calls, write };
}

describe('batchPerTurn', () => {
  it('writes the items of one turn with one batch, each caller getting its own result', async () => {
    const { calls, write } = recorder();
    const results = await Promise.all([1, 2, 3].map((n) => write(handle.db, n)));
    expect(results).toEqual(['batch:1', 'batch:2', 'batch:3']);
    // a later turn is a batch of its own; a batch of one is a single write
    expect(await Promise.all([4, 5].map((n) => write(handle.db, n)))).toEqual(['batch:4', 'batch:5']);
    expect(await write(handle.db, 6)).toBe('one:6');
    expect(calls).toEqual([[1, 2, 3], [4, 5], 6]);
  });

  it('writes each item on its own when the batch fails, so only the bad one fails', async () => {
    const { calls, write } = recorder({ failBatch: true, refuse: 2 });
    const results = await Promise.allSettled([1, 2, 3].map((n) => write(handle.db, n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 'one:1' },
      { status: 'rejected', reason: new Error('item 2 refused') },
      { status: 'fulfilled', value: 'one:3' },
    ]);
    expect(calls).toEqual([[1, 2, 3], 1, 2, 3]);
  });

  it('writes on its own handle inside a transaction, never in a batch of other callers', async () => {
    const handles: Db[] = [];
    const write = batchPerTurn<number, number>(
      async () => {
        throw new Error('not for a transaction');
      },
      async (db, item) => {
        handles.push(db);
        return item * 2;
      },
    );
    const inside = await inTransaction(handle.db, (trx) =>
      Promise.all([write(trx, 1), write(trx, 2)]).then((results) => ({ trx, results })),
    );
    expect(inside.results).toEqual([2, 4]);
    expect(handles).toEqual([inside.trx, inside.trx]);
  });
});
