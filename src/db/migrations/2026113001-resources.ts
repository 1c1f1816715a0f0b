import { sql } from 'kysely';
import { type AnyDb, notNull, withId } from './schema-helpers.ts';

// Shared resources (decisions §22). A resource is one vendor's pool (a boat, twenty kayaks). A listing's
// uses of resources are a JSON list on the listing (validated by src/lib/resource-uses.ts; '[]' when none);
// `listing_resource_refs` names every resource a listing or one of its extras uses, so a delete can be
// refused (and is refused by the foreign key should a check be skipped). A booking stores what it takes
// of each resource when requested (`booking_resources`: its hold, buffer included, and its amount), so a
// later edit of the listing never changes what existing bookings hold; the rows count while their booking
// holds (status and deadline, read from `bookings`).
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('resources'))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('name', 'text', notNull)
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity between 1 and 10000`))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('resources_vendor_idx').on('resources').column('vendor_id').execute();
  await db.schema
    .alterTable('listings')
    .addColumn('resources', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('listing_resource_refs')
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id'))
    .addPrimaryKeyConstraint('listing_resource_refs_pkey', ['listing_id', 'resource_id'])
    .execute();
  await db.schema
    .createIndex('listing_resource_refs_resource_idx')
    .on('listing_resource_refs')
    .column('resource_id')
    .execute();
  await withId(db, db.schema.createTable('booking_resources'))
    .addColumn('booking_id', 'integer', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id'))
    .addColumn('listing_id', 'integer', notNull)
    // 1: counted once for all holding bookings of its listing with the same window (per departure)
    .addColumn('per_departure', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`per_departure in (0, 1)`),
    )
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 1`))
    .addColumn('starts_at', 'bigint', notNull)
    .addColumn('ends_at', 'bigint', notNull)
    // ends_at plus the listing's buffer when requested
    .addColumn('held_until', 'bigint', notNull)
    .execute();
  await db.schema
    .createIndex('booking_resources_hold_idx')
    .on('booking_resources')
    .columns(['resource_id', 'held_until', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('booking_resources_booking_idx')
    .on('booking_resources')
    .column('booking_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('booking_resources').execute();
  await db.schema.dropTable('listing_resource_refs').execute();
  await db.schema.alterTable('listings').dropColumn('resources').execute();
  await db.schema.dropTable('resources').execute();
}
