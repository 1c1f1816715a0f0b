import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { reusableQuery } from '../../src/db/reusable-query.ts';

let handle: DbHandle;
beforeAll(async () => {
  handle = createDb('sqlite::memory:');
  await migrateToLatest(handle.db);
});
afterAll(() => handle.close());

describe('reusableQuery', () => {
  it('compiles once and answers each call with its own arguments', async () => {
    let builds = 0;
    const bySlug = reusableQuery(
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
    const broken = reusableQuery(
      (db, _args: { slug: string }) => db.selectFrom('categories').select('id').where('slug', '=', 'kayaks'),
      ['slug'],
    );
    await expect(broken(handle.db, { slug: 'x' })).rejects.toThrow(/not every argument/);
  });
});
