import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * One page of the rows a select finds, newest first (`created_at`, then `id`, both descending: the default
 * order of decisions §1), and how many it finds in all. `base` is the select with its filters and no
 * columns yet; its table must have `created_at` and `id`.
 */
export async function newestFirstPage<Row>(
  // biome-ignore lint/suspicious/noExplicitAny: a select of any table with created_at and id
  base: SelectQueryBuilder<any, any, object>,
  page: { limit: number; offset: number },
): Promise<{ rows: Row[]; count: number }> {
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(sql.ref('created_at'), 'desc')
      .orderBy(sql.ref('id'), 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Row[], count: Number((count as { n: number | string }).n) };
}
