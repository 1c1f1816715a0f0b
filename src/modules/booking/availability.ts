import type { BookingMode, BookingStatus, ListingKind } from '../../db/database.ts';
import { isActiveStatus } from './booking.state-machine.ts';

// The availability rules (spec "Availability rules", decisions §5/§6) as one pure function. The booking
// request, the availability check and the SQL filter of listing lists (availability.repository.ts) all
// implement exactly these rules; the SQL one is tested against this function.
//
// All windows are half-open [startsAt, endsAt) in epoch milliseconds.
//
// 1. Coverage: when the listing has at least one slot with isAvailable true, one such slot must cover the
//    whole window on its own (slot.startsAt <= startsAt and slot.endsAt >= endsAt). Slots are not merged:
//    two adjacent available slots do not together cover a window spanning both.
// 2. Blocking: any slot with isAvailable false that overlaps the window blocks it.
// 3. Without available slots the listing is bookable by default, subject to rule 2 and to
// 4. Units (decisions §10): at no instant of the window may the units held by bookings in requested,
//    approved or confirmed, plus the request's, exceed the listing's limit. The peak counts, not the sum:
//    holds that do not overlap each other never add up. An equipment item's limit is its quantity and a
//    booking holds its quantity; a shared adventure's limit is its capacity and a booking holds its
//    participants; a private adventure is one whole departure (limit 1, every booking holds it all). With
//    a limit of 1 this is the spec's rule: no active booking may overlap the window.
// 6. Turnaround (decisions §20): an equipment item's buffer keeps each booking's units taken until its
//    ends_at + buffer, the request's own included, so rule 4 counts holds [starts_at, ends_at + buffer)
//    against the request's [starts_at, ends_at + buffer). The buffer is the item's current one, for old
//    bookings too: a booking stores its window, never its buffer, so every path counts one hold length
//    and an edit of the buffer is checked against the holds it lengthens (checkLimitEdit). Slots (rules
//    1-3) concern the rental itself, [starts_at, ends_at). With no buffer this is rule 4.
// 7. Shared resources (decisions §22): every hold of every listing takes of the resources it uses (its
//    window plus buffer); at no instant may their sum exceed a resource's quantity. resource-use.ts
//    counts it with heldAt and gives the room it leaves a request (`resourceRoom` of the facts), which
//    caps what rules 4 and 5 find free.

export interface TimeWindow {
  startsAt: number;
  endsAt: number;
}

export interface SlotFact extends TimeWindow {
  isAvailable: boolean;
}

export interface BookingFact extends TimeWindow {
  status: BookingStatus;
  /** the booking's quantity (equipment) or participants (adventures) */
  units: number;
}

/** What a listing can hold at one instant, and how much of it one booking takes. */
export interface UnitLimit {
  /** units (equipment), seats (shared adventure), or 1 (a private adventure's departure) */
  limit: number;
  /** false: every booking holds the whole listing whatever its units (a private adventure) */
  countUnits: boolean;
  /** rule 6: how long after its end a booking still holds its units (0 when absent) */
  bufferMs?: number;
}

/** The spec's rule: one booking at a time. */
export const SINGLE: UnitLimit = { limit: 1, countUnits: false };

/** A listing's limit under rule 4; a shared adventure without a capacity (the catalog refuses one) counts as private. */
export function unitLimitOf(listing: {
  kind: ListingKind;
  quantity: number;
  capacity: number | null;
  bookingMode: BookingMode;
  bufferMinutes?: number;
}): UnitLimit {
  if (listing.kind === 'equipment')
    return { limit: listing.quantity, countUnits: true, bufferMs: (listing.bufferMinutes ?? 0) * 60_000 };
  if (listing.bookingMode === 'shared' && listing.capacity !== null)
    return { limit: listing.capacity, countUnits: true };
  return SINGLE;
}

export interface AvailabilityFacts {
  /**
   * The listing's slots. Slots that do not overlap the window cannot change the answer except by
   * existing, so a caller may pass only the overlapping ones together with `hasAvailableSlots`.
   */
  slots: readonly SlotFact[];
  bookings: readonly BookingFact[];
  /** Whether the listing has any slot with isAvailable true at all; defaults to a look at `slots`. */
  hasAvailableSlots?: boolean;
  /** rule 7: the most units or participants the shared resources leave room for (evaluateResources) */
  resourceRoom?: number;
}

export interface AvailabilityVerdict {
  isAvailable: boolean;
  /** the limit's units free at every instant of the window (0 when slots block it or fail to cover it) */
  remaining: number;
  /** the limit's units free at every instant by bookings alone, slots aside */
  freeUnits: number;
  /** overlapping active bookings plus overlapping blocking slots */
  conflicts: number;
  overlappingBookings: number;
  blockingSlots: number;
  /** rule 1 applies (the listing has available slots) */
  coverageRequired: boolean;
  /** one available slot covers the window (false when none exists) */
  covered: boolean;
}

/** Half-open overlap: [a.startsAt, a.endsAt) and [b.startsAt, b.endsAt) share at least one instant. */
export function overlaps(a: TimeWindow, b: TimeWindow): boolean {
  return a.startsAt < b.endsAt && b.startsAt < a.endsAt;
}

/** Rule 6: what a booking (or the request) holds, its window lengthened by the buffer. */
export function heldWindow<T extends TimeWindow>(window: T, bufferMs = 0): T {
  return bufferMs === 0 ? window : { ...window, endsAt: window.endsAt + bufferMs };
}

export function covers(outer: TimeWindow, inner: TimeWindow): boolean {
  return outer.startsAt <= inner.startsAt && outer.endsAt >= inner.endsAt;
}

/**
 * The most units held at one instant of the window by the holds given. The sum over holds containing an
 * instant only grows at a hold's start, so the peak is reached at the window's start or at the start of
 * one of the holds inside it.
 */
export function peakUnits(
  window: TimeWindow,
  holds: readonly (TimeWindow & { units: number })[],
  countUnits = true,
): number {
  const inside = holds.filter((h) => overlaps(h, window));
  const instants = [window.startsAt, ...inside.map((h) => h.startsAt).filter((t) => t > window.startsAt)];
  let peak = 0;
  for (const instant of instants) peak = Math.max(peak, heldAt(instant, inside, countUnits));
  return peak;
}

/**
 * The capacity rule's one count: what the holds given take at one instant (each hold [startsAt, endsAt),
 * buffer already added by the caller; `units` each, or 1 each when units are not counted). Units of an
 * item, seats of a departure (its holds only) and a resource's use (its holds with departure groups
 * merged, resourceHolds) are all this sum.
 */
export function heldAt(
  instant: number,
  holds: readonly (TimeWindow & { units: number })[],
  countUnits = true,
): number {
  let held = 0;
  for (const h of holds) if (h.startsAt <= instant && instant < h.endsAt) held += countUnits ? h.units : 1;
  return held;
}

/**
 * The rules for a window, a listing's limit (default: the spec's one booking at a time) and the units
 * asked for (default 1).
 */
export function evaluateAvailability(
  window: TimeWindow,
  facts: AvailabilityFacts,
  limit: UnitLimit = SINGLE,
  units = 1,
): AvailabilityVerdict {
  const held = heldWindow(window, limit.bufferMs);
  const holds = facts.bookings
    .filter((b) => isActiveStatus(b.status))
    .map((b) => heldWindow(b, limit.bufferMs))
    .filter((b) => overlaps(b, held));
  const overlappingBookings = holds.length;
  const room = facts.resourceRoom ?? Number.POSITIVE_INFINITY;
  const ownFree = Math.max(0, limit.limit - peakUnits(held, holds, limit.countUnits));
  // rule 7: counted units are capped by the room resources leave; an uncounted hold needs room for all asked
  const freeUnits = limit.countUnits ? Math.min(ownFree, room) : room >= units ? ownFree : 0;
  const blockingSlots = facts.slots.filter((s) => !s.isAvailable && overlaps(s, window)).length;
  const coverageRequired = facts.hasAvailableSlots ?? facts.slots.some((s) => s.isAvailable);
  const covered = facts.slots.some((s) => s.isAvailable && covers(s, window));
  const slotsAllow = blockingSlots === 0 && (!coverageRequired || covered);
  const remaining = slotsAllow ? freeUnits : 0;
  return {
    isAvailable: remaining >= (limit.countUnits ? units : 1),
    remaining,
    freeUnits,
    conflicts: overlappingBookings + blockingSlots,
    overlappingBookings,
    blockingSlots,
    coverageRequired,
    covered,
  };
}

// --- departures of a scheduled offering (decisions §19) ----------------------------------------------------
//
// 5. A scheduled offering is booked by departure: a booking belongs to the departure starting at its
//    starts_at, and only the bookings of that departure count against it, even where two departures
//    overlap in time. A shared departure's bookings share its capacity; a private one is held whole by
//    any booking. A departure is closed (nothing can be requested) once now reaches its cutoff
//    (starts_at - booking_cutoff_minutes), when the vendor closed or cancelled it, or when a slot with
//    isAvailable false overlaps it; available slots are not needed.

export type DepartureStatus = 'closed' | 'sold_out' | 'limited' | 'available';

/** One departure as the schedule makes it, and the offering's terms for it. */
export interface DepartureTerms extends TimeWindow {
  /** the schedule's capacity for it (its rule's, else the offering's) */
  capacity: number;
  shared: boolean;
  cutoffMinutes: number;
}

/** What the vendor changed about the departure (departure_overrides), when anything. */
export interface DepartureOverride {
  capacity: number | null;
  isClosed: boolean;
}

export interface DepartureFacts {
  /** the offering's bookings; those starting at the departure's instant and active count */
  bookings: readonly BookingFact[];
  /** the offering's slots; those with isAvailable false overlapping the departure close it */
  slots: readonly SlotFact[];
  override?: DepartureOverride;
  /** rule 7: the most participants the shared resources leave room for on it (evaluateResources) */
  resourceRoom?: number;
}

export interface DepartureVerdict {
  capacity: number;
  /** seats held by its active bookings (participants) */
  heldSeats: number;
  /** its active bookings */
  holdingBookings: number;
  /** seats a request could take now: 0 when closed; a private departure's capacity or 0 */
  remaining: number;
  cutoffAt: number;
  /** why nothing can be requested, when nothing can */
  closedBy: 'cutoff' | 'vendor' | 'slot' | null;
  status: DepartureStatus;
  /** a request of `units` participants fits */
  isAvailable: boolean;
}

/**
 * A departure's status (decisions §19) from whether it is closed and its seats: closed; else sold out at 0
 * remaining; else limited below half the capacity; else available. The OCTO API reads its dates' statuses
 * by the same rule.
 */
export function departureStatus(closed: boolean, remaining: number, capacity: number): DepartureStatus {
  if (closed) return 'closed';
  if (remaining === 0) return 'sold_out';
  return remaining * 2 < capacity ? 'limited' : 'available';
}

export const cutoffAt = (startsAt: number, cutoffMinutes: number): number =>
  startsAt - cutoffMinutes * 60_000;

/**
 * A listing's booking cutoff (decisions §19): requests for a window starting less than `cutoffMinutes`
 * after now are refused. With no cutoff only a window already begun is (a past start is a 400 first).
 */
export const bookingClosed = (startsAt: number, cutoffMinutes: number, now: number): boolean =>
  cutoffMinutes > 0 ? now >= cutoffAt(startsAt, cutoffMinutes) : now > startsAt;

/** Rule 5 for one departure at `now`, for a request of `units` participants (default 1). */
export function evaluateDeparture(
  departure: DepartureTerms,
  facts: DepartureFacts,
  now: number,
  units = 1,
): DepartureVerdict {
  const capacity = facts.override?.capacity ?? departure.capacity;
  const holds = facts.bookings.filter((b) => isActiveStatus(b.status) && b.startsAt === departure.startsAt);
  // every booking of the departure holds from its start: the seats held are the count there
  const heldSeats = heldAt(departure.startsAt, holds);
  const room = facts.resourceRoom ?? Number.POSITIVE_INFINITY;
  const free = departure.shared
    ? Math.max(0, Math.min(capacity - heldSeats, room))
    : holds.length > 0 || room < 1
      ? 0
      : capacity;
  const closeAt = cutoffAt(departure.startsAt, departure.cutoffMinutes);
  const closedBy =
    now >= closeAt
      ? 'cutoff'
      : facts.override?.isClosed
        ? 'vendor'
        : facts.slots.some((s) => !s.isAvailable && overlaps(s, departure))
          ? 'slot'
          : null;
  const remaining = closedBy ? 0 : free;
  const status = departureStatus(closedBy !== null, remaining, capacity);
  return {
    capacity,
    heldSeats,
    holdingBookings: holds.length,
    remaining,
    cutoffAt: closeAt,
    closedBy,
    status,
    isAvailable: remaining > 0 && units <= (departure.shared ? remaining : Math.min(capacity, room)),
  };
}
