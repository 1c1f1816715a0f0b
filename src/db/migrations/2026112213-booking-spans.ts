import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import { type AnyDb, notNull } from './schema-helpers.ts';

// The longest booking each listing has ever had (ends_at - starts_at, whatever its status), so overlap
// checks can bound their index range from both sides. A booking overlapping [start, end) ends after
// start, and, being at most that long, before end + longest. With only the first bound, the check read
// every later booking of the listing: a listing booked daily for a year read 365 index entries to check
// one afternoon. Kept by a trigger on every write of a booking's window, whoever writes it. It never
// shrinks: a bound that is too wide costs a little reading, one too narrow would miss a conflict.
const SPAN = sql.raw('new.ends_at - new.starts_at');
const NOTE_SPAN = sql`insert into listing_booking_spans (listing_id, longest_ms)
  values (new.listing_id, ${SPAN})
  on conflict (listing_id) do update set longest_ms = excluded.longest_ms
  where excluded.longest_ms > listing_booking_spans.longest_ms;`;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('listing_booking_spans')
    .addColumn('listing_id', 'integer', (c) => c.primaryKey().references('listings.id'))
    .addColumn('longest_ms', 'bigint', notNull)
    .execute();
  await sql`insert into listing_booking_spans (listing_id, longest_ms)
    select listing_id, max(ends_at - starts_at) from bookings group by listing_id`.execute(db);

  if (dialectOf(db) === 'postgres') {
    await sql`create function note_booking_span() returns trigger language plpgsql as $$
      begin ${NOTE_SPAN} return null; end $$`.execute(db);
    await sql`create trigger bookings_span after insert or update of listing_id, starts_at, ends_at
      on bookings for each row execute function note_booking_span()`.execute(db);
    return;
  }
  await sql`create trigger bookings_span_insert after insert on bookings begin ${NOTE_SPAN} end`.execute(db);
  await sql`create trigger bookings_span_update after update of listing_id, starts_at, ends_at on bookings
    begin ${NOTE_SPAN} end`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger bookings_span on bookings`.execute(db);
    await sql`drop function note_booking_span()`.execute(db);
  } else {
    await sql`drop trigger bookings_span_insert`.execute(db);
    await sql`drop trigger bookings_span_update`.execute(db);
  }
  await db.schema.dropTable('listing_booking_spans').execute();
}
