import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import { vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, migrationSchema, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';

// Migration 2026112502 on a database that already holds listings and bookings: the new columns arrive
// with the defaults that keep the spec's behaviour, equipment bookings get quantity 1, and on PostgreSQL
// the exclusion constraint goes (and comes back on the way down).

let t: TestApp;
let schema: string | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  schema = await migrationSchema(t);
});
afterAll(() => t.close());

const exclusionConstraints = async () =>
  usingPostgres
    ? (
        await sql<{ conname: string }>`select conname from pg_constraint
          where conname = 'bookings_no_overlap' and connamespace = ${schema}::regnamespace`.execute(t.db)
      ).rows.map((r) => r.conname)
    : [];

describe('migration 2026112502-units-and-seats', () => {
  it('adds quantity and booking_mode with their defaults and backfills equipment bookings', async () => {
    const [vendor, customer] = await Promise.all([registerVendor(t.app), registerCustomer(t.app)]);
    const vendorId = await vendorProfileId(t.db, vendor.id);
    const down = await migrateDownThrough(t.db, '2026112502-units-and-seats', schema);
    expect(down.at(-1)).toEqual('Down 2026112502-units-and-seats: Success');
    expect(await exclusionConstraints()).toEqual(usingPostgres ? ['bookings_no_overlap'] : []);

    // rows as the schema before the migration stores them
    const at = Date.UTC(2026, 5, 1);
    const listing = (kind: string, publicId: string) =>
      sql<{ id: number }>`insert into listings
      (kind, vendor_id, category_id, public_id, title, description, details, location, price_cents,
       duration_minutes, capacity, is_active, archived_at, created_at, updated_at)
      values (${kind}, ${vendorId}, 1, ${publicId}, 'Old', '', '{}', '', 4500,
       ${kind === 'adventure' ? 120 : null}, ${kind === 'adventure' ? 8 : null}, 1, null, ${at}, ${at})
      returning id`.execute(t.db);
    const [kayak] = (await listing('equipment', 'old-kayak')).rows;
    const [tour] = (await listing('adventure', 'old-tour')).rows;
    for (const [id, kind, participants] of [
      [kayak.id, 'equipment', null],
      [tour.id, 'adventure', 3],
    ] as const)
      await sql`insert into bookings (listing_id, listing_kind, vendor_id, customer_id, status, starts_at,
        ends_at, participants_count, customer_notes, vendor_notes, total_price_cents, currency,
        listing_click_id, created_at, updated_at)
        values (${id}, ${kind}, ${vendorId}, ${customer.id}, 'approved', ${at + 86_400_000},
        ${at + 90_000_000}, ${participants}, '', '', 4500, 'usd', null, ${at}, ${at})`.execute(t.db);

    expect(await migrateToLatest(t.db, schema)).toEqual(
      down.map((line) => line.replace('Down', 'Up')).reverse(),
    );
    expect(await exclusionConstraints()).toEqual([]);
    const listings = await t.db
      .selectFrom('listings')
      .select(['id', 'quantity', 'booking_mode'])
      .where('id', 'in', [kayak.id, tour.id])
      .orderBy('id')
      .execute();
    expect(listings).toEqual([
      { id: kayak.id, quantity: 1, booking_mode: 'private' },
      { id: tour.id, quantity: 1, booking_mode: 'private' },
    ]);
    const bookings = await t.db
      .selectFrom('bookings')
      .select(['listing_id', 'quantity', 'participants_count'])
      .where('listing_id', 'in', [kayak.id, tour.id])
      .orderBy('listing_id')
      .execute();
    expect(bookings).toEqual([
      { listing_id: kayak.id, quantity: 1, participants_count: null },
      { listing_id: tour.id, quantity: null, participants_count: 3 },
    ]);
    // the checks refuse what the API would refuse
    for (const values of [{ quantity: 0 }, { quantity: 10_001 }, { booking_mode: 'public' as 'shared' }])
      await expect(
        t.db.updateTable('listings').set(values).where('id', '=', kayak.id).execute(),
      ).rejects.toThrow();
  });
});
