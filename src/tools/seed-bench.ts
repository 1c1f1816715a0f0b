import { type Insertable, type Kysely, sql } from 'kysely';
import type { BookingStatus, Database, ListingKind, ListingsTable } from '../db/database.ts';
import { dialectOf } from '../db/dialect.ts';
import { inTransaction } from '../db/transactions.ts';
import { normalizeRates } from '../lib/rental-terms.ts';
import { normalizeSchedule } from '../lib/schedule.ts';
import { hashPassword } from '../modules/accounts/passwords.ts';

// The benchmark's data generator: writes rows straight into the tables (multi-row inserts, explicit ids,
// a transaction per ~100k rows), so that a million clicks take seconds, not the minutes the API would.
// Everything is derived from a fixed pseudo-random seed and `now`: the same counts give the same data.

export const BENCH_VENDOR_EMAIL = 'bench-vendor@example.com';
export const BENCH_PASSWORD = 'bench-pass-123';
/** Items of the known vendor at the default sizes; the load scenarios rotate over their public ids. */
export const BENCH_VENDOR_ITEMS = 1000;
export const benchItemPublicId = (n: number) => `bench-item-${String(n).padStart(6, '0')}`;
export const benchCustomerEmail = (n: number) => `bench-customer-${n}@example.com`;
/**
 * The bench vendor's multi-unit items, for the unit-aware booking scenario: a few items of several units
 * each, so that its requests contend for them.
 */
export const BENCH_UNIT_ITEMS = 4;
export const BENCH_UNITS_PER_ITEM = 5;
export const benchUnitItemPublicId = (n: number) => `bench-units-${String(n).padStart(2, '0')}`;

export interface SeedBenchSizes {
  /** vendor accounts, the known bench vendor included */
  vendors: number;
  /** equipment items, the bench vendor's included */
  items: number;
  adventures: number;
  clicks: number;
  bookings: number;
  customers: number;
}

export const SEED_DEFAULTS: SeedBenchSizes = {
  vendors: 200,
  items: 20_000,
  adventures: 20_000,
  clicks: 1_000_000,
  bookings: 100_000,
  customers: 1_000,
};

/** The bench vendor's share of clicks and bookings (about 100,000 of 1 M clicks). */
const BENCH_SHARE = 0.1;
const MARKETING_SHARE = 0.4;
const ATTRIBUTED_SHARE = 0.7;
const LISBON_SHARE = 0.25;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The share of clicks from crawlers (stored, left out of analytics unless asked for). */
const BOT_SHARE = 0.05;
const BENCH_CLICK_SPAN = 30 * DAY;
const OTHER_CLICK_SPAN = 90 * DAY;
/** bound parameters per statement: SQLite's default maximum and PostgreSQL's protocol limit */
const PARAM_LIMIT = { sqlite: 32_766, postgres: 65_535 } as const;
const ROWS_PER_TRANSACTION = 100_000;

const SOURCES: [string, string][] = [
  ['google', 'cpc'],
  ['facebook', 'social'],
  ['instagram', 'social'],
  ['newsletter', 'email'],
  ['tiktok', 'social'],
  ['partner-blog', 'referral'],
];
/** 30 utm_source / utm_medium / utm_campaign triples. */
export const BENCH_CAMPAIGNS: { utm_source: string; utm_medium: string; utm_campaign: string }[] = Array.from(
  { length: 30 },
  (_, i) => {
    const [utm_source, utm_medium] = SOURCES[i % SOURCES.length];
    return { utm_source, utm_medium, utm_campaign: `bench-campaign-${String(i + 1).padStart(2, '0')}` };
  },
);

const LISBON_PLACES = ['Lisbon', 'Lisbon, Belém', 'Doca de Alcântara, Lisbon', 'Parque das Nações, LISBON'];
const OTHER_PLACES = [
  'Porto',
  'Cascais',
  'Ericeira',
  'Peniche',
  'Nazaré',
  'Lagos',
  'Sagres',
  'Faro',
  'Albufeira',
  'Sesimbra',
  'Setúbal',
  'Madeira, Funchal',
];
const BRANDS = ['Aquamarine', 'BlueFin', 'Red Paddle', 'Starboard', 'Naish', "O'Neill", 'Cressi', 'Mares'];
const ADJECTIVES = ['Classic', 'Touring', 'Family', 'Pro', 'Sunset', 'Explorer', 'Coastal', 'Lagoon'];
const STATUSES: [BookingStatus, number][] = [
  ['requested', 0.3],
  ['approved', 0.2],
  ['confirmed', 0.3],
  ['declined', 0.1],
  ['cancelled', 0.1],
];

export interface SeedBenchResult {
  /** rows written per table */
  rows: {
    users: number;
    vendor_profiles: number;
    listings: number;
    listing_clicks: number;
    bookings: number;
    booking_status_history: number;
    payments: number;
  };
  benchVendor: { userId: number; vendorId: number; items: number; clicks: number; bookings: number };
  /** milliseconds per phase */
  timings: Record<string, number>;
}

export interface SeedBenchOptions {
  /** epoch ms the data is relative to (clicks in the last 30/90 days, booking windows after it) */
  now: number;
  log?: (line: string) => void;
  /** after each multi-row insert: the rows of `table` written so far, of the `expected` it will have */
  progress?: (table: string, written: number, expected: number) => void;
}

/** True when the bench vendor already exists (the generator refuses to seed twice). */
export async function benchDataPresent(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', BENCH_VENDOR_EMAIL)
    .executeTakeFirst();
  return row !== undefined;
}

/** A listing row the bench vendor may lack, by its public id. */
type BenchListing = Omit<
  Insertable<ListingsTable>,
  'vendor_id' | 'category_id' | 'created_at' | 'updated_at'
>;

/** The bench vendor's profile id (vendor_profiles.id); the bench data must be seeded. */
export async function benchVendorId(db: Kysely<Database>): Promise<number> {
  const vendor = await db
    .selectFrom('users')
    .innerJoin('vendor_profiles', 'vendor_profiles.user_id', 'users.id')
    .select('vendor_profiles.id')
    .where('users.email', '=', BENCH_VENDOR_EMAIL)
    .executeTakeFirstOrThrow();
  return vendor.id;
}

/**
 * Adds those of the bench vendor's listings `wanted` that are missing (by kind and public id), made by
 * `make`, and returns how many it added: a database seeded before they existed is topped up rather than
 * seeded again. Needs the bench vendor.
 */
export async function addMissingListings(
  db: Kysely<Database>,
  now: number,
  kind: ListingKind,
  wanted: string[],
  make: (publicId: string) => BenchListing,
): Promise<number> {
  const vendor = { id: await benchVendorId(db) };
  const present = new Set(
    (
      await db
        .selectFrom('listings')
        .select('public_id')
        .where('kind', '=', kind)
        .where('public_id', 'in', wanted)
        .execute()
    ).map((r) => r.public_id),
  );
  const missing = wanted.filter((publicId) => !present.has(publicId));
  if (!missing.length) return 0;
  const category = await db.selectFrom('categories').select('id').orderBy('id').executeTakeFirstOrThrow();
  await db
    .insertInto('listings')
    .values(
      missing.map((publicId) => ({
        ...make(publicId),
        vendor_id: vendor.id,
        category_id: category.id,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  return missing.length;
}

/** Adds the bench vendor's multi-unit items that are missing; how many it added. */
export function seedBenchUnitItems(db: Kysely<Database>, now: number): Promise<number> {
  const wanted = Array.from({ length: BENCH_UNIT_ITEMS }, (_, i) => benchUnitItemPublicId(i + 1));
  return addMissingListings(db, now, 'equipment', wanted, (publicId) => ({
    kind: 'equipment' as const,
    public_id: publicId,
    title: `Bench fleet ${publicId.slice(-2)}`,
    description: `${BENCH_UNITS_PER_ITEM} identical touring kayaks.`,
    details: '{}',
    location: 'Lisbon',
    price_cents: 4000,
    duration_minutes: null,
    capacity: null,
    quantity: BENCH_UNITS_PER_ITEM,
    is_active: 1 as const,
    archived_at: null,
  }));
}

/** The bench vendor's scheduled tours (decisions §19): every day at these times. */
export const BENCH_TOURS = 40;
export const BENCH_TOUR_TIMES = ['09:00', '11:00', '13:00', '15:00'];
export const benchTourPublicId = (n: number) => `bench-tour-${String(n).padStart(2, '0')}`;

/** Adds the bench vendor's scheduled tours that are missing; how many it added. */
export function seedBenchTours(db: Kysely<Database>, now: number): Promise<number> {
  const wanted = Array.from({ length: BENCH_TOURS }, (_, i) => benchTourPublicId(i + 1));
  const schedule = [
    { weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_times: BENCH_TOUR_TIMES },
  ];
  return addMissingListings(db, now, 'adventure', wanted, (publicId) => ({
    kind: 'adventure' as const,
    public_id: publicId,
    title: `Bench harbour tour ${publicId.slice(-2)}`,
    description: 'Four departures a day.',
    details: '{}',
    location: 'Lisbon',
    price_cents: 2500,
    duration_minutes: 90,
    // seats enough that every request of a bench run is accepted
    capacity: 10_000,
    booking_mode: 'shared' as const,
    schedule: JSON.stringify(normalizeSchedule(schedule)),
    is_active: 1 as const,
    archived_at: null,
  }));
}

/**
 * The bench vendor's rental items (decisions §20): priced by rates, with duration limits and a turnaround
 * buffer, for the rental booking scenario.
 */
export const BENCH_RENTAL_ITEMS = 40;
export const BENCH_RENTAL_BUFFER_MINUTES = 60;
export const benchRentalItemPublicId = (n: number) => `bench-rental-${String(n).padStart(2, '0')}`;

/** Adds the bench vendor's rental items that are missing; how many it added. */
export function seedBenchRentalItems(db: Kysely<Database>, now: number): Promise<number> {
  const wanted = Array.from({ length: BENCH_RENTAL_ITEMS }, (_, i) => benchRentalItemPublicId(i + 1));
  const rates = normalizeRates([
    { duration_minutes: 60, price: '15.00' },
    { duration_minutes: 120, price: '25.00' },
    { duration_minutes: 240, price: '40.00' },
  ]);
  return addMissingListings(db, now, 'equipment', wanted, (publicId) => ({
    kind: 'equipment' as const,
    public_id: publicId,
    title: `Bench paddleboard ${publicId.slice(-2)}`,
    description: 'Rented by the hour, half day or day.',
    details: '{}',
    location: 'Lisbon',
    price_cents: 6000,
    duration_minutes: null,
    capacity: null,
    rates: JSON.stringify(rates),
    min_duration_minutes: 60,
    max_duration_minutes: 10_080,
    buffer_minutes: BENCH_RENTAL_BUFFER_MINUTES,
    is_active: 1 as const,
    archived_at: null,
  }));
}

export function checkSeedSizes(sizes: SeedBenchSizes): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isSafeInteger(value) || value < 0) problems.push(`--${name} must be an integer >= 0`);
  }
  if (sizes.vendors < 1) problems.push('--vendors must be at least 1 (the bench vendor)');
  if (sizes.items < 1) problems.push('--items must be at least 1 (the bench vendor owns items)');
  if (sizes.bookings > 0 && sizes.customers < 1) problems.push('--bookings needs --customers >= 1');
  return problems;
}

/** A small, fast, seedable PRNG (mulberry32): the same sizes always give the same data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Table = keyof Database & string;
type Row<T extends Table> = Partial<Insertable<Database[T]>>;

/**
 * Writes rows in multi-row inserts of as many rows as the bound-parameter limit allows, committing every
 * ~100k rows. Every row must have the same keys (the first row's decide the statement's columns); columns
 * left out take their defaults (empty strings), which keeps the statements short.
 */
async function writeRows<T extends Table>(
  db: Kysely<Database>,
  table: T,
  rows: Iterable<Row<T>>,
  report: (written: number) => void,
): Promise<number> {
  const iterator = rows[Symbol.iterator]();
  let next = iterator.next();
  if (next.done) return 0;
  const chunkSize = Math.floor(PARAM_LIMIT[dialectOf(db)] / Object.keys(next.value).length);
  const chunksPerTransaction = Math.max(1, Math.round(ROWS_PER_TRANSACTION / chunkSize));
  let written = 0;
  while (!next.done) {
    await inTransaction(db, async (trx) => {
      for (let c = 0; c < chunksPerTransaction && !next.done; c++) {
        const chunk: Row<T>[] = [];
        while (chunk.length < chunkSize && !next.done) {
          chunk.push(next.value);
          next = iterator.next();
        }
        await trx
          .insertInto(table)
          .values(chunk as never)
          .execute();
        written += chunk.length;
        report(written);
      }
    });
  }
  return written;
}

async function maxId(db: Kysely<Database>, table: Table): Promise<number> {
  const { rows } = await sql<{ m: number | string | null }>`select max(id) as m from ${sql.table(
    table,
  )}`.execute(db);
  return Number(rows[0]?.m ?? 0);
}

/** PostgreSQL: explicit ids leave the serial sequences behind; move them past the rows written. */
async function syncSequences(db: Kysely<Database>, tables: Table[]): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const table of tables) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(
      table,
    )}), 0) + 1, false)`.execute(db);
  }
}

/** Entries of a booking's status history by its state: the transitions that led there from requested. */
const HISTORY_ENTRIES: Record<BookingStatus, number> = {
  requested: 1,
  approved: 2,
  confirmed: 3,
  declined: 2,
  cancelled: 2,
  expired: 2,
};
const historyLength = (bookings: { status: BookingStatus }[]) =>
  bookings.reduce((sum, b) => sum + HISTORY_ENTRIES[b.status], 0);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function base62(n: number, width: number): string {
  let out = '';
  for (let v = n; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, '0');
}

/**
 * Fills the database with the benchmark's data set: the known bench vendor (1,000 equipment items with
 * public ids bench-item-000001..., ~10% of all clicks over the last 30 days in ~30 campaigns, attributed
 * bookings), other vendors with items and adventures in every category, customers, and the remaining
 * clicks and bookings. The schema must be migrated; the database must not hold the bench data yet.
 */
export async function seedBench(
  db: Kysely<Database>,
  sizes: SeedBenchSizes,
  options: SeedBenchOptions,
): Promise<SeedBenchResult> {
  const problems = checkSeedSizes(sizes);
  if (problems.length) throw new Error(problems.join('; '));
  if (await benchDataPresent(db)) throw new Error(`the bench data is already there (${BENCH_VENDOR_EMAIL})`);
  const { now } = options;
  const log = options.log ?? (() => {});
  const progress = options.progress ?? (() => {});
  const write = <T extends Table>(table: T, rows: Iterable<Row<T>>, expected: number) =>
    writeRows(db, table, rows, (written) => progress(table, written, expected));
  const random = prng(20_260_601);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const timings: Record<string, number> = {};
  const started = performance.now();
  let phaseStart = started;
  const phase = (name: string, rows: number) => {
    const end = performance.now();
    timings[name] = Math.round(end - phaseStart);
    const seconds = (end - phaseStart) / 1000;
    const rate = seconds > 0 ? Math.round(rows / seconds) : rows;
    log(
      `${name}: ${rows.toLocaleString('en')} rows in ${seconds.toFixed(2)} s (${rate.toLocaleString('en')}/s)`,
    );
    phaseStart = end;
  };

  // --- accounts ---------------------------------------------------------------------------------------
  // One argon2 hash (tens of milliseconds) shared by every seeded account.
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const userBase = await maxId(db, 'users');
  const profileBase = await maxId(db, 'vendor_profiles');
  const vendorUserId = (v: number) => userBase + 1 + v;
  const vendorId = (v: number) => profileBase + 1 + v;
  const customerUserId = (c: number) => userBase + 1 + sizes.vendors + c;
  const joined = now - 180 * DAY;
  function* users(): Generator<Row<'users'>> {
    for (let v = 0; v < sizes.vendors; v++) {
      yield {
        id: vendorUserId(v),
        email: v === 0 ? BENCH_VENDOR_EMAIL : `bench-vendor-${String(v + 1).padStart(4, '0')}@example.com`,
        password_hash: passwordHash,
        first_name: 'Vendor',
        last_name: String(v + 1),
        phone_number: '',
        is_vendor: 1,
        is_staff: 0,
        date_joined: joined + v * MINUTE,
        updated_at: joined + v * MINUTE,
      };
    }
    for (let c = 0; c < sizes.customers; c++) {
      yield {
        id: customerUserId(c),
        email: benchCustomerEmail(c + 1),
        password_hash: passwordHash,
        first_name: 'Customer',
        last_name: String(c + 1),
        phone_number: '',
        is_vendor: 0,
        is_staff: 0,
        date_joined: joined + c * MINUTE,
        updated_at: joined + c * MINUTE,
      };
    }
  }
  const userRows = await write('users', users(), sizes.vendors + sizes.customers);
  function* profiles(): Generator<Row<'vendor_profiles'>> {
    for (let v = 0; v < sizes.vendors; v++) {
      const name = v === 0 ? 'Bench Vendor Watersports' : `Bench Vendor ${String(v + 1).padStart(4, '0')}`;
      const city = v % 4 === 0 ? 'Lisbon' : OTHER_PLACES[v % OTHER_PLACES.length];
      yield {
        id: vendorId(v),
        user_id: vendorUserId(v),
        business_name: name,
        // unique: derived from the unique name, as slugify would
        slug: name.toLowerCase().replace(/ /g, '-'),
        description: `${name} rents gear and runs trips on the coast near ${city}.`,
        contact_email: v === 0 ? BENCH_VENDOR_EMAIL : '',
        city,
        country: 'Portugal',
        created_at: joined + v * MINUTE,
        updated_at: joined + v * MINUTE,
      };
    }
  }
  const profileRows = await write('vendor_profiles', profiles(), sizes.vendors);
  phase('accounts', userRows + profileRows);

  // --- listings ---------------------------------------------------------------------------------------
  // Index layout: the bench vendor's items first, then the other vendors' items, then adventures (the
  // bench vendor's only when it is the sole vendor). Each vendor's listings are thus one index range.
  const others = sizes.vendors - 1;
  const benchItems = others === 0 ? sizes.items : Math.min(BENCH_VENDOR_ITEMS, Math.ceil(sizes.items / 2));
  const total = sizes.items + sizes.adventures;
  const benchListings = others === 0 ? total : benchItems;
  const listingBase = await maxId(db, 'listings');
  const kindOf = new Uint8Array(total); // 0 equipment, 1 adventure
  const vendorOf = new Int32Array(total);
  const priceOf = new Int32Array(total);
  const durationOf = new Int32Array(total);
  const capacityOf = new Int32Array(total);
  const categories = (await db.selectFrom('categories').select(['id', 'name']).orderBy('id').execute()).map(
    (c) => ({ id: c.id, name: c.name }),
  );
  if (!categories.length) throw new Error('no categories: migrate the database first');
  let equipmentSeq = 0;
  let adventureSeq = 0;
  function* listings(): Generator<Row<'listings'>> {
    for (let i = 0; i < total; i++) {
      const isItem = i < sizes.items;
      const vendor = i < benchItems || others === 0 ? 0 : 1 + (i % others);
      const category = pick(categories);
      const inLisbon = random() < LISBON_SHARE;
      const place = inLisbon ? pick(LISBON_PLACES) : pick(OTHER_PLACES);
      // 5.00 to 300.00 in steps of 0.50
      const price = 500 + Math.floor(random() * 591) * 50;
      const created = now - 120 * DAY + Math.floor(random() * 90 * DAY);
      const title = `${pick(ADJECTIVES)} ${category.name.toLowerCase()} ${isItem ? 'rental' : 'tour'}`;
      kindOf[i] = isItem ? 0 : 1;
      vendorOf[i] = vendor;
      priceOf[i] = price;
      const duration = isItem ? 0 : 60 * (1 + Math.floor(random() * 8));
      const capacity = isItem ? 0 : 2 + Math.floor(random() * 19);
      durationOf[i] = duration;
      capacityOf[i] = capacity;
      let publicId: string;
      if (!isItem) publicId = `bench-adv-${String(++adventureSeq).padStart(6, '0')}`;
      else if (vendor === 0) publicId = benchItemPublicId(++equipmentSeq);
      else publicId = `bench-eq-${String(i + 1).padStart(6, '0')}`;
      yield {
        id: listingBase + 1 + i,
        kind: isItem ? 'equipment' : 'adventure',
        vendor_id: vendorId(vendor),
        category_id: category.id,
        public_id: publicId,
        title,
        description: `${title} in ${place}. Well kept, checked before every hire; life jackets and a dry bag included.`,
        details: isItem
          ? JSON.stringify({ brand: pick(BRANDS), size: pick(['S', 'M', 'L', 'XL']), condition: 'good' })
          : '{}',
        location: place,
        price_cents: price,
        duration_minutes: isItem ? null : duration,
        capacity: isItem ? null : capacity,
        // the bench vendor's listings stay active: the load scenarios rotate over all of them
        is_active: vendor === 0 || random() >= 0.03 ? 1 : 0,
        created_at: created,
        updated_at: created,
      };
    }
  }
  const listingRows = await write('listings', listings(), total);
  phase('listings', listingRows);

  // --- clicks -----------------------------------------------------------------------------------------
  // Two time-ordered streams (the bench vendor's over 30 days, the others' over 90) merged by time, so
  // ids grow with created_at as they would in production.
  const otherListings = total - benchListings;
  const benchClicks = otherListings === 0 ? sizes.clicks : Math.round(sizes.clicks * BENCH_SHARE);
  const otherClicks = sizes.clicks - benchClicks;
  const clickBase = await maxId(db, 'listing_clicks');
  const clickListing = new Int32Array(sizes.clicks);
  const clickAt = new Float64Array(sizes.clicks);
  const benchClickIndex = new Int32Array(benchClicks);
  const otherClickIndex = new Int32Array(otherClicks);
  function* clicks(): Generator<Row<'listing_clicks'>> {
    let a = 0;
    let b = 0;
    const at = (i: number, n: number, span: number) => now - span + ((i + random()) * span) / n;
    let nextA = benchClicks > 0 ? at(0, benchClicks, BENCH_CLICK_SPAN) : Number.POSITIVE_INFINITY;
    let nextB = otherClicks > 0 ? at(0, otherClicks, OTHER_CLICK_SPAN) : Number.POSITIVE_INFINITY;
    for (let i = 0; i < sizes.clicks; i++) {
      let listing: number;
      let created: number;
      if (nextA <= nextB) {
        listing = Math.floor(random() * benchListings);
        created = Math.floor(nextA);
        benchClickIndex[a++] = i;
        nextA = a < benchClicks ? at(a, benchClicks, BENCH_CLICK_SPAN) : Number.POSITIVE_INFINITY;
      } else {
        listing = benchListings + Math.floor(random() * otherListings);
        created = Math.floor(nextB);
        otherClickIndex[b++] = i;
        nextB = b < otherClicks ? at(b, otherClicks, OTHER_CLICK_SPAN) : Number.POSITIVE_INFINITY;
      }
      clickListing[i] = listing;
      clickAt[i] = created;
      const marketing = random() < MARKETING_SHARE;
      // skewed towards the first campaigns, so the summary's campaign ranking is not a tie
      const campaign = marketing ? BENCH_CAMPAIGNS[Math.floor(random() ** 2 * BENCH_CAMPAIGNS.length)] : null;
      yield {
        id: clickBase + 1 + i,
        listing_id: listingBase + 1 + listing,
        listing_kind: kindOf[listing] === 0 ? 'equipment' : 'adventure',
        vendor_id: vendorId(vendorOf[listing]),
        traffic_type: marketing ? 'marketing' : 'organic',
        source: random() < 0.8 ? 'detail_view' : 'track',
        utm_source: campaign?.utm_source ?? '',
        utm_medium: campaign?.utm_medium ?? '',
        utm_campaign: campaign?.utm_campaign ?? '',
        // crawlers' views, which analytics leave out by default
        is_bot: random() < BOT_SHARE ? 1 : 0,
        created_at: created,
      };
    }
  }
  const clickRows = sizes.clicks > 0 ? await write('listing_clicks', clicks(), sizes.clicks) : 0;
  phase('clicks', clickRows);

  // --- bookings, their history and the payments of confirmed ones --------------------------------------
  const benchBookings = otherListings === 0 ? sizes.bookings : Math.round(sizes.bookings * BENCH_SHARE);
  const bookingBase = await maxId(db, 'bookings');
  // Windows are per listing, one a day at 09:00 UTC from tomorrow on: they never overlap, so the
  // PostgreSQL exclusion constraint holds whatever the statuses.
  const windowsTaken = new Int32Array(total);
  const firstWindow = Math.floor(now / DAY) * DAY + DAY + 9 * HOUR;
  interface SeededBooking {
    id: number;
    listing: number;
    customer: number;
    status: BookingStatus;
    created: number;
    changed: number;
    price: number;
  }
  const seeded: SeededBooking[] = [];
  function drawStatus(): BookingStatus {
    let r = random();
    for (const [status, share] of STATUSES) {
      if (r < share) return status;
      r -= share;
    }
    return 'requested';
  }
  function* bookings(): Generator<Row<'bookings'>> {
    for (let j = 0; j < sizes.bookings; j++) {
      const bench = j < benchBookings;
      const pool = bench ? benchClickIndex : otherClickIndex;
      let listing: number;
      let created: number;
      let clickId: number | null = null;
      if (pool.length > 0 && random() < ATTRIBUTED_SHARE) {
        const click = pool[Math.floor(random() * pool.length)];
        listing = clickListing[click];
        clickId = clickBase + 1 + click;
        created = Math.min(clickAt[click] + Math.floor(random() * 3 * HOUR), now - 1);
      } else {
        listing = bench
          ? Math.floor(random() * benchListings)
          : benchListings + Math.floor(random() * otherListings);
        created = now - Math.floor(random() * (bench ? BENCH_CLICK_SPAN : OTHER_CLICK_SPAN));
      }
      const isItem = kindOf[listing] === 0;
      const starts = firstWindow + windowsTaken[listing]++ * DAY;
      const ends = starts + (isItem ? 4 * HOUR : durationOf[listing] * MINUTE);
      const participants = isItem ? null : 1 + Math.floor(random() * Math.min(4, capacityOf[listing]));
      const price = isItem ? priceOf[listing] : (participants ?? 1) * priceOf[listing];
      const status = drawStatus();
      const changed = status === 'requested' ? created : Math.min(created + HOUR, now);
      const id = bookingBase + 1 + j;
      const customer = Math.floor(random() * sizes.customers);
      seeded.push({ id, listing, customer, status, created, changed, price });
      yield {
        id,
        listing_id: listingBase + 1 + listing,
        listing_kind: (isItem ? 'equipment' : 'adventure') satisfies ListingKind,
        vendor_id: vendorId(vendorOf[listing]),
        customer_id: customerUserId(customer),
        status,
        starts_at: starts,
        ends_at: ends,
        participants_count: participants,
        quantity: isItem ? 1 : null,
        customer_notes: '',
        vendor_notes: status === 'approved' || status === 'confirmed' ? 'See you at the dock.' : '',
        total_price_cents: price,
        currency: 'usd',
        listing_click_id: clickId,
        // the instant of its history's step to confirmed (below), as the transition writes it
        confirmed_at: status === 'confirmed' ? changed : null,
        created_at: created,
        updated_at: changed,
      };
    }
  }
  const bookingRows = sizes.bookings > 0 ? await write('bookings', bookings(), sizes.bookings) : 0;
  function* history(): Generator<Row<'booking_status_history'>> {
    for (const b of seeded) {
      const customer = customerUserId(b.customer);
      const vendorUser = vendorUserId(vendorOf[b.listing]);
      const row = (from: BookingStatus | null, to: BookingStatus, actor: number | null, at: number) => ({
        booking_id: b.id,
        from_status: from,
        to_status: to,
        note: '',
        actor_id: actor,
        created_at: at,
      });
      yield row(null, 'requested', customer, b.created);
      if (b.status === 'approved' || b.status === 'confirmed')
        yield row('requested', 'approved', vendorUser, b.changed);
      if (b.status === 'confirmed') yield row('approved', 'confirmed', null, b.changed);
      if (b.status === 'declined') yield row('requested', 'declined', vendorUser, b.changed);
      if (b.status === 'cancelled') yield row('requested', 'cancelled', customer, b.changed);
    }
  }
  const historyRows = await write('booking_status_history', history(), historyLength(seeded));
  function* payments(): Generator<Row<'payments'>> {
    for (const b of seeded) {
      if (b.status !== 'confirmed') continue;
      const intent = `pi_mock_${base62(b.id, 24)}`;
      yield {
        booking_id: b.id,
        gateway_payment_intent_id: intent,
        client_secret: `${intent}_secret_bench`,
        gateway_charge_id: `ch_mock_${base62(b.id, 24)}`,
        amount_cents: b.price,
        currency: 'usd',
        status: 'succeeded',
        created_at: b.changed,
        updated_at: b.changed,
      };
    }
  }
  const paymentRows = await write(
    'payments',
    payments(),
    seeded.filter((b) => b.status === 'confirmed').length,
  );
  phase('bookings', bookingRows + historyRows + paymentRows);

  const written: Table[] = ['users', 'vendor_profiles', 'listings', 'listing_clicks', 'bookings'];
  await syncSequences(db, written);
  const unitItemRows =
    (await seedBenchUnitItems(db, now)) +
    (await seedBenchTours(db, now)) +
    (await seedBenchRentalItems(db, now));
  // Fresh statistics, so the planner sees the new sizes straight away (PostgreSQL's autovacuum would
  // get there later; SQLite only ever has them after an ANALYZE).
  for (const table of [...written, 'booking_status_history', 'payments'] as const) {
    await sql`analyze ${sql.table(table)}`.execute(db);
  }
  phase('analyze', 0);
  timings.total = Math.round(performance.now() - started);

  return {
    rows: {
      users: userRows,
      vendor_profiles: profileRows,
      listings: listingRows + unitItemRows,
      listing_clicks: clickRows,
      bookings: bookingRows,
      booking_status_history: historyRows,
      payments: paymentRows,
    },
    benchVendor: {
      userId: vendorUserId(0),
      vendorId: vendorId(0),
      items: benchItems,
      clicks: benchClicks,
      bookings: benchBookings,
    },
    timings,
  };
}
