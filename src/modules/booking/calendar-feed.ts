import type { BookingStatus } from '../../db/database.ts';
import { DAY_MS } from '../../lib/datetime.ts';
import { ACTIVE_STATUSES, statusAt } from './booking.state-machine.ts';

// The rules of the calendar feed and of a booking's calendar event (decisions §24), as pure functions: the
// feed's query (calendar-feed.repository.ts) asks the same question as inFeed through feedWindow, and the
// event the feed and the confirmation mail's .ics attachment carry is made from calendarEventOf alone.

/** How far back a booking's window may have ended and still be in the feed. */
export const FEED_PAST_DAYS = 30;
/** How far ahead a booking may start and be in the feed. */
export const FEED_AHEAD_DAYS = 365;

/** The statuses the feed shows, as their holds stand at the time (a lapsed hold is expired: statusAt). */
export const FEED_STATUSES = ACTIVE_STATUSES;

/** The instants bounding the feed at `now`: windows ending at or after `endsFrom`, starting by `startsUntil`. */
export function feedWindow(now: number): { endsFrom: number; startsUntil: number } {
  return { endsFrom: now - FEED_PAST_DAYS * DAY_MS, startsUntil: now + FEED_AHEAD_DAYS * DAY_MS };
}

export interface FeedCandidate {
  status: BookingStatus;
  expires_at: number | null;
  starts_at: number;
  ends_at: number;
}

/** Whether a booking is in its vendor's feed at `now`. */
export function inFeed(booking: FeedCandidate, now: number): boolean {
  const { endsFrom, startsUntil } = feedWindow(now);
  return (
    (FEED_STATUSES as readonly BookingStatus[]).includes(statusAt(booking, now)) &&
    booking.ends_at >= endsFrom &&
    booking.starts_at <= startsUntil
  );
}

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 participants" for an adventure, "2 units" for equipment. */
export function partySize(booking: { participants_count: number | null; quantity: number | null }): string {
  return booking.participants_count !== null
    ? counted(booking.participants_count, 'participant', 'participants')
    : counted(booking.quantity ?? 1, 'unit', 'units');
}

/** "Sunset boat tour — Rita Sousa, 3 participants" (without the name when there is none). */
export function eventSummary(
  listingTitle: string,
  name: string | null,
  size: { participants_count: number | null; quantity: number | null },
): string {
  return `${listingTitle} — ${[name, partySize(size)].filter(Boolean).join(', ')}`;
}

/** The iCalendar STATUS of a booking in the feed: tentative until it is confirmed. */
export const eventStatus = (status: BookingStatus): 'CONFIRMED' | 'TENTATIVE' =>
  status === 'confirmed' ? 'CONFIRMED' : 'TENTATIVE';

/**
 * A booking's event UID, the same in the feed and in every mail: `booking-41@book.example`, the host of
 * the web app's origin (PUBLIC_URL), so two installations never share one.
 */
export const bookingUid = (bookingId: number, publicUrl: string): string =>
  `booking-${bookingId}@${new URL(publicUrl).host}`;

/** What a booking's calendar event says, whoever carries it (the feed, a mail's attachment). */
export interface BookingEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  status: 'CONFIRMED' | 'TENTATIVE';
  /** where the party meets or picks up; '' when unknown */
  location: string;
  /** the booking's page in the web app */
  url: string;
  /** DTSTAMP: when the booking last changed, so the same booking always reads the same */
  stamp: Date;
}

export interface EventFacts {
  id: number;
  status: BookingStatus;
  starts_at: number;
  ends_at: number;
  participants_count: number | null;
  quantity: number | null;
  listing_title: string;
  location: string;
  /** who it is for, as bookedFor (src/lib/booked-for.ts) names them; '' for nobody */
  booked_for: string;
  updated_at: number;
}

/** A booking's calendar event; `pagePath` is the booking's page under the web app's origin. */
export function calendarEventOf(facts: EventFacts, publicUrl: string, pagePath: string): BookingEvent {
  return {
    uid: bookingUid(facts.id, publicUrl),
    start: new Date(facts.starts_at),
    end: new Date(facts.ends_at),
    summary: eventSummary(facts.listing_title, facts.booked_for.trim() || null, facts),
    status: eventStatus(facts.status),
    location: facts.location,
    url: `${publicUrl}${pagePath}`,
    stamp: new Date(facts.updated_at),
  };
}
