import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestViews } from '../../../src/modules/booking/booking.repository.ts';
import {
  ACTIVE_STATUSES,
  BOOKING_STATUSES,
  EXPIRING_STATUSES,
} from '../../../src/modules/booking/booking.state-machine.ts';
import { onManifest } from '../../../src/modules/booking/manifest.ts';
import { bookingRow, insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';

// The manifest's query (manifestViews) against the pure rule (onManifest) on random bookings inserted
// straight into the table: departures and pick-ups starting in the day, returns ending in it, whatever
// the statuses, deadlines, spans (from a minute to days, so the bound by the vendor's longest span is
// crossed) and listings (the vendor's equipment and tours, another vendor's).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 6, 1, 12);
const DAY_FROM = Date.UTC(2026, 6, 2, 23); // a local day as a zone east of UTC has it

let t: TestApp;
let vendorId: number;
let otherVendorId: number;
let customerId: number;
let listings: { id: number; vendor: number; kind: 'equipment' | 'adventure' }[];

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
  listings = [
    { id: await insertListing(t.db, { vendorId, kind: 'equipment' }), vendor: vendorId, kind: 'equipment' },
    { id: await insertListing(t.db, { vendorId, kind: 'adventure' }), vendor: vendorId, kind: 'adventure' },
    {
      id: await insertListing(t.db, { vendorId: otherVendorId, kind: 'equipment' }),
      vendor: otherVendorId,
      kind: 'equipment',
    },
  ];
});
afterAll(() => t.close());

// starts and ends cluster around the day's edges, where a wrong comparison shows
const near = (edge: number) => fc.integer({ min: -2, max: 2 }).map((d) => edge + d);
const start = fc.oneof(
  near(DAY_FROM),
  near(DAY_FROM + DAY),
  fc.integer({ min: DAY_FROM - 6 * DAY, max: DAY_FROM + 2 * DAY }),
);
const booking = fc.record({
  status: fc.constantFrom(...BOOKING_STATUSES),
  expires_at: fc.option(fc.oneof(near(NOW), fc.integer({ min: NOW - DAY, max: NOW + DAY })), { nil: null }),
  starts_at: start,
  span: fc.oneof(fc.integer({ min: 60_000, max: 4 * HOUR }), fc.integer({ min: 1, max: 7 * DAY })),
  listing: fc.integer({ min: 0, max: 2 }),
});

describe('manifestViews', () => {
  it('returns exactly the bookings onManifest keeps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(booking, { minLength: 1, maxLength: 25 }), async (fixtures) => {
        await t.db.deleteFrom('bookings').execute();
        const rows = fixtures.map((f) => {
          const listing = listings[f.listing];
          return bookingRow({
            listing_id: listing.id,
            listing_kind: listing.kind,
            vendor_id: listing.vendor,
            customer_id: customerId,
            status: f.status,
            starts_at: f.starts_at,
            ends_at: f.starts_at + f.span,
            // only a hold has a deadline (decisions §11)
            expires_at: (EXPIRING_STATUSES as readonly string[]).includes(f.status) ? f.expires_at : null,
            at: NOW,
          });
        });
        const ids = (await t.db.insertInto('bookings').values(rows).returning('id').execute()).map(
          (r) => r.id,
        );
        const day = { from: DAY_FROM, to: DAY_FROM + DAY };
        const expected = rows
          .map((row, i) => ({ ...row, id: ids[i] }))
          .filter((row) => row.vendor_id === vendorId && onManifest(row, day, NOW))
          .map((row) => row.id)
          .sort((a, b) => a - b);
        const found = (await manifestViews(t.db, vendorId, day, ACTIVE_STATUSES, NOW))
          .map((r) => r.id)
          .sort((a, b) => a - b);
        expect(found).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});
