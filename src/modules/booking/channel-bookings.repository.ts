import type { Db } from '../../db/database.ts';
import { type BookingViewRow, bookingsView, VIEW_COLUMNS, type ViewNames } from './booking.repository.ts';

// A channel's bookings as OCTO shows them (decisions §24): the booking's view, and what OCTO adds of its
// listing (public id, cutoff, schedule, cancellation policy) and of its vendor (the request TTL).

export type ChannelBookingRow = BookingViewRow & {
  confirmed_at: number | null;
  listing_public_id: string;
  /** whether a visible listing of the vendor's other kind has the same public id (decisions §24) */
  listing_public_id_shared: boolean;
  listing_schedule: string;
  booking_cutoff_minutes: number;
  free_cancellation_hours: number;
  late_refund_percent: number;
  request_ttl_minutes: number;
};

/** Which of a channel's bookings: one by the reseller's uuid or its id, or those of a reference. */
export interface ChannelBookingWhere {
  uuid?: string;
  id?: number;
  resellerReference?: string;
}

/** The most bookings one `GET bookings` answers, newest first: a reference names a few. */
export const MAX_CHANNEL_BOOKINGS = 100;

export async function channelBookingViews(
  db: Db,
  channelId: number,
  where: ChannelBookingWhere,
): Promise<ChannelBookingRow[]> {
  let query = bookingsView(db)
    .select(VIEW_COLUMNS)
    .select('bookings.confirmed_at')
    .select((eb) => {
      const listing = () => eb.selectFrom('listings').whereRef('listings.id', '=', 'bookings.listing_id');
      return [
        listing().select('listings.public_id').as('listing_public_id'),
        eb
          .exists(
            eb
              .selectFrom('listings as twin')
              .select('twin.id')
              .whereRef('twin.vendor_id', '=', 'bookings.vendor_id')
              .whereRef('twin.kind', '<>', 'bookings.listing_kind')
              .where('twin.public_id', '=', listing().select('listings.public_id'))
              .where('twin.is_active', '=', 1)
              .where('twin.archived_at', 'is', null),
          )
          .as('listing_public_id_shared'),
        listing().select('listings.schedule').as('listing_schedule'),
        listing().select('listings.booking_cutoff_minutes').as('booking_cutoff_minutes'),
        listing().select('listings.free_cancellation_hours').as('free_cancellation_hours'),
        listing().select('listings.late_refund_percent').as('late_refund_percent'),
        eb
          .selectFrom('vendor_profiles')
          .select('vendor_profiles.request_ttl_minutes')
          .whereRef('vendor_profiles.id', '=', 'bookings.vendor_id')
          .as('request_ttl_minutes'),
      ];
    })
    .where('bookings.channel_id', '=', channelId);
  if (where.uuid !== undefined) query = query.where('bookings.octo_uuid', '=', where.uuid);
  if (where.id !== undefined) query = query.where('bookings.id', '=', where.id);
  if (where.resellerReference !== undefined)
    query = query.where('bookings.reseller_reference', '=', where.resellerReference);
  const rows = await query
    .orderBy('bookings.created_at', 'desc')
    .orderBy('bookings.id', 'desc')
    .limit(MAX_CHANNEL_BOOKINGS)
    .$narrowType<ViewNames>()
    .execute();
  // SQLite answers exists() as 0 or 1
  return rows.map((row) => ({
    ...row,
    listing_public_id_shared: Boolean(row.listing_public_id_shared),
  })) as ChannelBookingRow[];
}

/** What a channel's confirm records: the contact it sends, when, and its reference when it gives one. */
export async function recordChannelConfirmation(
  db: Db,
  id: number,
  values: {
    contact_full_name: string | null;
    contact_email: string | null;
    contact_phone: string | null;
    reseller_reference?: string;
    confirmed_at?: number;
    updated_at: number;
  },
): Promise<void> {
  await db.updateTable('bookings').set(values).where('id', '=', id).execute();
}

/** Moves a hold's deadline, only while it is still requested and has not lapsed at `now`. */
export async function moveHoldDeadline(db: Db, id: number, expiresAt: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({ expires_at: expiresAt, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
