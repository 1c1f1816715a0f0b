import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summariseVendorClicks } from '../../../src/modules/marketing/analytics.service.ts';
import { recordListingClick } from '../../../src/modules/marketing/index.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  archiveListing,
  insertBooking,
  insertListing,
  insertPaymentWithRefunds,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';

// One fixture with hand-computed answers. Range [F, T) is off midnight on both ends, so on SQLite the
// summary reads May 11-13 from the daily rollup and the partial days May 10 and May 14 from raw clicks.
const F = '2026-05-10T06:30:00.000Z';
const T = '2026-05-14T18:00:00.000Z';
const ms = (iso: string) => Date.parse(iso);
const iso = (millis: number) => new Date(millis).toISOString();
const QUERY_TIME = '2026-06-01T12:05:00.000Z'; // the vendors' access tokens (issued 12:00) are valid

let t: TestApp;
let api: Injector;
let vendorA: Account;
let vendorB: Account;
let customer: Account;
let kayak: TestListing; // vendor A, equipment
let tour: TestListing; // vendor A, adventure
let board: TestListing; // vendor A, equipment, archived after its clicks
let surfB: TestListing; // vendor B, equipment
const c: Record<string, number> = {}; // click ids by fixture name

async function track(
  name: string,
  at: string,
  listing: TestListing,
  params: Record<string, string> = {},
  token?: string,
) {
  t.clock.set(at);
  const res = await api({
    method: 'POST',
    url: '/api/v1/marketing/track/click/',
    token,
    payload: { listing_type: listing.kind, public_id: listing.publicId, ...params },
  });
  expect(res.statusCode).toBe(201);
  c[name] = res.json().marketing_click_id;
}

const summer = { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'summer' };

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendorA = await registerVendor(t.app, { business_name: 'Algarve Kayaks' });
  vendorB = await registerVendor(t.app, { business_name: 'Peniche Surf' });
  const a = await vendorProfileId(t.db, vendorA.id);
  const b = await vendorProfileId(t.db, vendorB.id);
  kayak = await insertListing(t.db, a, 'equipment', { publicId: 'kayak-double', title: 'Double kayak' });
  tour = await insertListing(t.db, a, 'adventure', { publicId: 'sea-caves', title: 'Sea caves tour' });
  board = await insertListing(t.db, a, 'equipment', { publicId: 'sup-board', title: 'SUP board' });
  surfB = await insertListing(t.db, b, 'equipment', { publicId: 'surfboard', title: 'Surfboard 7ft' });

  // Registered at c3's instant, so that its token is valid there.
  t.clock.set('2026-05-10T07:30:00.000Z');
  customer = await registerCustomer(t.app);

  // vendor A
  await track('c0', '2026-05-08T06:30:00.000Z', tour, {
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'winter',
  });
  await track('c1', iso(ms(F) - 1), kayak);
  await track('c2', F, kayak, summer);
  await track('c3', '2026-05-10T07:30:00.000Z', tour, {}, customer.token);
  await track('c4', '2026-05-11T10:00:00.000Z', kayak, { ...summer, utm_campaign: '  summer ' });
  await track('c5', '2026-05-11T11:00:00.000Z', tour, {
    utm_source: 'facebook',
    utm_medium: 'social',
    utm_campaign: 'summer',
  });
  await track('c14', '2026-05-11T12:00:00.000Z', kayak, { utm_source: 'partner', utm_campaign: 'Zeta' });
  await track('c6', '2026-05-12T09:00:00.000Z', board, {
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'spring',
  });
  await track('c7', '2026-05-12T09:30:00.000Z', kayak, { gclid: 'Cj0KCQ' });
  // a detail view's click (the catalog's path), with the Referer it keeps
  t.clock.set('2026-05-12T10:00:00.000Z');
  c.c8 = (
    await recordListingClick(t.db, t.clock, {
      listing: { id: tour.id, kind: tour.kind, vendorId: tour.vendorId },
      source: 'detail_view',
      params: {},
      referrer: 'https://blog.example/caves',
    })
  ).marketing_click_id;
  await track('c9', '2026-05-13T00:00:00.000Z', kayak, summer);
  await track('c10', '2026-05-14T00:00:00.000Z', tour, { ...summer, utm_campaign: 'autumn' });
  await track('c11', iso(ms(T) - 1), kayak);
  await track('c12', T, kayak, summer);
  await track('c13', '2026-05-15T18:00:00.000Z', kayak);

  // vendor B
  await track('cB1', '2026-05-11T09:00:00.000Z', surfB, summer);
  await track('cB2', '2026-05-12T09:00:00.000Z', surfB, summer);
  await track('cB3', '2026-05-13T09:00:00.000Z', surfB);
  await track('cB4', '2026-05-13T09:00:00.000Z', surfB); // same instant: the list breaks ties by id
  await track('cB5', '2026-05-13T09:00:00.000Z', surfB);

  await archiveListing(t.db, board.id, ms('2026-05-20T00:00:00.000Z'));

  const book = (listing: TestListing, at: string, clickId: number | null, status = 'requested' as const) =>
    insertBooking(t.db, { listing, customerId: customer.id, createdAt: ms(at), clickId, status });
  await book(kayak, F, c.c2); // b1: marketing, summer google/cpc
  await insertBooking(t.db, {
    listing: tour,
    customerId: customer.id,
    createdAt: ms('2026-05-12T12:00:00.000Z'),
    clickId: c.c3,
    status: 'confirmed',
  }); // b2: organic
  await insertBooking(t.db, {
    listing: tour,
    customerId: customer.id,
    createdAt: ms('2026-05-12T13:00:00.000Z'),
    clickId: c.c0,
    status: 'approved',
  }); // b3: marketing, winter (its click is before the range)
  await book(kayak, '2026-05-13T12:00:00.000Z', null); // b4: unattributed
  const b5 = await insertBooking(t.db, {
    listing: kayak,
    customerId: customer.id,
    createdAt: ms(T) - 1,
    clickId: c.c4,
    status: 'cancelled',
    confirmedAt: ms(T) - 1,
  }); // b5: marketing, summer google/cpc, cancelled still counts; confirmed first, 10.00 refunded
  await insertPaymentWithRefunds(
    t.db,
    b5,
    [
      [1000, 'succeeded'],
      [500, 'failed'],
    ],
    ms(T) - 1,
  );
  await book(tour, T, c.c5); // b6: at `to`, outside
  await book(board, iso(ms(F) - 1), c.c6); // b7: before `from`, outside
  await book(kayak, '2026-05-12T14:00:00.000Z', c.c7); // b8: marketing without campaign
  await insertBooking(t.db, {
    listing: tour,
    customerId: customer.id,
    createdAt: ms('2026-05-11T15:00:00.000Z'),
    clickId: c.c8,
    status: 'declined',
  }); // b9: organic
  await insertBooking(t.db, {
    listing: kayak,
    customerId: customer.id,
    createdAt: ms('2026-05-11T16:00:00.000Z'),
    clickId: null,
    status: 'declined',
  }); // b10: unattributed
  await book(board, '2026-05-13T13:00:00.000Z', c.c6); // b11: marketing, spring
  await book(kayak, '2026-05-13T14:00:00.000Z', c.cB1); // b12: another vendor's click: unattributed
  await book(surfB, '2026-05-12T10:00:00.000Z', c.cB2); // vendor B: marketing, summer

  t.clock.set(QUERY_TIME);
});
afterAll(() => t.close());

const summary = (account: Account, from: string, to: string) =>
  api({
    method: 'GET',
    url: `/api/v1/marketing/vendor/summary/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    token: account.token,
  });

const clickList = (account: Account, query: string) =>
  api({ method: 'GET', url: `/api/v1/marketing/vendor/clicks/?${query}`, token: account.token });

const range = `from=${F}&to=${T}`;

describe('GET /api/v1/marketing/vendor/summary/', () => {
  it("gives every figure of vendor A's summary", async () => {
    const res = await summary(vendorA, F, T);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      from: F,
      to: T,
      currency: 'usd',
      // organic c3 c8 c11; marketing c2 c4 c5 c14 c6 c7 c9 c10 (c1 before F, c12 at T, c13 after)
      clicks: { organic: 3, marketing: 8, total: 11 },
      // organic b2 b9; marketing b1 b3 b5 b8 b11; unattributed b4 b10 b12 (b6 at T and b7 before F)
      bookings_attributed: { organic: 2, marketing: 5, unattributed: 3 },
      conversion_rate_click_to_booking: { organic: 0.6667, marketing: 0.625 },
      // b2 organic, 45.00; b5 marketing (summer), confirmed before it was cancelled: 45.00 less 10.00
      bookings_confirmed: { organic: 1, marketing: 1 },
      revenue: { organic: '45.00', marketing: '35.00' },
      campaigns: [
        {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'summer',
          clicks: 3,
          bookings: 2,
          conversion_rate: 0.6667,
          bookings_confirmed: 1,
          revenue: '35.00',
        },
        {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'spring',
          clicks: 1,
          bookings: 1,
          conversion_rate: 1,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        // equal counts: utm_campaign ascending, byte-wise ('Z' sorts before 'a' on both databases)
        {
          utm_source: 'partner',
          utm_medium: '',
          utm_campaign: 'Zeta',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'autumn',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        {
          utm_source: 'facebook',
          utm_medium: 'social',
          utm_campaign: 'summer',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        // bookings in range from a click before it: 0 clicks, rate null
        {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'winter',
          clicks: 0,
          bookings: 1,
          conversion_rate: null,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
      ],
      // no booking here came through a channel (decisions §24)
      channels: [],
    });
  });

  it('gives vendor B only its own figures', async () => {
    const res = await summary(vendorB, F, T);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      from: F,
      to: T,
      currency: 'usd',
      clicks: { organic: 3, marketing: 2, total: 5 },
      bookings_attributed: { organic: 0, marketing: 1, unattributed: 0 },
      conversion_rate_click_to_booking: { organic: 0, marketing: 0.5 },
      bookings_confirmed: { organic: 0, marketing: 0 },
      revenue: { organic: '0.00', marketing: '0.00' },
      campaigns: [
        {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'summer',
          clicks: 2,
          bookings: 1,
          conversion_rate: 0.5,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
      ],
      // no booking here came through a channel (decisions §24)
      channels: [],
    });
  });

  it('counts whole days at midnight edges; ties on campaign end on utm_source; rates may exceed 1', async () => {
    const res = await summary(vendorA, '2026-05-11T00:00:00Z', '2026-05-13T00:00:00Z');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      from: '2026-05-11T00:00:00.000Z',
      to: '2026-05-13T00:00:00.000Z',
      currency: 'usd',
      // c4 c5 c14 c6 c7 c8; c9 at 2026-05-13T00:00 is excluded
      clicks: { organic: 1, marketing: 5, total: 6 },
      // organic b2 b9 (both from clicks outside this range or inside), marketing b3 b8, unattributed b10
      bookings_attributed: { organic: 2, marketing: 2, unattributed: 1 },
      conversion_rate_click_to_booking: { organic: 2, marketing: 0.4 },
      bookings_confirmed: { organic: 1, marketing: 0 },
      revenue: { organic: '45.00', marketing: '0.00' },
      campaigns: [
        {
          utm_source: 'partner',
          utm_medium: '',
          utm_campaign: 'Zeta',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'spring',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        {
          utm_source: 'facebook',
          utm_medium: 'social',
          utm_campaign: 'summer',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        {
          utm_source: 'google',
          utm_medium: 'cpc',
          utm_campaign: 'summer',
          clicks: 1,
          bookings: 0,
          conversion_rate: 0,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
        {
          utm_source: 'newsletter',
          utm_medium: 'email',
          utm_campaign: 'winter',
          clicks: 0,
          bookings: 1,
          conversion_rate: null,
          bookings_confirmed: 0,
          revenue: '0.00',
        },
      ],
      // no booking here came through a channel (decisions §24)
      channels: [],
    });
  });

  it('includes a click exactly at from and excludes one exactly at to', async () => {
    const at = (from: string, to: string) => summary(vendorA, from, to).then((r) => r.json().clicks);
    // [F, F + 1 ms) holds c2 alone; [F - 1 ms, F) holds c1 alone
    expect(await at(F, iso(ms(F) + 1))).toEqual({ organic: 0, marketing: 1, total: 1 });
    expect(await at(iso(ms(F) - 1), F)).toEqual({ organic: 1, marketing: 0, total: 1 });
    // [T - 1 ms, T) holds c11; [T, T + 1 ms) holds c12
    expect(await at(iso(ms(T) - 1), T)).toEqual({ organic: 1, marketing: 0, total: 1 });
    expect(await at(T, iso(ms(T) + 1))).toEqual({ organic: 0, marketing: 1, total: 1 });
  });

  it('answers zeros, null rates and no campaigns for an empty range', async () => {
    const res = await summary(vendorA, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    expect(res.json()).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
      currency: 'usd',
      clicks: { organic: 0, marketing: 0, total: 0 },
      bookings_attributed: { organic: 0, marketing: 0, unattributed: 0 },
      conversion_rate_click_to_booking: { organic: null, marketing: null },
      bookings_confirmed: { organic: 0, marketing: 0 },
      revenue: { organic: '0.00', marketing: '0.00' },
      campaigns: [],
      // no booking here came through a channel (decisions §24)
      channels: [],
    });
  });

  it('takes offsets and zone-less datetimes, and answers in UTC', async () => {
    const res = await summary(vendorA, '2026-05-10T08:30:00+02:00', '2026-05-14T18:00:00');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ from: F, to: T, clicks: { total: 11 } });
  });

  it('gives the same answer from the rollup and from raw clicks on every range of the fixture', async () => {
    const edges = [F, T, '2026-05-11T00:00:00.000Z', '2026-05-12T23:59:59.999Z', '2026-05-08T00:00:00.000Z'];
    const vendorId = await vendorProfileId(t.db, vendorA.id);
    for (const from of edges)
      for (const to of edges) {
        if (ms(to) <= ms(from)) continue;
        const deps = { db: t.db, clock: t.clock };
        const viaRollup = await summariseVendorClicks(deps, vendorId, { from, to });
        expect(await summariseVendorClicks(deps, vendorId, { from, to }, { rollup: false })).toEqual(
          viaRollup,
        );
      }
  });
});

describe('GET /api/v1/marketing/vendor/clicks/', () => {
  const ids = (res: { json(): { results: { marketing_click_id: number }[] } }) =>
    res.json().results.map((r) => r.marketing_click_id);

  it("lists the vendor's clicks in [from, to), newest first, archived listings included", async () => {
    const res = await clickList(vendorA, range);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(11);
    expect(ids(res)).toEqual(
      ['c11', 'c10', 'c9', 'c8', 'c7', 'c6', 'c14', 'c5', 'c4', 'c3', 'c2'].map((n) => c[n]),
    );
    expect(
      res.json().results.find((r: { marketing_click_id: number }) => r.marketing_click_id === c.c6),
    ).toMatchObject({ public_id: 'sup-board', listing_title: 'SUP board', utm_campaign: 'spring' });
  });

  it('gives the click object of decisions §8', async () => {
    const res = await clickList(vendorA, `from=2026-05-10T07:30:00Z&to=2026-05-10T07:30:00.001Z`);
    expect(res.json()).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          marketing_click_id: c.c3,
          listing_type: 'adventure',
          public_id: 'sea-caves',
          listing_title: 'Sea caves tour',
          equipment_item_id: null,
          adventure_offering_id: tour.id,
          traffic_type: 'organic',
          source: 'track',
          utm_source: '',
          utm_medium: '',
          utm_campaign: '',
          utm_term: '',
          utm_content: '',
          gclid: '',
          fbclid: '',
          referrer: '',
          user_id: customer.id,
          is_bot: false,
          created_at: '2026-05-10T07:30:00.000Z',
        },
      ],
    });
    const detail = await clickList(vendorA, 'from=2026-05-12T10:00:00Z&to=2026-05-12T10:00:01Z');
    expect(detail.json().results).toEqual([
      expect.objectContaining({
        marketing_click_id: c.c8,
        source: 'detail_view',
        referrer: 'https://blog.example/caves',
        user_id: null,
      }),
    ]);
    const marketing = await clickList(vendorA, 'from=2026-05-11T10:00:00Z&to=2026-05-11T10:00:01Z');
    expect(marketing.json().results).toEqual([
      expect.objectContaining({
        marketing_click_id: c.c4,
        listing_type: 'equipment',
        equipment_item_id: kayak.id,
        adventure_offering_id: null,
        traffic_type: 'marketing',
        utm_source: 'google',
        utm_medium: 'cpc',
        utm_campaign: 'summer',
      }),
    ]);
  });

  it.each([
    ['traffic_type=organic', ['c11', 'c8', 'c3']],
    ['traffic_type=marketing', ['c10', 'c9', 'c7', 'c6', 'c14', 'c5', 'c4', 'c2']],
    ['listing_type=adventure', ['c10', 'c8', 'c5', 'c3']],
    ['listing_type=equipment&traffic_type=marketing', ['c9', 'c7', 'c6', 'c14', 'c4', 'c2']],
    ['utm_campaign=summer', ['c9', 'c5', 'c4', 'c2']],
    ['utm_campaign=summer&listing_type=adventure', ['c5']],
    ['utm_campaign=Summer', []],
    ['utm_campaign=', ['c11', 'c10', 'c9', 'c8', 'c7', 'c6', 'c14', 'c5', 'c4', 'c3', 'c2']],
  ])('filters by %s', async (filter, expected) => {
    const res = await clickList(vendorA, `${range}&${filter}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(expected.length);
    expect(ids(res)).toEqual(expected.map((n) => c[n]));
  });

  it('paginates with count, next and previous that keep the filters', async () => {
    const first = await clickList(vendorA, `${range}&traffic_type=marketing&page_size=3`);
    expect(first.json().count).toBe(8);
    expect(ids(first)).toEqual([c.c10, c.c9, c.c7]);
    expect(first.json().previous).toBeNull();
    const next = new URL(first.json().next);
    expect(Object.fromEntries(next.searchParams)).toEqual({
      from: F,
      to: T,
      traffic_type: 'marketing',
      page: '2',
      page_size: '3',
    });
    const third = await clickList(vendorA, `${range}&traffic_type=marketing&page_size=3&page=3`);
    expect(ids(third)).toEqual([c.c4, c.c2]);
    expect(third.json().next).toBeNull();
    expect(new URL(third.json().previous).searchParams.get('page')).toBe('2');
    const past = await clickList(vendorA, `${range}&traffic_type=marketing&page_size=3&page=9`);
    expect(past.json()).toMatchObject({ count: 8, next: null, results: [] });
  });

  it('shows vendor B only its clicks, ties on the instant newest id first', async () => {
    const res = await clickList(vendorB, `from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z`);
    expect(res.json().count).toBe(5);
    expect(ids(res)).toEqual([c.cB5, c.cB4, c.cB3, c.cB2, c.cB1]);
    const all = await clickList(vendorA, `from=2026-01-01T00:00:00Z&to=2027-01-01T00:00:00Z&page_size=100`);
    expect(all.json().count).toBe(15); // c0 .. c14
    expect(ids(all)).not.toContain(c.cB1);
  });
});

describe('vendor analytics input and access', () => {
  const endpoints = ['/api/v1/marketing/vendor/clicks/', '/api/v1/marketing/vendor/summary/'];

  it.each(endpoints)('%s rejects missing, invalid or inverted ranges naming the field', async (url) => {
    const cases: [string, Record<string, string[]>][] = [
      ['', { from: ['This field is required.'], to: ['This field is required.'] }],
      [`to=${T}`, { from: ['This field is required.'] }],
      [`from=${F}`, { to: ['This field is required.'] }],
      [`from=yesterday&to=${T}`, { from: ['Enter a valid ISO 8601 datetime.'] }],
      [`from=${F}&to=2026-02-30T00:00:00Z`, { to: ['Enter a valid ISO 8601 datetime.'] }],
      [`from=${F}&to=${F}`, { to: ['Must be later than from.'] }],
      [`from=${T}&to=${F}`, { to: ['Must be later than from.'] }],
    ];
    for (const [query, errors] of cases) {
      const res = await api({ method: 'GET', url: `${url}?${query}`, token: vendorA.token });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 'invalid', errors });
    }
  });

  it.each(['traffic_type=paid', 'listing_type=boat', 'page=0', 'page_size=101'])(
    'the click list rejects %s',
    async (query) => {
      const res = await clickList(vendorA, `${range}&${query}`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([query.split('=')[0]]);
    },
  );

  it.each(endpoints)('%s needs a vendor token', async (url) => {
    const anonymous = await api({ method: 'GET', url: `${url}?${range}` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('not_authenticated');
    t.clock.set('2026-05-10T07:31:00.000Z'); // within the customer's token lifetime
    try {
      const asCustomer = await api({ method: 'GET', url: `${url}?${range}`, token: customer.token });
      expect(asCustomer.statusCode).toBe(403);
      expect(asCustomer.json().code).toBe('permission_denied');
    } finally {
      t.clock.set(QUERY_TIME);
    }
  });
});
