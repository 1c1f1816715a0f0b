// Whether a window could be booked now (the availability check), by the request's own demand and window rules.

import type { Db } from '../../db/database.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import type { ListingRef } from '../catalog/index.ts';
import { bookingClosed, overlaps, type TimeWindow } from './availability.ts';
import type { BookingDeps } from './booking.deps.ts';
import { type ListingIdInput, listingTarget, parseAskedWindow, windowOfListing } from './booking.input.ts';
import { askedDeparture, isScheduledOffering, verdictOf } from './departures.service.ts';
import { demandFor, evaluate, listingNotFound, termsErrors } from './request-judgement.ts';
import { checkResources } from './resource-check.ts';

export interface AvailabilityQuery extends ListingIdInput {
  starts_at: string;
  /** left out for an adventure: starts_at + its duration */
  ends_at?: string;
  quantity?: number | null;
  participants_count?: number | null;
}

/**
 * Whether the window could be booked now, for the units or participants asked (default 1). `conflicts`
 * counts what holds the window: overlapping active bookings plus overlapping blocking slots (a window
 * only lacking slot coverage has 0 conflicts and is still unavailable). `remaining` is what is free at
 * every instant of the window: units, seats, or for a private adventure or single item 1 or 0. A window
 * starting in the past is never available (a request for it is refused): 0 remain.
 */
export async function checkAvailability(deps: BookingDeps, query: AvailabilityQuery) {
  const target = listingTarget(query);
  const asked = parseAskedWindow(target.kind, query.starts_at, query.ends_at);
  const listing = await deps.listings.byId(deps.db, target.kind, target.id);
  if (!listing) throw listingNotFound(target);
  const window = windowOfListing(asked, listing.durationMinutes);
  const now = deps.clock.now().getTime();
  const answer = (isAvailable: boolean, conflicts: number, remaining: number) => ({
    equipment_item_id: target.kind === 'equipment' ? target.id : null,
    adventure_offering_id: target.kind === 'adventure' ? target.id : null,
    starts_at: formatDateTime(window.startsAt),
    ends_at: formatDateTime(window.endsAt),
    is_available: isAvailable,
    conflicts,
    remaining,
  });
  if (isScheduledOffering(listing)) {
    // a window that is not an open departure is not available (decisions §19)
    const { departure, facts } = await askedDeparture(deps.db, listing, asked, now);
    if (!departure) return answer(false, 0, 0);
    const capacity = verdictOf(listing, departure, facts, now).capacity;
    const demand = demandFor(listing, query, capacity);
    const resources = await checkResources(deps.db, listing, departure, { units: demand.units }, now, false);
    const verdict = verdictOf(listing, departure, facts, now, demand.units, resources?.verdict.maxUnits);
    const blocking = facts.slots.filter((s) => overlaps(s, window));
    return answer(verdict.isAvailable, verdict.holdingBookings + blocking.length, verdict.remaining);
  }
  const { verdict, bookable } = await windowStanding(deps.db, listing, window, query, now);
  return answer(verdict.isAvailable && bookable, verdict.conflicts, bookable ? verdict.remaining : 0);
}

/**
 * How a window of an unscheduled listing stands at `now` for the units `asked`: rule 1–4's verdict
 * (resources counted), and whether the window may be requested at all: not begun, before the listing's
 * booking cutoff, and inside an item's duration limits and its vendor's hours (decisions §20). The
 * availability check answers from it, and so does the OCTO API for its opening-hours dates.
 */
export async function windowStanding(
  db: Db,
  listing: ListingRef,
  window: TimeWindow,
  asked: { quantity?: number | null; participants_count?: number | null },
  now: number,
) {
  const demand = demandFor(listing, asked);
  const resources = await checkResources(db, listing, window, { units: demand.units }, now, false);
  const verdict = await evaluate(db, listing.id, window, demand, now, resources);
  const bookable =
    window.startsAt >= now &&
    !bookingClosed(window.startsAt, listing.bookingCutoffMinutes, now) &&
    Object.keys(termsErrors(listing, window)).length === 0;
  return { verdict, bookable, limit: demand.limit };
}
