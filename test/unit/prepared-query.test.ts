import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { insertReturningId, preparedInsert, preparedQuery } from '../../src/db/prepared-query.ts';
import { inTransaction } from '../../src/db/transactions.ts';

let handle: DbHandle;
beforeAll(async () => {
  handle = createDb('sqlite::memory:');
  await migrateToLatest(handle.db);
});
afterAll(() => handle.close());

describe('preparedQuery', () => {
  it('compiles once and answers each call with its own arguments', async () => {
    let builds = 0;
    const bySlug = preparedQuery(
      (db, args: { slug: string; minId: number }) => {
        builds++;
        return db
          .selectFrom('categories')
          .select(['id', 'name'])
          .where('slug', '=', args.slug)
          .where('id', '>=', args.minId);
      },
      ['slug', 'minId'],
    );
    expect(await bySlug(handle.db, { slug: 'kayaks', minId: 1 })).toEqual([{ id: 1, name: 'Kayaks' }]);
    expect(await bySlug(handle.db, { slug: 'jet-skis', minId: 1 })).toEqual([{ id: 10, name: 'Jet skis' }]);
    expect(await bySlug(handle.db, { slug: 'jet-skis', minId: 11 })).toEqual([]);
    expect(await bySlug(handle.db, { slug: 'nothing', minId: 0 })).toEqual([]);
    expect(builds).toBe(1);
  });

  it('refuses a builder that drops an argument', async () => {
    const broken = preparedQuery(
      (db, _args: { slug: string }) => db.selectFrom('categories').select('id').where('slug', '=', 'kayaks'),
      ['slug'],
    );
    await expect(broken(handle.db, { slug: 'x' })).rejects.toThrow(/not every argument/);
  });

  it('never reads a transaction that is still open: such a read waits for its commit', async () => {
    const bySlug = preparedQuery(
      (db, args: { slug: string }) =>
        db.selectFrom('categories').select('name').where('slug', '=', args.slug),
      ['slug'],
    );
    let commit!: () => void;
    const held = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let inserted!: () => void;
    const insertDone = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const writer = inTransaction(handle.db, async (trx) => {
      await trx
        .insertInto('categories')
        .values({ name: 'Hydrofoils', slug: 'hydrofoils', description: '', created_at: 0, updated_at: 0 })
        .execute();
      inserted();
      await held;
    });
    await insertDone; // the row is written, not committed
    let answered = false;
    const read = bySlug(handle.db, { slug: 'hydrofoils' }).then((rows) => {
      answered = true;
      return rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    commit();
    await writer;
    expect(await read).toEqual([{ name: 'Hydrofoils' }]);
  });

  it("runs inside a transaction as part of it: its reads see the transaction's writes, its writes roll back", async () => {
    const insertCategory = preparedQuery(
      (db, args: { slug: string }) =>
        db
          .insertInto('categories')
          .values({ name: 'Surf skis', slug: args.slug, description: '', created_at: 0, updated_at: 0 })
          .returning('id'),
      ['slug'],
    );
    const bySlug = preparedQuery(
      (db, args: { slug: string }) =>
        db.selectFrom('categories').select('slug').where('slug', '=', args.slug),
      ['slug'],
    );
    await expect(
      inTransaction(handle.db, async (trx) => {
        const [row] = await insertCategory(trx, { slug: 'surf-skis' });
        expect(row.id).toBeGreaterThan(0);
        expect(await bySlug(trx, { slug: 'surf-skis' })).toEqual([{ slug: 'surf-skis' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await bySlug(handle.db, { slug: 'surf-skis' })).toEqual([]);
  });

  it('answers an insert with the id of the row it wrote, prepared or built, inside a transaction or not', async () => {
    const categoryValues = (slug: string) => ({
      name: slug,
      slug,
      description: '',
      created_at: 0,
      updated_at: 0,
    });
    const insertCategory = preparedInsert(
      (db, args: { slug: string }) => db.insertInto('categories').values(categoryValues(args.slug)),
      ['slug'],
    );
    const slugOf = async (id: number) =>
      (await handle.db.selectFrom('categories').select('slug').where('id', '=', id).executeTakeFirst())?.slug;
    const prepared = await insertCategory(handle.db, { slug: 'canoes-prepared' });
    const built = await insertReturningId(
      handle.db,
      handle.db.insertInto('categories').values(categoryValues('canoes-built')),
    );
    const inside = await inTransaction(handle.db, (trx) => insertCategory(trx, { slug: 'canoes-inside' }));
    expect([await slugOf(prepared), await slugOf(built), await slugOf(inside)]).toEqual([
      'canoes-prepared',
      'canoes-built',
      'canoes-inside',
    ]);
    expect(new Set([prepared, built, inside]).size).toBe(3);
  });
});
