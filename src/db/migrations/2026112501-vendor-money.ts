import type { AnyDb } from './schema-helpers.ts';

// A vendor's currency (lower-case ISO 4217 code) and time zone (IANA name): every listing shows the
// vendor's currency and every booking stores it when requested (decisions §10). Existing vendors get the
// defaults, which are what the service assumed before; existing bookings keep the currency they stored.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('vendor_profiles')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('usd'))
    .execute();
  await db.schema
    .alterTable('vendor_profiles')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('vendor_profiles').dropColumn('time_zone').execute();
  await db.schema.alterTable('vendor_profiles').dropColumn('currency').execute();
}
