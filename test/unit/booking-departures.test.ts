import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../src/db/database.ts';
import {
  type BookingFact,
  bookingClosed,
  type DepartureFacts,
  type DepartureTerms,
  evaluateDeparture,
} from '../../src/modules/booking/availability.ts';
import { ACTIVE_STATUSES } from '../../src/modules/booking/booking.state-machine.ts';

// Rule 5 of availability.ts: one departure's seats, closing and status (decisions §19).

const MIN = 60_000;
const START = 1_000 * MIN;
const STATUSES: BookingStatus[] = ['requested', 'approved', 'confirmed', 'declined', 'cancelled', 'expired'];

const booking = fc
  .record({
    // at the departure's instant, or at another start close by (overlapping departures of the same offering)
    startsAt: fc.constantFrom(START, START - 30 * MIN, START + 30 * MIN, START + 60 * MIN),
    status: fc.constantFrom(...STATUSES),
    units: fc.integer({ min: 1, max: 8 }),
  })
  .map((b): BookingFact => ({ ...b, endsAt: b.startsAt + 120 * MIN }));

const terms = fc
  .record({
    capacity: fc.integer({ min: 1, max: 30 }),
    shared: fc.boolean(),
    cutoffMinutes: fc.integer({ min: 0, max: 600 }),
  })
  .map((t): DepartureTerms => ({ ...t, startsAt: START, endsAt: START + 120 * MIN }));

const facts = fc.record({
  bookings: fc.array(booking, { maxLength: 10 }),
  slots: fc.array(
    fc
      .record({
        from: fc.integer({ min: -300, max: 300 }),
        minutes: fc.integer({ min: 1, max: 200 }),
        isAvailable: fc.boolean(),
      })
      .map(({ from, minutes, isAvailable }) => ({
        startsAt: START + from * MIN,
        endsAt: START + (from + minutes) * MIN,
        isAvailable,
      })),
    { maxLength: 3 },
  ),
  override: fc.option(
    fc.record({
      capacity: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
      isClosed: fc.boolean(),
    }),
    { nil: undefined },
  ),
}) as fc.Arbitrary<DepartureFacts>;

const now = fc.integer({ min: START - 900 * MIN, max: START + 10 * MIN });

const heldAtStart = (f: DepartureFacts) =>
  f.bookings.filter((b) => b.startsAt === START && (ACTIVE_STATUSES as readonly string[]).includes(b.status));

describe('evaluateDeparture', () => {
  it('counts only the active bookings of that departure, against the vendor’s capacity or the schedule’s', () => {
    fc.assert(
      fc.property(terms, facts, now, (t, f, at) => {
        const v = evaluateDeparture(t, f, at);
        const holds = heldAtStart(f);
        expect(v.capacity).toBe(f.override?.capacity ?? t.capacity);
        expect(v.heldSeats).toBe(holds.reduce((sum, b) => sum + b.units, 0));
        expect(v.holdingBookings).toBe(holds.length);
        expect(v.cutoffAt).toBe(START - t.cutoffMinutes * MIN);
        // bookings at other starts change nothing, however they overlap
        const own = { ...f, bookings: f.bookings.filter((b) => b.startsAt === START) };
        expect(evaluateDeparture(t, own, at)).toEqual(v);
      }),
    );
  });

  it('is closed past the cutoff, when the vendor closed it, or under an unavailable slot; then nothing remains', () => {
    fc.assert(
      fc.property(terms, facts, now, (t, f, at) => {
        const v = evaluateDeparture(t, f, at);
        const slotCloses = f.slots.some(
          (s) => !s.isAvailable && s.startsAt < t.endsAt && s.endsAt > t.startsAt,
        );
        const closed = at >= v.cutoffAt || Boolean(f.override?.isClosed) || slotCloses;
        expect(v.status === 'closed').toBe(closed);
        expect(v.closedBy !== null).toBe(closed);
        if (closed) expect([v.remaining, v.isAvailable]).toEqual([0, false]);
        if (at >= v.cutoffAt) expect(v.closedBy).toBe('cutoff');
      }),
    );
  });

  it('gives seats left (shared) or the whole departure or nothing (private), and the status from them', () => {
    fc.assert(
      fc.property(terms, facts, now, fc.integer({ min: 1, max: 40 }), (t, f, at, units) => {
        const v = evaluateDeparture(t, f, at, units);
        if (v.closedBy) return;
        if (t.shared) expect(v.remaining).toBe(Math.max(0, v.capacity - v.heldSeats));
        else expect(v.remaining).toBe(v.holdingBookings > 0 ? 0 : v.capacity);
        const status =
          v.remaining === 0 ? 'sold_out' : v.remaining < v.capacity / 2 ? 'limited' : 'available';
        expect(v.status).toBe(status);
        expect(v.isAvailable).toBe(v.remaining > 0 && units <= (t.shared ? v.remaining : v.capacity));
      }),
    );
  });

  it('never frees seats when a booking of the departure is added', () => {
    fc.assert(
      fc.property(terms, facts, now, booking, (t, f, at, added) => {
        const before = evaluateDeparture(t, f, at);
        const after = evaluateDeparture(t, { ...f, bookings: [...f.bookings, added] }, at);
        expect(after.remaining).toBeLessThanOrEqual(before.remaining);
      }),
    );
  });
});

describe('bookingClosed', () => {
  it('closes requests from the cutoff on, or once begun without one', () => {
    expect(bookingClosed(START, 60, START - 61 * MIN)).toBe(false);
    expect(bookingClosed(START, 60, START - 60 * MIN)).toBe(true);
    expect(bookingClosed(START, 0, START)).toBe(false);
    expect(bookingClosed(START, 0, START + 1)).toBe(true);
  });
});
