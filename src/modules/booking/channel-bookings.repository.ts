import { sql } from 'kysely';
import type { Db, ListingKind } from '../../db/database.ts';
import { parseSchedule } from '../../lib/schedule.ts';
import { type BookingViewRow, bookingsView, VIEW_COLUMNS, type ViewNames } from './booking.repository.ts';

// A channel's bookings as OCTO shows them (decisions §24): the booking's view, and what OCTO adds of its
// listing (public id, cutoff, schedule, cancellation policy) and of its vendor (the request TTL).

export type ChannelBookingRow = BookingViewRow & ChannelListingFacts;

/** What OCTO's answer adds of the booking's listing and vendor, and when the booking was confirmed. */
export interface ChannelListingFacts {
  confirmed_at: number | null;
  listing_public_id: string;
  /** whether a visible listing of the vendor's other kind has the same public id (decisions §24) */
  listing_public_id_shared: boolean;
  /** an adventure with a schedule: its availabilities are departures */
  listing_scheduled: boolean;
  booking_cutoff_minutes: number;
  free_cancellation_hours: number;
  request_ttl_minutes: number;
}

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
              // the other kind, named, so that the lookup is one probe of the (kind, public_id) key
              .where(
                'twin.kind',
                '=',
                sql<ListingKind>`case when bookings.listing_kind = 'equipment' then 'adventure' else 'equipment' end`,
              )
              .where('twin.public_id', '=', listing().select('listings.public_id'))
              .whereRef('twin.vendor_id', '=', 'bookings.vendor_id')
              .where('twin.is_active', '=', 1)
              .where('twin.archived_at', 'is', null),
          )
          .as('listing_public_id_shared'),
        listing().select('listings.schedule').as('listing_schedule'),
        listing().select('listings.booking_cutoff_minutes').as('booking_cutoff_minutes'),
        listing().select('listings.free_cancellation_hours').as('free_cancellation_hours'),
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
  // one booking (by uuid or id) is read through its key alone: an order by created_at would let the
  // planner walk the channel's (channel_id, created_at) index instead, through every booking it has
  const one = where.uuid !== undefined || where.id !== undefined;
  const rows = await (one
    ? query
    : query.orderBy('bookings.created_at', 'desc').orderBy('bookings.id', 'desc').limit(MAX_CHANNEL_BOOKINGS)
  )
    .$narrowType<ViewNames>()
    .execute();
  // SQLite answers exists() as 0 or 1
  return rows.map(({ listing_schedule, ...row }) => ({
    ...row,
    listing_public_id_shared: Boolean(row.listing_public_id_shared),
    listing_scheduled: parseSchedule(listing_schedule as string).length > 0,
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
