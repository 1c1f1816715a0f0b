import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { type AnyDb, notNull } from './schema-helpers.ts';

const DAY_MS = 86_400_000;

// The vendor summary's daily rollups on PostgreSQL: listing_click_daily and booking_daily, the tables
// SQLite has had since migrations 2026112203 and 2026112211, with the same buckets (vendor, UTC day,
// traffic type, campaign triple) and one more key column, `shard` (below). Counting a vendor's month of
// raw clicks (100,000) took 34 ms after a vacuum, 45-80 ms before one, and p50 ~300 ms in the bench with
// the bench's own fresh clicks in range; it grows with the vendor's traffic. Summing the rollup is a few
// hundred rows, as on SQLite. The summary reads whole days from the rollups and the partial days at its
// edges from the raw rows, on both databases (summaryParts).
//
// Kept exact by row triggers in the same transaction as every write of a click or a booking, whoever
// writes it: each event applies its delta (-1 to the old row's bucket, +1 to the new row's) with an
// upsert. A shard's count can go negative (a click counted in one shard and deleted through another
// connection); only the sum over shards means anything.
//
// The table is locked before the triggers are created and the existing rows are counted in the same
// transaction (Kysely runs PostgreSQL migrations in one): a write waits for the commit and then fires the
// trigger, so nothing is counted twice or missed.

/**
 * Rollup rows per connection: a rollup row stays locked from a click's insert to its commit (which waits
 * for the WAL flush), so one row per bucket would queue every click of a vendor behind one another. Each
 * backend writes its own shard, pg_backend_pid() % SHARDS, and the summary sums over shards.
 */
const SHARDS = 16;

/** `prefix`: of the source's traffic type and campaign columns (a booking's are its click's). */
const ROLLUPS = [
  { rollup: 'listing_click_daily', source: 'listing_clicks', count: 'clicks', prefix: '' },
  { rollup: 'booking_daily', source: 'bookings', count: 'bookings', prefix: 'click_' },
] as const;

type Rollup = (typeof ROLLUPS)[number];

/** The source's columns a bucket is made of: an update of any of them moves the row to another bucket. */
const sourceColumns = (r: Rollup) =>
  [
    'vendor_id',
    'created_at',
    ...['traffic_type', 'utm_campaign', 'utm_source', 'utm_medium'].map((c) => r.prefix + c),
  ].join(', ');

/** The bucket of `row` (new, old or a table alias), in the rollup's column order. */
function bucket(r: Rollup, row: string): string {
  const column = (name: string) => `${row}.${r.prefix}${name}`;
  // utm_source and utm_medium are kept only for rows with a campaign, as on SQLite
  const ifCampaign = (name: string) =>
    `case when ${column('utm_campaign')} <> '' then ${column(name)} else '' end`;
  return [
    `${row}.vendor_id`,
    // the day floors, also before 1970, where % alone would round towards zero
    `${row}.created_at - ((${row}.created_at % ${DAY_MS}) + ${DAY_MS}) % ${DAY_MS}`,
    // '' for a booking without an attributed click
    `coalesce(${column('traffic_type')}, '')`,
    column('utm_campaign'),
    ifCampaign('utm_source'),
    ifCampaign('utm_medium'),
  ].join(', ');
}

const KEY = 'vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium';

function apply(r: Rollup, row: 'new' | 'old', delta: 1 | -1): string {
  return `insert into ${r.rollup} (${KEY}, shard, ${r.count})
      values (${bucket(r, row)}, pg_backend_pid() % ${SHARDS}, ${delta})
      on conflict (${KEY}, shard) do update set ${r.count} = ${r.rollup}.${r.count} + ${delta};`;
}

export async function up(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const r of ROLLUPS) {
    await sql`lock table ${sql.table(r.source)} in share row exclusive mode`.execute(db);
    await db.schema
      .createTable(r.rollup)
      .addColumn('vendor_id', 'integer', notNull)
      .addColumn('day', 'bigint', notNull) // epoch ms of the UTC midnight starting the day
      .addColumn('traffic_type', 'text', notNull)
      .addColumn('utm_campaign', 'text', notNull)
      .addColumn('utm_source', 'text', notNull)
      .addColumn('utm_medium', 'text', notNull)
      .addColumn('shard', 'smallint', notNull)
      .addColumn(r.count, 'integer', notNull)
      .addPrimaryKeyConstraint(`${r.rollup}_pkey`, [
        'vendor_id',
        'day',
        'traffic_type',
        'utm_campaign',
        'utm_source',
        'utm_medium',
        'shard',
      ])
      .execute();
    await sql`create function ${sql.raw(`${r.rollup}_apply`)}() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then ${sql.raw(apply(r, 'old', -1))} end if;
        if tg_op <> 'DELETE' then ${sql.raw(apply(r, 'new', 1))} end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.raw(r.rollup)}
      after insert or delete or update of ${sql.raw(sourceColumns(r))} on ${sql.table(r.source)}
      for each row execute function ${sql.raw(`${r.rollup}_apply`)}()`.execute(db);
    await sql`insert into ${sql.table(r.rollup)} (${sql.raw(KEY)}, shard, ${sql.raw(r.count)})
      select ${sql.raw(bucket(r, 's'))}, 0, count(*) from ${sql.table(r.source)} s
      group by 1, 2, 3, 4, 5, 6`.execute(db);
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const r of ROLLUPS) {
    await sql`drop trigger ${sql.raw(r.rollup)} on ${sql.table(r.source)}`.execute(db);
    await sql`drop function ${sql.raw(`${r.rollup}_apply`)}()`.execute(db);
    await db.schema.dropTable(r.rollup).execute();
  }
}
