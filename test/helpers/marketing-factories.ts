import type { Kysely } from 'kysely';
import type {
  BookingStatus,
  Database,
  ListingClicksTable,
  ListingKind,
  RefundStatus,
} from '../../src/db/database.ts';

export { vendorProfileId } from './booking-factories.ts';

// Rows written straight into other modules' tables, so that the marketing tests do not depend on the
// catalog and booking endpoints (built in parallel). Columns follow the storage conventions of
// docs/architecture.md.

export interface TestListing {
  id: number;
  kind: ListingKind;
  publicId: string;
  vendorId: number;
  title: string;
}

let counter = 0;

export async function insertListing(
  db: Kysely<Database>,
  vendorId: number,
  kind: ListingKind,
  overrides: { publicId?: string; title?: string; isActive?: boolean; archivedAt?: number | null } = {},
): Promise<TestListing> {
  counter++;
  const publicId = overrides.publicId ?? `${kind}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const title = overrides.title ?? `${kind === 'equipment' ? 'Kayak' : 'Sea cave tour'} ${counter}`;
  const category = await db
    .selectFrom('categories')
    .select('id')
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  const now = Date.UTC(2026, 0, 1);
  const row = await db
    .insertInto('listings')
    .values({
      kind,
      vendor_id: vendorId,
      category_id: category.id,
      public_id: publicId,
      title,
      description: '',
      details: '{}',
      location: 'Lagos',
      price_cents: 4500,
      duration_minutes: kind === 'adventure' ? 120 : null,
      capacity: kind === 'adventure' ? 8 : null,
      is_active: overrides.isActive === false ? 0 : 1,
      archived_at: overrides.archivedAt ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, kind, publicId, vendorId, title };
}

export async function archiveListing(db: Kysely<Database>, listingId: number, at: number): Promise<void> {
  await db.updateTable('listings').set({ archived_at: at }).where('id', '=', listingId).execute();
}

/**
 * A booking row created at `createdAt`. Each booking gets a window of its own (a day, far in the
 * future), so PostgreSQL's no-overlap constraint never interferes.
 */
export async function insertBooking(
  db: Kysely<Database>,
  input: {
    listing: TestListing;
    customerId: number;
    createdAt: number;
    clickId?: number | null;
    status?: BookingStatus;
    /** when it reached confirmed: by default its creation if it is confirmed, else never */
    confirmedAt?: number | null;
  },
): Promise<number> {
  counter++;
  const confirmedAt =
    input.confirmedAt !== undefined
      ? input.confirmedAt
      : input.status === 'confirmed'
        ? input.createdAt
        : null;
  const startsAt = Date.UTC(2027, 0, 1) + counter * 86_400_000;
  const row = await db
    .insertInto('bookings')
    .values({
      listing_id: input.listing.id,
      listing_kind: input.listing.kind,
      vendor_id: input.listing.vendorId,
      customer_id: input.customerId,
      status: input.status ?? 'requested',
      starts_at: startsAt,
      ends_at: startsAt + 86_400_000,
      participants_count: input.listing.kind === 'adventure' ? 1 : null,
      customer_notes: '',
      vendor_notes: '',
      total_price_cents: 4500,
      currency: 'usd',
      listing_click_id: input.clickId ?? null,
      // left out when null, so that a test can write bookings on the schema before the column existed
      ...(confirmedAt === null ? {} : { confirmed_at: confirmedAt }),
      created_at: input.createdAt,
      updated_at: input.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // a booking that reached confirmed has the history entry that says so, as the service writes it
  if (confirmedAt !== null)
    await db
      .insertInto('booking_status_history')
      .values({
        booking_id: row.id,
        from_status: 'approved',
        to_status: 'confirmed',
        note: 'payment succeeded',
        actor_id: null,
        created_at: confirmedAt,
      })
      .execute();
  return row.id;
}

/**
 * A listing_clicks row for `listing` at `createdAt`, organic with no tracking values unless `overrides`
 * say otherwise (a non-empty utm_campaign makes it marketing).
 */
export function clickRow(
  listing: Pick<TestListing, 'id' | 'kind' | 'vendorId'>,
  createdAt: number,
  overrides: Partial<Omit<ListingClicksTable, 'id'>> = {},
): Omit<ListingClicksTable, 'id'> {
  return {
    listing_id: listing.id,
    listing_kind: listing.kind,
    vendor_id: listing.vendorId,
    traffic_type: overrides.utm_campaign ? 'marketing' : 'organic',
    source: 'track',
    utm_source: '',
    utm_medium: '',
    utm_campaign: '',
    utm_term: '',
    utm_content: '',
    gclid: '',
    fbclid: '',
    referrer: '',
    user_id: null,
    is_bot: 0,
    created_at: createdAt,
    ...overrides,
  };
}

/** A 45.00 payment of a booking at `at`, with refunds of the given cents and statuses. */
export async function insertPaymentWithRefunds(
  db: Kysely<Database>,
  bookingId: number,
  refunds: [number, RefundStatus][],
  at: number,
): Promise<number> {
  const payment = await db
    .insertInto('payments')
    .values({
      booking_id: bookingId,
      gateway_payment_intent_id: `pi_marketing_${bookingId}_${++counter}`,
      client_secret: `secret_${bookingId}`,
      gateway_charge_id: `ch_${bookingId}`,
      amount_cents: 4500,
      currency: 'usd',
      status: refunds.length ? 'partially_refunded' : 'succeeded',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [amount, status] of refunds)
    await db
      .insertInto('refunds')
      .values({
        payment_id: payment.id,
        amount_cents: amount,
        currency: 'usd',
        reason: 'requested_by_customer',
        status,
        created_at: at,
        updated_at: at,
      })
      .execute();
  return payment.id;
}
