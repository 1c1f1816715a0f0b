import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../src/db/database.ts';
import {
  type BookingFact,
  evaluateAvailability,
  overlaps,
  type SlotFact,
  type TimeWindow,
} from '../../src/modules/booking/availability.ts';

const H = 3_600_000;
const at = (hour: number): number => Date.UTC(2026, 6, 1) + hour * H;
const win = (from: number, to: number): TimeWindow => ({ startsAt: at(from), endsAt: at(to) });
const slot = (from: number, to: number, isAvailable = true): SlotFact => ({ ...win(from, to), isAvailable });
const booking = (from: number, to: number, status: BookingStatus = 'requested', units = 1): BookingFact => ({
  ...win(from, to),
  status,
  units,
});

describe('evaluateAvailability', () => {
  it('is available with no slots and no bookings', () => {
    expect(evaluateAvailability(win(10, 12), { slots: [], bookings: [] })).toEqual({
      isAvailable: true,
      remaining: 1,
      freeUnits: 1,
      conflicts: 0,
      overlappingBookings: 0,
      blockingSlots: 0,
      coverageRequired: false,
      covered: false,
    });
  });

  it('treats windows as half-open: touching bookings do not conflict', () => {
    const facts = { slots: [], bookings: [booking(10, 12)] };
    expect(evaluateAvailability(win(12, 14), facts).isAvailable).toBe(true);
    expect(evaluateAvailability(win(8, 10), facts).isAvailable).toBe(true);
    const overlapping = evaluateAvailability(win(11, 13), facts);
    expect(overlapping.isAvailable).toBe(false);
    expect(overlapping.conflicts).toBe(1);
  });

  it('counts only requested, approved and confirmed bookings', () => {
    const bookings = (['requested', 'approved', 'declined', 'cancelled', 'confirmed'] as const).map((s) =>
      booking(10, 12, s),
    );
    const verdict = evaluateAvailability(win(9, 13), { slots: [], bookings });
    expect(verdict.overlappingBookings).toBe(3);
    expect(verdict.conflicts).toBe(3);
    expect(
      evaluateAvailability(win(9, 13), {
        slots: [],
        bookings: [booking(10, 12, 'declined'), booking(10, 12, 'cancelled')],
      }).isAvailable,
    ).toBe(true);
  });

  it('needs one available slot covering the whole window when the listing has available slots', () => {
    const slots = [slot(8, 12), slot(12, 16)];
    expect(evaluateAvailability(win(8, 12), { slots, bookings: [] }).isAvailable).toBe(true); // exact edges
    expect(evaluateAvailability(win(9, 11), { slots, bookings: [] }).isAvailable).toBe(true);
    // two adjacent slots do not add up to cover a window spanning both
    const spanning = evaluateAvailability(win(11, 13), { slots, bookings: [] });
    expect(spanning).toMatchObject({
      isAvailable: false,
      conflicts: 0,
      coverageRequired: true,
      covered: false,
    });
    expect(evaluateAvailability(win(7, 9), { slots, bookings: [] }).isAvailable).toBe(false);
    expect(evaluateAvailability(win(16, 17), { slots, bookings: [] }).isAvailable).toBe(false);
  });

  it('blocks on any overlapping unavailable slot, even inside an available one', () => {
    const slots = [slot(8, 18), slot(12, 13, false)];
    expect(evaluateAvailability(win(11, 14), { slots, bookings: [] })).toMatchObject({
      isAvailable: false,
      conflicts: 1,
      blockingSlots: 1,
    });
    expect(evaluateAvailability(win(13, 15), { slots, bookings: [] }).isAvailable).toBe(true); // touches
    expect(evaluateAvailability(win(10, 12), { slots, bookings: [] }).isAvailable).toBe(true);
  });

  it('with only unavailable slots the listing is bookable by default outside them', () => {
    const slots = [slot(12, 13, false)];
    expect(evaluateAvailability(win(9, 12), { slots, bookings: [] })).toMatchObject({
      isAvailable: true,
      coverageRequired: false,
    });
    expect(evaluateAvailability(win(9, 12.5), { slots, bookings: [] }).isAvailable).toBe(false);
  });

  it('counts bookings and blocking slots together in conflicts', () => {
    const verdict = evaluateAvailability(win(10, 20), {
      slots: [slot(11, 12, false), slot(15, 16, false), slot(0, 24)],
      bookings: [booking(9, 11, 'approved'), booking(19, 21, 'confirmed')],
    });
    expect(verdict).toMatchObject({
      isAvailable: false,
      conflicts: 4,
      overlappingBookings: 2,
      blockingSlots: 2,
    });
  });

  it('honours hasAvailableSlots when only overlapping slots are passed', () => {
    expect(
      evaluateAvailability(win(10, 12), { slots: [], bookings: [], hasAvailableSlots: true }).isAvailable,
    ).toBe(false);
  });
});

// --- property: the function against a brute-force, minute-by-minute model -------------------------------------

const MINUTE = 60_000;
const BASE = Date.UTC(2026, 6, 1);
const STATUSES: BookingStatus[] = ['requested', 'approved', 'declined', 'cancelled', 'confirmed'];
const ACTIVE: BookingStatus[] = ['requested', 'approved', 'confirmed'];

const interval = fc
  .tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1, max: 60 }))
  .map(([start, length]) => ({ start, end: start + length }));
const slotArb = fc.record({ span: interval, isAvailable: fc.boolean() });
const bookingArb = fc.record({ span: interval, status: fc.constantFrom(...STATUSES) });

type Span = { start: number; end: number };
const toMs = (s: Span): TimeWindow => ({ startsAt: BASE + s.start * MINUTE, endsAt: BASE + s.end * MINUTE });

/** Minutes m of the window (each standing for [m, m+1)) tested one by one. */
function model(
  window: Span,
  slots: { span: Span; isAvailable: boolean }[],
  bookings: { span: Span; status: BookingStatus }[],
) {
  const minutes: number[] = [];
  for (let m = window.start; m < window.end; m++) minutes.push(m);
  const holds = (s: Span, m: number) => s.start <= m && m < s.end;
  const touchesWindow = (s: Span) => minutes.some((m) => holds(s, m));
  const active = bookings.filter((b) => ['requested', 'approved', 'confirmed'].includes(b.status));
  const bookingConflicts = active.filter((b) => touchesWindow(b.span)).length;
  const blocking = slots.filter((s) => !s.isAvailable && touchesWindow(s.span)).length;
  const anyAvailable = slots.some((s) => s.isAvailable);
  const covered = slots.some((s) => s.isAvailable && minutes.every((m) => holds(s.span, m)));
  return {
    isAvailable: bookingConflicts === 0 && blocking === 0 && (!anyAvailable || covered),
    conflicts: bookingConflicts + blocking,
  };
}

describe('evaluateAvailability (property)', () => {
  it('agrees with a minute-by-minute model', () => {
    fc.assert(
      fc.property(
        interval,
        fc.array(slotArb, { maxLength: 6 }),
        fc.array(bookingArb, { maxLength: 6 }),
        (window, slots, bookings) => {
          const verdict = evaluateAvailability(toMs(window), {
            slots: slots.map((s) => ({ ...toMs(s.span), isAvailable: s.isAvailable })),
            bookings: bookings.map((b) => ({ ...toMs(b.span), status: b.status, units: 1 })),
          });
          const expected = model(window, slots, bookings);
          expect({ isAvailable: verdict.isAvailable, conflicts: verdict.conflicts }).toEqual(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('gives the same answer from the overlapping slots plus hasAvailableSlots as from all slots', () => {
    fc.assert(
      fc.property(interval, fc.array(slotArb, { maxLength: 8 }), (window, slots) => {
        const w = toMs(window);
        const all = slots.map((s) => ({ ...toMs(s.span), isAvailable: s.isAvailable }));
        const full = evaluateAvailability(w, { slots: all, bookings: [] });
        const partial = evaluateAvailability(w, {
          slots: all.filter((s) => overlaps(s, w)),
          bookings: [],
          hasAvailableSlots: all.some((s) => s.isAvailable),
        });
        expect(partial).toEqual(full);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('evaluateAvailability with units (decisions §10)', () => {
  const fiveUnits = { limit: 5, countUnits: true };

  it('counts the peak, not the sum: the worked example', () => {
    const facts = { slots: [], bookings: [booking(9, 11, 'requested', 5), booking(13, 15, 'approved', 5)] };
    // 09-11 × 5 and 13-15 × 5 do not block each other ...
    expect(
      evaluateAvailability(win(13, 15), { slots: [], bookings: [facts.bookings[0]] }, fiveUnits, 5),
    ).toMatchObject({ isAvailable: true, remaining: 5 });
    expect(evaluateAvailability(win(11, 13), facts, fiveUnits, 5)).toMatchObject({
      isAvailable: true,
      remaining: 5,
    });
    // ... and a 10-14 request for 1 unit conflicts with both
    expect(evaluateAvailability(win(10, 14), facts, fiveUnits, 1)).toMatchObject({
      isAvailable: false,
      remaining: 0,
      freeUnits: 0,
      overlappingBookings: 2,
    });
  });

  it('gives the minimum free over the window as remaining', () => {
    const facts = {
      slots: [],
      bookings: [
        booking(9, 11, 'requested', 2),
        booking(10, 12, 'confirmed', 1),
        booking(13, 14, 'declined', 5),
      ],
    };
    // 2 held 9-10, 3 held 10-11, 1 held 11-12
    expect(evaluateAvailability(win(9, 10), facts, fiveUnits).remaining).toBe(3);
    expect(evaluateAvailability(win(9, 12), facts, fiveUnits).remaining).toBe(2);
    expect(evaluateAvailability(win(11, 15), facts, fiveUnits).remaining).toBe(4);
    expect(evaluateAvailability(win(9, 12), facts, fiveUnits, 2).isAvailable).toBe(true);
    expect(evaluateAvailability(win(9, 12), facts, fiveUnits, 3).isAvailable).toBe(false);
  });

  it('counts every booking as the whole listing without countUnits (a private adventure)', () => {
    const facts = { slots: [], bookings: [booking(9, 11, 'requested', 4)] };
    expect(evaluateAvailability(win(10, 12), facts)).toMatchObject({ isAvailable: false, remaining: 0 });
    expect(evaluateAvailability(win(11, 12), facts)).toMatchObject({ isAvailable: true, remaining: 1 });
  });

  it('reports nothing remaining when slots refuse the window', () => {
    const slots = [slot(10, 11, false)];
    expect(evaluateAvailability(win(9, 12), { slots, bookings: [] }, fiveUnits)).toMatchObject({
      isAvailable: false,
      remaining: 0,
      freeUnits: 5,
    });
  });

  // rule 6: with a turnaround buffer every hold, the request's included, lasts that much longer
  it('agrees with a minute-by-minute count of units held, buffers included', () => {
    const span = fc
      .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 30 }))
      .map(([start, length]) => ({ start, end: start + length }));
    const hold = fc.record({
      span,
      status: fc.constantFrom(...STATUSES),
      units: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(
        span,
        fc.array(hold, { maxLength: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(0, 0, 1, 5, 15),
        (window, holds, limit, countUnits, units, buffer) => {
          const verdict = evaluateAvailability(
            toMs(window),
            {
              slots: [],
              bookings: holds.map((h) => ({ ...toMs(h.span), status: h.status, units: h.units })),
            },
            { limit, countUnits, bufferMs: buffer * MINUTE },
            units,
          );
          let peak = 0;
          for (let m = window.start; m < window.end + buffer; m++) {
            let held = 0;
            for (const h of holds)
              if (ACTIVE.includes(h.status) && h.span.start <= m && m < h.span.end + buffer)
                held += countUnits ? h.units : 1;
            peak = Math.max(peak, held);
          }
          const remaining = Math.max(0, limit - peak);
          expect({ isAvailable: verdict.isAvailable, remaining: verdict.remaining }).toEqual({
            isAvailable: remaining >= (countUnits ? units : 1),
            remaining,
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});
