import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { BookingEvent } from './calendar-feed.ts';

// Booking events as iCalendar text (RFC 5545), written by ical-generator: the vendor's feed and the single
// event a confirmation mail attaches. Both take their events from calendarEventOf, so a booking has the same
// UID, times and summary wherever a calendar meets it.

const PRODUCT = { company: 'Waterbook', product: 'Bookings', language: 'EN' };
/** How often a calendar application should fetch the feed again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
const FEED_REFRESH_SECONDS = 3600;

const STATUS = { CONFIRMED: ICalEventStatus.CONFIRMED, TENTATIVE: ICalEventStatus.TENTATIVE } as const;

function calendarWith(
  options: { name: string; method?: ICalCalendarMethod; ttl?: number },
  events: readonly BookingEvent[],
): string {
  const calendar = ical({ prodId: PRODUCT, ...options });
  for (const event of events)
    calendar.createEvent({
      id: event.uid,
      start: event.start,
      end: event.end,
      stamp: event.stamp,
      summary: event.summary,
      status: STATUS[event.status],
      location: event.location || null,
      url: event.url,
    });
  return calendar.toString();
}

/**
 * The vendor's feed, X-WR-CALNAME its business name. Made only of the bookings' own facts, so the same
 * bookings always give the same text (the feed's ETag).
 */
export const feedCalendar = (businessName: string, events: readonly BookingEvent[]): string =>
  calendarWith({ name: businessName, ttl: FEED_REFRESH_SECONDS }, events);

/**
 * One booking as a file to add to a calendar (METHOD:PUBLISH: a copy of the event, not an invitation that
 * asks for a reply), named after the vendor.
 */
export const bookingCalendar = (businessName: string, event: BookingEvent): string =>
  calendarWith({ name: businessName, method: ICalCalendarMethod.PUBLISH }, [event]);
