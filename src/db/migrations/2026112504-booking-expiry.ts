import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// Holds that expire (decisions §11): vendors' request_ttl_minutes / payment_ttl_minutes, bookings'
// expires_at and the final state `expired`. Existing vendors get the defaults; existing bookings get no
// deadline (expires_at null), so nothing that held a window before this migration stops holding it.
//
// The status CHECK must accept `expired`. PostgreSQL replaces the constraint. SQLite cannot alter a
// constraint and refuses writes to its schema table (better-sqlite3 opens connections in defensive mode),
// so the table is rebuilt as SQLite's documentation describes: a copy with the new definition, the rows
// copied over, the old table dropped, the copy renamed, then its indexes and triggers created again from
// their stored definitions. Foreign keys are off meanwhile (the history and payments rows point at the
// bookings, which keep their ids), and the legacy rename keeps the references other tables and their
// triggers make to `bookings` pointing at the rebuilt table.
//
// The overlap checks read bookings_listing_window_idx alone; they now also compare expires_at, so the
// index carries it. bookings_expiring_idx finds what the sweeper must record: holds whose deadline passed.

const OLD_STATUSES = sql`'requested', 'approved', 'declined', 'cancelled', 'confirmed'`;
const NEW_STATUSES = sql`'requested', 'approved', 'declined', 'cancelled', 'confirmed', 'expired'`;
const OLD_CHECK_SQLITE = `'confirmed')`;
const NEW_CHECK_SQLITE = `'confirmed', 'expired')`;

export async function up(db: AnyDb): Promise<void> {
  for (const column of ['request_ttl_minutes', 'payment_ttl_minutes'])
    await db.schema
      .alterTable('vendor_profiles')
      .addColumn(column, 'integer', (c) =>
        c
          .notNull()
          .defaultTo(1440)
          .check(sql`${sql.ref(column)} between 1 and 10080`),
      )
      .execute();
  await db.schema.alterTable('bookings').addColumn('expires_at', 'bigint').execute();
  await replaceStatusCheck(db, 'up');
  await db.schema.dropIndex('bookings_listing_window_idx').execute();
  await db.schema
    .createIndex('bookings_listing_window_idx')
    .on('bookings')
    .columns(['listing_id', 'ends_at', 'starts_at', 'status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('bookings_expiring_idx')
    .on('bookings')
    .column('expires_at')
    .where(sql.ref('status'), 'in', ['requested', 'approved'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_expiring_idx').execute();
  await db.schema.dropIndex('bookings_listing_window_idx').execute();
  await db.schema
    .createIndex('bookings_listing_window_idx')
    .on('bookings')
    .columns(['listing_id', 'ends_at', 'starts_at', 'status'])
    .execute();
  // The old schema has no `expired`: an expired booking becomes what frees a window there, cancelled.
  await sql`update bookings set status = 'cancelled' where status = 'expired'`.execute(db);
  await replaceStatusCheck(db, 'down');
  await db.schema.alterTable('bookings').dropColumn('expires_at').execute();
  await db.schema.alterTable('vendor_profiles').dropColumn('payment_ttl_minutes').execute();
  await db.schema.alterTable('vendor_profiles').dropColumn('request_ttl_minutes').execute();
}

async function replaceStatusCheck(db: AnyDb, direction: 'up' | 'down'): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`alter table bookings drop constraint bookings_status_check`.execute(db);
    await sql`alter table bookings add constraint bookings_status_check
      check (status in (${direction === 'up' ? NEW_STATUSES : OLD_STATUSES}))`.execute(db);
    return;
  }
  const [from, to] =
    direction === 'up' ? [OLD_CHECK_SQLITE, NEW_CHECK_SQLITE] : [NEW_CHECK_SQLITE, OLD_CHECK_SQLITE];
  await rebuildSqliteBookings(db, (definition) => {
    if (!definition.includes(from)) throw new Error('bookings_status_check is not as expected');
    return definition.replace(from, to);
  });
}

/** SQLite: the bookings table rebuilt with the definition `change` makes of its current one. */
async function rebuildSqliteBookings(db: AnyDb, change: (definition: string) => string): Promise<void> {
  const { rows: tables } = await sql<{ sql: string }>`select sql from sqlite_master
    where type = 'table' and name = 'bookings'`.execute(db);
  const { rows: dependents } = await sql<{ sql: string }>`select sql from sqlite_master
    where tbl_name = 'bookings' and type in ('index', 'trigger') and sql is not null`.execute(db);
  const definition = change(tables[0].sql).replace(
    /^create table "bookings"/i,
    'create table "bookings_rebuilt"',
  );
  if (!definition.startsWith('create table "bookings_rebuilt"'))
    throw new Error('the bookings table definition is not as expected');
  await sql`pragma foreign_keys = off`.execute(db);
  await sql`pragma legacy_alter_table = on`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(definition).execute(trx);
      await sql`insert into bookings_rebuilt select * from bookings`.execute(trx);
      await sql`drop table bookings`.execute(trx);
      await sql`alter table bookings_rebuilt rename to bookings`.execute(trx);
      for (const dependent of dependents) await sql.raw(dependent.sql).execute(trx);
      const { rows: broken } = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.length > 0) throw new Error('the rebuilt bookings table breaks a foreign key');
    });
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
