import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { AuthUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { bookedFor } from '../../lib/booked-for.ts';
import type { Clock } from '../../lib/clock.ts';
import * as repo from './calendar-feed.repository.ts';
import { calendarEventOf } from './calendar-feed.ts';
import { feedCalendar } from './calendar-ics.ts';

// The vendor's calendar feed (decisions §24): its secret URL, shown again whenever asked and replaced on
// rotation, and the feed itself, read by calendar applications with nothing but the URL.

export interface CalendarFeedDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** the web app's origin (config PUBLIC_URL): the feed's URL and the events' UIDs and links are under it */
  publicUrl: string;
}

/** 32 random bytes, base64url: 43 characters nobody can guess. */
const newToken = () => randomBytes(32).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const feedUrl = (publicUrl: string, token: string) => `${publicUrl}/calendar/${token}.ics`;

const vendorOf = (caller: AuthUser) => caller.vendorId ?? -1;

/** The caller's feed URL, its token made on the first ask (two first asks at once get the same one). */
export async function getFeedUrl(deps: CalendarFeedDeps, caller: AuthUser): Promise<{ url: string }> {
  const vendorId = vendorOf(caller);
  let token = await repo.findFeedToken(deps.db, vendorId);
  if (token === undefined) {
    await repo.storeFeedToken(deps.db, vendorId, newToken(), deps.clock.now().getTime(), false);
    token = await repo.findFeedToken(deps.db, vendorId);
    if (token === undefined) throw new Error('the feed token just stored is missing');
  }
  return { url: feedUrl(deps.publicUrl, token) };
}

/** A new URL for the caller's feed; the old one answers 404 from now on. */
export async function rotateFeed(deps: CalendarFeedDeps, caller: AuthUser): Promise<{ url: string }> {
  const token = newToken();
  await repo.storeFeedToken(deps.db, vendorOf(caller), token, deps.clock.now().getTime(), true);
  return { url: feedUrl(deps.publicUrl, token) };
}

/** Who a feed row is for: its customer's account, or for a channel's booking its contact and channel. */
function feedParty(row: repo.FeedRow) {
  if (row.channel_id === null)
    return {
      customer: {
        first_name: row.first_name,
        last_name: row.last_name,
        email: row.email,
        phone_number: row.phone_number,
      },
    };
  return {
    customer: null,
    contact: { full_name: row.contact_full_name, email: row.contact_email, phone_number: row.contact_phone },
    channel: { id: row.channel_id, name: row.channel_name ?? '' },
  };
}

const feedNotFound = () => notFound('Calendar feed not found.');

/** The feed of `token` as iCalendar text; 404 for a token that is not (or no longer) a vendor's. */
export async function feedIcs(deps: CalendarFeedDeps, token: string): Promise<string> {
  if (!TOKEN.test(token)) throw feedNotFound();
  const vendor = await repo.findFeedVendor(deps.db, token);
  if (!vendor) throw feedNotFound();
  const rows = await repo.feedBookings(deps.db, vendor.vendor_id, deps.clock.now().getTime());
  const events = rows.map((row) =>
    calendarEventOf(
      {
        ...row,
        starts_at: Number(row.starts_at),
        ends_at: Number(row.ends_at),
        updated_at: Number(row.updated_at),
        booked_for: bookedFor(feedParty(row)).name,
      },
      deps.publicUrl,
      `/vendor/bookings/${row.id}`,
    ),
  );
  return feedCalendar(vendor.business_name, events);
}
