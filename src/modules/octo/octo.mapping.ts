import { Temporal } from 'temporal-polyfill';
import type { ListingKind } from '../../db/database.ts';
import type { VendorProfile } from '../accounts/index.ts';
import {
  type AvailabilityVerdict,
  cutoffAt,
  type DepartureStatus,
  type DepartureVerdict,
  departureStatus,
  type UnitLimit,
} from '../booking/index.ts';
import { isCalendarDate, localDateTimeOf, utcOf } from './octo.time.ts';

// How the platform's objects read as OCTO's (decisions §24), as pure functions: the service feeds them
// rows and verdicts, the tests random ones. Nothing here reads the database or the clock. Local times and
// dates come from octo.time.ts.

// --- the supplier ---------------------------------------------------------------------------------------

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

// --- product and availability ids -----------------------------------------------------------------------

/** A listing as a product id names it: its public id, and its kind where the public id alone is ambiguous. */
export interface ProductKey {
  kind: ListingKind | null;
  publicId: string;
}

const PUBLIC_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A listing's product id: its public id (decisions §24). Public ids are unique per kind only, so where the
 * vendor has an item and an offering with the same one (`ambiguous`), each is named `<kind>:<public id>`.
 */
export const productIdOf = (listing: { kind: ListingKind; publicId: string }, ambiguous: boolean): string =>
  ambiguous ? `${listing.kind}:${listing.publicId}` : listing.publicId;

/** What a product id names, or null when no listing could have it. */
export function parseProductId(id: string): ProductKey | null {
  const at = id.indexOf(':');
  const kind = at < 0 ? null : id.slice(0, at);
  const publicId = at < 0 ? id : id.slice(at + 1);
  if (!PUBLIC_ID.test(publicId)) return null;
  if (kind !== null && kind !== 'equipment' && kind !== 'adventure') return null;
  return { kind, publicId };
}

/** When an availability is: a departure's instant (START_TIME) or a local date (OPENING_HOURS). */
export type AvailabilityAt = { startsAt: number; date?: undefined } | { date: string; startsAt?: undefined };

const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

/**
 * An availability's id: `<product id>@<when>`, where `when` is the departure's local start with its offset
 * (`2026-07-01T09:00:00+01:00`, exact across a DST change) or the local date (`2026-07-01`). Stable: the
 * same departure or date of the same product always has the same id, and parseAvailabilityId reads it back.
 */
export function availabilityIdOf(productId: string, at: AvailabilityAt, timeZone: string): string {
  return `${productId}@${at.date ?? localDateTimeOf(at.startsAt, timeZone)}`;
}

/** The product id and the instant or date of an availability id, or null when it is none of ours. */
export function parseAvailabilityId(id: string): { productId: string; at: AvailabilityAt } | null {
  const at = id.lastIndexOf('@');
  if (at < 0) return null;
  const productId = id.slice(0, at);
  const when = id.slice(at + 1);
  if (!parseProductId(productId)) return null;
  if (isCalendarDate(when)) return { productId, at: { date: when } };
  if (!LOCAL_DATE_TIME.test(when)) return null;
  try {
    return { productId, at: { startsAt: Temporal.Instant.from(when).epochMilliseconds } };
  } catch {
    return null;
  }
}

// --- availabilities -------------------------------------------------------------------------------------

const OCTO_STATUS: Record<DepartureStatus, 'AVAILABLE' | 'LIMITED' | 'SOLD_OUT' | 'CLOSED'> = {
  available: 'AVAILABLE',
  limited: 'LIMITED',
  sold_out: 'SOLD_OUT',
  closed: 'CLOSED',
};

/** How one departure or opening-hours date stands: §19's remaining and status come from it. */
export interface Standing {
  startsAt: number;
  endsAt: number;
  cutoffAt: number;
  capacity: number;
  /** seats or units a reservation could take now (0 when closed) */
  remaining: number;
  closed: boolean;
}

/** A departure's standing, from its §19 verdict. */
export const departureStanding = (
  departure: { startsAt: number; endsAt: number },
  verdict: DepartureVerdict,
): Standing => ({
  startsAt: departure.startsAt,
  endsAt: departure.endsAt,
  cutoffAt: verdict.cutoffAt,
  capacity: verdict.capacity,
  remaining: verdict.remaining,
  closed: verdict.closedBy !== null,
});

/**
 * An opening-hours date's standing, from the availability verdict of its window (windowStanding). Closed:
 * the window cannot be requested (begun, past the cutoff, outside the item's terms) or slots close it.
 * Seats or units are counted as §19 counts a departure's: a private offering has its capacity free or none.
 */
export function windowStandingOf(
  window: { startsAt: number; endsAt: number },
  standing: { verdict: AvailabilityVerdict; bookable: boolean; limit: UnitLimit },
  listing: { capacity: number | null; bookingCutoffMinutes: number },
): Standing {
  const { verdict, bookable, limit } = standing;
  const closed = !bookable || verdict.blockingSlots > 0 || (verdict.coverageRequired && !verdict.covered);
  const capacity = limit.countUnits ? limit.limit : (listing.capacity ?? 1);
  const free = limit.countUnits ? verdict.remaining : verdict.remaining > 0 ? capacity : 0;
  return {
    ...window,
    cutoffAt: cutoffAt(window.startsAt, listing.bookingCutoffMinutes),
    capacity,
    remaining: closed ? 0 : free,
    closed,
  };
}

/** An OCTO availability (POST availability), for a reservation of `units` units (at least 1). */
export function toOctoAvailability(
  id: string,
  standing: Standing,
  timeZone: string,
  openingHours: { from: string; to: string }[] | null,
  units: number,
) {
  const status = OCTO_STATUS[departureStatus(standing.closed, standing.remaining, standing.capacity)];
  return {
    id,
    localDateTimeStart: localDateTimeOf(standing.startsAt, timeZone),
    localDateTimeEnd: localDateTimeOf(standing.endsAt, timeZone),
    utcCutoffAt: utcOf(standing.cutoffAt),
    allDay: openingHours !== null,
    available: !standing.closed && standing.remaining >= units,
    status,
    vacancies: standing.remaining,
    capacity: standing.capacity,
    maxUnits: standing.capacity,
    openingHours: openingHours ?? [],
  };
}

/**
 * A calendar date (POST availability/calendar) from its departures' or its opening window's standings:
 * the open ones' seats added up, closed when none is open, the status by §19's rule on those sums, and
 * available when one of them takes `units`.
 */
export function toOctoCalendarDay(
  localDate: string,
  standings: readonly Standing[],
  openingHours: { from: string; to: string }[],
  units: number,
) {
  const open = standings.filter((s) => !s.closed);
  const vacancies = open.reduce((sum, s) => sum + s.remaining, 0);
  const capacity = open.reduce((sum, s) => sum + s.capacity, 0);
  return {
    localDate,
    available: open.some((s) => s.remaining >= units),
    status: OCTO_STATUS[departureStatus(open.length === 0, vacancies, capacity)],
    vacancies,
    capacity: open.length === 0 ? null : capacity,
    openingHours,
  };
}
