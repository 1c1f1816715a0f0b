import { sql } from 'kysely';
import { dialectOf } from '../dialect.ts';
import type { AnyDb } from './schema-helpers.ts';

// PostgreSQL only: the trigger that copies the attributed click onto a booking (migration 2026112209) ran
// for every inserted booking, a call of its function and a lookup even when the booking has no click,
// which most have; the insert then fills the columns with their defaults, as the function did. An insert
// now calls it only with a click, as SQLite's trigger of the same migration always has; an update of the
// click or the vendor still always does.
export async function up(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger bookings_copy_click on bookings`.execute(db);
  await sql`create trigger bookings_copy_click_insert before insert on bookings
    for each row when (new.listing_click_id is not null) execute function bookings_copy_click()`.execute(db);
  await sql`create trigger bookings_copy_click_update before update of listing_click_id, vendor_id on bookings
    for each row execute function bookings_copy_click()`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger bookings_copy_click_insert on bookings`.execute(db);
  await sql`drop trigger bookings_copy_click_update on bookings`.execute(db);
  await sql`create trigger bookings_copy_click before insert or update of listing_click_id, vendor_id on bookings
    for each row execute function bookings_copy_click()`.execute(db);
}
