import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// Indexes for the public listing filters that 2026112102-catalog does not serve: ordering by title, and
// on PostgreSQL the case-insensitive substring match on location (a trigram index on lower(location),
// which is what the filter compares). A leading-wildcard LIKE cannot use any SQLite index: there the
// location filter scans the listings of the kind.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('listings_title_idx').on('listings').columns(['kind', 'title']).execute();
  if (dialectOf(db) === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index listings_location_trgm_idx on listings using gin (lower(location) gin_trgm_ops)`.execute(
      db,
    );
  }
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') await db.schema.dropIndex('listings_location_trgm_idx').execute();
  await db.schema.dropIndex('listings_title_idx').execute();
}
