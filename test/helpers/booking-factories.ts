import type { Kysely } from 'kysely';
import type { BookingMode, BookingStatus, Database, ListingKind } from '../../src/db/database.ts';

// The catalog API is built elsewhere: booking tests put listings (and, where a test needs exact fixtures,
// bookings and slots) straight into the tables.

let counter = 0;

/** The vendor profile id (vendor_profiles.id) of a vendor user. */
export async function vendorProfileId(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('vendor_profiles')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface ListingFixture {
  vendorId: number;
  kind?: ListingKind;
  title?: string;
  /** price per day (equipment) or per person (adventure) in cents */
  priceCents?: number;
  capacity?: number | null;
  /** identical units (equipment); default 1 */
  quantity?: number;
  /** adventures; default private */
  bookingMode?: BookingMode;
  /** equipment: turnaround after each booking (decisions §20); default 0 */
  bufferMinutes?: number;
  isActive?: boolean;
  archived?: boolean;
}

/** Inserts a listing row and returns its id. */
export async function insertListing(db: Kysely<Database>, fixture: ListingFixture): Promise<number> {
  const kind = fixture.kind ?? 'equipment';
  const at = Date.UTC(2026, 0, 1);
  const n = counter++;
  const row = await db
    .insertInto('listings')
    .values({
      kind,
      vendor_id: fixture.vendorId,
      category_id: 1,
      public_id: `${kind}-${n}-${Math.random().toString(36).slice(2, 8)}`,
      title: fixture.title ?? `${kind === 'equipment' ? 'Sea kayak' : 'Cave tour'} ${n}`,
      description: '',
      details: '{}',
      location: 'Lagos',
      price_cents: fixture.priceCents ?? 4500,
      duration_minutes: kind === 'adventure' ? 120 : null,
      capacity: kind === 'adventure' ? (fixture.capacity === undefined ? 8 : fixture.capacity) : null,
      quantity: fixture.quantity ?? 1,
      booking_mode: fixture.bookingMode ?? 'private',
      buffer_minutes: fixture.bufferMinutes ?? 0,
      is_active: fixture.isActive === false ? 0 : 1,
      archived_at: fixture.archived ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A booking row to insert straight into the table, as the SQL twin tests do: no request and no rule
 * stands between it and the query under test. Everything not given is a plain confirmed-style default.
 */
export function bookingRow(row: {
  listing_id: number;
  listing_kind: ListingKind;
  vendor_id: number;
  customer_id: number;
  status: BookingStatus;
  starts_at: number;
  ends_at: number;
  expires_at: number | null;
  at: number;
}) {
  const { at, ...given } = row;
  return {
    ...given,
    participants_count: row.listing_kind === 'adventure' ? 2 : null,
    quantity: row.listing_kind === 'equipment' ? 1 : null,
    customer_notes: '',
    vendor_notes: '',
    total_price_cents: 100,
    currency: 'eur',
    listing_click_id: null,
    created_at: at,
    updated_at: at,
  };
}
