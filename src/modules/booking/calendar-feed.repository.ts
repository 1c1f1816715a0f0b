import type { Db } from '../../db/database.ts';
import { holdsAt } from './booking.repository.ts';
import { EXPIRING_STATUSES } from './booking.state-machine.ts';
import { FEED_STATUSES, feedWindow } from './calendar-feed.ts';
import { endsByLatestOf, ofVendorListings } from './vendor-window.ts';

// The calendar feed's SQL (decisions §24): the vendor's token, and the bookings of its feed in one query,
// the twin of inFeed (calendar-feed.ts) read through the vendor's listings' window index (vendor-window.ts).

/** The vendor of a feed token, with what the calendar's name needs; undefined for an unknown token. */
export async function findFeedVendor(db: Db, token: string) {
  return db
    .selectFrom('calendar_feeds')
    .innerJoin('vendor_profiles', 'vendor_profiles.id', 'calendar_feeds.vendor_id')
    .select(['vendor_profiles.id as vendor_id', 'vendor_profiles.business_name'])
    .where('calendar_feeds.token', '=', token)
    .executeTakeFirst();
}

export async function findFeedToken(db: Db, vendorId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('calendar_feeds')
    .select('token')
    .where('vendor_id', '=', vendorId)
    .executeTakeFirst();
  return row?.token;
}

/**
 * Stores `token` as the vendor's: as its first one only (`replace` false: of two first asks at once, one
 * token stays), or in place of the one it has, which stops working.
 */
export async function storeFeedToken(
  db: Db,
  vendorId: number,
  token: string,
  now: number,
  replace: boolean,
): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({ vendor_id: vendorId, token, created_at: now })
    .onConflict((oc) =>
      replace
        ? oc.column('vendor_id').doUpdateSet({ token, created_at: now })
        : oc.column('vendor_id').doNothing(),
    )
    .execute();
}

/** The bookings of the vendor's feed at `now`, by end. */
export const feedBookings = (db: Db, vendorId: number, now: number) =>
  feedBookingsQuery(db, vendorId, now).execute();

export type FeedRow = Awaited<ReturnType<typeof feedBookings>>[number];

/** feedBookings's query, for a test to read its plan. */
export function feedBookingsQuery(db: Db, vendorId: number, now: number) {
  const { endsFrom, startsUntil } = feedWindow(now);
  return (
    db
      .selectFrom('bookings')
      .innerJoin('listings', 'listings.id', 'bookings.listing_id')
      // a channel's booking names its channel's account, which is nobody: the contact says who it is for
      .innerJoin('users', 'users.id', 'bookings.customer_id')
      .leftJoin('channels', 'channels.id', 'bookings.channel_id')
      .select([
        'bookings.id',
        'bookings.status',
        'bookings.starts_at',
        'bookings.ends_at',
        'bookings.participants_count',
        'bookings.quantity',
        'bookings.updated_at',
        'listings.title as listing_title',
        'listings.location',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.phone_number',
        'bookings.channel_id',
        'channels.name as channel_name',
        'bookings.contact_full_name',
        'bookings.contact_email',
        'bookings.contact_phone',
      ])
      .where((eb) => ofVendorListings(eb, vendorId))
      .where('bookings.ends_at', '>=', endsFrom)
      .where((eb) => endsByLatestOf(eb, vendorId, startsUntil))
      .where('bookings.starts_at', '<=', startsUntil)
      .where('bookings.status', 'in', FEED_STATUSES)
      // as statusAt: only a hold's deadline makes it expired
      .where((eb) => eb.or([eb('bookings.status', 'not in', EXPIRING_STATUSES), holdsAt(now)]))
      .orderBy('bookings.ends_at')
      .orderBy('bookings.id')
  );
}
