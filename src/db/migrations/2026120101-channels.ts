import { sql } from 'kysely';
import { type AnyDb, notNull, withId } from './schema-helpers.ts';

// Channels (decisions §24): a reseller (or any system speaking OCTO) that books for a vendor with a key.
// Only the key's SHA-256 is kept (`key_hash`, unique: a request finds its channel by the hash of the key it
// sends, so no stored secret is compared byte by byte); a rotation replaces it, so the old key stops at once.
//
// bookings.customer_id is NOT NULL, and SQLite cannot relax that without rebuilding the table (its
// triggers, indexes and the rollups built on it). Each channel therefore has its own account row
// (`account_id`): a users row that can never sign in (deactivated, a password hash no password matches,
// an address under the reserved .invalid domain), which the channel's bookings use as their customer_id.
// The API shows such a booking's `customer` as null and its `contact` instead.
//
// Channel bookings carry the channel, the reseller's reference, the reseller's uuid (unique per channel
// where given: a repeated reserve finds the same booking, also when two arrive at once) and the contact
// the reseller sends on confirmation.
export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('channels'))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().unique().references('users.id'))
    .addColumn('name', 'text', notNull)
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1).check(sql`is_active in (0, 1)`))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('channels_vendor_idx').on('channels').column('vendor_id').execute();

  await db.schema
    .alterTable('bookings')
    .addColumn('channel_id', 'integer', (c) => c.references('channels.id'))
    .execute();
  for (const column of [
    'reseller_reference',
    'octo_uuid',
    'contact_full_name',
    'contact_email',
    'contact_phone',
  ])
    await db.schema.alterTable('bookings').addColumn(column, 'text').execute();
  await db.schema
    .createIndex('bookings_channel_uuid_key')
    .unique()
    .on('bookings')
    .columns(['channel_id', 'octo_uuid'])
    .where(sql.ref('octo_uuid'), 'is not', null)
    .execute();
  // GET bookings?resellerReference=... looks a channel's bookings up by the reseller's reference
  await db.schema
    .createIndex('bookings_channel_reference_idx')
    .on('bookings')
    .columns(['channel_id', 'reseller_reference'])
    .where(sql.ref('channel_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_channel_reference_idx').execute();
  await db.schema.dropIndex('bookings_channel_uuid_key').execute();
  for (const column of [
    'contact_phone',
    'contact_email',
    'contact_full_name',
    'octo_uuid',
    'reseller_reference',
    'channel_id',
  ])
    await db.schema.alterTable('bookings').dropColumn(column).execute();
  await db.schema.dropTable('channels').execute();
}
