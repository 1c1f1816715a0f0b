import { Temporal } from 'temporal-polyfill';
import type { OpeningHours } from '../../lib/opening-hours.ts';
import { WEEKDAYS } from '../../lib/schedule.ts';
import type { VendorProfile } from '../accounts/index.ts';

// How the platform's objects read as OCTO's (decisions §24), as pure functions: the service feeds them
// rows, the tests feed them random ones. Nothing here reads the database or the clock.

/** A vendor as the supplier mapping needs it: its id and its profile's fields. */
export type SupplierSource = { id: number } & Pick<
  VendorProfile,
  | 'business_name'
  | 'description'
  | 'contact_email'
  | 'contact_phone'
  | 'address_line1'
  | 'address_line2'
  | 'city'
  | 'state'
  | 'postal_code'
  | 'country'
>;

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** GET supplier: the channel's vendor. `endpoint` is the OCTO API's base URL. */
export function toOctoSupplier(vendor: SupplierSource, endpoint: string) {
  const address = [
    vendor.address_line1,
    vendor.address_line2,
    vendor.city,
    vendor.state,
    vendor.postal_code,
    vendor.country,
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
  return {
    id: String(vendor.id),
    name: vendor.business_name,
    endpoint,
    contact: {
      website: null,
      email: orNull(vendor.contact_email),
      telephone: orNull(vendor.contact_phone),
      address: orNull(address),
    },
    shortDescription: orNull(vendor.description),
  };
}

// --- availability ids (decisions §24) ---------------------------------------------------------------------
// An availability's id is its localDateTimeStart: the local date and time in the vendor's zone with its
// offset ("2026-12-05T09:00:00+00:00"), as OCTO suppliers commonly name them. A START_TIME product's
// availabilities are its departures; an OPENING_HOURS product has one per local date, starting when the
// date opens (its first opening interval; local midnight when the vendor has no hours).

/** An instant as OCTO's local date-time in `timeZone`: seconds, and the offset, never the zone's name. */
export function localDateTimeOf(instant: number, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instant)
    .toZonedDateTimeISO(timeZone)
    .toString({ smallestUnit: 'second', timeZoneName: 'never' });
}

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/**
 * The instant and local date an availability id names in `timeZone`, or null when it is not one:
 * not in localDateTimeOf's form, not a real time, or an offset the zone does not have at that time (so each
 * availability has one id, the one localDateTimeOf writes).
 */
export function parseAvailabilityId(
  id: string,
  timeZone: string,
): { instant: number; localDate: string } | null {
  if (!LOCAL_DATE_TIME.test(id)) return null;
  try {
    const at = Temporal.ZonedDateTime.from(`${id}[${timeZone}]`, { offset: 'reject', overflow: 'reject' });
    if (localDateTimeOf(at.epochMilliseconds, timeZone) !== id) return null;
    return { instant: at.epochMilliseconds, localDate: at.toPlainDate().toString() };
  } catch {
    return null;
  }
}

/**
 * The window an OPENING_HOURS product's availability of `localDate` takes: from the date's first opening
 * to its last closing ("24:00" the next local midnight), or the whole local date when the vendor has no
 * hours (always open); null on a date the hours close all day.
 */
export function openingDayWindow(
  localDate: string,
  hours: OpeningHours | null,
  timeZone: string,
): { startsAt: number; endsAt: number } | null {
  const date = Temporal.PlainDate.from(localDate);
  const at = (time: string) =>
    time === '24:00'
      ? date.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds
      : date.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
  if (hours === null) return { startsAt: at('00:00'), endsAt: at('24:00') };
  const intervals = hours[WEEKDAYS[date.dayOfWeek - 1]];
  if (intervals.length === 0) return null;
  return { startsAt: at(intervals[0][0]), endsAt: at(intervals[intervals.length - 1][1]) };
}
