import { type RawBuilder, sql } from 'kysely';
import type { Db, TrafficType } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { revenueOf, rolledUpRevenue, type Scope } from './analytics.repository.ts';

// The vendor time series' counting (read-only, like the rest of analytics: see analytics.repository.ts):
// each bucket (a local day, cut by the caller) split into whole UTC hours, read from the hourly rollups,
// and partial hours, read from raw rows.

/** A bucket of the time series: [from, to) in epoch milliseconds; buckets are numbered by position. */
export interface DayBucket {
  from: number;
  to: number;
}

const HOUR_MS = 3_600_000;

/** A part of a bucket: its position, [from, to), and whether its rows are added (1) or taken away (-1). */
type RangePart = [position: number, from: number, to: number, sign: 1 | -1];

/**
 * Where a bucket's rows are counted: the whole UTC hours inside it from an hourly rollup, and the partial
 * hour at each end from raw rows, either directly or as its whole rollup hour less the rest of that hour,
 * whichever spans less time up to now (no row is later than now). A local day starts on an hour in every
 * zone with a whole-hour offset, so its ends are whole; the zones offset by 30 or 45 minutes read at most
 * half an hour's rows at each end. A range ending a moment before now (a dashboard's "up to now") thus
 * reads the current hour from the rollup less the few rows since `to`, never the minutes before it one by
 * one, however busy (the summary's edge days do the same, summaryParts).
 */
function splitBucket(b: DayBucket, position: number, now: number): { hours: RangePart[]; raw: RangePart[] } {
  let first = Math.ceil(b.from / HOUR_MS) * HOUR_MS;
  let end = Math.floor(b.to / HOUR_MS) * HOUR_MS;
  if (first > end) return { hours: [], raw: [[position, b.from, b.to, 1]] }; // inside one hour
  const span = (from: number, to: number) => Math.max(0, Math.min(to, now) - from);
  const raw: RangePart[] = [];
  if (b.from < first) {
    if (span(first - HOUR_MS, b.from) < span(b.from, first)) {
      raw.push([position, first - HOUR_MS, b.from, -1]);
      first -= HOUR_MS;
    } else raw.push([position, b.from, first, 1]);
  }
  if (end < b.to) {
    if (span(b.to, end + HOUR_MS) < span(end, b.to)) {
      raw.push([position, b.to, end + HOUR_MS, -1]);
      end += HOUR_MS;
    } else raw.push([position, end, b.to, 1]);
  }
  return { hours: first < end ? [[position, first, end, 1]] : [], raw };
}

/**
 * Ranges as a relation (column1: bucket position, column2: from, column3: to, column4: sign), one VALUES
 * row each. The local days are computed by the caller from the vendor's time zone (Temporal, over Node's
 * ICU) and passed in as instants, on both databases: SQLite has no time zones, and PostgreSQL's `at time
 * zone` would read its own copy of the tz database, which may disagree with the dates the API prints.
 * Positions and signs are literals, instants parameters.
 */
function rangesOf(ranges: readonly RangePart[]) {
  const rows = ranges.map(
    ([i, from, to, sign]) =>
      sql`(${sql.lit(i)}, cast(${from} as bigint), cast(${to} as bigint), ${sql.lit(sign)})`,
  );
  return sql`(values ${sql.join(rows)})`;
}

/** What one count reads: a table, the instant its ranges bound, and what each row brings. */
interface Counted {
  table: 'listing_click_hourly' | 'listing_clicks' | 'booking_hourly' | 'bookings';
  at: 'hour' | 'created_at';
  /** the row's traffic type ('' for an unattributed booking) */
  traffic: RawBuilder<string>;
  /** how many clicks or bookings the row stands for */
  count: RawBuilder<number>;
  /** the row's revenue in the scope's currency */
  revenue: RawBuilder<number>;
  /** a click table: bots are left out unless the scope counts them */
  clicks: boolean;
}

type Row = Record<'day' | 'traffic_type' | 'count' | 'revenue_cents', unknown>;

/**
 * (day, traffic_type, count, revenue_cents) over the ranges, each range read by one index range scan over
 * (vendor_id, hour) or (vendor_id, created_at), whatever the length of its day (23 and 25 hours across
 * daylight-saving changes) and however the zone is offset. SQLite loops over the ranges outside a CROSS
 * JOIN. PostgreSQL planned the same join as one scan of all the vendor's rows (a hundred thousand
 * bookings) with the ranges as a join filter, so there each range is a LATERAL subquery, grouped so that
 * the planner cannot fold it back into the join: one range scan per range, as on SQLite.
 */
async function countOver(db: Db, scope: Scope, ranges: readonly RangePart[], c: Counted): Promise<Row[]> {
  if (ranges.length === 0) return [];
  const at = sql.ref(c.at);
  const inRange = sql`vendor_id = ${scope.vendorId} and ${at} >= d.column2 and ${at} < d.column3${
    c.clicks && !scope.includeBots ? sql` and is_bot = 0` : sql``
  }`;
  const query =
    dialectOf(db) === 'postgres'
      ? sql<Row>`select d.column1 as day, r.traffic_type,
            sum(d.column4 * r.count) as count, sum(d.column4 * r.revenue) as revenue_cents
          from ${rangesOf(ranges)} as d cross join lateral (
            select ${c.traffic} as traffic_type, sum(${c.count}) as count, sum(${c.revenue}) as revenue
            from ${sql.table(c.table)} where ${inRange} group by 1) as r
          group by d.column1, r.traffic_type`
      : sql<Row>`select d.column1 as day, ${c.traffic} as traffic_type,
            sum(d.column4 * ${c.count}) as count, sum(d.column4 * ${c.revenue}) as revenue_cents
          from ${rangesOf(ranges)} as d cross join ${sql.table(c.table)} where ${inRange}
          group by d.column1, 2`;
  return (await query.execute(db)).rows;
}

export interface DayCount {
  day: number;
  /** a click's traffic type; for bookings the attributed click's, '' without one */
  traffic_type: TrafficType | '';
  count: number;
  /** bookings only: the revenue of those that reached confirmed, in the scope's currency */
  revenue_cents: number;
}

/** Counts the buckets' whole hours from `hourly` and their raw ends from `raw`. */
async function perDay(
  db: Db,
  scope: Scope,
  buckets: readonly DayBucket[],
  hourly: Counted,
  raw: Counted,
): Promise<DayCount[]> {
  const parts = buckets.map((b, i) => splitBucket(b, i, scope.now));
  const [hours, ends] = [parts.flatMap((p) => p.hours), parts.flatMap((p) => p.raw)];
  const rows = [...(await countOver(db, scope, hours, hourly)), ...(await countOver(db, scope, ends, raw))];
  return rows.map((r) => ({
    day: Number(r.day),
    traffic_type: r.traffic_type as DayCount['traffic_type'],
    count: Number(r.count),
    revenue_cents: Number(r.revenue_cents),
  }));
}

const NONE = sql<number>`0`;
const ONE = sql<number>`1`;
const clickTraffic = sql<string>`traffic_type`;

/**
 * The vendor's clicks of each bucket by traffic type: the listing_click_hourly rollup for whole hours, the
 * raw clicks for the rest.
 */
export function clicksPerDay(db: Db, scope: Scope, buckets: readonly DayBucket[]): Promise<DayCount[]> {
  const clicks = { traffic: clickTraffic, revenue: NONE, clicks: true };
  return perDay(
    db,
    scope,
    buckets,
    { ...clicks, table: 'listing_click_hourly', at: 'hour', count: sql`clicks` },
    { ...clicks, table: 'listing_clicks', at: 'created_at', count: ONE },
  );
}

/**
 * The vendor's bookings of each bucket of their creation by attribution (the click's traffic type, copied
 * onto the booking by triggers; '' when unattributed), with the revenue of those that reached `confirmed`
 * in the scope's currency: their `total_price` less their succeeded refunds. Bookings in another currency
 * (requested before the vendor changed theirs) are counted but earn no revenue. Whole hours come from the
 * booking_hourly rollup, the rest from raw rows, as for clicks.
 */
export function bookingsPerDay(db: Db, scope: Scope, buckets: readonly DayBucket[]): Promise<DayCount[]> {
  return perDay(
    db,
    scope,
    buckets,
    {
      table: 'booking_hourly',
      at: 'hour',
      traffic: clickTraffic,
      count: sql`bookings`,
      revenue: rolledUpRevenue(scope.currency),
      clicks: false,
    },
    {
      table: 'bookings',
      at: 'created_at',
      traffic: sql`coalesce(click_traffic_type, '')`,
      count: ONE,
      revenue: revenueOf(scope.currency),
      clicks: false,
    },
  );
}
