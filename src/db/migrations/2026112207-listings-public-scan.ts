import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// SQLite: a partial covering index for the public list's count. A location filter is a leading-wildcard
// LIKE that no index can seek, so the count walks the kind's live listings in a price range; with
// is_active, price and location in one index it reads the index alone instead of one table row per
// candidate (6.5 ms → 1.1 ms at 20,000 equipment items). PostgreSQL has its trigram index for this.
export async function up(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await db.schema
    .createIndex('listings_public_scan_idx')
    .on('listings')
    .columns(['kind', 'is_active', 'price_cents', 'location'])
    .where(sql.ref('archived_at'), 'is', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'sqlite') await db.schema.dropIndex('listings_public_scan_idx').execute();
}
