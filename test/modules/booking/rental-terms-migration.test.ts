import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import {
  buildTestApp,
  injector,
  migrationSchema,
  type TestApp,
  usingPostgres,
} from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester } from './setup.ts';

// Migration 2026112901 (decisions §20) down and up again on a database holding an item with rates, limits
// and a buffer, a vendor with opening hours and a booking: down removes the columns and keeps every
// listing, profile and booking (its price as it was); up gives them no rates, no limits, no buffer and
// always-open hours: the spec's prices and windows.

let t: TestApp;
let schema: string | undefined;
beforeAll(async () => {
  t = await buildTestApp();
  schema = await migrationSchema(t);
});
afterAll(() => t.close());

async function columnsOf(table: string): Promise<string[]> {
  const rows = usingPostgres
    ? (
        await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_name = ${table} and table_schema = ${schema}`.execute(t.db)
      ).rows
    : (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(t.db)).rows;
  return rows.map((r) => r.name);
}

describe('migration 2026112901-rental-terms', () => {
  it('goes down and up again, keeping listings, profiles and bookings', async () => {
    const hours = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]),
    );
    const vendor = await registerVendor(t.app, { opening_hours: hours });
    const customer = await registerCustomer(t.app);
    const item = await createEquipment(t.app, vendor, {
      price_per_day: '60.00',
      rates: [{ duration_minutes: 120, price: '25.00' }],
      min_duration_minutes: 60,
      max_duration_minutes: 600,
      buffer_minutes: 30,
    });
    const booked = await bookingRequester(injector(t.app))(customer.token, {
      equipment_item_id: item.id,
      starts_at: '2026-07-01T09:00:00Z',
      ends_at: '2026-07-01T10:30:00Z',
    });
    expect(booked.json().total_price).toBe('25.00');

    const down = await migrateDownThrough(t.db, '2026112901-rental-terms', schema);
    expect(down.at(-1)).toBe('Down 2026112901-rental-terms: Success');
    const listingColumns = await columnsOf('listings');
    for (const column of ['rates', 'min_duration_minutes', 'max_duration_minutes', 'buffer_minutes'])
      expect(listingColumns).not.toContain(column);
    expect(await columnsOf('vendor_profiles')).not.toContain('opening_hours');
    const booking = await sql<{ total_price_cents: number }>`select total_price_cents from bookings
      where id = ${booked.json().id}`.execute(t.db);
    expect(booking.rows.map((r) => Number(r.total_price_cents))).toEqual([2500]);

    await migrateToLatest(t.db, schema);
    const listing = await t.db
      .selectFrom('listings')
      .select(['rates', 'min_duration_minutes', 'max_duration_minutes', 'buffer_minutes'])
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(listing).toEqual({
      rates: '[]',
      min_duration_minutes: null,
      max_duration_minutes: null,
      buffer_minutes: 0,
    });
    const profiles = await t.db.selectFrom('vendor_profiles').select('opening_hours').execute();
    expect(profiles.every((p) => p.opening_hours === null)).toBe(true);
  });
});
