import { type AnyDb, emptyText, notNull, withId } from './schema-helpers.ts';

export async function up(db: AnyDb): Promise<void> {
  await withId(db, db.schema.createTable('listing_clicks'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('listing_kind', 'text', notNull)
    .addColumn('vendor_id', 'integer', notNull)
    .addColumn('traffic_type', 'text', notNull)
    .addColumn('source', 'text', notNull)
    .addColumn('utm_source', 'text', emptyText)
    .addColumn('utm_medium', 'text', emptyText)
    .addColumn('utm_campaign', 'text', emptyText)
    .addColumn('utm_term', 'text', emptyText)
    .addColumn('utm_content', 'text', emptyText)
    .addColumn('gclid', 'text', emptyText)
    .addColumn('fbclid', 'text', emptyText)
    .addColumn('referrer', 'text', emptyText)
    .addColumn('user_id', 'integer')
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  // Vendor date-range scans (click list, summary) are index range scans; traffic_type rides along so
  // the per-type counts need not visit the table.
  await db.schema
    .createIndex('listing_clicks_vendor_idx')
    .on('listing_clicks')
    .columns(['vendor_id', 'created_at', 'traffic_type'])
    .execute();
  await db.schema
    .createIndex('listing_clicks_listing_idx')
    .on('listing_clicks')
    .column('listing_id')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('listing_clicks').execute();
}
