import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CategoriesTable, Db } from '../../db/database.ts';
import type { Page } from '../../http/pagination.ts';

export type CategoryRow = Selectable<CategoriesTable>;

export async function listCategories(db: Db, page: Page): Promise<CategoryRow[]> {
  return db
    .selectFrom('categories')
    .selectAll()
    .orderBy('name')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countCategories(db: Db): Promise<number> {
  const row = await db
    .selectFrom('categories')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findCategory(db: Db, id: number): Promise<CategoryRow | undefined> {
  return db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertCategory(db: Db, values: Insertable<CategoriesTable>): Promise<CategoryRow> {
  return db.insertInto('categories').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateCategory(
  db: Db,
  id: number,
  values: Updateable<CategoriesTable>,
): Promise<CategoryRow | undefined> {
  return db.updateTable('categories').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

/** How many listings (archived included) use the category. */
export async function countListingsInCategory(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('category_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteCategory(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('categories').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
