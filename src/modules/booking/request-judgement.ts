// A request's judgement: its demand, its window's rules (departures, cutoff, rental terms), its availability,
// its price from the one engine, its promo code, answers and waiver. The booking request judges under the
// listing's lock, the quote without; both through assessRequest, so they cannot disagree.

import type { Db } from '../../db/database.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import { MAX_MONEY_CENTS } from '../../lib/money.ts';
import { KINDS, type ListingRef } from '../catalog/index.ts';
import { availabilityFacts } from './availability.repository.ts';
import {
  type AvailabilityVerdict,
  bookingClosed,
  cutoffAt,
  evaluateAvailability,
  type TimeWindow,
  type UnitLimit,
  unitLimitOf,
} from './availability.ts';
import type { BookingDeps } from './booking.deps.ts';
import {
  type AskedWindow,
  type ListingIdInput,
  type ListingTarget,
  listingTarget,
  parseAskedWindow,
  windowOfListing,
} from './booking.input.ts';
import {
  askedDeparture,
  closedDetail,
  departureConflict,
  isScheduledOffering,
  verdictOf,
} from './departures.service.ts';
import { type ChoiceInput, priceChoicesOf, pricedByCategory } from './price-choices.ts';
import { type PricedBooking, priceBooking } from './pricing.ts';
import { type Redemption, redeemablePromo } from './promo-codes.service.ts';
import { rentalWindowErrors } from './rental-window.ts';
import { checkResources, type ResourceCheck, resourceConflict } from './resource-check.ts';
import { checkTripTerms, type TripInput, type TripTerms } from './trip-terms.ts';

export const listingNotFound = (target: ListingTarget) => notFound(`${KINDS[target.kind].noun} not found.`);

// --- demand and window ----------------------------------------------------------------------------------------

/** What a booking of the listing asks for: its participants (adventures) or units (equipment). */
export interface Demand {
  participants: number | null;
  quantity: number | null;
  /** the units the request holds under the listing's limit (see unitLimitOf) */
  units: number;
  limit: UnitLimit;
}

function participantsFor(
  listing: ListingRef,
  requested: number | null | undefined,
  capacity: number | null,
): number | null {
  if (listing.kind === 'equipment') return null;
  const participants = requested ?? 1;
  // by category, the participants are the sum of the categories (price-choices.ts)
  const field = pricedByCategory(listing) ? 'participants' : 'participants_count';
  if (participants < 1 || (capacity !== null && participants > capacity))
    throw invalidFields({
      [field]: `Ensure ${field} is between 1 and the capacity (${capacity}).`,
    });
  return participants;
}

function quantityFor(listing: ListingRef, requested: number | null | undefined): number | null {
  if (listing.kind === 'adventure') {
    if (requested === null || requested === undefined) return null;
    throw invalidFields({
      quantity: 'Adventures are booked by participants_count; quantity is for equipment items.',
    });
  }
  const quantity = requested ?? 1;
  if (quantity < 1 || quantity > listing.quantity)
    throw invalidFields({
      quantity: `Ensure quantity is between 1 and the item's quantity (${listing.quantity}).`,
    });
  return quantity;
}

/**
 * The request's participants or units, checked against the listing (400 naming the field); for a
 * departure of a scheduled offering, against that departure's capacity (decisions §19).
 */
export function demandFor(
  listing: ListingRef,
  asked: { participants_count?: number | null; quantity?: number | null },
  departureCapacity?: number,
): Demand {
  const participants = participantsFor(
    listing,
    asked.participants_count,
    departureCapacity ?? listing.capacity,
  );
  const quantity = quantityFor(listing, asked.quantity);
  const limit =
    departureCapacity === undefined
      ? unitLimitOf(listing)
      : { limit: departureCapacity, countUnits: listing.bookingMode === 'shared' };
  return { participants, quantity, units: quantity ?? participants ?? 1, limit };
}

export async function evaluate(
  db: Db,
  listingId: number,
  window: TimeWindow,
  demand: Demand,
  now: number,
  resources?: ResourceCheck,
) {
  const facts = await availabilityFacts(db, listingId, window, now, demand.limit.bufferMs);
  return evaluateAvailability(
    window,
    { ...facts, resourceRoom: resources?.verdict.maxUnits },
    demand.limit,
    demand.units,
  );
}

/** An equipment window's breaches of its rental terms (duration limits, opening hours); none for adventures. */
export const termsErrors = (listing: ListingRef, window: TimeWindow) =>
  listing.kind === 'equipment' ? rentalWindowErrors(listing, window) : {};

// --- judging and assessing a request ------------------------------------------------------------------------

export interface BookingRequestInput extends ListingIdInput, ChoiceInput, TripInput {
  starts_at: string;
  /** left out for an adventure: starts_at + its duration */
  ends_at?: string;
  customer_notes?: string;
  quantity?: number | null;
  marketing_click_id?: number | null;
  promo_code?: string | null;
}

/** The 409 of a refused window, saying what is short. */
function conflict(verdict: AvailabilityVerdict, kind: ListingRef['kind'], demand: Demand): AppError {
  const { limit } = demand;
  let detail = 'The requested window is not available.';
  if (verdict.freeUnits < (limit.countUnits ? demand.units : 1)) {
    const noun = kind === 'equipment' ? 'units' : 'seats';
    if (!limit.countUnits || limit.limit === 1) detail = 'The requested window overlaps another booking.';
    else if (verdict.freeUnits === 0) detail = `All ${limit.limit} ${noun} are taken for that window.`;
    else detail = `Only ${verdict.freeUnits} of ${limit.limit} ${noun} are free for that window.`;
  } else if (verdict.blockingSlots > 0) detail = 'The requested window is blocked by an unavailable slot.';
  else if (verdict.coverageRequired && !verdict.covered)
    detail = 'No available slot covers the requested window.';
  return new AppError('booking_conflict', detail);
}

/** A request as judged: its window and demand, what remains, and why it is refused, if it is. */
export interface JudgedRequest {
  window: TimeWindow;
  demand: Demand;
  remaining: number;
  /** what it asks of shared resources (rule 7), when its listing or extras use any */
  resources?: ResourceCheck;
  /** the 409 a request gets; undefined when it can be booked */
  refusal?: AppError;
}

/**
 * The window and demand of a request, and whether it can be booked; a request checks it under the
 * listing's lock, a quote without. A scheduled offering's request must start at a departure (400 on
 * starts_at) and end at its end (400 on ends_at), its participants fit the departure's capacity (400), and
 * the departure take them (rule 5 of availability.ts; refused 409). An equipment window must keep its
 * item's duration limits and its vendor's opening hours (400). Any other listing's window must not be past
 * its booking cutoff, and have the units or seats (rules 1-4, 6; refused 409).
 */
export async function judgeRequest(
  db: Db,
  listing: ListingRef,
  asked: AskedWindow,
  input: {
    participants_count?: number | null;
    quantity?: number | null;
    extras?: Readonly<Record<string, number>> | null;
  },
  now: number,
  lock = false,
): Promise<JudgedRequest> {
  if (isScheduledOffering(listing)) {
    const { departure, facts, error } = await askedDeparture(db, listing, asked, now);
    if (error) throw invalidFields(error);
    const demand = demandFor(listing, input, verdictOf(listing, departure, facts, now).capacity);
    const window = { startsAt: departure.startsAt, endsAt: departure.endsAt };
    const ask = { extras: input.extras, units: demand.units };
    const resources = await checkResources(db, listing, window, ask, now, lock);
    const verdict = verdictOf(listing, departure, facts, now, demand.units, resources?.verdict.maxUnits);
    const refusal = verdict.isAvailable
      ? undefined
      : ((verdict.closedBy ? undefined : resources && resourceConflict(resources)) ??
        departureConflict(verdict, demand.units));
    return { window, demand, remaining: verdict.remaining, refusal, resources };
  }
  const window = windowOfListing(asked, listing.durationMinutes);
  const outside = termsErrors(listing, window);
  if (Object.keys(outside).length) throw invalidFields(outside);
  const demand = demandFor(listing, input);
  const { bookingCutoffMinutes } = listing;
  if (bookingClosed(window.startsAt, bookingCutoffMinutes, now)) {
    const closed = new AppError(
      'booking_conflict',
      closedDetail(cutoffAt(window.startsAt, bookingCutoffMinutes)),
    );
    return { window, demand, remaining: 0, refusal: closed };
  }
  const resources = await checkResources(
    db,
    listing,
    window,
    { extras: input.extras, units: demand.units },
    now,
    lock,
  );
  const verdict = await evaluate(db, listing.id, window, demand, now, resources);
  const refusal = verdict.isAvailable
    ? undefined
    : ((resources && resourceConflict(resources)) ?? conflict(verdict, listing.kind, demand));
  return { window, demand, remaining: verdict.remaining, refusal, resources };
}

/**
 * A request's (or a quote's) assessment: as judged, with its price, the promo code it redeems, and its
 * answers and the waiver text it accepts (decisions §23).
 */
export interface RequestAssessment extends JudgedRequest {
  priced: PricedBooking;
  redemption: Redemption | null;
  trip: TripTerms;
}

/**
 * Everything a request checks and prices, in `db` (the request's transaction after the listing's lock,
 * or the quote's reads): its price choices (400 naming the member), its window and demand (judgeRequest:
 * 400, or the 409 as `refusal`), its promo code (400 on promo_code; with `lock` the code's row is locked
 * and its redemptions counted under the lock), its price lines and total (priceBooking, the one
 * engine; a total at or over the money limit is a 400), and its answers and waiver acceptance
 * (checkTripTerms: 400 on answers.<code> or waiver_acceptance; the waiver text read in `db`).
 */
export async function assessRequest(
  db: Db,
  listing: ListingRef,
  asked: AskedWindow,
  input: BookingRequestInput,
  now: number,
  lock: boolean,
): Promise<RequestAssessment> {
  const { choices, participantsCount } = priceChoicesOf(listing, input);
  const judged = await judgeRequest(
    db,
    listing,
    asked,
    { participants_count: participantsCount, quantity: input.quantity, extras: choices.extras },
    now,
    lock,
  );
  const redemption = await redeemablePromo(db, listing, input.promo_code, now, lock);
  const { demand } = judged;
  const priced = priceBooking(
    judged.window,
    listing,
    { ...choices, participants: demand.participants, quantity: demand.quantity },
    redemption?.discount ?? null,
  );
  if (priced.subtotalCents >= MAX_MONEY_CENTS)
    throw invalidFields({ [totalField(listing, priced)]: 'The total price would exceed 99999999.99.' });
  const count = demand.participants ?? demand.quantity ?? 1;
  const trip = await checkTripTerms(db, listing, input, count);
  return { ...judged, priced, redemption, trip };
}

/** The listing and window a request or quote names, and now; a start in the past is a 400. */
export function askedOf(deps: Pick<BookingDeps, 'clock'>, input: BookingRequestInput) {
  const target = listingTarget(input);
  const asked = parseAskedWindow(target.kind, input.starts_at, input.ends_at);
  const now = deps.clock.now().getTime();
  if (asked.startsAt < now) throw invalidFields({ starts_at: 'starts_at must not be in the past.' });
  return { target, asked, now };
}

/** The field a total over the money limit is blamed on: what made the total grow. */
function totalField(listing: ListingRef, priced: PricedBooking): string {
  const [first] = priced.lines;
  if (priced.lines.some((l) => l.kind === 'extra') && first.amountCents < MAX_MONEY_CENTS) return 'extras';
  if (listing.kind === 'adventure') return pricedByCategory(listing) ? 'participants' : 'participants_count';
  return first.quantity > 1 ? 'quantity' : 'ends_at';
}
