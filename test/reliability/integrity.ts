import { type Kysely, sql } from 'kysely';
import type { Database, Dialect } from '../../src/db/database.ts';

// Whole-database checks after a crash: nothing half-written, nothing orphaned (not a test file).

const ORPHAN_QUERIES: [string, string][] = [
  [
    'bookings without their creation history entry',
    `select count(*) as n from bookings b where not exists (select 1 from booking_status_history h
       where h.booking_id = b.id and h.from_status is null and h.to_status = 'requested')`,
  ],
  [
    'history entries of missing bookings',
    'select count(*) as n from booking_status_history h left join bookings b on b.id = h.booking_id where b.id is null',
  ],
  [
    'bookings of missing listings or customers',
    `select count(*) as n from bookings b left join listings l on l.id = b.listing_id
       left join users u on u.id = b.customer_id where l.id is null or u.id is null`,
  ],
  [
    'bookings attributed to missing clicks',
    `select count(*) as n from bookings b left join listing_clicks c on c.id = b.listing_click_id
       where b.listing_click_id is not null and c.id is null`,
  ],
  [
    'clicks of missing listings',
    'select count(*) as n from listing_clicks c left join listings l on l.id = c.listing_id where l.id is null',
  ],
  [
    'vendor accounts without a profile',
    `select count(*) as n from users u where u.is_vendor = 1
       and not exists (select 1 from vendor_profiles p where p.user_id = u.id)`,
  ],
  [
    'profiles of missing users',
    'select count(*) as n from vendor_profiles p left join users u on u.id = p.user_id where u.id is null',
  ],
  [
    'listings of missing vendors',
    'select count(*) as n from listings l left join vendor_profiles p on p.id = l.vendor_id where p.id is null',
  ],
  [
    'slots of missing listings',
    'select count(*) as n from availability_slots s left join listings l on l.id = s.listing_id where l.id is null',
  ],
  [
    'payments of missing bookings',
    'select count(*) as n from payments p left join bookings b on b.id = p.booking_id where b.id is null',
  ],
  [
    'resource holds of missing bookings or resources',
    `select count(*) as n from booking_resources h left join bookings b on b.id = h.booking_id
       left join resources r on r.id = h.resource_id where b.id is null or r.id is null`,
  ],
  [
    'refresh tokens of missing users',
    'select count(*) as n from refresh_tokens t left join users u on u.id = t.user_id where u.id is null',
  ],
];

/** Every problem found; empty when the database is whole. */
export async function integrityProblems(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  const problems: string[] = [];
  for (const [what, query] of ORPHAN_QUERIES) {
    const { rows } = await sql<{ n: number }>`${sql.raw(query)}`.execute(db);
    if (Number(rows[0].n) !== 0) problems.push(`${rows[0].n} ${what}`);
  }
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    if (rows[0]?.integrity_check !== 'ok') problems.push(`integrity_check: ${JSON.stringify(rows)}`);
    const fk = await sql`pragma foreign_key_check`.execute(db);
    if (fk.rows.length) problems.push(`foreign_key_check: ${JSON.stringify(fk.rows)}`);
  }
  return problems;
}
