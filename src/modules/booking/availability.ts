import type { BookingStatus } from '../../db/database.ts';
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
// 4. Overlap: no booking in requested, approved or confirmed may overlap the window.

export interface TimeWindow {
  startsAt: number;
  endsAt: number;
}

export interface SlotFact extends TimeWindow {
  isAvailable: boolean;
}

export interface BookingFact extends TimeWindow {
  status: BookingStatus;
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
}

export interface AvailabilityVerdict {
  isAvailable: boolean;
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

export function covers(outer: TimeWindow, inner: TimeWindow): boolean {
  return outer.startsAt <= inner.startsAt && outer.endsAt >= inner.endsAt;
}

export function evaluateAvailability(window: TimeWindow, facts: AvailabilityFacts): AvailabilityVerdict {
  const overlappingBookings = facts.bookings.filter(
    (b) => isActiveStatus(b.status) && overlaps(b, window),
  ).length;
  const blockingSlots = facts.slots.filter((s) => !s.isAvailable && overlaps(s, window)).length;
  const coverageRequired = facts.hasAvailableSlots ?? facts.slots.some((s) => s.isAvailable);
  const covered = facts.slots.some((s) => s.isAvailable && covers(s, window));
  return {
    isAvailable: overlappingBookings === 0 && blockingSlots === 0 && (!coverageRequired || covered),
    conflicts: overlappingBookings + blockingSlots,
    overlappingBookings,
    blockingSlots,
    coverageRequired,
    covered,
  };
}
