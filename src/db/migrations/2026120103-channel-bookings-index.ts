import { sql } from 'kysely';
import type { AnyDb } from './schema-helpers.ts';

// The vendor summary's channel rows (decisions §24) count each channel's bookings created in range: an
// index on (channel_id, created_at), partial like the other channel index, so that it costs nothing to the
// bookings made without a channel and a channel's range is one index range.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('bookings_channel_created_idx')
    .on('bookings')
    .columns(['channel_id', 'created_at'])
    .where(sql.ref('channel_id'), 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bookings_channel_created_idx').execute();
}
