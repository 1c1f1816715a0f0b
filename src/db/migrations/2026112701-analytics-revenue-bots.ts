import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import * as marketingAnalytics from './2026112203-marketing-analytics.ts';
import * as bookingDaily from './2026112211-booking-daily.ts';
import * as clickCampaignNameIndex from './2026112215-click-campaign-name-index.ts';
import * as postgresSummaryRollups from './2026112217-postgres-summary-rollups.ts';
import * as postgresClickRollupPerStatement from './2026112218-postgres-click-rollup-per-statement.ts';
import { type AnyDb, notNull } from './schema-helpers.ts';

// Analytics, second round (decisions §17): bot clicks, confirmed bookings and revenue, and a time series
// fast at millions of rows.
//
// - listing_clicks.is_bot (0/1): a click whose User-Agent is a known crawler. Kept, never counted unless
//   asked for; the click indexes carry it so that the filter costs no table lookups.
// - bookings.confirmed_at: when the booking first reached `confirmed` (written by the application with the
//   transition, from its clock; kept whatever happens later). bookings.refunded_cents: the succeeded refunds
//   of its payments, kept by triggers on refunds so that no path that settles a refund can forget it. A
//   booking's revenue is then a function of its own row: total_price_cents - refunded_cents once confirmed.
// - The rollups are rebuilt with those in their buckets and sums, on both databases from one definition:
//   listing_click_daily and booking_daily (UTC days, campaign triples: the summary) gain is_bot and
//   currency (amounts in two currencies never add) and the confirmed count and revenue; listing_click_hourly
//   and booking_hourly (UTC hours, no campaigns) serve the time series, whose local days start on an hour
//   in every zone with a whole-hour offset (the rest read their partial hours from raw rows).
//   Each is kept exact by triggers in the transaction of every write of its source, each event applied as a
//   delta (-1 for the old row's bucket, +1 for the new one's) with an upsert, so trigger order never
//   matters. On PostgreSQL every row also has a `shard` (pg_backend_pid() % 16; see 2026112217) and new
//   clicks are counted once per statement (see 2026112218).

const SHARDS = 16;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Floors an epoch-ms column to its bucket, also before 1970 (where % alone rounds towards zero). */
const floorTo = (ms: number) => (col: string) => `${col} - ((${col} % ${ms}) + ${ms}) % ${ms}`;

type Expr = (row: string) => string;
interface Rollup {
  table: string;
  source: 'listing_clicks' | 'bookings';
  /** key column → [type, expression over a source row] */
  keys: Record<string, ['integer' | 'bigint' | 'text', Expr]>;
  sums: Record<string, ['integer' | 'bigint', Expr]>;
}

const onlyWithCampaign = (campaign: string, column: string) => (r: string) =>
  `case when ${r}.${campaign} <> '' then ${r}.${column} else '' end`;
const col =
  (name: string): Expr =>
  (r) =>
    `${r}.${name}`;
const confirmed = (r: string) => `case when ${r}.confirmed_at is not null then 1 else 0 end`;
const revenue = (r: string) =>
  `case when ${r}.confirmed_at is not null then ${r}.total_price_cents - ${r}.refunded_cents else 0 end`;
const bookingTraffic = (r: string) => `coalesce(${r}.click_traffic_type, '')`;

const CLICK_SUMS: Rollup['sums'] = { clicks: ['integer', () => '1'] };
const BOOKING_SUMS: Rollup['sums'] = {
  bookings: ['integer', () => '1'],
  confirmed: ['integer', confirmed],
  revenue_cents: ['bigint', revenue],
};

const ROLLUPS: Rollup[] = [
  {
    table: 'listing_click_daily',
    source: 'listing_clicks',
    keys: {
      vendor_id: ['integer', col('vendor_id')],
      day: ['bigint', (r) => floorTo(DAY_MS)(`${r}.created_at`)],
      traffic_type: ['text', col('traffic_type')],
      is_bot: ['integer', col('is_bot')],
      utm_campaign: ['text', col('utm_campaign')],
      utm_source: ['text', onlyWithCampaign('utm_campaign', 'utm_source')],
      utm_medium: ['text', onlyWithCampaign('utm_campaign', 'utm_medium')],
    },
    sums: CLICK_SUMS,
  },
  {
    table: 'listing_click_hourly',
    source: 'listing_clicks',
    keys: {
      vendor_id: ['integer', col('vendor_id')],
      hour: ['bigint', (r) => floorTo(HOUR_MS)(`${r}.created_at`)],
      traffic_type: ['text', col('traffic_type')],
      is_bot: ['integer', col('is_bot')],
    },
    sums: CLICK_SUMS,
  },
  {
    table: 'booking_daily',
    source: 'bookings',
    keys: {
      vendor_id: ['integer', col('vendor_id')],
      day: ['bigint', (r) => floorTo(DAY_MS)(`${r}.created_at`)],
      traffic_type: ['text', bookingTraffic],
      currency: ['text', col('currency')],
      utm_campaign: ['text', col('click_utm_campaign')],
      utm_source: ['text', onlyWithCampaign('click_utm_campaign', 'click_utm_source')],
      utm_medium: ['text', onlyWithCampaign('click_utm_campaign', 'click_utm_medium')],
    },
    sums: BOOKING_SUMS,
  },
  {
    table: 'booking_hourly',
    source: 'bookings',
    keys: {
      vendor_id: ['integer', col('vendor_id')],
      hour: ['bigint', (r) => floorTo(HOUR_MS)(`${r}.created_at`)],
      traffic_type: ['text', bookingTraffic],
      currency: ['text', col('currency')],
    },
    sums: BOOKING_SUMS,
  },
];

/** A source's columns whose update moves a row to another bucket or changes its sums. */
const WATCHED = {
  listing_clicks: 'vendor_id, created_at, traffic_type, is_bot, utm_campaign, utm_source, utm_medium',
  bookings:
    'vendor_id, created_at, currency, click_traffic_type, click_utm_campaign, click_utm_source, ' +
    'click_utm_medium, confirmed_at, total_price_cents, refunded_cents',
} as const;

/** The key columns, with `shard` on PostgreSQL. */
function keyColumns(r: Rollup, pg: boolean): string[] {
  return [...Object.keys(r.keys), ...(pg ? ['shard'] : [])];
}

function keyValues(r: Rollup, row: string, pg: boolean): string[] {
  return [
    ...Object.values(r.keys).map(([, expr]) => expr(row)),
    ...(pg ? [`pg_backend_pid() % ${SHARDS}`] : []),
  ];
}

const conflictUpdate = (r: Rollup, pg: boolean) =>
  `on conflict (${keyColumns(r, pg).join(', ')}) do update set ${Object.keys(r.sums)
    .map((s) => `${s} = ${r.table}.${s} + excluded.${s}`)
    .join(', ')}`;

/** One row's delta (+1 for `new`, -1 for `old`) applied to the rollup, as one upsert statement. */
function applyRow(r: Rollup, row: 'new' | 'old', pg: boolean): string {
  const sign = row === 'new' ? '' : '-';
  const columns = [...keyColumns(r, pg), ...Object.keys(r.sums)];
  const values = [...keyValues(r, row, pg), ...Object.values(r.sums).map(([, e]) => `${sign}(${e(row)})`)];
  return `insert into ${r.table} (${columns.join(', ')}) values (${values.join(', ')}) ${conflictUpdate(r, pg)};`;
}

/** The rows of `from` (alias s) grouped into the rollup's buckets, for a fill or a statement's inserts. */
function grouped(r: Rollup, from: string, shard: string | null): string {
  const keys = Object.values(r.keys).map(([, e]) => e('s'));
  const n = keys.length;
  const groups = Array.from({ length: n }, (_, i) => i + 1).join(', ');
  const sums = Object.values(r.sums).map(([, e]) => `sum(${e('s')})`);
  return `select ${[...keys, ...(shard === null ? [] : [shard]), ...sums].join(', ')}
    from ${from} s group by ${groups} order by ${groups}`;
}

async function createRollup(db: AnyDb, r: Rollup, pg: boolean): Promise<void> {
  let table = db.schema.createTable(r.table);
  for (const [name, [type]] of Object.entries(r.keys)) table = table.addColumn(name, type, notNull);
  if (pg) table = table.addColumn('shard', 'smallint', notNull);
  for (const [name, [type]] of Object.entries(r.sums)) table = table.addColumn(name, type, notNull);
  table = table.addPrimaryKeyConstraint(`${r.table}_pkey`, keyColumns(r, pg) as never);
  await (pg ? table : table.modifyEnd(sql`without rowid`)).execute();
  const columns = [...keyColumns(r, pg), ...Object.keys(r.sums)].join(', ');
  await sql`insert into ${sql.table(r.table)} (${sql.raw(columns)})
    ${sql.raw(grouped(r, r.source, pg ? '0' : null))}`.execute(db);
}

const rollupsOf = (source: Rollup['source']) => ROLLUPS.filter((r) => r.source === source);

async function createSqliteTriggers(db: AnyDb): Promise<void> {
  for (const source of ['listing_clicks', 'bookings'] as const) {
    const each = (row: 'new' | 'old') =>
      rollupsOf(source)
        .map((r) => applyRow(r, row, false))
        .join('\n');
    await sql`create trigger ${sql.raw(`${source}_rollup_insert`)} after insert on ${sql.table(source)}
      begin ${sql.raw(each('new'))} end`.execute(db);
    await sql`create trigger ${sql.raw(`${source}_rollup_delete`)} after delete on ${sql.table(source)}
      begin ${sql.raw(each('old'))} end`.execute(db);
    await sql`create trigger ${sql.raw(`${source}_rollup_update`)}
      after update of ${sql.raw(WATCHED[source])} on ${sql.table(source)}
      begin ${sql.raw(each('old'))} ${sql.raw(each('new'))} end`.execute(db);
  }
  // A refund's amount counts against its booking while the refund stands succeeded.
  const refunded = (row: 'new' | 'old', sign: '+' | '-') =>
    `update bookings set refunded_cents = refunded_cents ${sign} ${row}.amount_cents
      where id = (select booking_id from payments where id = ${row}.payment_id);`;
  await sql`create trigger refunds_booking_insert after insert on refunds when new.status = 'succeeded'
    begin ${sql.raw(refunded('new', '+'))} end`.execute(db);
  await sql`create trigger refunds_booking_delete after delete on refunds when old.status = 'succeeded'
    begin ${sql.raw(refunded('old', '-'))} end`.execute(db);
  await sql`create trigger refunds_booking_update_old after update of status, amount_cents, payment_id
      on refunds when old.status = 'succeeded'
    begin ${sql.raw(refunded('old', '-'))} end`.execute(db);
  await sql`create trigger refunds_booking_update_new after update of status, amount_cents, payment_id
      on refunds when new.status = 'succeeded'
    begin ${sql.raw(refunded('new', '+'))} end`.execute(db);
}

async function createPgTriggers(db: AnyDb): Promise<void> {
  for (const source of ['listing_clicks', 'bookings'] as const) {
    const each = (row: 'new' | 'old') =>
      rollupsOf(source)
        .map((r) => applyRow(r, row, true))
        .join('\n');
    await sql`create function ${sql.raw(`${source}_rollup_apply`)}() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then ${sql.raw(each('old'))} end if;
        if tg_op <> 'DELETE' then ${sql.raw(each('new'))} end if;
        return null;
      end $$`.execute(db);
  }
  // Bookings arrive one at a time: a row trigger for every change.
  await sql`create trigger bookings_rollup
    after insert or delete or update of ${sql.raw(WATCHED.bookings)} on bookings
    for each row execute function bookings_rollup_apply()`.execute(db);
  // Clicks arrive a turn's worth per statement: inserts are grouped per statement, in key order (two
  // statements meeting on a shard then lock its rows in the same order); the rest row by row.
  await sql`create trigger listing_clicks_rollup
    after delete or update of ${sql.raw(WATCHED.listing_clicks)} on listing_clicks
    for each row execute function listing_clicks_rollup_apply()`.execute(db);
  const inserts = rollupsOf('listing_clicks')
    .map(
      (r) =>
        `insert into ${r.table} (${[...keyColumns(r, true), ...Object.keys(r.sums)].join(', ')})
        ${grouped(r, 'inserted', `pg_backend_pid() % ${SHARDS}`)} ${conflictUpdate(r, true)};`,
    )
    .join('\n');
  await sql`create function listing_clicks_rollup_inserted() returns trigger language plpgsql as $$
    begin ${sql.raw(inserts)} return null; end $$`.execute(db);
  await sql`create trigger listing_clicks_rollup_inserted
    after insert on listing_clicks referencing new table as inserted
    for each statement execute function listing_clicks_rollup_inserted()`.execute(db);

  await sql`create function refunds_booking_apply() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.status = 'succeeded' then
        update bookings set refunded_cents = refunded_cents - old.amount_cents
          where id = (select booking_id from payments where id = old.payment_id);
      end if;
      if tg_op <> 'DELETE' and new.status = 'succeeded' then
        update bookings set refunded_cents = refunded_cents + new.amount_cents
          where id = (select booking_id from payments where id = new.payment_id);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger refunds_booking
    after insert or delete or update of status, amount_cents, payment_id on refunds
    for each row execute function refunds_booking_apply()`.execute(db);
}

async function dropOldRollups(db: AnyDb, pg: boolean): Promise<void> {
  if (pg) {
    await sql`drop trigger listing_click_daily_inserted on listing_clicks`.execute(db);
    await sql`drop function listing_click_daily_count_inserted()`.execute(db);
    await sql`drop trigger listing_click_daily on listing_clicks`.execute(db);
    await sql`drop function listing_click_daily_apply()`.execute(db);
    await sql`drop trigger booking_daily on bookings`.execute(db);
    await sql`drop function booking_daily_apply()`.execute(db);
  } else {
    for (const table of ['listing_click_daily', 'booking_daily'])
      for (const op of ['insert', 'delete', 'update'])
        await sql`drop trigger ${sql.raw(`${table}_${op}`)}`.execute(db);
  }
  await db.schema.dropTable('listing_click_daily').execute();
  await db.schema.dropTable('booking_daily').execute();
}

/** The click indexes with is_bot last, so that leaving bots out reads no table rows. */
async function createClickIndexes(db: AnyDb, withBot: boolean): Promise<void> {
  const bot = withBot ? (['is_bot'] as const) : [];
  await db.schema
    .createIndex('listing_clicks_vendor_idx')
    .on('listing_clicks')
    .columns(['vendor_id', 'created_at', 'traffic_type', ...bot])
    .execute();
  if (!withBot) return; // the campaign index's old shape comes back with marketingAnalytics.up
  await db.schema
    .createIndex('listing_clicks_vendor_campaign_idx')
    .on('listing_clicks')
    .columns(['vendor_id', 'created_at', 'utm_campaign', 'utm_source', 'utm_medium', ...bot])
    .where(sql.ref('utm_campaign'), '<>', sql.lit(''))
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  if (pg) {
    // Writes wait for the commit, then fire the new triggers: nothing is counted twice or missed.
    for (const table of ['listing_clicks', 'bookings', 'refunds'])
      await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(db);
  }
  await dropOldRollups(db, pg);

  await db.schema
    .alterTable('listing_clicks')
    .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('bookings').addColumn('confirmed_at', 'bigint').execute();
  await db.schema
    .alterTable('bookings')
    .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update bookings set confirmed_at = (select min(h.created_at) from booking_status_history h
      where h.booking_id = bookings.id and h.to_status = 'confirmed')`.execute(db);
  await sql`update bookings set refunded_cents = (select coalesce(sum(r.amount_cents), 0)
      from refunds r inner join payments p on p.id = r.payment_id
      where p.booking_id = bookings.id and r.status = 'succeeded')`.execute(db);

  await db.schema.dropIndex('listing_clicks_vendor_idx').execute();
  await db.schema.dropIndex('listing_clicks_vendor_campaign_idx').execute();
  await createClickIndexes(db, true);

  for (const r of ROLLUPS) await createRollup(db, r, pg);
  await (pg ? createPgTriggers(db) : createSqliteTriggers(db));
}

export async function down(db: AnyDb): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  if (pg) {
    for (const [trigger, table] of [
      ['listing_clicks_rollup_inserted', 'listing_clicks'],
      ['listing_clicks_rollup', 'listing_clicks'],
      ['bookings_rollup', 'bookings'],
      ['refunds_booking', 'refunds'],
    ])
      await sql`drop trigger ${sql.raw(trigger)} on ${sql.table(table)}`.execute(db);
    for (const fn of [
      'listing_clicks_rollup_inserted',
      'listing_clicks_rollup_apply',
      'bookings_rollup_apply',
      'refunds_booking_apply',
    ])
      await sql`drop function ${sql.raw(fn)}()`.execute(db);
  } else {
    for (const source of ['listing_clicks', 'bookings'])
      for (const op of ['insert', 'delete', 'update'])
        await sql`drop trigger ${sql.raw(`${source}_rollup_${op}`)}`.execute(db);
    for (const op of ['insert', 'delete', 'update_old', 'update_new'])
      await sql`drop trigger ${sql.raw(`refunds_booking_${op}`)}`.execute(db);
  }
  for (const r of ROLLUPS) await db.schema.dropTable(r.table).execute();
  await db.schema.dropIndex('listing_clicks_vendor_idx').execute();
  await db.schema.dropIndex('listing_clicks_vendor_campaign_idx').execute();
  await db.schema.alterTable('listing_clicks').dropColumn('is_bot').execute();
  await db.schema.alterTable('bookings').dropColumn('confirmed_at').execute();
  await db.schema.alterTable('bookings').dropColumn('refunded_cents').execute();
  await createClickIndexes(db, false);
  // The campaign indexes and rollups as the earlier migrations made them (the first makes the campaign
  // indexes on both databases and SQLite's click rollup; a later one dropped one of those indexes).
  await marketingAnalytics.up(db);
  await clickCampaignNameIndex.up(db);
  if (pg) {
    await postgresSummaryRollups.up(db);
    await postgresClickRollupPerStatement.up(db);
  } else await bookingDaily.up(db);
}
