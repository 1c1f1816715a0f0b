import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('availability_slots'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('starts_at', 'bigint', notNull)
    .addColumn('ends_at', 'bigint', notNull)
    .addColumn('is_available', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addCheckConstraint('availability_slots_window_check', sql`ends_at > starts_at`)
    .execute();
  await db.schema
    .createIndex('availability_slots_listing_idx')
    .on('availability_slots')
    .columns(['listing_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('availability_slots_vendor_idx')
    .on('availability_slots')
    .column('vendor_id')
    .execute();

  await withId(db, db.schema.createTable('bookings'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('listing_kind', 'text', notNull)
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('customer_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', notNull)
    .addColumn('starts_at', 'bigint', notNull)
    .addColumn('ends_at', 'bigint', notNull)
    .addColumn('participants_count', 'integer')
    .addColumn('customer_notes', 'text', emptyText)
    .addColumn('vendor_notes', 'text', emptyText)
    .addColumn('total_price_cents', 'bigint', notNull)
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
    .addColumn('listing_click_id', 'integer')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addCheckConstraint('bookings_window_check', sql`ends_at > starts_at`)
    .addCheckConstraint(
      'bookings_status_check',
      sql`status in ('requested', 'approved', 'declined', 'cancelled', 'confirmed')`,
    )
    .execute();
  await db.schema
    .createIndex('bookings_listing_idx')
    .on('bookings')
    .columns(['listing_id', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('bookings_vendor_idx')
    .on('bookings')
    .columns(['vendor_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('bookings_customer_idx')
    .on('bookings')
    .columns(['customer_id', 'created_at'])
    .execute();
  await db.schema.createIndex('bookings_click_idx').on('bookings').column('listing_click_id').execute();

  if (dialectOf(db) === 'postgres') {
    // Second line of defence behind the per-listing lock: the database itself refuses two active
    // bookings of one listing whose half-open windows overlap.
    await sql`create extension if not exists btree_gist`.execute(db);
    await sql`alter table bookings add constraint bookings_no_overlap exclude using gist (
      listing_id with =, int8range(starts_at, ends_at, '[)') with &&
    ) where (status in ('requested', 'approved', 'confirmed'))`.execute(db);
  }

  await withId(db, db.schema.createTable('booking_status_history'))
    .addColumn('booking_id', 'integer', (c) => c.notNull().references('bookings.id'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', notNull)
    .addColumn('note', 'text', emptyText)
    .addColumn('actor_id', 'integer')
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('booking_status_history_booking_idx')
    .on('booking_status_history')
    .column('booking_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['booking_status_history', 'bookings', 'availability_slots']) {
    await db.schema.dropTable(table).execute();
  }
}
