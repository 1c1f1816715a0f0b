import { sql } from 'kysely';
import { type AnyDb, notNull, withId } from './schema-helpers.ts';

// Prices the way tours are sold (decisions §21). A listing's price categories (adventures) and extras
// (both kinds) are JSON lists on the listing (validated by src/lib/price-settings.ts; '[]' when none).
// Promo codes are rows of their own, one vendor's each, unique per vendor as stored (upper case, so the
// match ignores case). A booking stores its price lines as JSON (cents) when requested, so a later
// change of the listing's prices or of the code never changes them; a booking of before has none
// (NULL: its one base line is derived from its total, see bookingPriceLines). Redemptions are not a
// counter: they are counted from the holding bookings that carry the code, so a decline, a cancel or
// an expiry gives one back without a write.
export async function up(db: AnyDb): Promise<void> {
  for (const column of ['price_categories', 'extras'])
    await db.schema
      .alterTable('listings')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();

  await withId(db, db.schema.createTable('promo_codes'))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().references('vendor_profiles.id'))
    .addColumn('code', 'text', notNull)
    .addColumn('percent_off', 'integer', (c) => c.check(sql`percent_off between 1 and 100`))
    .addColumn('amount_off_cents', 'bigint', (c) => c.check(sql`amount_off_cents > 0`))
    .addColumn('valid_from', 'bigint')
    .addColumn('valid_until', 'bigint')
    .addColumn('max_redemptions', 'integer', (c) => c.check(sql`max_redemptions >= 1`))
    // JSON list of {"kind", "id"}; NULL: every listing of the vendor
    .addColumn('listing_ids', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1).check(sql`is_active in (0, 1)`))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addUniqueConstraint('promo_codes_vendor_code_key', ['vendor_id', 'code'])
    .addCheckConstraint('promo_codes_one_discount', sql`(percent_off is null) <> (amount_off_cents is null)`)
    .execute();

  await db.schema
    .alterTable('bookings')
    .addColumn('promo_code_id', 'integer', (c) => c.references('promo_codes.id'))
    .execute();
  await db.schema.alterTable('bookings').addColumn('promo_code', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('price_lines', 'text').execute();
  // the redemptions count: the bookings of one code, by status and deadline (read from the index alone)
  await db.schema
    .createIndex('bookings_promo_code_idx')
    .on('bookings')
    .columns(['promo_code_id', 'status', 'expires_at'])
    .where(sql.ref('promo_code_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_promo_code_idx').execute();
  for (const column of ['price_lines', 'promo_code', 'promo_code_id'])
    await db.schema.alterTable('bookings').dropColumn(column).execute();
  await db.schema.dropTable('promo_codes').execute();
  for (const column of ['extras', 'price_categories'])
    await db.schema.alterTable('listings').dropColumn(column).execute();
}
