import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import { insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, migrationSchema, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';

// Migration 2026112504 on a database that already holds bookings: they keep their rows and ids and get no
// deadline, vendors get the default TTLs, the status check accepts `expired`, and on SQLite, where the
// bookings table is rebuilt, every index and trigger of the table comes back and still works.

let t: TestApp;
let schema: string | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  schema = await migrationSchema(t);
});
afterAll(() => t.close());

/** The indexes and triggers of bookings, with their definitions (SQLite; PostgreSQL keeps its table). */
const bookingsObjects = async () =>
  usingPostgres
    ? (
        await sql<{ name: string; sql: string }>`select indexname as name, indexdef as sql from pg_indexes
          where tablename = 'bookings' and schemaname = ${schema} order by name`.execute(t.db)
      ).rows
    : (
        await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
          where tbl_name = 'bookings' and type in ('index', 'trigger') and sql is not null
          order by name`.execute(t.db)
      ).rows;

const insertBooking = (values: { listingId: number; vendorId: number; customerId: number; status: string }) =>
  sql`insert into bookings (listing_id, listing_kind, vendor_id, customer_id, status, starts_at, ends_at,
    participants_count, quantity, customer_notes, vendor_notes, total_price_cents, currency,
    listing_click_id, created_at, updated_at)
    values (${values.listingId}, 'equipment', ${values.vendorId}, ${values.customerId}, ${values.status},
    ${Date.UTC(2026, 7, 1)}, ${Date.UTC(2026, 7, 2)}, null, 1, '', '', 4500, 'usd', null,
    ${Date.UTC(2026, 5, 1)}, ${Date.UTC(2026, 5, 1)})`.execute(t.db);

const dailyBookings = async (vendorId: number) =>
  Number(
    (
      await sql<{ n: number }>`select coalesce(sum(bookings), 0) as n from booking_daily
        where vendor_id = ${vendorId}`.execute(t.db)
    ).rows[0].n,
  );

describe('migration 2026112504-booking-expiry', () => {
  it('keeps the bookings, their indexes and triggers, and lets the status be expired', async () => {
    const [vendor, customer] = await Promise.all([registerVendor(t.app), registerCustomer(t.app)]);
    const vendorId = await vendorProfileId(t.db, vendor.id);
    const listingId = await insertListing(t.db, { vendorId });
    const latest = await bookingsObjects();

    const down = await migrateDownThrough(t.db, '2026112504-booking-expiry', schema);
    expect(down.at(-1)).toEqual('Down 2026112504-booking-expiry: Success');
    const before = await bookingsObjects();
    await insertBooking({ listingId, vendorId, customerId: customer.id, status: 'approved' });
    await expect(
      insertBooking({ listingId, vendorId, customerId: customer.id, status: 'expired' }),
    ).rejects.toThrow();
    const { id } = await t.db.selectFrom('bookings').select('id').executeTakeFirstOrThrow();

    expect(await migrateToLatest(t.db, schema)).toEqual(
      down.map((line) => line.replace('Down', 'Up')).reverse(),
    );
    expect(await bookingsObjects()).toEqual(latest);
    // every other index and trigger the table had before the migration comes back unchanged, but for the
    // two indexes the migration itself remakes and the rollup triggers a later one (2026112701) replaced;
    // what later migrations add is theirs to test
    const changed = [
      'bookings_listing_window_idx',
      'bookings_expiring_idx',
      ...['insert', 'delete', 'update'].flatMap((op) => [`booking_daily_${op}`, `bookings_rollup_${op}`]),
    ];
    const kept = before.filter((o) => !changed.includes(o.name));
    expect(kept.length).toBeGreaterThan(3);
    expect(latest.filter((o) => kept.some((k) => k.name === o.name))).toEqual(kept);
    expect(await t.db.selectFrom('bookings').select(['id', 'status', 'expires_at']).execute()).toEqual([
      { id, status: 'approved', expires_at: null },
    ]);
    expect(
      await t.db
        .selectFrom('vendor_profiles')
        .select(['request_ttl_minutes', 'payment_ttl_minutes'])
        .where('id', '=', vendorId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ request_ttl_minutes: 1440, payment_ttl_minutes: 1440 });

    // the triggers still keep the daily rollup; the check now takes expired and still refuses the unknown
    const rolled = await dailyBookings(vendorId);
    await insertBooking({ listingId, vendorId, customerId: customer.id, status: 'expired' });
    expect(await dailyBookings(vendorId)).toBe(rolled + 1);
    await expect(
      insertBooking({ listingId, vendorId, customerId: customer.id, status: 'lapsed' }),
    ).rejects.toThrow();
    // and the history still points at its bookings
    if (!usingPostgres) expect((await sql`pragma foreign_key_check`.execute(t.db)).rows).toEqual([]);
  });
});
