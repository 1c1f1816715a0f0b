import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as analyticsMigration from '../../../src/db/migrations/2026112203-marketing-analytics.ts';
import * as bookingDailyMigration from '../../../src/db/migrations/2026112211-booking-daily.ts';
import * as campaignNameIndexMigration from '../../../src/db/migrations/2026112215-click-campaign-name-index.ts';
import * as postgresRollupsMigration from '../../../src/db/migrations/2026112217-postgres-summary-rollups.ts';
import * as clickRollupPerStatementMigration from '../../../src/db/migrations/2026112218-postgres-click-rollup-per-statement.ts';
import type { AnyDb } from '../../../src/db/migrations/schema-helpers.ts';
import { summaryParts } from '../../../src/modules/marketing/analytics.repository.ts';
import {
  conversionRate,
  summariseVendorClicks,
  type VendorSummary,
} from '../../../src/modules/marketing/analytics.service.ts';
import { recordListingClick } from '../../../src/modules/marketing/index.ts';
import { buildTestApp, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  clickRow,
  insertBooking,
  insertListing,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';

// The summary against an independent model written in plain JavaScript, on random clicks, bookings and
// ranges; and the daily rollups against the raw clicks and bookings they summarise.

const DAY = 86_400_000;
let t: TestApp;
let vendors: { id: number; listings: TestListing[] }[];
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  vendors = [];
  for (let i = 0; i < 2; i++) {
    const account = await registerVendor(t.app);
    const id = await vendorProfileId(t.db, account.id);
    vendors.push({
      id,
      listings: [await insertListing(t.db, id, 'equipment'), await insertListing(t.db, id, 'adventure')],
    });
  }
  customerId = (await registerCustomer(t.app)).id;
});
afterAll(() => t.close());

const deps = () => ({ db: t.db, clock: t.clock });

const CAMPAIGNS = [
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'summer' },
  { utm_source: 'facebook', utm_medium: 'social', utm_campaign: 'summer' },
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'Summer' },
  { utm_source: 'newsletter', utm_medium: '', utm_campaign: 'spring' },
  { utm_source: '', utm_medium: '', utm_campaign: 'x' },
  { gclid: 'abc' }, // marketing without a campaign
  { utm_source: 'google', utm_medium: 'cpc' }, // marketing without a campaign
  {}, // organic
  {},
];

type ClickSpec = { vendor: number; listing: number; at: number; params: number };
type BookingSpec = { vendor: number; at: number; click: number | null };

// Instants within a 4-day window, often exactly on a midnight or a millisecond off one.
const instant = fc.oneof(
  fc.integer({ min: 0, max: 4 * DAY - 1 }),
  fc.integer({ min: 0, max: 4 }).map((d) => d * DAY),
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(-1, 1)).map(([d, off]) => d * DAY + off),
);
const clickSpec = fc.record({
  vendor: fc.integer({ min: 0, max: 1 }),
  listing: fc.integer({ min: 0, max: 1 }),
  at: instant,
  params: fc.integer({ min: 0, max: CAMPAIGNS.length - 1 }),
});
const dataset = fc.record({
  clicks: fc.array(clickSpec, { minLength: 0, maxLength: 30 }),
  bookings: fc.array(
    fc.record({
      vendor: fc.integer({ min: 0, max: 1 }),
      at: instant,
      click: fc.option(fc.nat(), { nil: null }),
    }),
    { maxLength: 12 },
  ),
  ranges: fc.array(fc.tuple(instant, instant), { minLength: 1, maxLength: 6 }),
});

type StoredClick = ClickSpec & { id: number; trafficType: 'organic' | 'marketing'; triple: string[] | null };

/** The summary, computed from the spec's words on plain arrays. */
function model(
  vendor: number,
  from: number,
  to: number,
  clicks: StoredClick[],
  bookings: (BookingSpec & { clickIndex: number | null })[],
): VendorSummary {
  const inRange = (at: number) => at >= from && at < to;
  const myClicks = clicks.filter((c) => c.vendor === vendor && inRange(c.at));
  const myBookings = bookings.filter((b) => b.vendor === vendor && inRange(b.at));
  const clickOf = (b: { clickIndex: number | null }) => {
    const click = b.clickIndex === null ? undefined : clicks[b.clickIndex];
    return click && click.vendor === vendor ? click : undefined; // another vendor's click is no attribution
  };
  const count = <T>(items: T[], pred: (x: T) => boolean) => items.filter(pred).length;
  const rate = (b: number, c: number) => (c === 0 ? null : Math.round((b / c) * 10_000) / 10_000);
  const organic = count(myClicks, (c) => c.trafficType === 'organic');
  const marketing = count(myClicks, (c) => c.trafficType === 'marketing');
  const bOrganic = count(myBookings, (b) => clickOf(b)?.trafficType === 'organic');
  const bMarketing = count(myBookings, (b) => clickOf(b)?.trafficType === 'marketing');
  const rows = new Map<string, { triple: string[]; clicks: number; bookings: number }>();
  const row = (triple: string[]) => {
    const key = JSON.stringify(triple);
    if (!rows.has(key)) rows.set(key, { triple, clicks: 0, bookings: 0 });
    return rows.get(key)!;
  };
  for (const c of myClicks) if (c.triple) row(c.triple).clicks++;
  for (const b of myBookings) {
    const triple = clickOf(b)?.triple;
    if (triple) row(triple).bookings++;
  }
  const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0); // ASCII: code units = bytes
  const campaigns = [...rows.values()]
    .sort(
      (a, b) =>
        b.clicks - a.clicks ||
        b.bookings - a.bookings ||
        byteOrder(a.triple[2], b.triple[2]) ||
        byteOrder(a.triple[0], b.triple[0]) ||
        byteOrder(a.triple[1], b.triple[1]),
    )
    .slice(0, 50)
    .map((r) => ({
      utm_source: r.triple[0],
      utm_medium: r.triple[1],
      utm_campaign: r.triple[2],
      clicks: r.clicks,
      bookings: r.bookings,
      conversion_rate: rate(r.bookings, r.clicks),
    }));
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    clicks: { organic, marketing, total: organic + marketing },
    bookings_attributed: {
      organic: bOrganic,
      marketing: bMarketing,
      unattributed: myBookings.length - bOrganic - bMarketing,
    },
    conversion_rate_click_to_booking: {
      organic: rate(bOrganic, organic),
      marketing: rate(bMarketing, marketing),
    },
    campaigns,
  };
}

describe('conversion rates', () => {
  it.each([
    [2, 3, 0.6667],
    [5, 8, 0.625],
    [1, 32, 0.0313], // 0.03125: halves round up
    [1, 20_000, 0.0001], // 0.00005
    [1, 20_001, 0],
    [123_456, 1_000_000, 0.1235],
    [7, 3, 2.3333], // bookings in range may come from clicks before it
    [0, 5, 0],
    [4, 4, 1],
    [3, 0, null],
    [0, 0, null],
  ])('%i bookings / %i clicks = %s', (bookings, clicks, expected) => {
    expect(conversionRate(bookings, clicks)).toBe(expected);
  });
});

describe('summary exactness', () => {
  it('equals a plain model on random clicks, bookings and ranges (rollup and raw alike)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(dataset, async ({ clicks, bookings, ranges }) => {
        // Each run gets a window of its own, so that earlier runs' rows never fall into its ranges.
        const base = Date.UTC(2026, 0, 1) + run++ * 10 * DAY;
        const stored: StoredClick[] = [];
        for (const spec of clicks) {
          t.clock.set(new Date(base + spec.at));
          const params = CAMPAIGNS[spec.params] as Record<string, string>;
          const recorded = await recordListingClick(t.db, t.clock, {
            listing: vendors[spec.vendor].listings[spec.listing],
            source: 'track',
            params,
          });
          stored.push({
            ...spec,
            at: base + spec.at,
            id: recorded.marketing_click_id,
            trafficType: recorded.traffic_type,
            triple: params.utm_campaign ? [params.utm_source, params.utm_medium, params.utm_campaign] : null,
          });
        }
        const storedBookings = [];
        for (const spec of bookings) {
          const clickIndex = spec.click === null || stored.length === 0 ? null : spec.click % stored.length;
          await insertBooking(t.db, {
            listing: vendors[spec.vendor].listings[0],
            customerId,
            createdAt: base + spec.at,
            clickId: clickIndex === null ? null : stored[clickIndex].id,
          });
          storedBookings.push({ ...spec, at: base + spec.at, clickIndex });
        }
        for (const [a, b] of ranges) {
          if (a === b) continue;
          const from = base + Math.min(a, b);
          const to = base + Math.max(a, b);
          const query = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
          for (const v of [0, 1]) {
            const expected = model(v, from, to, stored, storedBookings);
            expect(await summariseVendorClicks(deps(), vendors[v].id, query)).toEqual(expected);
            expect(await summariseVendorClicks(deps(), vendors[v].id, query, { rollup: false })).toEqual(
              expected,
            );
            // edge days read through their complement whenever the direct side holds any click
            expect(await summariseVendorClicks(deps(), vendors[v].id, query, { edgeProbe: 1 })).toEqual(
              expected,
            );
          }
        }
      }),
      { numRuns: usingPostgres ? 15 : 40 },
    );
  });
});

// --- the daily rollups ---------------------------------------------------------------------------------

type RollupMigration = { up(db: AnyDb): Promise<void>; down(db: AnyDb): Promise<void> };

/**
 * The migrations that create a rollup (SQLite: the click rollup's with the one after it, or the booking
 * rollup's; PostgreSQL: one for both), undone and redone around `write` as a rollback and a new deploy
 * would: the rollup is then backfilled from the rows that exist. PostgreSQL's locks its tables, which
 * only a transaction can.
 */
async function migrateAround(sqliteMigrations: RollupMigration[], write: () => Promise<void>) {
  const migrations = usingPostgres
    ? [clickRollupPerStatementMigration, postgresRollupsMigration]
    : sqliteMigrations;
  // each in a transaction of its own on PostgreSQL, as the migrator runs them
  const run = (step: (db: typeof t.db) => Promise<void>) =>
    usingPostgres ? t.db.transaction().execute(step) : step(t.db);
  for (const m of migrations) await run(m.down);
  await write();
  for (const m of migrations.toReversed()) await run(m.up);
}

type RollupRow = {
  vendor_id: number;
  day: number;
  traffic_type: string;
  utm_campaign: string;
  utm_source: string;
  utm_medium: string;
  clicks: number;
};

/**
 * The rollup as stored (summed over PostgreSQL's shards, empty rows dropped) and as recomputed from
 * listing_clicks.
 */
async function rollupAndRaw() {
  const stored = await sql<RollupRow>`
    select vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium, sum(clicks) as clicks
    from listing_click_daily
    group by 1, 2, 3, 4, 5, 6 having sum(clicks) <> 0
    order by 1, 2, 3, 4, 5, 6`.execute(t.db);
  const raw = await sql<RollupRow>`
    select vendor_id, created_at - ((created_at % ${DAY}) + ${DAY}) % ${DAY} as day, traffic_type, utm_campaign,
           case when utm_campaign <> '' then utm_source else '' end as utm_source,
           case when utm_campaign <> '' then utm_medium else '' end as utm_medium,
           count(*) as clicks
    from listing_clicks
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6`.execute(t.db);
  return { stored: stored.rows, raw: raw.rows };
}

describe('daily click rollup', () => {
  it('follows inserts from any writer, deletes and updates of clicks exactly', async () => {
    const [kayak, tour] = vendors[0].listings;
    const base = Date.UTC(2025, 5, 1);
    t.clock.set(new Date(base + 5 * 3_600_000));
    await recordListingClick(t.db, t.clock, { listing: kayak, source: 'detail_view', params: {} });
    // a writer outside the service (a seed script, another module's test) is followed too
    await t.db
      .insertInto('listing_clicks')
      .values(
        clickRow(tour, base + DAY - 1, { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'dawn' }),
      )
      .execute();
    const dawn = await t.db
      .selectFrom('listing_clicks')
      .select('id')
      .where('utm_campaign', '=', 'dawn')
      .executeTakeFirstOrThrow();
    expect((await rollupAndRaw()).stored).toEqual((await rollupAndRaw()).raw);

    const query = { from: new Date(base).toISOString(), to: new Date(base + 3 * DAY).toISOString() };
    const before = await summariseVendorClicks(deps(), vendors[0].id, query);
    expect(before.campaigns).toEqual([
      expect.objectContaining({ utm_campaign: 'dawn', utm_source: 'google', clicks: 1 }),
    ]);

    // moved to the next day and to another campaign: the old row is emptied, the new one counts it
    await t.db
      .updateTable('listing_clicks')
      .set({ created_at: base + DAY + 1, utm_campaign: 'dusk' })
      .where('id', '=', dawn.id)
      .execute();
    let state = await rollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    const moved = await summariseVendorClicks(deps(), vendors[0].id, query);
    expect(moved.campaigns.map((row) => [row.utm_campaign, row.clicks])).toEqual([['dusk', 1]]);
    expect(moved).toEqual(await summariseVendorClicks(deps(), vendors[0].id, query, { rollup: false }));

    // deleted: the emptied rollup row is no campaign row at all
    await t.db.deleteFrom('listing_clicks').where('id', '=', dawn.id).execute();
    state = await rollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    const after = await summariseVendorClicks(deps(), vendors[0].id, query);
    expect(after.campaigns).toEqual([]);
    expect(after.clicks).toEqual({ organic: 1, marketing: 0, total: 1 });
    expect(after).toEqual(await summariseVendorClicks(deps(), vendors[0].id, query, { rollup: false }));
  });

  it('counts the clicks of one multi-row insert into each of their buckets', async () => {
    const [kayak] = vendors[1].listings;
    const day = Date.UTC(2019, 7, 9); // a day no other test writes
    const click = (at: number, utm_campaign: string, utm_source: string) =>
      clickRow(kayak, at, { utm_campaign, utm_source });
    // one statement (as PostgreSQL's batched clicks are), seven clicks in four buckets over two days
    await t.db
      .insertInto('listing_clicks')
      .values([
        click(day + 1, '', ''),
        click(day + 2, 'tide', 'google'),
        click(day + 3, '', ''),
        click(day + DAY - 1, 'tide', 'google'),
        click(day + DAY, 'tide', 'google'),
        click(day + 4, 'swell', 'newsletter'),
        click(day + 5, '', ''),
      ])
      .execute();
    const state = await rollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    expect(
      state.stored
        .filter((r) => r.vendor_id === kayak.vendorId && (r.day === day || r.day === day + DAY))
        .map((r) => [r.day - day, r.utm_campaign, r.utm_source, r.clicks]),
    ).toEqual([
      [0, 'swell', 'newsletter', 1],
      [0, 'tide', 'google', 2],
      [0, '', '', 3],
      [DAY, 'tide', 'google', 1],
    ]);
  });

  it('counts clicks written at once over many connections exactly', async () => {
    const [kayak] = vendors[1].listings;
    const day = Date.UTC(2025, 10, 3);
    t.clock.set(new Date(day + 9 * 3_600_000));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, n) => {
        const res = await fetch(`${base}/api/v1/marketing/track/click/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            listing_type: 'equipment',
            public_id: kayak.publicId,
            ...(n % 4 === 0 ? { utm_source: 'google', utm_campaign: 'rush' } : {}),
          }),
        });
        return res.status;
      }),
    );
    expect(statuses).toEqual(Array(40).fill(201));
    const state = await rollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    const counted = state.stored
      .filter((r) => r.vendor_id === vendors[1].id && r.day === day)
      .map((r) => [r.traffic_type, r.utm_campaign, r.clicks]);
    expect(counted).toEqual([
      ['marketing', 'rush', 10],
      ['organic', '', 30],
    ]);
    const summary = await summariseVendorClicks(deps(), vendors[1].id, {
      from: new Date(day - DAY).toISOString(),
      to: new Date(day + 2 * DAY).toISOString(),
    });
    expect(summary.clicks).toEqual({ organic: 30, marketing: 10, total: 40 });
  });

  it.runIf(usingPostgres)('counts each connection into rows of its own (PostgreSQL shards)', async () => {
    const [kayak] = vendors[1].listings;
    const day = Date.UTC(2025, 10, 7);
    t.clock.set(new Date(day + 3_600_000));
    // four transactions hold a connection each at the same time, so four backends write one click each
    let open = 0;
    let allOpen!: () => void;
    const together = new Promise<void>((resolve) => {
      allOpen = resolve;
    });
    const shards = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ shard: number }>`select pg_backend_pid() % 16 as shard`.execute(trx);
          if (++open === 4) allOpen();
          await together;
          await recordListingClick(trx, t.clock, { listing: kayak, source: 'track', params: {} });
          return Number(rows[0].shard);
        }),
      ),
    );
    const expected = new Map<number, number>();
    for (const shard of shards) expected.set(shard, (expected.get(shard) ?? 0) + 1);
    const { rows } = await sql<{ shard: number; clicks: number }>`
      select shard, clicks from listing_click_daily
      where vendor_id = ${vendors[1].id} and day = ${day} order by shard`.execute(t.db);
    expect(rows.map((r) => [Number(r.shard), Number(r.clicks)])).toEqual(
      [...expected].sort(([a], [b]) => a - b),
    );
    expect(expected.size).toBeGreaterThan(1);
  });

  it('is backfilled from the clicks that exist when the migration runs', async () => {
    const [kayak] = vendors[1].listings;
    // later migrations first, as a rollback would undo them
    await migrateAround([campaignNameIndexMigration, analyticsMigration], async () => {
      for (const at of ['2025-03-01T10:00:00Z', '2025-03-01T23:59:59.999Z', '2025-03-02T00:00:00Z']) {
        t.clock.set(at);
        await recordListingClick(t.db, t.clock, {
          listing: kayak,
          source: 'track',
          params: { utm_source: 'google', utm_campaign: 'backfill' },
        });
      }
    });
    const state = await rollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    expect(
      state.stored
        .filter((r) => r.utm_campaign === 'backfill')
        .map((r) => [new Date(r.day).toISOString(), r.clicks]),
    ).toEqual([
      ['2025-03-01T00:00:00.000Z', 2],
      ['2025-03-02T00:00:00.000Z', 1],
    ]);
  });
});

type BookingRollupRow = Omit<RollupRow, 'clicks'> & { bookings: number };

/** The booking rollup as stored (summed over shards, empty rows dropped) and as recomputed from bookings. */
async function bookingRollupAndRaw() {
  const stored = await sql<BookingRollupRow>`
    select vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium, sum(bookings) as bookings
    from booking_daily
    group by 1, 2, 3, 4, 5, 6 having sum(bookings) <> 0
    order by 1, 2, 3, 4, 5, 6`.execute(t.db);
  const raw = await sql<BookingRollupRow>`
    select vendor_id, created_at - ((created_at % ${DAY}) + ${DAY}) % ${DAY} as day,
           coalesce(click_traffic_type, '') as traffic_type, click_utm_campaign as utm_campaign,
           case when click_utm_campaign <> '' then click_utm_source else '' end as utm_source,
           case when click_utm_campaign <> '' then click_utm_medium else '' end as utm_medium,
           count(*) as bookings
    from bookings
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6`.execute(t.db);
  return { stored: stored.rows, raw: raw.rows };
}

describe('daily booking rollup', () => {
  it('follows bookings inserted with and without a click, re-attributed, moved and deleted', async () => {
    const [kayak] = vendors[0].listings;
    const base = Date.UTC(2025, 7, 1);
    t.clock.set(new Date(base + 3_600_000));
    const click = await recordListingClick(t.db, t.clock, {
      listing: kayak,
      source: 'track',
      params: { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'tide' },
    });
    const attributed = await insertBooking(t.db, {
      listing: kayak,
      customerId,
      createdAt: base + 2 * 3_600_000,
      clickId: click.marketing_click_id,
    });
    const plain = await insertBooking(t.db, { listing: kayak, customerId, createdAt: base + DAY - 1 });
    let state = await bookingRollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    const day = state.stored.filter((r) => r.day === base);
    expect(day.map((r) => [r.traffic_type, r.utm_campaign, r.bookings])).toEqual([
      ['', '', 1],
      ['marketing', 'tide', 1],
    ]);

    const query = { from: new Date(base).toISOString(), to: new Date(base + 2 * DAY).toISOString() };
    const check = async () => {
      state = await bookingRollupAndRaw();
      expect(state.stored).toEqual(state.raw);
      const viaRollup = await summariseVendorClicks(deps(), vendors[0].id, query);
      expect(viaRollup).toEqual(await summariseVendorClicks(deps(), vendors[0].id, query, { rollup: false }));
      return viaRollup;
    };

    // the click's campaign changes: the booking's copy (kept by triggers) moves to the new campaign row
    await t.db
      .updateTable('listing_clicks')
      .set({ utm_campaign: 'ebb' })
      .where('id', '=', click.marketing_click_id)
      .execute();
    expect((await check()).campaigns.map((r) => [r.utm_campaign, r.bookings])).toEqual([['ebb', 1]]);

    // a booking moved to the next day and re-pointed at the click
    await t.db
      .updateTable('bookings')
      .set({ created_at: base + DAY + 5, listing_click_id: click.marketing_click_id })
      .where('id', '=', plain)
      .execute();
    expect((await check()).bookings_attributed).toEqual({ organic: 0, marketing: 2, unattributed: 0 });

    // deleted: its row is emptied
    await t.db.deleteFrom('bookings').where('id', '=', attributed).execute();
    const after = await check();
    expect(after.bookings_attributed).toEqual({ organic: 0, marketing: 1, unattributed: 0 });
    expect(after.campaigns.map((r) => [r.utm_campaign, r.clicks, r.bookings])).toEqual([['ebb', 1, 1]]);
  });

  it('counts bookings written at once over many connections exactly', async () => {
    const [, tour] = vendors[0].listings;
    const day = Date.UTC(2025, 10, 5);
    await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        insertBooking(t.db, { listing: tour, customerId, createdAt: day + n * 60_000 }),
      ),
    );
    const state = await bookingRollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    expect(
      state.stored.filter((r) => r.vendor_id === vendors[0].id && r.day === day).map((r) => r.bookings),
    ).toEqual([30]);
  });

  it('is backfilled from the bookings that exist when the migration runs', async () => {
    const [, tour] = vendors[1].listings;
    await migrateAround([bookingDailyMigration], async () => {
      for (const at of ['2025-04-01T10:00:00Z', '2025-04-01T23:59:59.999Z', '2025-04-02T00:00:00Z'])
        await insertBooking(t.db, { listing: tour, customerId, createdAt: Date.parse(at) });
    });
    const state = await bookingRollupAndRaw();
    expect(state.stored).toEqual(state.raw);
    expect(
      state.stored
        .filter(
          (r) =>
            r.vendor_id === vendors[1].id && r.day >= Date.UTC(2025, 3, 1) && r.day < Date.UTC(2025, 3, 3),
        )
        .map((r) => [new Date(r.day).toISOString(), r.bookings]),
    ).toEqual([
      ['2025-04-01T00:00:00.000Z', 2],
      ['2025-04-02T00:00:00.000Z', 1],
    ]);
  });
});

describe('edge days of the summary', () => {
  it('are read from whichever side of the edge holds fewer clicks', async () => {
    const [kayak] = vendors[1].listings;
    const day = Date.UTC(2025, 9, 1);
    const at = (hour: number) => day + hour * 3_600_000;
    for (const hour of [1, 2, 3, 4]) {
      t.clock.set(new Date(at(hour)));
      await recordListingClick(t.db, t.clock, { listing: kayak, source: 'track', params: {} });
    }
    const range = (from: number, to: number) => ({ vendorId: vendors[1].id, from, to });
    const later = { now: at(48), edgeProbe: 3 };
    // a busy morning before `to`: the day is read as its rollup minus the quiet afternoon
    expect(await summaryParts(t.db, range(day - 10 * DAY, at(12)), later)).toEqual([
      { table: 'daily', from: day - 10 * DAY, to: day + DAY, sign: 1 },
      { table: 'raw', from: at(12), to: day + DAY, sign: -1 },
    ]);
    // the busy hours after `from`: the rollup day minus the quiet hour before it, not the busy rows
    expect(await summaryParts(t.db, range(at(0.5), day + 5 * DAY), later)).toEqual([
      { table: 'daily', from: day, to: day + 5 * DAY, sign: 1 },
      { table: 'raw', from: day, to: at(0.5), sign: -1 },
    ]);
    // quiet on the direct side: read directly
    expect(await summaryParts(t.db, range(day - 10 * DAY, at(0.5)), later)).toEqual([
      { table: 'daily', from: day - 10 * DAY, to: day, sign: 1 },
      { table: 'raw', from: day, to: at(0.5), sign: 1 },
    ]);
    // a range ending after now takes the complement without counting
    expect(await summaryParts(t.db, range(day - DAY, at(12)), { now: at(6), edgeProbe: 100 })).toEqual([
      { table: 'daily', from: day - DAY, to: day + DAY, sign: 1 },
      { table: 'raw', from: at(12), to: day + DAY, sign: -1 },
    ]);
  });
});
