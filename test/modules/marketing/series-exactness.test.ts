import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TimeseriesPoint, vendorTimeseries } from '../../../src/modules/marketing/analytics.service.ts';
import { buildTestApp, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import * as factories from '../../helpers/marketing-factories.ts';
import { rollupsAndRecount } from '../../helpers/rollups.ts';

// The time series against a plain model on random clicks (bots among them), bookings (attributed or not,
// confirmed or not, refunded in part, in another currency), ranges and moments of "now": each row on the
// local date Intl gives it in the vendor's zone. Lisbon's window starts before its change to summer time
// (2026-03-29, a 23-hour date); Kolkata's dates start half-way through a UTC hour, so their ends are read
// from raw rows, added or taken away from their rollup hour (splitBucket), on both databases.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const ZONES = ['Europe/Lisbon', 'Asia/Kolkata'];
let t: TestApp;
let vendors: { id: number; listing: factories.TestListing; zone: string }[];
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  vendors = [];
  for (const zone of ZONES) {
    const account = await registerVendor(t.app, { time_zone: zone });
    const id = await factories.vendorProfileId(t.db, account.id);
    vendors.push({ id, listing: await factories.insertListing(t.db, id, 'equipment'), zone });
  }
  customerId = (await registerCustomer(t.app)).id;
});
afterAll(() => t.close());

// Instants within a 4-day window, often on an hour or half-hour, or a millisecond off one.
const WINDOW = 4 * DAY;
const instant = (days: number) =>
  fc.oneof(
    fc.integer({ min: 0, max: days * DAY - 1 }),
    fc.integer({ min: 0, max: days * 48 - 1 }).map((half) => half * (HOUR / 2)),
    fc
      .tuple(fc.integer({ min: 1, max: days * 48 - 1 }), fc.constantFrom(-1, 1))
      .map(([half, off]) => half * (HOUR / 2) + off),
  );
const dataset = fc.record({
  clicks: fc.array(
    fc.record({ vendor: fc.nat(1), at: instant(4), marketing: fc.boolean(), bot: fc.boolean() }),
    { maxLength: 30 },
  ),
  bookings: fc.array(
    fc.record({
      vendor: fc.nat(1),
      at: instant(4),
      click: fc.option(fc.nat(), { nil: null }),
      confirmed: fc.boolean(),
      refunded: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4500 })),
      foreign: fc.boolean().map((b) => b && Math.random() < 0.3),
    }),
    { maxLength: 12 },
  ),
  // ranges may end after now, which lies up to a day after the last row
  ranges: fc.array(fc.tuple(instant(5), instant(5)), { minLength: 1, maxLength: 6 }),
  now: fc.integer({ min: 0, max: DAY }),
});

type Click = { vendor: number; at: number; marketing: boolean; bot: boolean };
type Booking = { vendor: number; at: number; click: Click | null; revenue: number };

/** YYYY-MM-DD of an instant in a zone, by Intl. */
const localDate = (at: number, zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);

/** The series' points, from the spec's words on plain arrays. */
function model(
  v: number,
  from: number,
  to: number,
  clicks: Click[],
  bookings: Booking[],
  includeBots: boolean,
): TimeseriesPoint[] {
  const zone = vendors[v].zone;
  const dates: string[] = [];
  // every date the range touches: offsets are multiples of a quarter hour, dates at least 23 hours long
  for (let at = from; ; at += HOUR / 4) {
    const date = localDate(Math.min(at, to - 1), zone);
    if (dates.at(-1) !== date) dates.push(date);
    if (at >= to - 1) break;
  }
  const on = (date: string, at: number) => at >= from && at < to && localDate(at, zone) === date;
  return dates.map((date) => {
    const mine = clicks.filter((c) => c.vendor === v && on(date, c.at) && (includeBots || !c.bot));
    const booked = bookings.filter((b) => b.vendor === v && on(date, b.at));
    // a booking carries its click's traffic type only when the click is the vendor's own
    const typeOf = (b: Booking) =>
      b.click?.vendor === v ? (b.click.marketing ? 'marketing' : 'organic') : '';
    const count = (type: string) => booked.filter((b) => typeOf(b) === type).length;
    return {
      date,
      clicks: {
        organic: mine.filter((c) => !c.marketing).length,
        marketing: mine.filter((c) => c.marketing).length,
      },
      bookings: { organic: count('organic'), marketing: count('marketing'), unattributed: count('') },
      revenue: (booked.reduce((n, b) => n + b.revenue, 0) / 100).toFixed(2),
    };
  });
}

describe('time series exactness', () => {
  it('equals a plain model on random rows, ranges and moments of now, in both zones', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(dataset, async ({ clicks, bookings, ranges, now }) => {
        // Each run gets a window of its own; the first ones span Lisbon's 23-hour date.
        const base = Date.UTC(2026, 2, 27) + run++ * 6 * DAY;
        const stored: (Click & { id: number })[] = [];
        for (const c of clicks) {
          const row = await t.db
            .insertInto('listing_clicks')
            .values(
              factories.clickRow(vendors[c.vendor].listing, base + c.at, {
                utm_campaign: c.marketing ? 'spring' : '',
                is_bot: c.bot ? 1 : 0,
              }),
            )
            .returning('id')
            .executeTakeFirstOrThrow();
          stored.push({ ...c, at: base + c.at, id: row.id });
        }
        const storedBookings: Booking[] = [];
        for (const b of bookings) {
          const click = b.click === null || stored.length === 0 ? null : stored[b.click % stored.length];
          const id = await factories.insertBooking(t.db, {
            listing: vendors[b.vendor].listing,
            customerId,
            createdAt: base + b.at,
            clickId: click?.id ?? null,
            status: b.confirmed ? 'confirmed' : 'requested',
          });
          if (b.foreign)
            await t.db.updateTable('bookings').set({ currency: 'eur' }).where('id', '=', id).execute();
          if (b.refunded)
            await factories.insertPaymentWithRefunds(t.db, id, [[b.refunded, 'succeeded']], base + b.at);
          const revenue = b.confirmed && !b.foreign ? 4500 - b.refunded : 0;
          storedBookings.push({ vendor: b.vendor, at: base + b.at, click, revenue });
        }
        t.clock.set(new Date(base + WINDOW + now));
        for (const [a, b] of ranges) {
          if (a === b) continue;
          const from = base + Math.min(a, b);
          const to = base + Math.max(a, b);
          for (const v of [0, 1])
            for (const includeBots of [false, true]) {
              const query = {
                from: new Date(from).toISOString(),
                to: new Date(to).toISOString(),
                include_bots: includeBots,
              };
              const series = await vendorTimeseries({ db: t.db, clock: t.clock }, vendors[v].id, query);
              expect(series.points).toEqual(model(v, from, to, stored, storedBookings, includeBots));
            }
        }
        const { stored: rollups, recount } = await rollupsAndRecount(t.db);
        expect(rollups).toEqual(recount);
      }),
      { numRuns: usingPostgres ? 15 : 40 },
    );
  });
});
