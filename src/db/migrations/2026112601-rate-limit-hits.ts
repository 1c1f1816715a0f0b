import { dialectOf } from '../dialect.ts';
import { type AnyDb, notNull } from './schema-helpers.ts';

// Rate-limit counters shared by every server process on one PostgreSQL database (decisions §18): one row
// per limited route and client address, counted up by one upsert per request (http/rate-limit.repository.ts)
// and started afresh once its window has passed. SQLite has no table: there each process counts in its
// own memory, as a SQLite file is served by processes on one machine and every write there takes the one
// write lock that bookings need.

export async function up(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();
  // the occasional delete of lapsed windows is a range scan
  await db.schema
    .createIndex('rate_limit_hits_expires_idx')
    .on('rate_limit_hits')
    .column('expires_at')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema.dropTable('rate_limit_hits').execute();
}
