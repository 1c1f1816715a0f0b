import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENCH_CAMPAIGNS,
  BENCH_PASSWORD,
  BENCH_RENTAL_ITEMS,
  BENCH_TOURS,
  BENCH_UNIT_ITEMS,
  BENCH_UNITS_PER_ITEM,
  BENCH_VENDOR_EMAIL,
  benchCustomerEmail,
  type SeedBenchResult,
  seedBench,
  seedBenchTours,
  seedBenchUnitItems,
} from '../../../src/tools/seed-bench.ts';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { PASSWORD } from '../../helpers/factories.ts';

const DAY = 24 * 3600 * 1000;
const SIZES = { vendors: 3, items: 20, adventures: 10, clicks: 500, bookings: 50, customers: 5 };

let t: TestApp;
let api: Injector;
let seeded: SeedBenchResult;
let now: number;
/** every progress report of the seeding: table, rows written so far, rows expected */
const reports: [string, number, number][] = [];

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  now = t.clock.now().getTime();
  seeded = await seedBench(t.db, SIZES, {
    now,
    progress: (table, written, expected) => reports.push([table, written, expected]),
  });
});
afterAll(() => t.close());

async function login(email: string, password = BENCH_PASSWORD) {
  const res = await api({ method: 'POST', url: '/api/v1/accounts/token/', payload: { email, password } });
  expect(res.statusCode).toBe(200);
  return res.json().access as string;
}

/** The bench vendor's listings of the unit, departure and rental scenarios. */
const ADDED_APART = BENCH_UNIT_ITEMS + BENCH_TOURS + BENCH_RENTAL_ITEMS;

describe('seed-bench', () => {
  it('writes exactly the requested rows', async () => {
    const history = await t.db.selectFrom('bookings').select('status').execute();
    const transitions = { requested: 1, approved: 2, confirmed: 3, declined: 2, cancelled: 2, expired: 2 };
    const expectedHistory = history.reduce((sum, b) => sum + transitions[b.status], 0);
    const confirmed = history.filter((b) => b.status === 'confirmed').length;
    const expected = {
      users: SIZES.vendors + SIZES.customers,
      vendor_profiles: SIZES.vendors,
      listings: SIZES.items + SIZES.adventures + ADDED_APART,
      listing_clicks: SIZES.clicks,
      bookings: SIZES.bookings,
      booking_status_history: expectedHistory,
      payments: confirmed,
    };
    expect(seeded.rows).toEqual(expected);
    for (const [table, rows] of Object.entries(expected)) {
      expect(await countRows(t.db, table as keyof typeof expected)).toBe(rows);
    }
    const kinds = await t.db
      .selectFrom('listings')
      .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('kind')
      .orderBy('kind')
      .execute();
    expect(kinds.map((k) => [k.kind, Number(k.n)])).toEqual([
      ['adventure', 10 + BENCH_TOURS],
      ['equipment', 20 + BENCH_UNIT_ITEMS + BENCH_RENTAL_ITEMS],
    ]);
    // mixed statuses, every one of them from the state machine
    expect(new Set(history.map((b) => b.status)).size).toBeGreaterThan(2);
  });

  it('gives the bench vendor the items bench-item-000001... and the vendor profile a unique slug', async () => {
    const items = await t.db
      .selectFrom('listings')
      .select(['public_id', 'kind', 'is_active', 'price_cents'])
      .where('vendor_id', '=', seeded.benchVendor.vendorId)
      .where('public_id', 'like', 'bench-item-%')
      .orderBy('public_id')
      .execute();
    expect(items.map((i) => i.public_id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `bench-item-${String(i + 1).padStart(6, '0')}`),
    );
    expect(items.every((i) => i.kind === 'equipment' && i.is_active === 1)).toBe(true);
    expect(items.every((i) => i.price_cents >= 500 && i.price_cents <= 30_000)).toBe(true);
    const slugs = await t.db.selectFrom('vendor_profiles').select('slug').execute();
    expect(new Set(slugs.map((s) => s.slug)).size).toBe(SIZES.vendors);
    const others = await t.db
      .selectFrom('listings')
      .select('vendor_id')
      .distinct()
      .where('vendor_id', '!=', seeded.benchVendor.vendorId)
      .execute();
    expect(others).toHaveLength(2);
  });

  it('gives the bench vendor multi-unit items, and tops up a database seeded without them', async () => {
    const unitItems = () =>
      t.db
        .selectFrom('listings')
        .select(['public_id', 'quantity', 'vendor_id'])
        .where('public_id', 'like', 'bench-units-%')
        .orderBy('public_id')
        .execute();
    const expected = Array.from({ length: BENCH_UNIT_ITEMS }, (_, i) => ({
      public_id: `bench-units-0${i + 1}`,
      quantity: BENCH_UNITS_PER_ITEM,
      vendor_id: seeded.benchVendor.vendorId,
    }));
    expect(await unitItems()).toEqual(expected);
    expect(await seedBenchUnitItems(t.db, now)).toBe(0);
    await t.db.deleteFrom('listings').where('public_id', '=', 'bench-units-02').execute();
    expect(await seedBenchUnitItems(t.db, now)).toBe(1);
    expect(await unitItems()).toEqual(expected);
  });

  it('gives the bench vendor scheduled tours with four departures a day, and tops up a database without them', async () => {
    const tours = () =>
      t.db
        .selectFrom('listings')
        .select(['public_id', 'schedule', 'booking_mode'])
        .where('public_id', 'like', 'bench-tour-%')
        .orderBy('public_id')
        .execute();
    const found = await tours();
    expect(found).toHaveLength(BENCH_TOURS);
    expect(found[0]).toMatchObject({ public_id: 'bench-tour-01', booking_mode: 'shared' });
    expect(JSON.parse(found[0].schedule)[0].start_times).toEqual(['09:00', '11:00', '13:00', '15:00']);
    await t.db.deleteFrom('listings').where('public_id', '=', 'bench-tour-07').execute();
    expect(await seedBenchTours(t.db, now)).toBe(1);
    expect(await tours()).toEqual(found);
  });

  it('puts the bench vendor clicks inside the last 30 days, organic and marketing in known campaigns', async () => {
    const clicks = await t.db
      .selectFrom('listing_clicks')
      .select(['created_at', 'traffic_type', 'utm_source', 'utm_medium', 'utm_campaign'])
      .where('vendor_id', '=', seeded.benchVendor.vendorId)
      .execute();
    expect(clicks).toHaveLength(50);
    expect(seeded.benchVendor.clicks).toBe(50);
    for (const click of clicks) {
      expect(click.created_at).toBeGreaterThanOrEqual(now - 30 * DAY);
      expect(click.created_at).toBeLessThan(now);
    }
    const marketing = clicks.filter((c) => c.traffic_type === 'marketing');
    expect(marketing.length).toBeGreaterThan(0);
    expect(marketing.length).toBeLessThan(clicks.length);
    const triples = new Set(BENCH_CAMPAIGNS.map((c) => `${c.utm_source}/${c.utm_medium}/${c.utm_campaign}`));
    for (const click of marketing) {
      expect(triples.has(`${click.utm_source}/${click.utm_medium}/${click.utm_campaign}`)).toBe(true);
    }
    for (const click of clicks.filter((c) => c.traffic_type === 'organic'))
      expect(click.utm_campaign).toBe('');
  });

  it('attributes bookings to earlier clicks of the same listing, with non-overlapping windows', async () => {
    const bookings = await t.db
      .selectFrom('bookings')
      .leftJoin('listing_clicks', 'listing_clicks.id', 'bookings.listing_click_id')
      .select([
        'bookings.listing_id',
        'bookings.vendor_id',
        'bookings.starts_at',
        'bookings.ends_at',
        'bookings.created_at',
        'bookings.listing_click_id',
        'listing_clicks.listing_id as click_listing_id',
        'listing_clicks.vendor_id as click_vendor_id',
        'listing_clicks.created_at as click_created_at',
      ])
      .execute();
    const attributed = bookings.filter((b) => b.listing_click_id !== null);
    expect(attributed.length).toBeGreaterThan(0);
    expect(
      attributed.some((b) => b.vendor_id === seeded.benchVendor.vendorId),
      'the bench vendor has attributed bookings',
    ).toBe(true);
    for (const b of attributed) {
      expect(b.click_listing_id).toBe(b.listing_id);
      expect(b.click_vendor_id).toBe(b.vendor_id);
      expect(b.click_created_at).toBeLessThanOrEqual(b.created_at);
      expect(b.created_at).toBeLessThan(now);
    }
    const byListing = Map.groupBy(bookings, (b) => b.listing_id);
    for (const windows of byListing.values()) {
      const sorted = windows.toSorted((a, b) => a.starts_at - b.starts_at);
      for (let i = 1; i < sorted.length; i++)
        expect(sorted[i].starts_at).toBeGreaterThanOrEqual(sorted[i - 1].ends_at);
    }
  });

  it('lets the bench vendor and the bench customers log in, and the app keep inserting afterwards', async () => {
    const vendorToken = await login(BENCH_VENDOR_EMAIL);
    const me = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: vendorToken });
    expect(me.json()).toMatchObject({
      email: BENCH_VENDOR_EMAIL,
      is_vendor: true,
      vendor_profile: { slug: 'bench-vendor-watersports' },
    });
    const customerToken = await login(benchCustomerEmail(5));
    const customer = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: customerToken });
    expect(customer.json()).toMatchObject({ email: 'bench-customer-5@example.com', is_customer: true });
    // explicit ids must not leave the id sequences behind (PostgreSQL): a new account still gets one
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      payload: { email: 'after-seed@example.com', password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().id).toBe(SIZES.vendors + SIZES.customers + 1);
  });

  it('reports its progress per table, up to the rows each table gets', () => {
    const last = new Map<string, [number, number]>();
    for (const [table, written, expected] of reports) {
      const previous = last.get(table);
      if (previous) {
        expect(written).toBeGreaterThan(previous[0]);
        expect(expected).toBe(previous[1]);
      }
      last.set(table, [written, expected]);
    }
    const { listings, ...others } = seeded.rows;
    expect(Object.fromEntries(last)).toEqual({
      ...Object.fromEntries(Object.entries(others).map(([table, rows]) => [table, [rows, rows]])),
      // the bench vendor's multi-unit items, tours and rental items are added apart, after the bulk insert
      listings: [listings - ADDED_APART, listings - ADDED_APART],
    });
  });

  it('refuses to seed the same database twice', async () => {
    await expect(seedBench(t.db, SIZES, { now })).rejects.toThrow(/already there/);
    expect(await countRows(t.db, 'listing_clicks')).toBe(SIZES.clicks);
  });
});
