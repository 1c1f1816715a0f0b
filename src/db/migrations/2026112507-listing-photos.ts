import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

// Listing photos (decisions §16). A row names its two stored files by their storage keys (random, never
// reused), not by URL, so the store behind them can change. `position` orders a listing's photos from 0
// without gaps; the photo service keeps it so under the listing's lock, so no unique index holds it (a
// renumbering would break one half-way on PostgreSQL). Public listing objects show photos, so every photo
// write bumps the catalog version, as listing writes do (migration 2026112208), and the caches of lists and
// details never show stale photos.

const BUMP = sql`update cache_versions set version = version + 1 where name = 'catalog'`;
const EVENTS = ['insert', 'update', 'delete'] as const;

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('listing_photos'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('image_key', 'text', notNull)
    .addColumn('thumbnail_key', 'text', notNull)
    .addColumn('width', 'integer', notNull)
    .addColumn('height', 'integer', notNull)
    .addColumn('alt', 'text', emptyText)
    .addColumn('position', 'integer', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  // lists read the photos of a page's listings in one query, in order
  await db.schema
    .createIndex('listing_photos_listing_position_idx')
    .on('listing_photos')
    .columns(['listing_id', 'position'])
    .execute();

  if (dialectOf(db) === 'postgres') {
    // bump_catalog_version() is migration 2026112208's
    await sql`create trigger listing_photos_catalog_version after insert or update or delete on listing_photos
      for each row execute function bump_catalog_version()`.execute(db);
    return;
  }
  for (const event of EVENTS) {
    await sql`create trigger ${sql.raw(`listing_photos_catalog_version_${event}`)} after ${sql.raw(event)} on listing_photos
      begin ${BUMP}; end`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  // the triggers go with their table
  await db.schema.dropTable('listing_photos').execute();
}
