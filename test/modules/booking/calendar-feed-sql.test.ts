import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '../../../src/modules/booking/booking.state-machine.ts';
import { feedBookings, feedBookingsQuery } from '../../../src/modules/booking/calendar-feed.repository.ts';
import { inFeed } from '../../../src/modules/booking/calendar-feed.ts';
import { bookingRow, insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';

// The feed's query (feedBookings) against the pure rule (inFeed) on random bookings inserted straight into
// the table: the same bookings, by end, whatever the statuses, deadlines and windows.

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 6, 1, 12);

let t: TestApp;
let vendorId: number;
let otherVendorId: number;
let customerId: number;
let listingId: number;
let otherListingId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const [vendor, other, customer] = await Promise.all([
    registerVendor(t.app),
    registerVendor(t.app),
    registerCustomer(t.app),
  ]);
  vendorId = await vendorProfileId(t.db, vendor.id);
  otherVendorId = await vendorProfileId(t.db, other.id);
  customerId = customer.id;
  listingId = await insertListing(t.db, { vendorId, kind: 'adventure' });
  otherListingId = await insertListing(t.db, { vendorId: otherVendorId, kind: 'adventure' });
});
afterAll(() => t.close());

// instants cluster around the edges, where a wrong comparison shows
const near = (edge: number) => fc.integer({ min: -2, max: 2 }).map((d) => edge + d);
const instant = fc.oneof(
  near(NOW - 30 * DAY),
  near(NOW + 365 * DAY),
  near(NOW),
  fc.integer({ min: NOW - 60 * DAY, max: NOW + 400 * DAY }),
);
const booking = fc.record({
  status: fc.constantFrom(...BOOKING_STATUSES),
  expires_at: fc.option(fc.oneof(near(NOW), fc.integer({ min: NOW - DAY, max: NOW + DAY })), { nil: null }),
  a: instant,
  b: instant,
  theirs: fc.boolean(),
});

describe('feedBookings', () => {
  it('returns exactly the bookings inFeed keeps, by end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(booking, { minLength: 1, maxLength: 25 }), async (fixtures) => {
        await t.db.deleteFrom('bookings').execute();
        const rows = fixtures.map((f) =>
          bookingRow({
            listing_id: f.theirs ? otherListingId : listingId,
            listing_kind: 'adventure',
            vendor_id: f.theirs ? otherVendorId : vendorId,
            customer_id: customerId,
            status: f.status,
            starts_at: Math.min(f.a, f.b),
            ends_at: Math.max(f.a, f.b) + 1,
            expires_at: f.expires_at,
            at: NOW,
          }),
        );
        const ids = (await t.db.insertInto('bookings').values(rows).returning('id').execute()).map(
          (r) => r.id,
        );
        const expected = rows
          .map((row, i) => ({ ...row, id: ids[i] }))
          .filter((row) => row.vendor_id === vendorId && inFeed(row, NOW))
          .sort((x, y) => x.ends_at - y.ends_at || x.id - y.id)
          .map((row) => row.id);
        const found = (await feedBookings(t.db, vendorId, NOW)).map((r) => r.id);
        expect(found).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});

describe('the feed query plan', () => {
  it("reads the vendor's listings' window index by end on SQLite, not the whole table", async (ctx) => {
    if (t.dialect !== 'sqlite') ctx.skip();
    const query = feedBookingsQuery(t.db, vendorId, NOW).compile();
    const { rows } = await t.db.executeQuery<{ detail: string }>({
      ...query,
      sql: `explain query plan ${query.sql}`,
    });
    expect(rows.map((r) => r.detail).join('\n')).toMatch(
      /SEARCH bookings USING INDEX bookings_listing_window_idx \(listing_id=\? AND ends_at>\? AND ends_at<\?\)/,
    );
  });
});
