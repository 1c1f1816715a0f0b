import { type Kysely, sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';

/** A User-Agent every bot list knows. */
export const BOT_AGENT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const floor = (ms: number, column: string) => sql.raw(`${column} - ((${column} % ${ms}) + ${ms}) % ${ms}`);
const ifCampaign = (campaign: string, column: string) =>
  sql.raw(`case when ${campaign} <> '' then ${column} else '' end`);

/**
 * A booking's confirmed flag and revenue recounted from the records they derive from, not from the
 * columns the rollups read (bookings.confirmed_at and refunded_cents): a history entry to `confirmed`, and
 * the succeeded refunds of its payments.
 */
const reached = sql`exists (select 1 from booking_status_history h
  where h.booking_id = b.id and h.to_status = 'confirmed')`;
const refunds = sql`(select coalesce(sum(r.amount_cents), 0) from refunds r
  inner join payments p on p.id = r.payment_id where p.booking_id = b.id and r.status = 'succeeded')`;

/** A rollup row: its key and sums, the numeric ones as numbers. */
type Row = Record<(typeof NUMERIC_COLUMNS)[number], number> & Record<string, string | number>;
const NUMERIC_COLUMNS = [
  'vendor_id',
  'day',
  'hour',
  'is_bot',
  'clicks',
  'bookings',
  'confirmed',
  'revenue_cents',
] as const;

/**
 * Every analytics rollup as stored (summed over PostgreSQL's shards, rows whose sums are all zero left out)
 * and as recounted from the raw clicks and bookings, in the same key order: equal when the rollups are
 * exact. Numbers are compared as numbers (PostgreSQL returns sums of bigints as strings).
 */
export async function rollupsAndRecount(db: Kysely<Database>) {
  const clickKey = {
    daily: sql`vendor_id, ${floor(DAY, 'created_at')} as day, traffic_type, is_bot, utm_campaign,
      ${ifCampaign('utm_campaign', 'utm_source')} as utm_source,
      ${ifCampaign('utm_campaign', 'utm_medium')} as utm_medium`,
    hourly: sql`vendor_id, ${floor(HOUR, 'created_at')} as hour, traffic_type, is_bot`,
  };
  const bookingKey = {
    daily: sql`b.vendor_id, ${floor(DAY, 'b.created_at')} as day,
      coalesce(b.click_traffic_type, '') as traffic_type, b.currency, b.click_utm_campaign as utm_campaign,
      ${ifCampaign('b.click_utm_campaign', 'b.click_utm_source')} as utm_source,
      ${ifCampaign('b.click_utm_campaign', 'b.click_utm_medium')} as utm_medium`,
    hourly: sql`b.vendor_id, ${floor(HOUR, 'b.created_at')} as hour,
      coalesce(b.click_traffic_type, '') as traffic_type, b.currency`,
  };
  const clickDaily = [
    'vendor_id',
    'day',
    'traffic_type',
    'is_bot',
    'utm_campaign',
    'utm_source',
    'utm_medium',
  ];
  const bookingDaily = [
    'vendor_id',
    'day',
    'traffic_type',
    'currency',
    'utm_campaign',
    'utm_source',
    'utm_medium',
  ];
  const rollups = [
    {
      table: 'listing_click_daily',
      keys: clickDaily,
      sums: ['clicks'],
      recount: sql`select ${clickKey.daily}, count(*) as clicks from listing_clicks`,
    },
    {
      table: 'listing_click_hourly',
      keys: ['vendor_id', 'hour', 'traffic_type', 'is_bot'],
      sums: ['clicks'],
      recount: sql`select ${clickKey.hourly}, count(*) as clicks from listing_clicks`,
    },
    {
      table: 'booking_daily',
      keys: bookingDaily,
      sums: BOOKING_SUMS,
      recount: sql`select ${bookingKey.daily}, ${bookingSums} from bookings b`,
    },
    {
      table: 'booking_hourly',
      keys: ['vendor_id', 'hour', 'traffic_type', 'currency'],
      sums: BOOKING_SUMS,
      recount: sql`select ${bookingKey.hourly}, ${bookingSums} from bookings b`,
    },
  ];
  const stored: Record<string, Row[]> = {};
  const recount: Record<string, Row[]> = {};
  for (const r of rollups) {
    const groups = sql.raw(r.keys.map((_, i) => i + 1).join(', '));
    const summed = sql.raw(r.sums.map((s) => `sum(${s}) as ${s}`).join(', '));
    const nonZero = sql.raw(r.sums.map((s) => `sum(${s}) <> 0`).join(' or '));
    const { rows } = await sql<Record<string, unknown>>`select ${sql.raw(r.keys.join(', '))}, ${summed}
      from ${sql.table(r.table)} group by ${groups} having ${nonZero} order by ${groups}`.execute(db);
    stored[r.table] = normalise(rows);
    recount[r.table] = normalise(
      (await sql<Record<string, unknown>>`${r.recount} group by ${groups} order by ${groups}`.execute(db))
        .rows,
    );
  }
  return { stored, recount };
}

const BOOKING_SUMS = ['bookings', 'confirmed', 'revenue_cents'];
const bookingSums = sql`count(*) as bookings,
  sum(case when ${reached} then 1 else 0 end) as confirmed,
  sum(case when ${reached} then b.total_price_cents - ${refunds} else 0 end) as revenue_cents`;

const NUMERIC: ReadonlySet<string> = new Set(NUMERIC_COLUMNS);

function normalise(rows: Record<string, unknown>[]): Row[] {
  return rows.map(
    (row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, NUMERIC.has(k) ? Number(v) : v])) as Row,
  );
}
