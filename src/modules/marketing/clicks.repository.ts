import type { Insertable } from 'kysely';
import type { Db, ListingClicksTable } from '../../db/database.ts';

export async function insertClick(db: Db, values: Insertable<ListingClicksTable>): Promise<number> {
  const row = await db.insertInto('listing_clicks').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function findClickById(db: Db, id: number) {
  return db
    .selectFrom('listing_clicks')
    .select(['id', 'listing_id', 'listing_kind', 'traffic_type', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}
