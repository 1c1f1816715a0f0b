import { type OrderByItemBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type {
  BookingStatus,
  Database,
  Db,
  ListingClicksTable,
  ListingKind,
  TrafficType,
} from '../../db/database.ts';
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

/** One page of a vendor's clicks, newest first; archived listings included (the join ignores state). */
export async function listClicks(db: Db, filter: ClickFilter, page: Page): Promise<ClickListRow[]> {
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
      'c.created_at',
    ])
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
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

/** Relation (traffic_type, clicks) over the vendor's clicks in range; each row counts `clicks` clicks. */
function trafficCounts(db: Db, vendorId: number, parts: readonly SummaryPart[]) {
  return overParts<{ traffic_type: string; clicks: number }>(
    parts,
    (p) =>
      db
        .selectFrom('listing_click_daily')
        .select(['traffic_type', 'clicks'])
        .where('vendor_id', '=', vendorId)
        .where('day', '>=', p.from)
        .where('day', '<', p.to),
    (p) =>
      db
        .selectFrom('listing_clicks')
        .select(['traffic_type', countOf(p).as('clicks')])
        .where('vendor_id', '=', vendorId)
        .where('created_at', '>=', p.from)
        .where('created_at', '<', p.to),
  );
}

type CampaignCount = { utm_source: string; utm_medium: string; utm_campaign: string; clicks: number };

/** Relation (utm_source, utm_medium, utm_campaign, clicks) over the vendor's clicks in range with a campaign. */
function campaignCounts(db: Db, vendorId: number, parts: readonly SummaryPart[]) {
  return overParts<CampaignCount>(
    parts,
    (p) =>
      db
        .selectFrom('listing_click_daily')
        .select(['utm_source', 'utm_medium', 'utm_campaign', 'clicks'])
        .where('vendor_id', '=', vendorId)
        .where('day', '>=', p.from)
        .where('day', '<', p.to)
        .where(HAS_CAMPAIGN),
    (p) =>
      db
        .selectFrom('listing_clicks')
        .select(['utm_source', 'utm_medium', 'utm_campaign', countOf(p).as('clicks')])
        .where('vendor_id', '=', vendorId)
        .where('created_at', '>=', p.from)
        .where('created_at', '<', p.to)
        .where(HAS_CAMPAIGN),
  );
}

type BookingCount = {
  traffic_type: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  bookings: number;
};

/**
 * Relation (traffic_type, utm_source, utm_medium, utm_campaign, bookings) over the vendor's bookings created
 * in range, by their click's classification: traffic_type '' for a booking without an attributed click.
 * Whole days come from the booking_daily rollup, as clicks come from theirs.
 */
function bookingCounts(db: Db, vendorId: number, parts: readonly SummaryPart[]) {
  return overParts<BookingCount>(
    parts,
    (p) =>
      db
        .selectFrom('booking_daily')
        .select(['traffic_type', 'utm_source', 'utm_medium', 'utm_campaign', 'bookings'])
        .where('vendor_id', '=', vendorId)
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
        ])
        .where('vendor_id', '=', vendorId)
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
  vendorId: number,
  parts: readonly SummaryPart[],
): Promise<SummaryTotals> {
  const clicks = db.selectFrom(trafficCounts(db, vendorId, parts).as('counted')).select((eb) => {
    const clicksOf = (type: TrafficType) =>
      eb.fn.coalesce(eb.fn.sum<number>('clicks').filterWhere('traffic_type', '=', sql.lit(type)), sql.lit(0));
    return [clicksOf('organic').as('clicks_organic'), clicksOf('marketing').as('clicks_marketing')];
  });
  const bookings = db.selectFrom(bookingCounts(db, vendorId, parts).as('counted_bookings')).select((eb) => {
    const bookingsOf = (type: TrafficType | '') =>
      eb.fn.coalesce(
        eb.fn.sum<number>('bookings').filterWhere('traffic_type', '=', sql.lit(type)),
        sql.lit(0),
      );
    return [
      bookingsOf('organic').as('bookings_organic'),
      bookingsOf('marketing').as('bookings_marketing'),
      bookingsOf('').as('bookings_unattributed'),
    ];
  });
  const row = await db
    .selectFrom(clicks.as('k'))
    .crossJoin(bookings.as('b'))
    .select([
      'k.clicks_organic',
      'k.clicks_marketing',
      'b.bookings_organic',
      'b.bookings_marketing',
      'b.bookings_unattributed',
    ])
    .executeTakeFirstOrThrow();
  return {
    clicks_organic: Number(row.clicks_organic),
    clicks_marketing: Number(row.clicks_marketing),
    bookings_organic: Number(row.bookings_organic),
    bookings_marketing: Number(row.bookings_marketing),
    bookings_unattributed: Number(row.bookings_unattributed),
  };
}

export interface CampaignRow {
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  clicks: number;
  bookings: number;
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
  vendorId: number,
  parts: readonly SummaryPart[],
): Promise<CampaignRow[]> {
  const bytewise = (ob: OrderByItemBuilder) =>
    dialectOf(db) === 'postgres' ? ob.asc().collate('C') : ob.asc();
  const merged = db
    .selectFrom(campaignCounts(db, vendorId, parts).as('counted'))
    .select(['utm_source', 'utm_medium', 'utm_campaign', 'clicks', sql.lit(0).as('bookings')])
    .unionAll(
      db
        .selectFrom(bookingCounts(db, vendorId, parts).as('counted_bookings'))
        .select(['utm_source', 'utm_medium', 'utm_campaign', sql.lit(0).as('clicks'), 'bookings'])
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
  return rows.map((r) => ({ ...r, clicks: Number(r.clicks), bookings: Number(r.bookings) }));
}

// --- time series -----------------------------------------------------------------------------------------

/** A bucket of the time series: [from, to) in epoch milliseconds; buckets are numbered by position. */
export interface DayBucket {
  from: number;
  to: number;
}

/**
 * The buckets as a relation (column1: position, column2: from, column3: to), one VALUES row each. The
 * local days are computed by the caller from the vendor's time zone (Temporal, over Node's ICU) and passed
 * in as instants, on both databases: SQLite has no time zones, and PostgreSQL's `at time zone` would read
 * its own copy of the tz database, which may disagree with the dates the API prints. Each bucket is then
 * read by index range scans over (vendor_id, created_at), whatever the length of its day (23 and 25 hours
 * across daylight-saving changes) and however the zone is offset.
 * Positions are literals, instants parameters: the statement's text depends only on the number of days.
 */
function bucketsOf(buckets: readonly DayBucket[]) {
  const rows = buckets.map(
    (b, i) => sql`(${sql.lit(i)}, cast(${b.from} as bigint), cast(${b.to} as bigint))`,
  );
  return sql<{ column1: number; column2: number; column3: number }>`(values ${sql.join(rows)})`.as('d');
}

export interface DayClicks {
  day: number;
  clicks: number;
  marketing: number;
}

/**
 * The vendor's clicks of each bucket, all of them and the marketing ones: two counts per bucket, each an
 * index range scan over (vendor_id, created_at, traffic_type) that needs neither the table nor a sort (a
 * join grouped by bucket and traffic type sorts every click of the range first). Issue 27's bot clicks
 * (`is_bot`) are to be left out of both counts, as in the summary.
 */
export async function clicksPerDay(
  db: Db,
  vendorId: number,
  buckets: readonly DayBucket[],
): Promise<DayClicks[]> {
  const rows = await db
    .selectFrom(bucketsOf(buckets))
    .select((eb) => {
      const clicksOf = (type?: TrafficType) => {
        let count = eb
          .selectFrom('listing_clicks as c')
          .select(eb.fn.countAll<number>().as('n'))
          .where('c.vendor_id', '=', vendorId)
          .whereRef('c.created_at', '>=', 'd.column2')
          .whereRef('c.created_at', '<', 'd.column3');
        if (type) count = count.where('c.traffic_type', '=', sql.lit(type));
        return count;
      };
      return ['d.column1 as day', clicksOf().as('clicks'), clicksOf('marketing').as('marketing')];
    })
    .execute();
  return rows.map((r) => ({ day: Number(r.day), clicks: Number(r.clicks), marketing: Number(r.marketing) }));
}

export interface DayBookings {
  day: number;
  /** the attributed click's traffic type; null without one */
  traffic_type: TrafficType | null;
  bookings: number;
  revenue_cents: number;
}

/**
 * The vendor's bookings per bucket of their creation and attribution (the click's traffic type, copied
 * onto the booking by triggers; null when unattributed), with the revenue of those that reached
 * `confirmed` in `currency`: their `total_price` less the succeeded refunds of their payments. A booking
 * reached `confirmed` if it is confirmed, or is in one of `afterConfirmed` (the states that can follow it)
 * and its history holds the step: the history is only looked up for those. Bookings in another currency
 * (requested before the vendor changed theirs) are counted but earn no revenue: amounts in two currencies
 * do not add. CROSS JOIN makes SQLite loop over the buckets outside, one index range scan each; on
 * PostgreSQL it is an inner join like any other.
 */
export async function bookingsPerDay(
  db: Db,
  vendorId: number,
  currency: string,
  afterConfirmed: readonly BookingStatus[],
  buckets: readonly DayBucket[],
): Promise<DayBookings[]> {
  const confirmed = sql.lit('confirmed');
  const later = sql.join(afterConfirmed.map((status) => sql.lit(status)));
  const reachedConfirmed = afterConfirmed.length
    ? sql<SqlBool>`(b.status = ${confirmed} or (b.status in (${later}) and exists (
      select 1 from booking_status_history h where h.booking_id = b.id and h.to_status = ${confirmed})))`
    : sql<SqlBool>`b.status = ${confirmed}`;
  const refunded = sql<number>`(select coalesce(sum(r.amount_cents), 0) from payments p
    inner join refunds r on r.payment_id = p.id
    where p.booking_id = b.id and r.status = ${sql.lit('succeeded')})`;
  const revenue = sql<number>`case when b.currency = ${currency} and ${reachedConfirmed}
    then b.total_price_cents - ${refunded} else 0 end`;
  const rows = await db
    .selectFrom(bucketsOf(buckets))
    .crossJoin('bookings as b')
    .where('b.vendor_id', '=', vendorId)
    .whereRef('b.created_at', '>=', 'd.column2')
    .whereRef('b.created_at', '<', 'd.column3')
    .groupBy(['d.column1', 'b.click_traffic_type'])
    .select((eb) => [
      'd.column1 as day',
      'b.click_traffic_type as traffic_type',
      eb.fn.countAll<number>().as('bookings'),
      eb.fn.sum<number>(revenue).as('revenue_cents'),
    ])
    .execute();
  return rows.map((r) => ({
    day: Number(r.day),
    traffic_type: r.traffic_type,
    bookings: Number(r.bookings),
    revenue_cents: Number(r.revenue_cents),
  }));
}
