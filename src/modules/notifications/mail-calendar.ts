import { parseDateTime } from '../../lib/datetime.ts';
import { type Booking, bookedFor, bookingCalendar, calendarEventOf } from '../booking/index.ts';
import type { MailAttachment } from './mailer.ts';

// The booking as an .ics file for the customer's calendar (decisions §24): the same event, UID included, as
// the vendor's feed shows, built by the booking module's calendarEventOf from the event's stored body, so a
// retried delivery attaches what the first try did.

function instant(iso: string): number {
  const ms = parseDateTime(iso);
  if (ms === null) throw new Error(`not an instant: ${iso}`);
  return ms;
}

/** The booking's event as an attachment; `changedAt` (the mail's event time) is its DTSTAMP. */
export function bookingIcsAttachment(
  booking: Pick<
    Booking,
    | 'id'
    | 'status'
    | 'starts_at'
    | 'ends_at'
    | 'participants_count'
    | 'quantity'
    | 'listing_title'
    | 'customer'
    | 'contact'
    | 'channel'
    | 'vendor'
  >,
  changedAt: string,
  publicUrl: string,
): MailAttachment {
  const event = calendarEventOf(
    {
      id: booking.id,
      status: booking.status,
      starts_at: instant(booking.starts_at),
      ends_at: instant(booking.ends_at),
      participants_count: booking.participants_count,
      quantity: booking.quantity,
      listing_title: booking.listing_title,
      location: '',
      booked_for: bookedFor(booking).name,
      updated_at: instant(changedAt),
    },
    publicUrl,
    `/bookings/${booking.id}`,
  );
  return {
    filename: `booking-${booking.id}.ics`,
    content: bookingCalendar(booking.vendor.business_name, event),
    contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
  };
}
