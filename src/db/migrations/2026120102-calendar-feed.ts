import { type AnyDb, notNull } from './schema-helpers.ts';

// The calendar feed (decisions §24): one secret token per vendor, the last part of the feed's URL. The
// token is kept as made, not hashed, because the dashboard shows the URL again whenever asked (GET
// calendar-feed), as calendar products do; it opens a read-only list of bookings, never an account, and
// rotating it is the way to revoke it (docs/calendar-feed.md). The unique index is the feed's one lookup.
// A vendor's row is made on its first GET, so existing vendors need nothing here.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('vendor_id', 'integer', (c) => c.primaryKey().references('vendor_profiles.id'))
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', notNull)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('calendar_feeds').execute();
}
