import { sql } from 'kysely';
import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

// Departures (decisions §19). An adventure offering's `schedule` is a JSON list of rules (validated by
// src/lib/schedule.ts; '[]' is unscheduled, the free windows of before). `booking_cutoff_minutes` closes
// requests that long before a window starts, on both kinds. A departure is computed from the rules, never
// stored; what a vendor changes about one (its capacity, closing it, cancelling it) is a row of
// departure_overrides keyed by the offering and the departure's instant. A booking belongs to the
// departure starting at its starts_at: no column is needed on bookings, and a schedule change never
// touches one.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('listings')
    .addColumn('schedule', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('booking_cutoff_minutes', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`booking_cutoff_minutes between 0 and 43200`),
    )
    .execute();

  await withId(db, db.schema.createTable('departure_overrides'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('starts_at', 'bigint', notNull)
    .addColumn('capacity', 'integer', (c) => c.check(sql`capacity between 1 and 10000`))
    .addColumn('is_closed', 'integer', (c) => c.notNull().defaultTo(0).check(sql`is_closed in (0, 1)`))
    .addColumn('cancelled_at', 'bigint')
    .addColumn('note', 'text', emptyText)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addUniqueConstraint('departure_overrides_listing_start_key', ['listing_id', 'starts_at'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('departure_overrides').execute();
  await db.schema.alterTable('listings').dropColumn('booking_cutoff_minutes').execute();
  await db.schema.alterTable('listings').dropColumn('schedule').execute();
}
