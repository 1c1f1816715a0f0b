// Latency of the vendor summary (and the click list) at scale:
//   node bench/summary-latency.ts [--clicks 1000000] [--vendor-clicks 100000] [--runs 50]
//   DATABASE_URL=postgres://... node bench/summary-latency.ts        (a throwaway schema, dropped after)
// Fills a fresh database (default: a temporary SQLite file) with the full schema and `clicks` clicks, of
// which `vendor-clicks` belong to one vendor within a 30-day range (about 30 campaigns, 3,000 bookings, two
// thirds of them attributed), in time order as a live system writes them. Then times the service
// functions and the HTTP endpoints (app.inject, so without network) and prints p50/p99 in milliseconds.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Insertable, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import type { ListingClicksTable } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { issueToken, loadSigningKey } from '../src/modules/accounts/tokens.ts';
import { listVendorClicks, summariseVendorClicks } from '../src/modules/marketing/analytics.service.ts';

const { values: args } = parseArgs({
  options: {
    clicks: { type: 'string', default: '1000000' },
    'vendor-clicks': { type: 'string', default: '100000' },
    'vendor-clicks-outside': { type: 'string', default: '0' },
    runs: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false }, // keep the database (to inspect query plans)
  },
});
const TOTAL = Number(args.clicks);
const VENDOR_CLICKS = Number(args['vendor-clicks']);
const OUTSIDE = Number(args['vendor-clicks-outside']);
const RUNS = Number(args.runs);
const VENDORS = 100;
const LISTINGS_PER_VENDOR = 10;
const CAMPAIGNS = 30;
const BOOKINGS = 3000;
const DAY = 86_400_000;
const FROM = Date.UTC(2026, 4, 1);
const TO = FROM + 30 * DAY;
const YEAR_START = FROM - 335 * DAY;

// Deterministic pseudo-random numbers (mulberry32), so that every run measures the same data.
let seed = 42;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
const pick = (n: number) => Math.floor(random() * n);

// --- database ---------------------------------------------------------------------------------------------

const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
let cleanup = async () => {};
let handle: ReturnType<typeof createDb>;
if (pgUrl) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin('create extension if not exists btree_gist');
  await admin(`create schema ${schema}`);
  handle = createDb(pgUrl, { searchPath: schema });
  await migrateToLatest(handle.db, schema);
  cleanup = () => admin(`drop schema ${schema} cascade`);
  console.log(`schema ${schema}`);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'summary-bench-'));
  handle = createDb(`sqlite:${join(dir, 'bench.sqlite')}`);
  console.log(`file ${join(dir, 'bench.sqlite')}`);
  await migrateToLatest(handle.db);
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
}
const { db } = handle;

// --- data -------------------------------------------------------------------------------------------------

const fillStarted = performance.now();
const customer = await db
  .insertInto('users')
  .values({
    email: 'customer@bench.example',
    password_hash: 'x',
    first_name: '',
    last_name: '',
    phone_number: '',
    is_vendor: 0,
    is_staff: 0,
    date_joined: 0,
    updated_at: 0,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const vendors: { userId: number; id: number; listings: { id: number; kind: 'equipment' | 'adventure' }[] }[] =
  [];
for (let v = 0; v < VENDORS; v++) {
  const user = await db
    .insertInto('users')
    .values({
      email: `vendor${v}@bench.example`,
      password_hash: 'x',
      first_name: '',
      last_name: '',
      phone_number: '',
      is_vendor: 1,
      is_staff: 0,
      date_joined: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const profile = await db
    .insertInto('vendor_profiles')
    .values({
      user_id: user.id,
      business_name: `Vendor ${v}`,
      slug: `vendor-${v}`,
      description: '',
      contact_phone: '',
      contact_email: '',
      address_line1: '',
      address_line2: '',
      city: '',
      state: '',
      postal_code: '',
      country: '',
      created_at: 0,
      updated_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const listings = await db
    .insertInto('listings')
    .values(
      Array.from({ length: LISTINGS_PER_VENDOR }, (_, l) => ({
        kind: l % 2 ? ('adventure' as const) : ('equipment' as const),
        vendor_id: profile.id,
        category_id: 1,
        public_id: `v${v}-l${l}`,
        title: `Listing ${l}`,
        description: '',
        details: '{}',
        location: '',
        price_cents: 4500,
        is_active: 1 as const,
        created_at: 0,
        updated_at: 0,
      })),
    )
    .returning(['id', 'kind'])
    .execute();
  vendors.push({ userId: user.id, id: profile.id, listings });
}
const target = vendors[0];
const campaigns = Array.from({ length: CAMPAIGNS }, (_, i) => ({
  utm_source: ['google', 'facebook', 'newsletter', 'instagram', 'partner'][i % 5],
  utm_medium: ['cpc', 'social', 'email'][i % 3],
  utm_campaign: `campaign-${String(i).padStart(2, '0')}`,
}));

/** crawlers' share of clicks, which the summary leaves out */
const BOT_SHARE = 0.05;

function click(vendorIndex: number, at: number): Insertable<ListingClicksTable> {
  const listing = vendors[vendorIndex].listings[pick(LISTINGS_PER_VENDOR)];
  const marketing = random() < 0.5;
  const campaign = marketing && random() < 0.8 ? campaigns[pick(CAMPAIGNS)] : null;
  return {
    listing_id: listing.id,
    listing_kind: listing.kind,
    vendor_id: vendors[vendorIndex].id,
    traffic_type: marketing ? 'marketing' : 'organic',
    source: random() < 0.9 ? 'detail_view' : 'track',
    utm_source: campaign?.utm_source ?? (marketing ? 'google' : ''),
    utm_medium: campaign?.utm_medium ?? '',
    utm_campaign: campaign?.utm_campaign ?? '',
    utm_term: '',
    utm_content: '',
    gclid: '',
    fbclid: '',
    referrer: '',
    is_bot: random() < BOT_SHARE ? 1 : 0,
    created_at: at,
  };
}

const events: [number, number][] = []; // [at, vendor index]
for (let i = 0; i < VENDOR_CLICKS; i++) events.push([FROM + pick(30 * DAY), 0]);
for (let i = 0; i < OUTSIDE; i++) events.push([YEAR_START + pick(335 * DAY), 0]);
for (let i = 0; i < TOTAL - VENDOR_CLICKS - OUTSIDE; i++)
  events.push([YEAR_START + pick(365 * DAY), 1 + pick(VENDORS - 1)]);
events.sort((a, b) => a[0] - b[0]);
const BATCH = 2_000; // rows per INSERT: under both databases' bound-parameter limits
for (let start = 0; start < events.length; start += BATCH) {
  await db
    .insertInto('listing_clicks')
    .values(events.slice(start, start + BATCH).map(([at, v]) => click(v, at)))
    .execute();
}
const targetClicks = await db
  .selectFrom('listing_clicks')
  .select('id')
  .where('vendor_id', '=', target.id)
  .where('created_at', '>=', FROM)
  .where('created_at', '<', TO)
  .orderBy('id')
  .execute();
const bookings = Array.from({ length: BOOKINGS }, (_, i) => {
  const at = FROM + pick(30 * DAY);
  const listing = target.listings[pick(LISTINGS_PER_VENDOR)];
  const startsAt = TO + i * DAY; // a window of its own: PostgreSQL refuses overlapping active bookings
  return {
    listing_id: listing.id,
    listing_kind: listing.kind,
    vendor_id: target.id,
    customer_id: customer.id,
    status: 'requested' as const,
    starts_at: startsAt,
    ends_at: startsAt + DAY,
    customer_notes: '',
    vendor_notes: '',
    total_price_cents: 4500,
    currency: 'usd',
    listing_click_id: random() < 2 / 3 ? targetClicks[pick(targetClicks.length)].id : null,
    created_at: at,
    updated_at: at,
  };
});
for (let start = 0; start < bookings.length; start += 1000)
  await db
    .insertInto('bookings')
    .values(bookings.slice(start, start + 1000))
    .execute();
// PostgreSQL: index-only scans need the visibility map, which autovacuum would build soon after a load
if (pgUrl) await sql`vacuum analyze`.execute(db);
const fillMs = performance.now() - fillStarted;

// --- measurements -------------------------------------------------------------------------------------------

const clock = new ManualClock('2026-06-01T12:00:00Z');
const deps = { db, clock };
const query = { from: new Date(FROM).toISOString(), to: new Date(TO).toISOString() };
// from/to off midnight: on SQLite the partial days at both edges are counted from raw clicks
const offMidnight = {
  from: new Date(FROM + 13 * 3_600_000 + 1).toISOString(),
  to: new Date(TO - 5 * 3_600_000 - 1).toISOString(),
};

async function time(name: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn(); // warm-up: statement cache, page cache
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (p: number) => samples[Math.min(samples.length - 1, Math.ceil(p * samples.length) - 1)];
  const ms = (n: number) => `${n.toFixed(2).padStart(7)} ms`;
  console.log(`${name.padEnd(42)} p50 ${ms(at(0.5))}   p99 ${ms(at(0.99))}`);
}

const summary = await summariseVendorClicks(deps, target.id, query);
for (const range of [query, offMidnight]) {
  const viaRollup = JSON.stringify(await summariseVendorClicks(deps, target.id, range));
  const raw = JSON.stringify(await summariseVendorClicks(deps, target.id, range, { rollup: false }));
  if (viaRollup !== raw) throw new Error(`rollup and raw summaries differ for ${JSON.stringify(range)}`);
}
console.log(
  `${handle.dialect}: ${TOTAL} clicks, vendor ${summary.clicks.total} in range (+${OUTSIDE} outside), ` +
    `${summary.campaigns.length} campaign rows, bookings ${JSON.stringify(summary.bookings_attributed)}; ` +
    `fill ${(fillMs / 1000).toFixed(1)} s`,
);

const config = loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: 'bench-secret-long-enough-0123456789' });
const app = await buildApp(config, { db, clock });
await app.ready();
const { token } = await issueToken(
  { key: await loadSigningKey(db, config.jwtSecret), accessTtl: 3600, refreshTtl: 3600 },
  target.userId,
  'access',
  clock.now().getTime(),
);
const get = async (url: string) => {
  const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
};
const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();

await time('summary, service (30 days, midnight edges)', () => summariseVendorClicks(deps, target.id, query));
await time('summary, service (edges off midnight)', () =>
  summariseVendorClicks(deps, target.id, offMidnight),
);
await time('summary, service, raw clicks only', () =>
  summariseVendorClicks(deps, target.id, query, { rollup: false }),
);
await time('GET vendor/summary/ (HTTP, inject)', () =>
  get(`/api/v1/marketing/vendor/summary/?${qs(offMidnight)}`),
);
await time('GET vendor/clicks/ page 1', () => get(`/api/v1/marketing/vendor/clicks/?${qs(query)}`));
await time('GET vendor/clicks/ page 1, one campaign', () =>
  get(`/api/v1/marketing/vendor/clicks/?${qs({ ...query, utm_campaign: 'campaign-07' })}`),
);
await time('click list service, page 1', () =>
  listVendorClicks(deps, target.id, query, { page: 1, limit: 20, offset: 0 }),
);

await app.close();
await handle.close();
if (args.keep) console.log('kept the database');
else await cleanup();
