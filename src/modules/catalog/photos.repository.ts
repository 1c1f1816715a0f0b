import type { Insertable, Selectable } from 'kysely';
import type { Db, ListingPhotosTable } from '../../db/database.ts';
import { insertReturningId } from '../../db/prepared-query.ts';

export type PhotoRow = Selectable<ListingPhotosTable>;

/** The photos of the given listings, each listing's in position order: one query for a whole page. */
export async function photosOfListings(db: Db, listingIds: readonly number[]): Promise<PhotoRow[]> {
  if (listingIds.length === 0) return [];
  return db
    .selectFrom('listing_photos')
    .selectAll()
    .where('listing_id', 'in', listingIds)
    .orderBy('listing_id')
    .orderBy('position')
    .execute();
}

export async function countPhotos(db: Db, listingId: number): Promise<number> {
  const row = await db
    .selectFrom('listing_photos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('listing_id', '=', listingId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPhoto(db: Db, listingId: number, photoId: number): Promise<PhotoRow | undefined> {
  return db
    .selectFrom('listing_photos')
    .selectAll()
    .where('id', '=', photoId)
    .where('listing_id', '=', listingId)
    .executeTakeFirst();
}

export async function insertPhoto(db: Db, values: Insertable<ListingPhotosTable>): Promise<number> {
  return insertReturningId(db, db.insertInto('listing_photos').values(values));
}

export async function updatePhoto(
  db: Db,
  photoId: number,
  values: { alt?: string; position?: number },
): Promise<void> {
  await db.updateTable('listing_photos').set(values).where('id', '=', photoId).execute();
}

export async function deletePhoto(db: Db, photoId: number): Promise<void> {
  await db.deleteFrom('listing_photos').where('id', '=', photoId).execute();
}

/** Moves the listing's photos at positions from..to (inclusive; no `to`: to the last) by `by` places. */
export async function shiftPositions(
  db: Db,
  listingId: number,
  range: { from: number; to?: number },
  by: 1 | -1,
): Promise<void> {
  let query = db
    .updateTable('listing_photos')
    .set((eb) => ({ position: eb('position', '+', by) }))
    .where('listing_id', '=', listingId)
    .where('position', '>=', range.from);
  if (range.to !== undefined) query = query.where('position', '<=', range.to);
  await query.execute();
}
