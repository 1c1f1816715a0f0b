import { sql } from 'kysely';
import type { AnyDb } from './schema-helpers.ts';

// Two indexes every booking insert paid for without a query needing them:
//
// bookings_vendor_idx (vendor_id, created_at) is the leading part of bookings_vendor_attribution_idx
// (migration 2026112209), which serves the vendor's booking list and counts as well; only ties of one
// created_at are then ordered by id apart from the index.
//
// bookings_click_idx held an entry for every booking, most of them without a click (NULL). It is read only
// by an equality on listing_click_id (a click's changes copied onto its bookings), which a partial index
// of the bookings with a click serves as well; bookings without one no longer write it.
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_vendor_idx').execute();
  await db.schema.dropIndex('bookings_click_idx').execute();
  await db.schema
    .createIndex('bookings_click_idx')
    .on('bookings')
    .column('listing_click_id')
    .where(sql.ref('listing_click_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_click_idx').execute();
  await db.schema.createIndex('bookings_click_idx').on('bookings').column('listing_click_id').execute();
  await db.schema
    .createIndex('bookings_vendor_idx')
    .on('bookings')
    .columns(['vendor_id', 'created_at'])
    .execute();
}
