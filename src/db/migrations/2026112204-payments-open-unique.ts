import { sql } from 'kysely';
import type { AnyDb } from './schema-helpers.ts';

// At most one open payment per booking, enforced by the database so that two simultaneous intent
// requests cannot both open one.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('payments_one_open_per_booking')
    .unique()
    .on('payments')
    .column('booking_id')
    .where(sql<boolean>`status in ('requires_payment', 'processing')`)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_one_open_per_booking').execute();
}
