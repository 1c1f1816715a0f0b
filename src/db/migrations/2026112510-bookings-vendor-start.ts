import type { AnyDb } from './schema-helpers.ts';

// The vendor's booking list in order of start (`ordering=starts_at`, with `status` and `starts_from`: the
// dashboard's upcoming bookings): equality on vendor and status, then a range scan in starts_at order, on
// both databases. A customer's list stays on bookings_customer_idx: one customer's bookings are few.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('bookings_vendor_start_idx')
    .on('bookings')
    .columns(['vendor_id', 'status', 'starts_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_vendor_start_idx').execute();
}
