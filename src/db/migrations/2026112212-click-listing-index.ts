import type { AnyDb } from './schema-helpers.ts';

// No query reads clicks by listing: they are read by vendor and time, or by id. The index on listing_id
// only served a listing's deletion, and listings are archived, never deleted. It was also the dearest part
// of a click: new clicks land at the end of each listing's run of entries, so every click dirtied a leaf
// page of its own, and each such page is written to the WAL and checkpointed back (on SQLite a click cost
// 40 µs with it and 12 µs without). Deleting a listing, should a maintenance task ever do it, now scans the
// clicks once to check the foreign key.
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('listing_clicks_listing_idx').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('listing_clicks_listing_idx')
    .on('listing_clicks')
    .column('listing_id')
    .execute();
}
