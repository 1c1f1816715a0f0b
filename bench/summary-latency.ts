// Latency of the vendor summary (and the click list) at scale, on SQLite:
//   node bench/summary-latency.ts [--clicks 1000000] [--vendor-clicks 100000] [--runs 50] [--keep]
// Fills a temporary SQLite file with the full schema, `clicks` clicks of which `vendor-clicks` belong to one
// vendor within a 30-day range (about 30 campaigns, a few thousand bookings, two thirds of them attributed),
// then times the service functions, as the HTTP handlers call them, and prints p50/p99 in milliseconds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { listVendorClicks, summariseVendorClicks } from '../src/modules/marketing/analytics.service.ts';

const { values: args } = parseArgs({
  options: {
    clicks: { type: 'string', default: '1000000' },
    'vendor-clicks': { type: 'string', default: '100000' },
    'vendor-clicks-outside': { type: 'string', default: '0' },
    runs: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
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

// Deterministic pseudo-random numbers (mulberry32), so every run measures the same data.
let seed = 42;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
const pick = (n: number) => Math.floor(random() * n);

const dir = mkdtempSync(join(tmpdir(), 'summary-bench-'));
const file = join(dir, 'bench.sqlite');
const handle = createDb(`sqlite:${file}`);
await migrateToLatest(handle.db);

const fillStarted = performance.now();
const fill = new SQLite(file);
fill.pragma('journal_mode = WAL');
fill.pragma('synchronous = OFF');
const insertUser = fill.prepare(
  `insert into users (email, password_hash, first_name, last_name, phone_number, is_vendor, is_staff,
   date_joined, updated_at) values (?, 'x', '', '', '', ?, 0, 0, 0)`,
);
const insertVendor = fill.prepare(
  `insert into vendor_profiles (user_id, business_name, slug, description, contact_phone, contact_email,
   address_line1, address_line2, city, state, postal_code, country, created_at, updated_at)
   values (?, ?, ?, '', '', '', '', '', '', '', '', '', 0, 0)`,
);
const insertListing = fill.prepare(
  `insert into listings (kind, vendor_id, category_id, public_id, title, price_cents, created_at, updated_at)
   values (?, ?, 1, ?, ?, 4500, 0, 0)`,
);
const insertClick = fill.prepare(
  `insert into listing_clicks (listing_id, listing_kind, vendor_id, traffic_type, source, utm_source,
   utm_medium, utm_campaign, referrer, user_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, '', null, ?)`,
);
const insertBooking = fill.prepare(
  `insert into bookings (listing_id, listing_kind, vendor_id, customer_id, status, starts_at, ends_at,
   total_price_cents, listing_click_id, created_at, updated_at)
   values (?, ?, ?, ?, 'requested', ?, ?, 4500, ?, ?, ?)`,
);

const vendorIds: number[] = [];
const listingsOf = new Map<number, { id: number; kind: string }[]>();
let customerId = 0;
fill.transaction(() => {
  customerId = Number(insertUser.run('customer@bench.example', 0).lastInsertRowid);
  for (let v = 0; v < VENDORS; v++) {
    const userId = Number(insertUser.run(`vendor${v}@bench.example`, 1).lastInsertRowid);
    const vendorId = Number(insertVendor.run(userId, `Vendor ${v}`, `vendor-${v}`).lastInsertRowid);
    vendorIds.push(vendorId);
    const listings = [];
    for (let l = 0; l < LISTINGS_PER_VENDOR; l++) {
      const kind = l % 2 ? 'adventure' : 'equipment';
      const id = Number(insertListing.run(kind, vendorId, `v${v}-l${l}`, `Listing ${l}`).lastInsertRowid);
      listings.push({ id, kind });
    }
    listingsOf.set(vendorId, listings);
  }
})();

const target = vendorIds[0];
const campaigns = Array.from({ length: CAMPAIGNS }, (_, i) => ({
  source: ['google', 'facebook', 'newsletter', 'instagram', 'partner'][i % 5],
  medium: ['cpc', 'social', 'email'][i % 3],
  campaign: `campaign-${String(i).padStart(2, '0')}`,
}));

function addClick(vendorId: number, at: number): number {
  const listing = listingsOf.get(vendorId)![pick(LISTINGS_PER_VENDOR)];
  const marketing = random() < 0.5;
  const c = marketing && random() < 0.8 ? campaigns[pick(CAMPAIGNS)] : null;
  const source = random() < 0.9 ? 'detail_view' : 'track';
  return Number(
    insertClick.run(
      listing.id,
      listing.kind,
      vendorId,
      marketing ? 'marketing' : 'organic',
      source,
      c?.source ?? (marketing ? 'google' : ''),
      c?.medium ?? '',
      c?.campaign ?? '',
      at,
    ).lastInsertRowid,
  );
}

// Insert in time order, as a live system would: the target vendor's clicks interleaved with the others'.
const targetClickIds: number[] = [];
const BATCH = 20_000;
const others = TOTAL - VENDOR_CLICKS - OUTSIDE;
const events: [number, number][] = []; // [at, vendorId]
for (let i = 0; i < VENDOR_CLICKS; i++) events.push([FROM + pick(30 * DAY), target]);
for (let i = 0; i < OUTSIDE; i++) events.push([YEAR_START + pick(335 * DAY), target]);
for (let i = 0; i < others; i++)
  events.push([YEAR_START + pick(365 * DAY), vendorIds[1 + pick(VENDORS - 1)]]);
events.sort((a, b) => a[0] - b[0]);
for (let start = 0; start < events.length; start += BATCH) {
  fill.transaction(() => {
    for (const [at, vendorId] of events.slice(start, start + BATCH)) {
      const id = addClick(vendorId, at);
      if (vendorId === target && at >= FROM && at < TO) targetClickIds.push(id);
    }
  })();
}
fill.transaction(() => {
  for (let i = 0; i < BOOKINGS; i++) {
    const at = FROM + pick(30 * DAY);
    const listing = listingsOf.get(target)![pick(LISTINGS_PER_VENDOR)];
    const clickId = random() < 2 / 3 ? targetClickIds[pick(targetClickIds.length)] : null;
    insertBooking.run(listing.id, listing.kind, target, customerId, at + DAY, at + 2 * DAY, clickId, at, at);
  }
})();
fill.close();
const fillMs = performance.now() - fillStarted;

const deps = { db: handle.db, clock: new ManualClock() };
const query = { from: new Date(FROM).toISOString(), to: new Date(TO).toISOString() };

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
  console.log(
    `${name.padEnd(34)} p50 ${at(0.5).toFixed(2).padStart(7)} ms   p99 ${at(0.99).toFixed(2).padStart(7)} ms`,
  );
}

const summary = await summariseVendorClicks(deps, target, query);
console.log(
  `data: ${TOTAL} clicks, vendor ${summary.clicks.total} in range (+${OUTSIDE} outside), ` +
    `${summary.campaigns.length} campaign rows, bookings ${JSON.stringify(summary.bookings_attributed)}; ` +
    `fill ${(fillMs / 1000).toFixed(1)} s`,
);
const raw = await summariseVendorClicks(deps, target, query, { rollup: false });
if (JSON.stringify(raw) !== JSON.stringify(summary)) throw new Error('rollup and raw summaries differ');
// from/to off midnight: the partial days at both edges are counted from the raw clicks.
const unaligned = {
  from: new Date(FROM + 13 * 3_600_000 + 1).toISOString(),
  to: new Date(TO - 5 * 3_600_000 - 1).toISOString(),
};
const unalignedSummary = await summariseVendorClicks(deps, target, unaligned);
const unalignedRaw = await summariseVendorClicks(deps, target, unaligned, { rollup: false });
if (JSON.stringify(unalignedRaw) !== JSON.stringify(unalignedSummary)) throw new Error('edges differ');
await time('summary (30 days, 1 vendor)', () => summariseVendorClicks(deps, target, query));
await time('summary, range edges off midnight', () => summariseVendorClicks(deps, target, unaligned));
await time('summary without rollup', () => summariseVendorClicks(deps, target, query, { rollup: false }));
await time('click list page 1', () =>
  listVendorClicks(deps, target, query, { page: 1, limit: 20, offset: 0 }),
);
await time('click list page 1, one campaign', () =>
  listVendorClicks(
    deps,
    target,
    { ...query, utm_campaign: 'campaign-07' },
    { page: 1, limit: 20, offset: 0 },
  ),
);

await handle.close();
if (args.keep) console.log(`kept ${file}`);
else rmSync(dir, { recursive: true, force: true });
