import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as rollupsMigration from '../../../src/db/migrations/2026112701-analytics-revenue-bots.ts';
import { summaryParts } from '../../../src/modules/marketing/analytics.repository.ts';
import {
  conversionRate,
  summariseVendorClicks,
  type VendorSummary,
} from '../../../src/modules/marketing/analytics.service.ts';
import { recordListingClick } from '../../../src/modules/marketing/index.ts';
import { buildTestApp, injector, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  clickRow,
  insertBooking,
  insertListing,
  insertPaymentWithRefunds,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';
import { BOT_AGENT, rollupsAndRecount } from '../../helpers/rollups.ts';
import { newChannel } from '../channels/channels-helpers.ts';

// The summary against an independent model written in plain JavaScript, on random clicks (bots among
// them), bookings (confirmed or not, refunded in part, in another currency, some through a channel) and
// ranges; and the rollups against the raw clicks and bookings they summarise.

const DAY = 86_400_000;
let t: TestApp;
let vendors: { id: number; listings: TestListing[]; channels: { id: number; name: string }[] }[];
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  vendors = [];
  for (let i = 0; i < 2; i++) {
    const account = await registerVendor(t.app);
    const id = await vendorProfileId(t.db, account.id);
    // two channels (decisions §24) named so that their order on a tie is the name's
    const channels = [];
    for (const name of ['Harbour Hotel', 'Beach kiosk'])
      channels.push({ id: (await newChannel(injector(t.app), account, name)).id, name });
    vendors.push({
      id,
      listings: [await insertListing(t.db, id, 'equipment'), await insertListing(t.db, id, 'adventure')],
      channels,
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

type ClickSpec = { vendor: number; listing: number; at: number; params: number; bot: boolean };
type BookingSpec = {
  vendor: number;
  at: number;
  click: number | null;
  /** made through the vendor's channel of this index (then with no click), or not */
  channel: number | null;
  confirmed: boolean;
  refunded: number;
  foreign: boolean;
};

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
  bot: fc.boolean(),
});
const dataset = fc.record({
  clicks: fc.array(clickSpec, { minLength: 0, maxLength: 30 }),
  bookings: fc.array(
    fc.record({
      vendor: fc.integer({ min: 0, max: 1 }),
      at: instant,
      click: fc.option(fc.nat(), { nil: null }),
      channel: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null, freq: 2 }),
      confirmed: fc.boolean(),
      refunded: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4500 })),
      foreign: fc.boolean().map((b) => b && Math.random() < 0.3),
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
  includeBots: boolean,
): VendorSummary {
  const inRange = (at: number) => at >= from && at < to;
  const myClicks = clicks.filter((c) => c.vendor === vendor && inRange(c.at) && (includeBots || !c.bot));
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
  // a booking that reached confirmed earns its price less its refunds, in the vendor's currency only
  const revenue = (b: BookingSpec) => (b.confirmed && !b.foreign ? 4500 - b.refunded : 0);
  const sumOf = (type: string, f: (b: BookingSpec) => number) =>
    myBookings.filter((b) => clickOf(b)?.trafficType === type).reduce((n, b) => n + f(b), 0);
  const cents = (n: number) => (n / 100).toFixed(2);
  const rows = new Map<
    string,
    { triple: string[]; clicks: number; bookings: number; confirmed: number; revenue: number }
  >();
  const row = (triple: string[]) => {
    const key = JSON.stringify(triple);
    if (!rows.has(key)) rows.set(key, { triple, clicks: 0, bookings: 0, confirmed: 0, revenue: 0 });
    return rows.get(key)!;
  };
  for (const c of myClicks) if (c.triple) row(c.triple).clicks++;
  for (const b of myBookings) {
    const triple = clickOf(b)?.triple;
    if (!triple) continue;
    const r = row(triple);
    r.bookings++;
    r.confirmed += b.confirmed ? 1 : 0;
    r.revenue += revenue(b);
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
      bookings_confirmed: r.confirmed,
      revenue: cents(r.revenue),
    }));
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    currency: 'usd',
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
    bookings_confirmed: {
      organic: sumOf('organic', (b) => (b.confirmed ? 1 : 0)),
      marketing: sumOf('marketing', (b) => (b.confirmed ? 1 : 0)),
    },
    revenue: { organic: cents(sumOf('organic', revenue)), marketing: cents(sumOf('marketing', revenue)) },
    campaigns,
    // by channel: its bookings in range, those that reached confirmed, their revenue; most bookings first
    channels: vendors[vendor].channels
      .map((c, index) => {
        const through = myBookings.filter((b) => b.channel === index);
        return {
          channel_id: c.id,
          name: c.name,
          bookings: through.length,
          bookings_confirmed: through.filter((b) => b.confirmed).length,
          revenue: cents(through.reduce((n, b) => n + revenue(b), 0)),
        };
      })
      .filter((c) => c.bookings > 0)
      .sort((a, b) => b.bookings - a.bookings || byteOrder(a.name, b.name) || a.channel_id - b.channel_id),
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
            userAgent: spec.bot ? BOT_AGENT : 'curl/8.5.0',
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
          // a channel's booking has no click (the reseller's customer never clicked here)
          const clickIndex =
            spec.click === null || spec.channel !== null || stored.length === 0
              ? null
              : spec.click % stored.length;
          const id = await insertBooking(t.db, {
            listing: vendors[spec.vendor].listings[0],
            customerId,
            createdAt: base + spec.at,
            clickId: clickIndex === null ? null : stored[clickIndex].id,
            status: spec.confirmed ? 'confirmed' : 'requested',
          });
          if (spec.foreign)
            await t.db.updateTable('bookings').set({ currency: 'eur' }).where('id', '=', id).execute();
          if (spec.channel !== null)
            await t.db
              .updateTable('bookings')
              .set({ channel_id: vendors[spec.vendor].channels[spec.channel].id })
              .where('id', '=', id)
              .execute();
          if (spec.refunded)
            await insertPaymentWithRefunds(t.db, id, [[spec.refunded, 'succeeded']], base + spec.at);
          storedBookings.push({ ...spec, at: base + spec.at, clickIndex });
        }
        for (const [a, b] of ranges) {
          if (a === b) continue;
          const from = base + Math.min(a, b);
          const to = base + Math.max(a, b);
          const query = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
          for (const v of [0, 1]) {
            const withBots = { ...query, include_bots: true };
            const all = model(v, from, to, stored, storedBookings, true);
            expect(await summariseVendorClicks(deps(), vendors[v].id, withBots)).toEqual(all);
            expect(await summariseVendorClicks(deps(), vendors[v].id, withBots, { rollup: false })).toEqual(
              all,
            );
            const expected = model(v, from, to, stored, storedBookings, false);
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
        const { stored: rollups, recount } = await rollupsAndRecount(t.db);
        expect(rollups).toEqual(recount);
      }),
      { numRuns: usingPostgres ? 15 : 40 },
    );
  });
});

// --- the rollups ---------------------------------------------------------------------------------------

/**
 * The migration that creates the rollups, undone and redone around `write` as a rollback and a new deploy
 * would: the rollups are then backfilled from the rows that exist (and bookings' confirmed_at and
 * refunded_cents from their history and refunds). PostgreSQL's locks its tables, which only a transaction
 * can. `write` runs on the schema before it: no is_bot, confirmed_at or refunded_cents.
 */
async function migrateAround(write: () => Promise<void>) {
  const run = (step: (db: typeof t.db) => Promise<void>) =>
    usingPostgres ? t.db.transaction().execute(step) : step(t.db);
  await run(rollupsMigration.down);
  await write();
  await run(rollupsMigration.up);
}

/** The rollups as stored and as recounted from raw rows, asserted equal; the stored rows by table. */
async function rollupsExact() {
  const state = await rollupsAndRecount(t.db);
  expect(state.stored).toEqual(state.recount);
  return state.stored;
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
    await rollupsExact();

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
    await rollupsExact();
    const moved = await summariseVendorClicks(deps(), vendors[0].id, query);
    expect(moved.campaigns.map((row) => [row.utm_campaign, row.clicks])).toEqual([['dusk', 1]]);
    expect(moved).toEqual(await summariseVendorClicks(deps(), vendors[0].id, query, { rollup: false }));

    // deleted: the emptied rollup row is no campaign row at all
    await t.db.deleteFrom('listing_clicks').where('id', '=', dawn.id).execute();
    await rollupsExact();
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
    const stored = await rollupsExact();
    expect(
      stored.listing_click_daily
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
    const stored = await rollupsExact();
    const counted = stored.listing_click_daily
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
    await migrateAround(async () => {
      for (const at of ['2025-03-01T10:00:00Z', '2025-03-01T23:59:59.999Z', '2025-03-02T00:00:00Z']) {
        const { is_bot: _, ...row } = clickRow(kayak, Date.parse(at), {
          utm_source: 'google',
          utm_campaign: 'backfill',
        });
        // the schema before the migration has no is_bot
        await t.db
          .insertInto('listing_clicks')
          .values(row as typeof row & { is_bot: 0 })
          .execute();
      }
    });
    const stored = await rollupsExact();
    expect(
      stored.listing_click_daily
        .filter((r) => r.utm_campaign === 'backfill')
        .map((r) => [new Date(r.day).toISOString(), r.is_bot, r.clicks]),
    ).toEqual([
      ['2025-03-01T00:00:00.000Z', 0, 2],
      ['2025-03-02T00:00:00.000Z', 0, 1],
    ]);
    expect(
      stored.listing_click_hourly
        .filter(
          (r) =>
            r.vendor_id === kayak.vendorId && r.hour >= Date.UTC(2025, 2, 1) && r.hour < Date.UTC(2025, 2, 3),
        )
        .map((r) => [new Date(r.hour).toISOString(), r.clicks]),
    ).toEqual([
      ['2025-03-01T10:00:00.000Z', 1],
      ['2025-03-01T23:00:00.000Z', 1],
      ['2025-03-02T00:00:00.000Z', 1],
    ]);
  });
});

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
    const day = (await rollupsExact()).booking_daily.filter((r) => r.day === base);
    expect(day.map((r) => [r.traffic_type, r.utm_campaign, r.bookings])).toEqual([
      ['', '', 1],
      ['marketing', 'tide', 1],
    ]);

    const query = { from: new Date(base).toISOString(), to: new Date(base + 2 * DAY).toISOString() };
    const check = async () => {
      await rollupsExact();
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
    const stored = await rollupsExact();
    expect(
      stored.booking_daily
        .filter((r) => r.vendor_id === vendors[0].id && r.day === day)
        .map((r) => r.bookings),
    ).toEqual([30]);
  });

  it('is backfilled from the bookings that exist when the migration runs, with their revenue', async () => {
    const [, tour] = vendors[1].listings;
    const at = (iso: string) => Date.parse(iso);
    let paid = 0;
    await migrateAround(async () => {
      for (const iso of ['2025-04-01T10:00:00Z', '2025-04-01T23:59:59.999Z'])
        await insertBooking(t.db, { listing: tour, customerId, createdAt: at(iso) });
      // confirmed, then cancelled with 12.34 refunded: its history and refunds tell what it earned
      paid = await insertBooking(t.db, {
        listing: tour,
        customerId,
        createdAt: at('2025-04-02T00:00:00Z'),
        status: 'cancelled',
      });
      await t.db
        .insertInto('booking_status_history')
        .values({
          booking_id: paid,
          from_status: 'approved',
          to_status: 'confirmed',
          note: '',
          actor_id: null,
          created_at: at('2025-04-02T01:00:00Z'),
        })
        .execute();
      await insertPaymentWithRefunds(
        t.db,
        paid,
        [
          [1234, 'succeeded'],
          [100, 'failed'],
        ],
        at('2025-04-02T02:00:00Z'),
      );
    });
    expect(
      await t.db
        .selectFrom('bookings')
        .select(['confirmed_at', 'refunded_cents'])
        .where('id', '=', paid)
        .executeTakeFirstOrThrow(),
    ).toEqual({ confirmed_at: at('2025-04-02T01:00:00Z'), refunded_cents: 1234 });
    const stored = await rollupsExact();
    expect(
      stored.booking_daily
        .filter(
          (r) =>
            r.vendor_id === vendors[1].id && r.day >= Date.UTC(2025, 3, 1) && r.day < Date.UTC(2025, 3, 3),
        )
        .map((r) => [new Date(r.day).toISOString(), r.bookings, r.confirmed, r.revenue_cents]),
    ).toEqual([
      ['2025-04-01T00:00:00.000Z', 2, 0, 0],
      ['2025-04-02T00:00:00.000Z', 1, 1, 4500 - 1234],
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
