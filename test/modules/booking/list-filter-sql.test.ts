import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingClosed } from '../../../src/modules/booking/availability.ts';
import { listingAvailableFilter } from '../../../src/modules/booking/index.ts';
import { insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';

// The list filter's booking cutoff (SQL, over the listings row) against the pure rule bookingClosed, on
// random cutoffs and windows: an unscheduled listing with nothing booked is kept exactly when a request
// for the window's start would not be refused for its cutoff (nor for starting in the past).

let t: TestApp;
let listingId: number;
beforeAll(async () => {
  t = await buildTestApp();
  const vendor = await registerVendor(t.app);
  listingId = await insertListing(t.db, { vendorId: await vendorProfileId(t.db, vendor.id) });
});
afterAll(() => t.close());

const MINUTE = 60_000;

describe('listingAvailableFilter: the booking cutoff', () => {
  it('agrees with bookingClosed', async () => {
    const now = t.clock.now().getTime();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 43_200 }),
        // starts from a day before now to two months after, often near the cutoff's edge
        fc.oneof(
          fc.integer({ min: -1440 * MINUTE, max: 60 * 1440 * MINUTE }),
          fc.integer({ min: -2, max: 2 }),
        ),
        fc.boolean(),
        async (cutoff, offset, nearEdge) => {
          const from = now + (nearEdge ? cutoff * MINUTE + offset : offset);
          await t.db
            .updateTable('listings')
            .set({ booking_cutoff_minutes: cutoff })
            .where('id', '=', listingId)
            .execute();
          const filter = await listingAvailableFilter(t.db, from, from + 60 * MINUTE, now, 'equipment');
          const kept = await t.db
            .selectFrom('listings')
            .select('id')
            .where('id', '=', listingId)
            .where((eb) => filter(eb))
            .execute();
          const open = from >= now && !bookingClosed(from, cutoff, now);
          expect(kept.length === 1, `cutoff ${cutoff}, from now + ${from - now} ms`).toBe(open);
        },
      ),
      { numRuns: 150 },
    );
  });
});
