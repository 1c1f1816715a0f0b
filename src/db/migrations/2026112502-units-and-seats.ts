import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// Units and seats (decisions §10): an equipment item may have several identical units, an adventure may
// sell seats (`shared`) instead of whole departures (`private`), and an equipment booking holds a number
// of units. Every default keeps the spec's rule: one unit, private departures, a booking of one unit.
//
// PostgreSQL's exclusion constraint bookings_no_overlap (migration 2026112103) refused any two overlapping
// holds of one listing. With several units or seats overlapping holds are allowed up to a limit, and what
// must hold is a sum at every instant (the peak of the overlapping holds' units), which an exclusion
// constraint, a pairwise test, cannot express. The guard is the listing's lock: every booking request
// checks the peak and inserts under it (booking.service.ts, requestBooking), on both databases.
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('listings')
    .addColumn('quantity', 'integer', (c) =>
      c.notNull().defaultTo(1).check(sql`quantity between 1 and 10000`),
    )
    .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('booking_mode', 'text', (c) =>
      c.notNull().defaultTo('private').check(sql`booking_mode in ('private', 'shared')`),
    )
    .execute();
  // null for adventures; an equipment booking made before units existed held its item's one unit
  await db.schema.alterTable('bookings').addColumn('quantity', 'integer').execute();
  await sql`update bookings set quantity = 1 where listing_kind = 'equipment'`.execute(db);
  if (dialectOf(db) === 'postgres')
    await sql`alter table bookings drop constraint bookings_no_overlap`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres')
    await sql`alter table bookings add constraint bookings_no_overlap exclude using gist (
      listing_id with =, int8range(starts_at, ends_at, '[)') with &&
    ) where (status in ('requested', 'approved', 'confirmed'))`.execute(db);
  await db.schema.alterTable('bookings').dropColumn('quantity').execute();
  await db.schema.alterTable('listings').dropColumn('booking_mode').execute();
  await db.schema.alterTable('listings').dropColumn('quantity').execute();
}
