import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpeningHours } from '../../../src/lib/opening-hours.ts';
import { bookingClosed } from '../../../src/modules/booking/availability.ts';
import { listingAvailableFilter } from '../../../src/modules/booking/index.ts';
import { rentalWindowErrors } from '../../../src/modules/booking/rental-window.ts';
import { insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';

// The list filter's booking cutoff (SQL, over the listings row) against the pure rule bookingClosed, on
// random cutoffs and windows: an unscheduled listing with nothing booked is kept exactly when a request
// for the window's start would not be refused for its cutoff (nor for starting in the past).

let t: TestApp;
let listingId: number;
let vendorId: number;
beforeAll(async () => {
  t = await buildTestApp();
  const vendor = await registerVendor(t.app);
  vendorId = await vendorProfileId(t.db, vendor.id);
  listingId = await insertListing(t.db, { vendorId });
});
afterAll(() => t.close());

const MINUTE = 60_000;

/** Whether the filter for [from, to) keeps the listing. */
async function kept(from: number, to: number, now: number): Promise<boolean> {
  const filter = await listingAvailableFilter(t.db, from, to, now, 'equipment');
  const rows = await t.db
    .selectFrom('listings')
    .select('id')
    .where('id', '=', listingId)
    .where((eb) => filter(eb))
    .execute();
  return rows.length === 1;
}

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
          const open = from >= now && !bookingClosed(from, cutoff, now);
          expect(
            await kept(from, from + 60 * MINUTE, now),
            `cutoff ${cutoff}, from now + ${from - now} ms`,
          ).toBe(open);
        },
      ),
      { numRuns: 150 },
    );
  });
});

// decisions §20: the filter's duration limits (SQL) and opening hours (the vendors whose hours refuse the
// window) against the pure rentalWindowErrors, on random limits, hours, zones and windows.
const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const time = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const dayArb = fc
  .uniqueArray(
    fc.integer({ min: 0, max: 48 }).map((half) => half * 30),
    { maxLength: 4 },
  )
  .map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b);
    const intervals: [string, string][] = [];
    for (let i = 0; i + 1 < sorted.length; i += 2)
      if (sorted[i] < 1440)
        intervals.push([time(sorted[i]), sorted[i + 1] === 1440 ? '24:00' : time(sorted[i + 1])]);
    return intervals;
  });
const hoursArb = fc.option(
  fc.tuple(...WEEK.map(() => dayArb)).map((days) => Object.fromEntries(WEEK.map((d, i) => [d, days[i]]))),
  {
    nil: null,
  },
);
const limitArb = fc.option(fc.integer({ min: 15, max: 3000 }), { nil: null });

describe('listingAvailableFilter: duration limits and opening hours', () => {
  it('agrees with rentalWindowErrors', async () => {
    const now = t.clock.now().getTime();
    await fc.assert(
      fc.asyncProperty(
        limitArb,
        limitArb,
        hoursArb,
        fc.constantFrom('UTC', 'Europe/Lisbon', 'America/New_York', 'Asia/Kathmandu', 'Australia/Adelaide'),
        // starts on the half hour (where hours open and close) or anywhere, within the coming year
        fc.tuple(fc.integer({ min: 1, max: 365 * 48 }), fc.integer({ min: -1, max: 1 })),
        fc.oneof(
          fc.integer({ min: 1, max: 4000 }).map((m) => m * MINUTE),
          fc.integer({ min: 1, max: 3 * 1440 * MINUTE }),
        ),
        async (min, max, hours, zone, [halfHours, jitter], length) => {
          const from = Math.ceil(now / (30 * MINUTE)) * 30 * MINUTE + halfHours * 30 * MINUTE + jitter;
          const window = { startsAt: from, endsAt: from + length };
          await t.db
            .updateTable('listings')
            .set({ booking_cutoff_minutes: 0, min_duration_minutes: min, max_duration_minutes: max })
            .where('id', '=', listingId)
            .execute();
          await t.db
            .updateTable('vendor_profiles')
            .set({ opening_hours: hours === null ? null : JSON.stringify(hours), time_zone: zone })
            .where('id', '=', vendorId)
            .execute();
          const terms = {
            minDurationMinutes: min,
            maxDurationMinutes: max,
            openingHours: hours as OpeningHours | null,
            timeZone: zone,
          };
          const allowed = Object.keys(rentalWindowErrors(terms, window)).length === 0;
          expect(await kept(window.startsAt, window.endsAt, now), JSON.stringify({ terms, window })).toBe(
            allowed,
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
