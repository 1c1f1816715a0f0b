import type { AnyDb } from './schema-helpers.ts';

// The day's manifest and the calendar feed read a vendor's bookings through the listings' window index
// (src/modules/booking/vendor-window.ts), so the two indexes by vendor and start and by vendor and end go:
// each placed an entry at a random page of its own on every booking insert, about a third of the insert's
// cost, on the path every booking request takes.
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_vendor_starts_idx').execute();
  await db.schema.dropIndex('bookings_vendor_ends_idx').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('bookings_vendor_starts_idx')
    .on('bookings')
    .columns(['vendor_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('bookings_vendor_ends_idx')
    .on('bookings')
    .columns(['vendor_id', 'ends_at'])
    .execute();
}
