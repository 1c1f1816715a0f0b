import type { AnyDb } from './schema-helpers.ts';

// Overlap checks (availability, booking requests, the list filter) ask for a listing's bookings and slots
// with ends_at > start and starts_at < end. Indexed by starts_at, every past booking of the listing
// matches the second bound and is read; past bookings pile up forever while future ones stay few, so the
// index leads with ends_at. The booking index also carries status: the check reads the index alone.
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_listing_idx').execute();
  await db.schema
    .createIndex('bookings_listing_window_idx')
    .on('bookings')
    .columns(['listing_id', 'ends_at', 'starts_at', 'status'])
    .execute();
  await db.schema
    .createIndex('availability_slots_listing_end_idx')
    .on('availability_slots')
    .columns(['listing_id', 'ends_at', 'starts_at', 'is_available'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('availability_slots_listing_end_idx').execute();
  await db.schema.dropIndex('bookings_listing_window_idx').execute();
  await db.schema
    .createIndex('bookings_listing_idx')
    .on('bookings')
    .columns(['listing_id', 'starts_at'])
    .execute();
}
