import type { Db } from '../../db/database.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { DAY_MS, formatDateTime, MINUTE_MS } from '../../lib/datetime.ts';
import { type Departure, departureAt, departuresBetween, isScheduled } from '../../lib/schedule.ts';
import { findListingById, type LimitEdit, type ListingLookups, type ListingRef } from '../catalog/index.ts';
import {
  type BookingFact,
  type DepartureTerms,
  type DepartureVerdict,
  evaluateDeparture,
  type TimeWindow,
} from './availability.ts';
import type { AskedWindow } from './booking.input.ts';
import { parseInstant } from './booking.input.ts';
import { type DepartureRangeFacts, departureFactsOf } from './departures.repository.ts';
import { resourceRoomsOf } from './resource-check.ts';

// Departures of scheduled offerings (decisions §19): the public list, and the departure a booking request
// or an availability check asks for. The schedule makes them (src/lib/schedule.ts), rule 5 of
// availability.ts decides on each; nothing here decides twice.

/** How far the departures endpoints look by default, and at most. */
export const DEFAULT_RANGE_DAYS = 14;
export const MAX_RANGE_DAYS = 92;

/** A scheduled adventure offering's ref (durationMinutes is required on adventures). */
export const isScheduledOffering = (listing: ListingRef): boolean =>
  listing.kind === 'adventure' && isScheduled(listing.schedule);

const durationMsOf = (listing: ListingRef) => (listing.durationMinutes ?? 0) * MINUTE_MS;

/** What of an offering its departures' terms come from. */
type OfferingTerms = Pick<ListingRef, 'capacity' | 'bookingMode' | 'bookingCutoffMinutes'>;

/** The offering's terms for one departure the schedule makes. */
export function termsOf(listing: OfferingTerms, departure: Departure): DepartureTerms {
  return {
    startsAt: departure.startsAt,
    endsAt: departure.endsAt,
    capacity: departure.capacity ?? listing.capacity ?? 1,
    shared: listing.bookingMode === 'shared',
    cutoffMinutes: listing.bookingCutoffMinutes,
  };
}

/** Rule 5 for one departure, from the facts of a range holding it. */
export function verdictOf(
  listing: OfferingTerms,
  departure: Departure,
  facts: DepartureRangeFacts,
  now: number,
  units = 1,
  resourceRoom?: number,
): DepartureVerdict {
  const override = facts.overrides.get(departure.startsAt);
  // only the bookings starting at its instant can count (rule 5): each departure looks at its own
  const bookings = bookingsByStart(facts).get(departure.startsAt) ?? [];
  return evaluateDeparture(
    termsOf(listing, departure),
    { bookings, slots: facts.slots, override, resourceRoom },
    now,
    units,
  );
}

const grouped = new WeakMap<DepartureRangeFacts, Map<number, BookingFact[]>>();

/** A range's bookings by their start, grouped once per range of facts. */
function bookingsByStart(facts: DepartureRangeFacts): Map<number, BookingFact[]> {
  let byStart = grouped.get(facts);
  if (!byStart) {
    byStart = new Map();
    for (const b of facts.bookings) byStart.set(b.startsAt, [...(byStart.get(b.startsAt) ?? []), b]);
    grouped.set(facts, byStart);
  }
  return byStart;
}

/** A departure as the public endpoint shows it. */
export function departureView(departure: Departure, verdict: DepartureVerdict) {
  return {
    starts_at: formatDateTime(departure.startsAt),
    ends_at: formatDateTime(departure.endsAt),
    local_date: departure.localDate,
    local_time: departure.localTime,
    capacity: verdict.capacity,
    remaining: verdict.remaining,
    status: verdict.status,
    cutoff_at: formatDateTime(verdict.cutoffAt),
  };
}
export type DepartureView = ReturnType<typeof departureView>;

/** The range of a departures query: from now, 14 days by default; `to > from`, at most 92 days (400). */
export function departureRange(query: { from?: string; to?: string }, now: number): TimeWindow {
  const startsAt = query.from === undefined ? now : parseInstant('from', query.from);
  const endsAt =
    query.to === undefined ? startsAt + DEFAULT_RANGE_DAYS * DAY_MS : parseInstant('to', query.to);
  if (endsAt <= startsAt) throw invalidFields({ to: 'to must be after from.' });
  if (endsAt - startsAt > MAX_RANGE_DAYS * DAY_MS)
    throw invalidFields({ to: `The range may span at most ${MAX_RANGE_DAYS} days.` });
  return { startsAt, endsAt };
}

/** The departures of an offering starting in the range, each with its verdict at `now`. */
export async function departuresWithVerdicts(db: Db, listing: ListingRef, range: TimeWindow, now: number) {
  if (!isScheduledOffering(listing)) return { facts: undefined, departures: [] };
  const departures = departuresBetween(
    listing.schedule,
    listing.durationMinutes ?? 0,
    listing.timeZone,
    range.startsAt,
    range.endsAt,
  );
  const facts = await departureFactsOf(
    db,
    listing.id,
    { from: range.startsAt, to: range.endsAt, durationMs: durationMsOf(listing) },
    now,
  );
  const rooms = await resourceRoomsOf(db, listing, departures, now);
  return {
    facts,
    departures: departures.map((departure, i) => ({
      departure,
      verdict: verdictOf(listing, departure, facts, now, 1, rooms?.[i]),
    })),
  };
}

export interface DeparturesDeps {
  db: Db;
  clock: Clock;
  listings: Pick<ListingLookups, 'byId' | 'byPublicId'>;
}

/** The range's header as both departures endpoints show it. */
export const rangeView = (listing: ListingRef, range: TimeWindow) => ({
  public_id: listing.publicId,
  time_zone: listing.timeZone,
  from: formatDateTime(range.startsAt),
  to: formatDateTime(range.endsAt),
  scheduled: isScheduledOffering(listing),
});

/** GET /adventrues/offerings/{public_id}/departures/ (public; an invisible offering is 404). */
export async function listPublicDepartures(
  deps: DeparturesDeps,
  publicId: string,
  query: { from?: string; to?: string },
) {
  const now = deps.clock.now().getTime();
  const range = departureRange(query, now);
  const found = await deps.listings.byPublicId(deps.db, 'adventure', publicId);
  const listing = found && (await deps.listings.byId(deps.db, 'adventure', found.ref.id));
  if (!listing) throw notFound('Adventure offering not found.');
  const { departures } = await departuresWithVerdicts(deps.db, listing, range, now);
  return {
    ...rangeView(listing, range),
    departures: departures.map(({ departure, verdict }) => departureView(departure, verdict)),
  };
}

/** The departure a request or check asks for, with its facts, or why it is none. */
export type AskedDeparture =
  | { departure: Departure; facts: DepartureRangeFacts; error?: undefined }
  | { departure?: undefined; facts?: undefined; error: Record<string, string> };

/**
 * The departure starting at the asked starts_at (none: an error on starts_at), whose end the asked
 * ends_at, when given, must be (else an error on ends_at), and the facts rule 5 decides it on.
 */
export async function askedDeparture(
  db: Db,
  listing: ListingRef,
  asked: AskedWindow,
  now: number,
): Promise<AskedDeparture> {
  const departure = departureAt(
    listing.schedule,
    listing.durationMinutes ?? 0,
    listing.timeZone,
    asked.startsAt,
  );
  if (!departure)
    return {
      error: {
        starts_at:
          'This offering leaves at set times: starts_at must be one of its departures (GET .../departures/).',
      },
    };
  if (asked.endsAt !== null && asked.endsAt !== departure.endsAt)
    return {
      error: {
        ends_at: `ends_at must be the departure's end, ${formatDateTime(departure.endsAt)}, or left out.`,
      },
    };
  const facts = await departureFactsOf(
    db,
    listing.id,
    { from: departure.startsAt, to: departure.startsAt + 1, durationMs: durationMsOf(listing) },
    now,
  );
  return { departure, facts };
}

/** The 409 of a departure a request cannot take, saying why. */
export function departureConflict(verdict: DepartureVerdict, units: number): AppError {
  let detail: string;
  if (verdict.closedBy === 'cutoff') detail = closedDetail(verdict.cutoffAt);
  else if (verdict.closedBy === 'vendor') detail = 'Booking has closed: the vendor closed this departure.';
  else if (verdict.closedBy === 'slot')
    detail = 'Booking has closed: an unavailable slot closes this departure.';
  else if (verdict.remaining === 0) detail = 'This departure is sold out.';
  else
    detail = `Only ${verdict.remaining} of ${verdict.capacity} seats are free on this departure (asked ${units}).`;
  return new AppError('booking_conflict', detail);
}

/** The detail of a request refused by the listing's booking cutoff. */
export function closedDetail(cutoffAt: number): string {
  return `Booking has closed: requests for this window closed at ${formatDateTime(cutoffAt)} (the listing's booking cutoff).`;
}

/**
 * checkLimitEdit for a scheduled offering: seats are counted per departure (rule 5), so an edit of its
 * capacity or booking mode must leave each departure's current and future bookings within that
 * departure's capacity (a vendor's, its rule's, else the new offering capacity), and at most one booking
 * on a private departure. Bookings at an instant the schedule no longer makes hold no departure a request
 * could take, and are left out. 409 booking_conflict naming the departure otherwise.
 */
export async function checkDepartureLimits(
  trx: Db,
  edit: LimitEdit,
  holds: readonly (TimeWindow & { units: number })[],
  now: number,
): Promise<void> {
  const listing = await findListingById(trx, 'adventure', edit.id);
  if (!listing || holds.length === 0) return;
  const edited: ListingRef = {
    ...listing,
    capacity: edit.capacity,
    bookingMode: edit.bookingMode,
    schedule: edit.schedule,
  };
  const starts = [...new Set(holds.map((h) => h.startsAt))].sort((a, b) => a - b);
  const facts = await departureFactsOf(
    trx,
    listing.id,
    { from: starts[0], to: starts[starts.length - 1] + 1, durationMs: durationMsOf(listing) },
    now,
  );
  for (const startsAt of starts) {
    const departure = departureAt(edited.schedule, edited.durationMinutes ?? 0, edited.timeZone, startsAt);
    if (!departure) continue;
    // what is held must fit, whether or not the departure is closed to more requests
    const verdict = verdictOf(edited, departure, facts, now);
    const over =
      edited.bookingMode === 'shared' ? verdict.heldSeats > verdict.capacity : verdict.holdingBookings > 1;
    if (over)
      throw new AppError(
        'booking_conflict',
        edited.bookingMode === 'shared'
          ? `capacity cannot be ${edit.capacity}: the departure at ${formatDateTime(startsAt)} holds ${verdict.heldSeats} seats.`
          : `booking_mode cannot be private: the departure at ${formatDateTime(startsAt)} has ${verdict.holdingBookings} bookings.`,
      );
  }
}
