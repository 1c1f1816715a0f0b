import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingStatus, RefundStatus } from '../../../src/db/database.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, freshToken, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  clickRow,
  insertBooking,
  insertListing,
  insertPaymentWithRefunds,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';

// Hand-computed answers over rows written at chosen instants. Los Angeles moves to daylight-saving time on
// Sunday 2026-03-08 (02:00 PST becomes 03:00 PDT): that local date lasts 23 hours, from 08:00Z to 07:00Z
// the next day. Kiritimati is UTC+14 all year: its local dates start at 10:00Z of the UTC date before.

const PATH = '/api/v1/marketing/vendor/timeseries/';
const NOW = '2026-06-10T12:00:00.000Z';
const ms = (iso: string) => Date.parse(iso);

let t: TestApp;
let api: Injector;
let la: Account; // America/Los_Angeles
let kiritimati: Account; // Pacific/Kiritimati
let other: Account; // UTC, with rows at the same instants as la's
let kolkata: Account; // Asia/Kolkata, UTC+5:30: local dates start half-way through a UTC hour
let kolkataBoat: TestListing;
let customer: Account;
let laKayak: TestListing;
let kiriTour: TestListing;
let otherBoard: TestListing;

const zero = {
  clicks: { organic: 0, marketing: 0 },
  bookings: { organic: 0, marketing: 0, unattributed: 0 },
};

async function click(listing: TestListing, at: string, campaign = ''): Promise<number> {
  const row = await t.db
    .insertInto('listing_clicks')
    .values(clickRow(listing, ms(at), { utm_campaign: campaign }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function booking(
  listing: TestListing,
  at: string,
  options: { clickId?: number; status?: BookingStatus; reachedConfirmed?: boolean; currency?: string } = {},
): Promise<number> {
  const id = await insertBooking(t.db, {
    listing,
    customerId: customer.id,
    createdAt: ms(at),
    clickId: options.clickId,
    status: options.status,
    confirmedAt: options.reachedConfirmed ? ms(at) : undefined,
  });
  if (options.currency)
    await t.db.updateTable('bookings').set({ currency: options.currency }).where('id', '=', id).execute();
  return id;
}

const paidWithRefunds = (bookingId: number, refunds: [number, RefundStatus][]) =>
  insertPaymentWithRefunds(t.db, bookingId, refunds, ms(NOW));

const series = (account: Account, from: string, to: string) =>
  api({ method: 'GET', url: PATH, query: { from, to }, token: account.token });

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  t.clock.set(NOW);
  la = await registerVendor(t.app, { business_name: 'Malibu Paddle', time_zone: 'America/Los_Angeles' });
  kiritimati = await registerVendor(t.app, {
    business_name: 'Line Islands Dive',
    time_zone: 'Pacific/Kiritimati',
  });
  other = await registerVendor(t.app, { business_name: 'Elsewhere Boards' });
  kolkata = await registerVendor(t.app, { business_name: 'Hooghly Rowing', time_zone: 'Asia/Kolkata' });
  customer = await registerCustomer(t.app);
  laKayak = await insertListing(t.db, await vendorProfileId(t.db, la.id), 'equipment');
  kiriTour = await insertListing(t.db, await vendorProfileId(t.db, kiritimati.id), 'adventure');
  otherBoard = await insertListing(t.db, await vendorProfileId(t.db, other.id), 'equipment');
  kolkataBoat = await insertListing(t.db, await vendorProfileId(t.db, kolkata.id), 'equipment');

  // Kolkata: 2026-06-10 local is [06-09 18:30Z, 06-10 18:30Z): the half hours at each end of a date are
  // read from raw rows, the whole hours between from the hourly rollup
  await click(kolkataBoat, '2026-06-09T18:29:59.999Z'); // 06-09 23:59:59.999 local
  await click(kolkataBoat, '2026-06-09T18:30:00.000Z', 'monsoon'); // 06-10 00:00
  await click(kolkataBoat, '2026-06-09T18:45:00.000Z'); // 06-10 00:15
  await click(kolkataBoat, '2026-06-10T06:10:00.000Z'); // 06-10 11:40
  await click(kolkataBoat, '2026-06-10T18:15:00.000Z', 'monsoon'); // 06-10 23:45
  await click(kolkataBoat, '2026-06-10T18:30:00.000Z'); // 06-11 00:00
  await booking(kolkataBoat, '2026-06-09T18:40:00.000Z', { status: 'confirmed' }); // 06-10, 45.00
  await booking(kolkataBoat, '2026-06-10T18:20:00.000Z', { status: 'confirmed' }); // 06-10, 45.00
  await booking(kolkataBoat, '2026-06-10T12:00:00.000Z', { status: 'requested' }); // 06-10

  // Los Angeles leaves daylight-saving time on 2026-11-01: that date lasts 25 hours (07:00Z to 08:00Z)
  await click(laKayak, '2026-11-01T06:59:59.999Z'); // 10-31 23:59:59.999 PDT
  await click(laKayak, '2026-11-01T07:00:00.000Z'); // 11-01 00:00 PDT
  await click(laKayak, '2026-11-02T07:30:00.000Z', 'fall'); // 11-01 23:30 PST, the 25th hour
  await click(laKayak, '2026-11-02T08:00:00.000Z'); // 11-02 00:00 PST

  // Los Angeles, around the change: the range below is [03-07 00:00 PST, 03-10 00:00 PDT)
  await click(laKayak, '2026-03-07T07:30:00.000Z'); // 03-06 23:30 PST: before the range
  const atFrom = await click(laKayak, '2026-03-07T08:00:00.000Z', 'spring'); // 03-07 00:00 PST
  await click(laKayak, '2026-03-08T07:30:00.000Z'); // 03-07 23:30 PST
  await click(laKayak, '2026-03-08T08:30:00.000Z', 'spring'); // 03-08 00:30 PST
  const lateSunday = await click(laKayak, '2026-03-09T06:30:00.000Z'); // 03-08 23:30 PDT
  await click(laKayak, '2026-03-09T07:30:00.000Z'); // 03-09 00:30 PDT
  await click(laKayak, '2026-03-10T07:00:00.000Z', 'spring'); // 03-10 00:00 PDT: the range's end

  // 03-07: a confirmed marketing booking, 45.00
  await booking(laKayak, '2026-03-07T20:00:00.000Z', { clickId: atFrom, status: 'confirmed' });
  // 03-08: confirmed then cancelled with 15.00 refunded (a pending and a failed refund do not count): 30.00
  const refunded = await booking(laKayak, '2026-03-08T09:00:00.000Z', {
    status: 'cancelled',
    reachedConfirmed: true,
  });
  await paidWithRefunds(refunded, [
    [1500, 'succeeded'],
    [1000, 'pending'],
    [500, 'failed'],
  ]);
  // 03-08 23:30 PDT: an organic booking still requested, and one cancelled before it was ever confirmed
  await booking(laKayak, '2026-03-09T06:30:00.000Z', { clickId: lateSunday, status: 'requested' });
  await booking(laKayak, '2026-03-08T10:00:00.000Z', { status: 'cancelled' });
  // 03-09: confirmed, but in the currency the vendor had before: counted, no revenue
  await booking(laKayak, '2026-03-09T07:30:00.000Z', { status: 'confirmed', currency: 'eur' });
  // the range's end: not counted
  await booking(laKayak, '2026-03-10T07:00:00.000Z', { status: 'confirmed' });

  // Kiritimati: 06-01 23:30, then 06-02 00:30 and 23:59 local
  await click(kiriTour, '2026-06-01T09:30:00.000Z');
  await click(kiriTour, '2026-06-01T10:30:00.000Z');
  await click(kiriTour, '2026-06-02T09:59:00.000Z', 'reef');
  await booking(kiriTour, '2026-06-01T10:30:00.000Z', { status: 'confirmed' });

  // another vendor's rows at the same instants: never in la's or kiritimati's series
  for (const at of ['2026-03-08T07:30:00.000Z', '2026-03-08T08:30:00.000Z', '2026-06-01T10:30:00.000Z']) {
    await booking(otherBoard, at, { clickId: await click(otherBoard, at, 'theirs'), status: 'confirmed' });
  }
});
afterAll(() => t.close());

describe('GET marketing/vendor/timeseries/', () => {
  it("counts each row on its local date across a 23-hour day, in the vendor's zone", async () => {
    const res = await series(la, '2026-03-07T00:00:00-08:00', '2026-03-10T00:00:00-07:00');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      from: '2026-03-07T08:00:00.000Z',
      to: '2026-03-10T07:00:00.000Z',
      time_zone: 'America/Los_Angeles',
      currency: 'usd',
      points: [
        {
          date: '2026-03-07',
          clicks: { organic: 1, marketing: 1 },
          bookings: { organic: 0, marketing: 1, unattributed: 0 },
          revenue: '45.00',
        },
        {
          date: '2026-03-08',
          clicks: { organic: 1, marketing: 1 },
          bookings: { organic: 1, marketing: 0, unattributed: 2 },
          revenue: '30.00',
        },
        {
          date: '2026-03-09',
          clicks: { organic: 1, marketing: 0 },
          bookings: { organic: 0, marketing: 0, unattributed: 1 },
          revenue: '0.00',
        },
      ],
    });
  });

  it('counts only the part of a date inside the range at either end', async () => {
    const res = await series(la, '2026-03-08T00:00:00.000Z', '2026-03-08T09:00:00.000Z');
    expect(res.json().points).toEqual([
      { date: '2026-03-07', ...zero, clicks: { organic: 1, marketing: 0 }, revenue: '0.00' },
      { date: '2026-03-08', ...zero, clicks: { organic: 0, marketing: 1 }, revenue: '0.00' },
    ]);
  });

  it('cuts the dates of a UTC+14 zone at 10:00Z', async () => {
    const res = await series(kiritimati, '2026-06-01T00:00:00.000Z', '2026-06-02T10:00:00.000Z');
    expect(res.json()).toEqual({
      from: '2026-06-01T00:00:00.000Z',
      to: '2026-06-02T10:00:00.000Z',
      time_zone: 'Pacific/Kiritimati',
      currency: 'usd',
      points: [
        { date: '2026-06-01', ...zero, clicks: { organic: 1, marketing: 0 }, revenue: '0.00' },
        {
          date: '2026-06-02',
          clicks: { organic: 1, marketing: 1 },
          bookings: { organic: 0, marketing: 0, unattributed: 1 },
          revenue: '45.00',
        },
      ],
    });
  });

  it('cuts the dates of a UTC+5:30 zone half-way through an hour', async () => {
    const res = await series(kolkata, '2026-06-09T18:00:00.000Z', '2026-06-11T00:00:00+05:30');
    expect(res.json()).toEqual({
      from: '2026-06-09T18:00:00.000Z',
      to: '2026-06-10T18:30:00.000Z',
      time_zone: 'Asia/Calcutta', // ICU's canonical name of Asia/Kolkata (docs/api-choices.md)
      currency: 'usd',
      points: [
        { date: '2026-06-09', ...zero, clicks: { organic: 1, marketing: 0 }, revenue: '0.00' },
        {
          date: '2026-06-10',
          clicks: { organic: 2, marketing: 2 },
          bookings: { organic: 0, marketing: 0, unattributed: 3 },
          revenue: '90.00',
        },
      ],
    });
  });

  it('counts a 25-hour date whole when daylight-saving time ends', async () => {
    const res = await series(la, '2026-10-31T00:00:00-07:00', '2026-11-03T00:00:00-08:00');
    expect(res.json().points.map((p: { date: string; clicks: object }) => [p.date, p.clicks])).toEqual([
      ['2026-10-31', { organic: 1, marketing: 0 }],
      ['2026-11-01', { organic: 1, marketing: 1 }],
      ['2026-11-02', { organic: 1, marketing: 0 }],
    ]);
  });

  it('counts the minutes of the current hour up to now, and of a past hour up to to', async () => {
    // UTC: rows in the hour of 15:00, the last one a moment before now
    for (const at of ['2026-06-20T14:59:00.000Z', '2026-06-20T15:05:00.000Z', '2026-06-20T15:19:59.999Z'])
      await click(otherBoard, at, 'late');
    await booking(otherBoard, '2026-06-20T15:10:00.000Z', { status: 'confirmed' });
    // a token issued at the clock's now, which the test moves
    const day = async (to: string) =>
      api({
        method: 'GET',
        url: PATH,
        query: { from: '2026-06-20T00:00:00.000Z', to },
        token: await freshToken(t.app, other),
      });
    try {
      // to = now: the hour of 15:00 is read whole from the rollup, less its part after now (empty)
      t.clock.set('2026-06-20T15:20:00.000Z');
      expect((await day('2026-06-20T15:20:00.000Z')).json().points).toEqual([
        {
          date: '2026-06-20',
          clicks: { organic: 0, marketing: 3 },
          bookings: { organic: 0, marketing: 0, unattributed: 1 },
          revenue: '45.00',
        },
      ]);
      // a `to` a minute before now: the hour from the rollup less the rows since `to`
      expect((await day('2026-06-20T15:19:00.000Z')).json().points[0].clicks).toEqual({
        organic: 0,
        marketing: 2,
      });
      // a `to` in the past within that hour: its rows up to `to` only, read one by one
      t.clock.set('2026-06-20T18:00:00.000Z');
      expect((await day('2026-06-20T15:10:00.000Z')).json().points).toEqual([
        { date: '2026-06-20', ...zero, clicks: { organic: 0, marketing: 2 }, revenue: '0.00' },
      ]);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('has a point with zeros for every date without rows', async () => {
    const res = await series(la, '2026-04-01T00:00:00-07:00', '2026-04-04T00:00:00-07:00');
    expect(res.json().points).toEqual(
      ['2026-04-01', '2026-04-02', '2026-04-03'].map((date) => ({ date, ...zero, revenue: '0.00' })),
    );
  });

  it("never counts another vendor's rows", async () => {
    const res = await series(other, '2026-03-08T00:00:00.000Z', '2026-03-09T00:00:00.000Z');
    expect(res.json().points).toEqual([
      {
        date: '2026-03-08',
        clicks: { organic: 0, marketing: 2 },
        bookings: { organic: 0, marketing: 2, unattributed: 0 },
        revenue: '90.00',
      },
    ]);
  });

  it('allows 366 dates and refuses 367, counted in the vendor zone', async () => {
    const year = await series(other, '2026-01-01T00:00:00Z', '2027-01-02T00:00:00Z');
    expect(year.statusCode).toBe(200);
    expect(year.json().points).toHaveLength(366);
    expect(year.json().points.at(-1).date).toBe('2027-01-01');
    const oneMore = await series(other, '2026-01-01T00:00:00Z', '2027-01-02T00:00:00.001Z');
    expect(oneMore.statusCode).toBe(400);
    expect(oneMore.json()).toEqual({
      detail: 'Invalid input.',
      code: 'invalid',
      errors: { to: ['The range may touch at most 366 dates in the time zone UTC.'] },
    });
    // the same instants touch 367 dates of Los Angeles (2025-12-31 to 2027-01-01)
    const shifted = await series(la, '2026-01-01T00:00:00Z', '2027-01-02T00:00:00Z');
    expect(shifted.statusCode).toBe(400);
    expect(shifted.json().errors).toEqual({
      to: ['The range may touch at most 366 dates in the time zone America/Los_Angeles.'],
    });
    const centuries = await series(la, '0001-01-01T00:00:00Z', '9999-01-01T00:00:00Z');
    expect(centuries.statusCode).toBe(400);
  });

  it('validates from and to as the summary does', async () => {
    const missing = await api({
      method: 'GET',
      url: PATH,
      query: { from: '2026-03-07T00:00:00Z' },
      token: la.token,
    });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors)).toEqual(['to']);
    const backwards = await series(la, '2026-03-08T00:00:00Z', '2026-03-08T00:00:00Z');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual({ to: ['Must be later than from.'] });
    const notADate = await series(la, 'yesterday', '2026-03-08T00:00:00Z');
    expect(notADate.json().errors).toEqual({ from: ['Enter a valid ISO 8601 datetime.'] });
  });

  it('is for vendors only: a customer gets 403, no token 401', async () => {
    const asCustomer = await series(customer, '2026-03-07T00:00:00Z', '2026-03-08T00:00:00Z');
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json().code).toBe('permission_denied');
    const anonymous = await api({
      method: 'GET',
      url: PATH,
      query: { from: '2026-03-07T00:00:00Z', to: '2026-03-08T00:00:00Z' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
