import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// A version number for everything a public listing list shows (listings, their categories, their
// vendors' names). Triggers bump it inside the writing transaction, so once a write is acknowledged every
// reader, in any server process, sees the new version: the public-list cache (catalog/list-cache.ts)
// compares it on every request and never serves a page older than an acknowledged write.

const TABLES = ['listings', 'categories', 'vendor_profiles'] as const;
const BUMP = sql`update cache_versions set version = version + 1 where name = 'catalog'`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('cache_versions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('cache_versions').values({ name: 'catalog', version: 0 }).execute();

  // Row-level on both databases: a statement that changes no row (an update of an unknown id) leaves
  // the version, and so the caches, alone.
  if (dialectOf(db) === 'postgres') {
    await sql`create function bump_catalog_version() returns trigger language plpgsql as $$
      begin ${BUMP}; return null; end $$`.execute(db);
    for (const table of TABLES) {
      await sql`create trigger ${sql.raw(`${table}_catalog_version`)} after insert or update or delete on ${sql.table(table)}
        for each row execute function bump_catalog_version()`.execute(db);
    }
    return;
  }
  for (const table of TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql`create trigger ${sql.raw(`${table}_catalog_version_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
        begin ${BUMP}; end`.execute(db);
    }
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const table of TABLES)
      await sql`drop trigger ${sql.raw(`${table}_catalog_version`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function bump_catalog_version()`.execute(db);
  } else {
    for (const table of TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql`drop trigger ${sql.raw(`${table}_catalog_version_${event}`)}`.execute(db);
  }
  await db.schema.dropTable('cache_versions').execute();
}
