import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { type AnyDb, notNull } from './schema-helpers.ts';

const DAY_MS = 86_400_000;

// Indexes (both databases) and, on SQLite, a daily rollup of clicks for the vendor summary.
//
// listing_clicks_vendor_campaign_idx: the clicks of a vendor's range that have a campaign, carrying the
// three grouping columns: campaign rows are grouped from the index alone. Partial indexes are used only by
// queries that repeat the literal predicate `utm_campaign <> ''` (not a bound parameter).
//
// listing_clicks_vendor_campaign_name_idx: the click list filtered by one campaign within a range.
//
// listing_click_daily (SQLite only): clicks per (vendor, UTC day, traffic type, campaign triple), kept
// exact by triggers in the same transaction as every insert, update or delete of a click, so that no
// writer (the service, a seed script, a test inserting rows) can leave it behind. SQLite has no hash
// aggregation: grouping 100,000 clicks by campaign sorts them all (about 20-40 ms here), while summing a
// month of daily rows is a few hundred rows. The summary reads whole days from it and the partial days at
// the range's edges from listing_clicks. PostgreSQL aggregates the raw clicks with a hash aggregate fast
// enough, and a rollup row would serialise concurrent click inserts of one vendor on its row lock: it has
// neither the table nor the triggers. utm_source and utm_medium are kept only for rows with a campaign
// (the summary never groups other clicks by them), which keeps the non-campaign rows to two a day.
// Later measured too slow on PostgreSQL as well (45-80 ms for 100,000 clicks): migration 2026112217 gives it
// both rollups, sharded per connection so that click inserts do not queue on one row.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('listing_clicks_vendor_campaign_idx')
    .on('listing_clicks')
    .columns(['vendor_id', 'created_at', 'utm_campaign', 'utm_source', 'utm_medium'])
    .where(sql.ref('utm_campaign'), '<>', sql.lit(''))
    .execute();
  await db.schema
    .createIndex('listing_clicks_vendor_campaign_name_idx')
    .on('listing_clicks')
    .columns(['vendor_id', 'utm_campaign', 'created_at'])
    .where(sql.ref('utm_campaign'), '<>', sql.lit(''))
    .execute();

  if (dialectOf(db) !== 'sqlite') return;

  await db.schema
    .createTable('listing_click_daily')
    .addColumn('vendor_id', 'integer', notNull)
    .addColumn('day', 'bigint', notNull) // epoch ms of the UTC midnight starting the day
    .addColumn('traffic_type', 'text', notNull)
    .addColumn('utm_campaign', 'text', notNull)
    .addColumn('utm_source', 'text', notNull)
    .addColumn('utm_medium', 'text', notNull)
    .addColumn('clicks', 'integer', notNull)
    .addPrimaryKeyConstraint('listing_click_daily_pkey', [
      'vendor_id',
      'day',
      'traffic_type',
      'utm_campaign',
      'utm_source',
      'utm_medium',
    ])
    .modifyEnd(sql`without rowid`)
    .execute();

  // The day bucket floors (also for instants before 1970, where % alone would round towards zero).
  const key = (row: 'new' | 'old' | 'c') => ({
    vendor: sql.raw(`${row}.vendor_id`),
    day: sql.raw(`${row}.created_at - ((${row}.created_at % ${DAY_MS}) + ${DAY_MS}) % ${DAY_MS}`),
    traffic: sql.raw(`${row}.traffic_type`),
    campaign: sql.raw(`${row}.utm_campaign`),
    source: sql.raw(`case when ${row}.utm_campaign <> '' then ${row}.utm_source else '' end`),
    medium: sql.raw(`case when ${row}.utm_campaign <> '' then ${row}.utm_medium else '' end`),
  });
  const add = (row: 'new') => {
    const k = key(row);
    return sql`insert into listing_click_daily
        (vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium, clicks)
      values (${k.vendor}, ${k.day}, ${k.traffic}, ${k.campaign}, ${k.source}, ${k.medium}, 1)
      on conflict (vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium)
      do update set clicks = clicks + 1;`;
  };
  const remove = (row: 'old') => {
    const k = key(row);
    return sql`update listing_click_daily set clicks = clicks - 1
      where vendor_id = ${k.vendor} and day = ${k.day} and traffic_type = ${k.traffic}
        and utm_campaign = ${k.campaign} and utm_source = ${k.source} and utm_medium = ${k.medium};`;
  };

  const c = key('c');
  await sql`insert into listing_click_daily
      (vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium, clicks)
    select ${c.vendor}, ${c.day}, ${c.traffic}, ${c.campaign}, ${c.source}, ${c.medium}, count(*)
    from listing_clicks c
    group by 1, 2, 3, 4, 5, 6`.execute(db);
  await sql`create trigger listing_click_daily_insert after insert on listing_clicks
    begin ${add('new')} end`.execute(db);
  await sql`create trigger listing_click_daily_delete after delete on listing_clicks
    begin ${remove('old')} end`.execute(db);
  await sql`create trigger listing_click_daily_update
    after update of vendor_id, created_at, traffic_type, utm_campaign, utm_source, utm_medium on listing_clicks
    begin ${remove('old')} ${add('new')} end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    for (const trigger of ['insert', 'delete', 'update'])
      await sql`drop trigger if exists ${sql.raw(`listing_click_daily_${trigger}`)}`.execute(db);
    await db.schema.dropTable('listing_click_daily').execute();
  }
  await db.schema.dropIndex('listing_clicks_vendor_campaign_name_idx').execute();
  await db.schema.dropIndex('listing_clicks_vendor_campaign_idx').execute();
}
