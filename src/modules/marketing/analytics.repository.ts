import { type OrderByItemBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database, Db, ListingClicksTable, ListingKind, TrafficType } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { Page } from '../../http/pagination.ts';
import { DAY_MS } from '../../lib/datetime.ts';

// Analytics is a read model over the whole service: besides its own listing_clicks table it reads
// `listings` (the click list shows public_id and title), `bookings` (conversion) and, for the time
// series' revenue, `booking_status_history`, `payments` and `refunds` — read-only, in SQL, and only in
// this file. Going through the catalog and booking modules row by row instead would mean
// joins in JavaScript over hundreds of thousands of rows. Nothing here ever writes those tables.
//
// Every range is half-open: created_at >= from and created_at < to (epoch milliseconds).

export interface VendorRange {
  vendorId: number;
  from: number;
  to: number;
}

export interface ClickFilter extends VendorRange {
  /** bot clicks are left out unless true (decisions §17) */
  includeBots?: boolean;
  trafficType?: TrafficType;
  listingKind?: ListingKind;
  utmCampaign?: string;
}

function clicksMatching(db: Db, filter: ClickFilter) {
  let query = db
    .selectFrom('listing_clicks as c')
    .where('c.vendor_id', '=', filter.vendorId)
    .where('c.created_at', '>=', filter.from)
    .where('c.created_at', '<', filter.to);
  if (!filter.includeBots) query = query.where('c.is_bot', '=', sql.lit(0));
  if (filter.trafficType) query = query.where('c.traffic_type', '=', filter.trafficType);
  if (filter.listingKind) query = query.where('c.listing_kind', '=', filter.listingKind);
  if (filter.utmCampaign) {
    // The literal twin of the bound comparison lets SQLite use the partial campaign index.
    query = query.where('c.utm_campaign', '=', filter.utmCampaign).where(sql<boolean>`c.utm_campaign <> ''`);
  }
  return query;
}

export async function countClicks(db: Db, filter: ClickFilter): Promise<number> {
  const row = await clicksMatching(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A click row as the click list shows it: the click plus its listing's public id and title. */
export type ClickListRow = Omit<Selectable<ListingClicksTable>, 'vendor_id'> & {
  public_id: string;
  title: string;
};

/** A vendor's clicks as the list shows them; archived listings included (the join ignores state). */
function clickRows(db: Db, filter: ClickFilter) {
  return clicksMatching(db, filter)
    .innerJoin('listings as l', 'l.id', 'c.listing_id')
    .select([
      'c.id',
      'c.listing_id',
      'c.listing_kind',
      'l.public_id',
      'l.title',
      'c.traffic_type',
      'c.source',
      'c.utm_source',
      'c.utm_medium',
      'c.utm_campaign',
      'c.utm_term',
      'c.utm_content',
      'c.gclid',
      'c.fbclid',
      'c.referrer',
      'c.user_id',
      'c.is_bot',
      'c.created_at',
    ]);
}

export async function listClicks(db: Db, filter: ClickFilter, page: Page): Promise<ClickListRow[]> {
  return clickRows(db, filter)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * Every matching click, oldest first, in chunks (the export): memory stays that of one chunk whatever the
 * range holds. Each chunk is its own short query that resumes after the last row sent (created_at, id), so
 * no statement, cursor or transaction stays open while a slow client reads: SQLite's one connection and
 * PostgreSQL's pool keep serving everyone else between chunks.
 */
export async function* clicksInChunks(db: Db, filter: ClickFilter, chunk = 1_000) {
  let after: { created_at: number; id: number } | undefined;
  for (;;) {
    // The range starts at the last row sent: a plain lower bound is what the (vendor_id, created_at)
    // index seeks to. Neither database derives one from the OR alone, and SQLite uses only one of two
    // lower bounds on a column (the range's own): either way every chunk scanned the range again from
    // its start (quadratic).
    let query = clickRows(db, after ? { ...filter, from: after.created_at } : filter);
    if (after) {
      const { created_at, id } = after;
      query = query.where((eb) => eb.or([eb('c.created_at', '>', created_at), eb('c.id', '>', id)]));
    }
    const rows = await query.orderBy('c.created_at', 'asc').orderBy('c.id', 'asc').limit(chunk).execute();
    if (rows.length) yield rows;
    if (rows.length < chunk) return;
    after = rows[rows.length - 1];
  }
}

// --- summary ---------------------------------------------------------------------------------------------

export interface SummaryOptions {
  /**
   * Read whole UTC days from the listing_click_daily and booking_daily rollups (default). False reads raw
   * clicks and bookings only; tests compare both to prove the rollups exact.
   */
  rollup?: boolean;
  /** the server's now: no click is later, so a part of a day after it holds none */
  now?: number;
  /** up to how many clicks each side of a partial edge day is counted when choosing how to read it */
  edgeProbe?: number;
}

/** Rows counted from one source over [from, to), added (1) or taken away (-1). */
export type SummaryPart = { table: 'daily' | 'raw'; from: number; to: number; sign: 1 | -1 };

const DEFAULT_EDGE_PROBE = 2_000;

/**
 * Where the clicks and bookings of [from, to) are counted: the rollups for whole UTC days and raw rows for
 * the partial days at the edges (without rollup: the raw rows of the whole range). A partial edge day is
 * read either directly or as its whole rollup day minus the rest of the day (the complement), whichever
 * holds fewer clicks; both are exact. A range ending after now (the usual `to` = now) takes the
 * complement without looking: it lies in the future and holds no rows. Computed once per summary, inside
 * its snapshot.
 */
export async function summaryParts(
  db: Db,
  range: VendorRange,
  options: SummaryOptions,
): Promise<SummaryPart[]> {
  const { vendorId, from, to } = range;
  if (options.rollup === false) return [{ table: 'raw', from, to, sign: 1 }];
  let firstDay = Math.ceil(from / DAY_MS) * DAY_MS;
  let endDay = Math.floor(to / DAY_MS) * DAY_MS;
  if (firstDay > endDay) return [{ table: 'raw', from, to, sign: 1 }]; // inside one day
  const probe = options.edgeProbe ?? DEFAULT_EDGE_PROBE;
  const edges: SummaryPart[] = [];
  if (from < firstDay) {
    const dayStart = firstDay - DAY_MS;
    if (await complementIsSmaller(db, vendorId, [from, firstDay], [dayStart, from], probe)) {
      edges.push({ table: 'raw', from: dayStart, to: from, sign: -1 });
      firstDay = dayStart;
    } else edges.push({ table: 'raw', from, to: firstDay, sign: 1 });
  }
  if (endDay < to) {
    const dayEnd = endDay + DAY_MS;
    if (
      to >= (options.now ?? Number.POSITIVE_INFINITY) ||
      (await complementIsSmaller(db, vendorId, [endDay, to], [to, dayEnd], probe))
    ) {
      edges.push({ table: 'raw', from: to, to: dayEnd, sign: -1 });
      endDay = dayEnd;
    } else edges.push({ table: 'raw', from: endDay, to, sign: 1 });
  }
  return firstDay < endDay ? [{ table: 'daily', from: firstDay, to: endDay, sign: 1 }, ...edges] : edges;
}

/**
 * Whether a partial day is cheaper read as its rollup day minus the complement: the direct side's clicks
 * are counted up to `probe`, then the complement's. A burst of clicks on either side of a range's edge
 * (a busy morning before `to`, or traffic since a `to` a little in the past) is then never read row by
 * row; the counting itself stops at `probe` index entries per side.
 */
async function complementIsSmaller(
  db: Db,
  vendorId: number,
  direct: [number, number],
  complement: [number, number],
  probe: number,
): Promise<boolean> {
  if ((await clicksUpTo(db, vendorId, direct, probe)) < probe) return false;
  return (await clicksUpTo(db, vendorId, complement, probe)) < probe;
}

async function clicksUpTo(db: Db, vendorId: number, [from, to]: [number, number], limit: number) {
  const row = await db
    .selectFrom(
      db
        .selectFrom('listing_clicks')
        .select(sql.lit(1).as('one'))
        .where('vendor_id', '=', vendorId)
        .where('created_at', '>=', from)
        .where('created_at', '<', to)
        .limit(limit)
        .as('probe'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One relation over the summary's parts: each read by `daily` (a rollup) or `raw` (rows), united. */
function overParts<Row>(
  parts: readonly SummaryPart[],
  daily: (p: SummaryPart) => SelectQueryBuilder<Database, keyof Database, Row>,
  raw: (p: SummaryPart) => SelectQueryBuilder<Database, keyof Database, Row>,
) {
  const [first, ...rest] = parts.map((p) => (p.table === 'daily' ? daily(p) : raw(p)));
  return rest.reduce((union, part) => union.unionAll(part), first);
}

/** A part's sign as the count of each raw row it reads: a literal, so the statement's plan never varies. */
const countOf = (p: SummaryPart) => sql<number>`${sql.lit(p.sign)}`;

/** The literal twin of `utm_campaign <> ''` that lets SQLite use the partial covering indexes. */
const HAS_CAMPAIGN = sql<SqlBool>`utm_campaign <> ''`;

/** Whose figures a summary or series counts, and how. */
export interface Scope {
  vendorId: number;
  /** the server's now: no row is later, so a range's part after it holds none */
  now: number;
  /** bot clicks are counted only when true */
  includeBots: boolean;
  /** the vendor's currency: revenue adds only bookings in it (amounts in two currencies do not add) */
  currency: string;
}

/** The condition that leaves bot clicks out (a literal: the statement's plan never varies). */
const NOT_BOT = sql<SqlBool>`is_bot = 0`;

/** Relation (traffic_type, clicks) over the vendor's clicks in range; each row counts `clicks` clicks. */
function trafficCounts(db: Db, scope: Scope, parts: readonly SummaryPart[]) {
  return overParts<{ traffic_type: string; clicks: number }>(
    parts,
    (p) =>
      db
        .selectFrom('listing_click_daily')
        .select(['traffic_type', 'clicks'])
        .where('vendor_id', '=', scope.vendorId)
        .where('day', '>=', p.from)
        .where('day', '<', p.to)
        .$if(!scope.includeBots, (q) => q.where(NOT_BOT)),
    (p) =>
      db
        .selectFrom('listing_clicks')
        .select(['traffic_type', countOf(p).as('clicks')])
        .where('vendor_id', '=', scope.vendorId)
        .where('created_at', '>=', p.from)
        .where('created_at', '<', p.to)
        .$if(!scope.includeBots, (q) => q.where(NOT_BOT)),
  );
}

type CampaignCount = { utm_source: string; utm_medium: string; utm_campaign: string; clicks: number };

/** Relation (utm_source, utm_medium, utm_campaign, clicks) over the vendor's clicks in range with a campaign. */
function campaignCounts(db: Db, scope: Scope, parts: readonly SummaryPart[]) {
  return overParts<CampaignCount>(
    parts,
    (p) =>
      db
        .selectFrom('listing_click_daily')
        .select(['utm_source', 'utm_medium', 'utm_campaign', 'clicks'])
        .where('vendor_id', '=', scope.vendorId)
        .where('day', '>=', p.from)
        .where('day', '<', p.to)
        .where(HAS_CAMPAIGN)
        .$if(!scope.includeBots, (q) => q.where(NOT_BOT)),
    (p) =>
      db
        .selectFrom('listing_clicks')
        .select(['utm_source', 'utm_medium', 'utm_campaign', countOf(p).as('clicks')])
        .where('vendor_id', '=', scope.vendorId)
        .where('created_at', '>=', p.from)
        .where('created_at', '<', p.to)
        .where(HAS_CAMPAIGN)
        .$if(!scope.includeBots, (q) => q.where(NOT_BOT)),
  );
}

type BookingCount = {
  traffic_type: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  bookings: number;
  confirmed: number;
  revenue_cents: number;
};

/**
 * A raw booking row's confirmed count and revenue, as the rollups sum them (migration 2026112701): a
 * booking that reached confirmed brings its price less its refunds, whatever happened to it later.
 */
export const reachedConfirmed = sql<number>`case when confirmed_at is not null then 1 else 0 end`;
export const revenueOf = (currency: string) =>
  sql<number>`case when confirmed_at is not null and currency = ${currency}
    then total_price_cents - refunded_cents else 0 end`;
/** A rollup row's revenue, in the scope's currency only. */
export const rolledUpRevenue = (currency: string) =>
  sql<number>`case when currency = ${currency} then revenue_cents else 0 end`;

/**
 * Relation (traffic_type, utm_source, utm_medium, utm_campaign, bookings, confirmed, revenue_cents) over
 * the vendor's bookings created in range, by their click's classification: traffic_type '' for a booking
 * without an attributed click. Whole days come from the booking_daily rollup, as clicks come from theirs.
 */
function bookingCounts(db: Db, scope: Scope, parts: readonly SummaryPart[]) {
  return overParts<BookingCount>(
    parts,
    (p) =>
      db
        .selectFrom('booking_daily')
        .select([
          'traffic_type',
          'utm_source',
          'utm_medium',
          'utm_campaign',
          'bookings',
          'confirmed',
          rolledUpRevenue(scope.currency).as('revenue_cents'),
        ])
        .where('vendor_id', '=', scope.vendorId)
        .where('day', '>=', p.from)
        .where('day', '<', p.to),
    (p) =>
      db
        .selectFrom('bookings')
        .select((eb) => [
          eb.fn.coalesce('click_traffic_type', sql.lit('')).as('traffic_type'),
          'click_utm_source as utm_source',
          'click_utm_medium as utm_medium',
          'click_utm_campaign as utm_campaign',
          countOf(p).as('bookings'),
          sql<number>`${sql.lit(p.sign)} * ${reachedConfirmed}`.as('confirmed'),
          sql<number>`${sql.lit(p.sign)} * ${revenueOf(scope.currency)}`.as('revenue_cents'),
        ])
        .where('vendor_id', '=', scope.vendorId)
        .where('created_at', '>=', p.from)
        .where('created_at', '<', p.to),
  );
}

export interface SummaryTotals {
  clicks_organic: number;
  clicks_marketing: number;
  bookings_organic: number;
  bookings_marketing: number;
  bookings_unattributed: number;
  confirmed_organic: number;
  confirmed_marketing: number;
  revenue_organic: number;
  revenue_marketing: number;
}

/**
 * Clicks by traffic type and bookings by the traffic type of their click, in one statement. "Bookings in
 * range" are created in range whatever their status; their click may be older than the range. A booking
 * carries its click's traffic type and campaign (copied by triggers, migration 2026112209); one whose
 * click is missing or belongs to another vendor has none and counts as unattributed: it can then never
 * reveal anything of another vendor, and the three booking counts always add up to the bookings in range.
 */
export async function summaryTotals(
  db: Db,
  scope: Scope,
  parts: readonly SummaryPart[],
): Promise<SummaryTotals> {
  const clicks = db.selectFrom(trafficCounts(db, scope, parts).as('counted')).select((eb) => {
    const clicksOf = (type: TrafficType) =>
      eb.fn.coalesce(eb.fn.sum<number>('clicks').filterWhere('traffic_type', '=', sql.lit(type)), sql.lit(0));
    return [clicksOf('organic').as('clicks_organic'), clicksOf('marketing').as('clicks_marketing')];
  });
  const bookings = db.selectFrom(bookingCounts(db, scope, parts).as('counted_bookings')).select((eb) => {
    const sumOf = (column: 'bookings' | 'confirmed' | 'revenue_cents', type: TrafficType | '') =>
      eb.fn.coalesce(eb.fn.sum<number>(column).filterWhere('traffic_type', '=', sql.lit(type)), sql.lit(0));
    return [
      sumOf('bookings', 'organic').as('bookings_organic'),
      sumOf('bookings', 'marketing').as('bookings_marketing'),
      sumOf('bookings', '').as('bookings_unattributed'),
      sumOf('confirmed', 'organic').as('confirmed_organic'),
      sumOf('confirmed', 'marketing').as('confirmed_marketing'),
      sumOf('revenue_cents', 'organic').as('revenue_organic'),
      sumOf('revenue_cents', 'marketing').as('revenue_marketing'),
    ];
  });
  const row = await db
    .selectFrom(clicks.as('k'))
    .crossJoin(bookings.as('b'))
    .selectAll()
    .executeTakeFirstOrThrow();
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as SummaryTotals;
}

export interface CampaignRow {
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  clicks: number;
  bookings: number;
  confirmed: number;
  revenue_cents: number;
}

export const MAX_CAMPAIGN_ROWS = 50;

/**
 * Campaign rows: the vendor's clicks in range counted by (utm_source, utm_medium, utm_campaign), merged
 * with the bookings in range grouped by their click's triple (a campaign may have bookings whose clicks
 * came before the range: clicks 0). UNION ALL then GROUP BY is the full outer join both databases run the
 * same way; a group whose counts are all zero (a rollup row emptied by deleted clicks) is no campaign row.
 * Ordering is byte-wise on both databases (PostgreSQL's default collation would sort by locale), and
 * ties end on utm_source, utm_medium so that the order is total.
 */
export async function campaignRows(
  db: Db,
  scope: Scope,
  parts: readonly SummaryPart[],
): Promise<CampaignRow[]> {
  const bytewise = (ob: OrderByItemBuilder) =>
    dialectOf(db) === 'postgres' ? ob.asc().collate('C') : ob.asc();
  const zero = sql.lit(0);
  const merged = db
    .selectFrom(campaignCounts(db, scope, parts).as('counted'))
    .select([
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'clicks',
      zero.as('bookings'),
      zero.as('confirmed'),
      zero.as('revenue_cents'),
    ])
    .unionAll(
      db
        .selectFrom(bookingCounts(db, scope, parts).as('counted_bookings'))
        .select([
          'utm_source',
          'utm_medium',
          'utm_campaign',
          zero.as('clicks'),
          'bookings',
          'confirmed',
          'revenue_cents',
        ])
        .where(HAS_CAMPAIGN),
    );
  const rows = await db
    .selectFrom(merged.as('merged'))
    .select((eb) => [
      'utm_source',
      'utm_medium',
      'utm_campaign',
      eb.cast<number>(eb.fn.sum('clicks'), 'integer').as('clicks'),
      eb.cast<number>(eb.fn.sum('bookings'), 'integer').as('bookings'),
      eb.cast<number>(eb.fn.sum('confirmed'), 'integer').as('confirmed'),
      eb.cast<number>(eb.fn.sum('revenue_cents'), 'bigint').as('revenue_cents'),
    ])
    .groupBy(['utm_source', 'utm_medium', 'utm_campaign'])
    .having((eb) =>
      eb.or([eb(eb.fn.sum('clicks'), '>', sql.lit(0)), eb(eb.fn.sum('bookings'), '>', sql.lit(0))]),
    )
    .orderBy('clicks', 'desc')
    .orderBy('bookings', 'desc')
    .orderBy('utm_campaign', bytewise)
    .orderBy('utm_source', bytewise)
    .orderBy('utm_medium', bytewise)
    .limit(MAX_CAMPAIGN_ROWS)
    .execute();
  return rows.map((r) => ({
    ...r,
    clicks: Number(r.clicks),
    bookings: Number(r.bookings),
    confirmed: Number(r.confirmed),
    revenue_cents: Number(r.revenue_cents),
  }));
}
