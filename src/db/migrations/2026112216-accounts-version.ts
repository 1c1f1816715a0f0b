import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// A version number for the users behind access tokens (their account kind, staff flag and vendor
// profile), bumped by triggers like the catalog's (migration 2026112208): an access token's user is then
// read once per version instead of at every request, and a change made by any process (a user made
// staff by hand, a vendor profile added, a user removed) is seen by the very next request everywhere.

const TABLES = ['users', 'vendor_profiles'] as const;
const BUMP = sql`update cache_versions set version = version + 1 where name = 'accounts'`;
const trigger = (table: string, event = '') => sql.raw(`${table}_accounts_version${event && `_${event}`}`);

export async function up(db: AnyDb): Promise<void> {
  await db.insertInto('cache_versions').values({ name: 'accounts', version: 0 }).execute();
  if (dialectOf(db) === 'postgres') {
    await sql`create function bump_accounts_version() returns trigger language plpgsql as $$
      begin ${BUMP}; return null; end $$`.execute(db);
    for (const table of TABLES) {
      await sql`create trigger ${trigger(table)} after insert or update or delete on ${sql.table(table)}
        for each row execute function bump_accounts_version()`.execute(db);
    }
    return;
  }
  for (const table of TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${trigger(table, event)} after ${sql.raw(event)} on ${sql.table(table)}
        begin ${BUMP}; end`.execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const table of TABLES) await sql`drop trigger ${trigger(table)} on ${sql.table(table)}`.execute(db);
    await sql`drop function bump_accounts_version()`.execute(db);
  } else {
    for (const table of TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql`drop trigger ${trigger(table, event)}`.execute(db);
  }
  await db.deleteFrom('cache_versions').where('name', '=', 'accounts').execute();
}
