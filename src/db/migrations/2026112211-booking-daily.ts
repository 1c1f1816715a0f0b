import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { type AnyDb, notNull } from './schema-helpers.ts';

const DAY_MS = 86_400_000;

// booking_daily (SQLite only): bookings per (vendor, UTC day of creation, their click's traffic type and
// campaign triple), the twin of listing_click_daily (migration 2026112203) for the summary's booking
// counts. Counting a month of a busy vendor's bookings from the covering index still walks every booking
// (35,000 bookings: about 15 ms per query, twice per summary); the rollup is a few hundred rows.
// traffic_type is '' for a booking without an attributed click; utm_source and utm_medium are kept only
// for rows with a campaign, as in the click rollup.
// PostgreSQL has had its own booking_daily since migration 2026112217, sharded per connection.
//
// Kept exact by triggers in the same transaction as every write of a booking, whoever writes it. Each
// trigger applies its own event as a delta (+1 for the new row's bucket, -1 for the old one's) with an
// upsert, so the result does not depend on the order in which SQLite fires triggers: inserting a booking
// with a click fires both this insert trigger (bucket of the row as inserted, no traffic type yet) and the
// click-copy trigger's UPDATE (moving it from that bucket to its click's), in either order.
export async function up(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;

  await db.schema
    .createTable('booking_daily')
    .addColumn('vendor_id', 'integer', notNull)
    .addColumn('day', 'bigint', notNull) // epoch ms of the UTC midnight starting the day
    .addColumn('traffic_type', 'text', notNull)
    .addColumn('utm_campaign', 'text', notNull)
    .addColumn('utm_source', 'text', notNull)
    .addColumn('utm_medium', 'text', notNull)
    .addColumn('bookings', 'integer', notNull)
    .addPrimaryKeyConstraint('booking_daily_pkey', [
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
  const key = (row: 'new' | 'old' | 'b') => ({
    vendor: sql.raw(`${row}.vendor_id`),
    day: sql.raw(`${row}.created_at - ((${row}.created_at % ${DAY_MS}) + ${DAY_MS}) % ${DAY_MS}`),
    traffic: sql.raw(`coalesce(${row}.click_traffic_type, '')`),
    campaign: sql.raw(`${row}.click_utm_campaign`),
    source: sql.raw(`case when ${row}.click_utm_campaign <> '' then ${row}.click_utm_source else '' end`),
    medium: sql.raw(`case when ${row}.click_utm_campaign <> '' then ${row}.click_utm_medium else '' end`),
  });
  const apply = (row: 'new' | 'old', delta: 1 | -1) => {
    const k = key(row);
    return sql`insert into booking_daily
        (vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium, bookings)
      values (${k.vendor}, ${k.day}, ${k.traffic}, ${k.campaign}, ${k.source}, ${k.medium}, ${sql.lit(delta)})
      on conflict (vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium)
      do update set bookings = bookings + ${sql.lit(delta)};`;
  };

  const b = key('b');
  await sql`insert into booking_daily
      (vendor_id, day, traffic_type, utm_campaign, utm_source, utm_medium, bookings)
    select ${b.vendor}, ${b.day}, ${b.traffic}, ${b.campaign}, ${b.source}, ${b.medium}, count(*)
    from bookings b
    group by 1, 2, 3, 4, 5, 6`.execute(db);
  await sql`create trigger booking_daily_insert after insert on bookings
    begin ${apply('new', 1)} end`.execute(db);
  await sql`create trigger booking_daily_delete after delete on bookings
    begin ${apply('old', -1)} end`.execute(db);
  await sql`create trigger booking_daily_update
    after update of vendor_id, created_at, click_traffic_type, click_utm_campaign, click_utm_source,
      click_utm_medium on bookings
    begin ${apply('old', -1)} ${apply('new', 1)} end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const trigger of ['insert', 'delete', 'update'])
    await sql`drop trigger if exists ${sql.raw(`booking_daily_${trigger}`)}`.execute(db);
  await db.schema.dropTable('booking_daily').execute();
}
