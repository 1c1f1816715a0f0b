import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateAvailability, evaluateDeparture } from '../../src/modules/booking/availability.ts';
import {
  departureGroup,
  evaluateResources,
  mergedHolds,
  type ResourceHold,
  resourceDemandOf,
  resourcePeak,
  resourceUsedAt,
  usageSegments,
} from '../../src/modules/booking/resource-use.ts';

// Rule 7 (decisions §22): a resource's use at an instant, its peak over a window, the usage segments and a
// request's verdict, against brute-force counts over every minute of small random fixtures.

const GROUPS = ['1:0:0', '2:0:0', null] as const;
const hold = fc
  .record({
    startsAt: fc.integer({ min: 0, max: 200 }),
    length: fc.integer({ min: 1, max: 80 }),
    amount: fc.integer({ min: 1, max: 4 }),
    group: fc.constantFrom(...GROUPS),
  })
  .map(
    ({ startsAt, length, amount, group }): ResourceHold => ({
      startsAt: group === null ? startsAt : 50,
      endsAt: group === null ? startsAt + length : 90,
      amount,
      group,
    }),
  );
const holds = fc.array(hold, { maxLength: 12 });

/** The use at an instant by definition: plain holds add up; one departure group takes its largest amount. */
function bruteUse(instant: number, list: readonly ResourceHold[]): number {
  let used = 0;
  const groups = new Map<string, number>();
  for (const h of list) {
    if (!(h.startsAt <= instant && instant < h.endsAt)) continue;
    if (h.group === null) used += h.amount;
    else groups.set(h.group, Math.max(groups.get(h.group) ?? 0, h.amount));
  }
  for (const a of groups.values()) used += a;
  return used;
}

describe('resource use', () => {
  it('the use at an instant is the brute-force count', () => {
    fc.assert(
      fc.property(holds, fc.integer({ min: -5, max: 300 }), (list, instant) => {
        expect(resourceUsedAt(instant, list)).toBe(bruteUse(instant, list));
      }),
    );
  });

  it('the peak over a window is the highest brute-force count at any instant of it', () => {
    fc.assert(
      fc.property(
        holds,
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 1, max: 100 }),
        (list, from, len) => {
          let peak = 0;
          for (let t = from; t < from + len; t++) peak = Math.max(peak, bruteUse(t, list));
          expect(resourcePeak({ startsAt: from, endsAt: from + len }, list)).toBe(peak);
        },
      ),
    );
  });

  it('usage segments are consecutive, cover the range, differ from their neighbours, and match the count', () => {
    fc.assert(
      fc.property(
        holds,
        fc.integer({ min: 0, max: 250 }),
        fc.integer({ min: 1, max: 100 }),
        (list, from, len) => {
          const to = from + len;
          const segments = usageSegments(from, to, list);
          expect(segments[0].startsAt).toBe(from);
          expect(segments.at(-1)?.endsAt).toBe(to);
          segments.forEach((s, i) => {
            expect(s.endsAt).toBeGreaterThan(s.startsAt);
            if (i > 0) {
              expect(s.startsAt).toBe(segments[i - 1].endsAt);
              expect(s.used).not.toBe(segments[i - 1].used);
            }
            for (let t = s.startsAt; t < s.endsAt; t++) expect(bruteUse(t, list)).toBe(s.used);
          });
        },
      ),
    );
  });

  it('merging departure groups never raises the use above the plain sum', () => {
    fc.assert(
      fc.property(holds, (list) => {
        const merged = mergedHolds(list).reduce((n, h) => n + h.units, 0);
        expect(merged).toBeLessThanOrEqual(list.reduce((n, h) => n + h.amount, 0));
      }),
    );
  });
});

describe('a request against the resources', () => {
  const requestArb = fc.record({
    list: holds,
    quantity: fc.integer({ min: 1, max: 12 }),
    fixed: fc.integer({ min: 0, max: 3 }),
    perUnit: fc.integer({ min: 0, max: 3 }),
    departure: fc.integer({ min: 0, max: 3 }),
    units: fc.integer({ min: 1, max: 5 }),
    grouped: fc.boolean(),
  });

  it('fits exactly when adding its holds leaves every instant within the quantity, and maxUnits is the largest fit', () => {
    fc.assert(
      fc.property(requestArb, ({ list, quantity, fixed, perUnit, departure, units, grouped }) => {
        // a request for the departure [50, 90) of listing 1 (its group) or of listing 3 (a new group)
        const window = { startsAt: 50, endsAt: 90 };
        const group = grouped ? '1:0:0' : departureGroup(3, window);
        const demands = [{ resourceId: 7, fixed, perUnit, departure }];
        const facts = [{ id: 7, name: 'boat', quantity, holds: list }];
        const fitsBrute = (u: number) => {
          const added: ResourceHold[] = [{ ...window, amount: fixed + perUnit * u, group: null }];
          if (departure > 0) added.push({ ...window, amount: departure, group });
          const all = [...list, ...added.filter((h) => h.amount > 0)];
          for (let t = window.startsAt; t < window.endsAt; t++) if (bruteUse(t, all) > quantity) return false;
          return true;
        };
        const verdict = evaluateResources(window, group, demands, facts, units);
        expect(verdict.fits).toBe(fitsBrute(units));
        if (verdict.short) expect(verdict.short.name).toBe('boat');
        const max = verdict.maxUnits;
        if (Number.isFinite(max)) {
          if (max > 0) expect(fitsBrute(max)).toBe(true);
          expect(fitsBrute(max + 1)).toBe(false);
        } else expect(fitsBrute(1000)).toBe(true);
      }),
    );
  });

  it('demands add up the listing’s uses and the extras chosen, by ascending resource id', () => {
    const demands = resourceDemandOf(
      [
        { resourceId: 9, per: 'departure', amount: 1 },
        { resourceId: 4, per: 'participant', amount: 2 },
        { resourceId: 9, per: 'booking', amount: 1 },
      ],
      [
        { resourceId: 4, quantity: 3 },
        { resourceId: null, quantity: 5 },
        { resourceId: 9, quantity: 0 },
      ],
    );
    expect(demands).toEqual([
      { resourceId: 4, fixed: 3, perUnit: 2, departure: 0 },
      { resourceId: 9, fixed: 1, perUnit: 0, departure: 1 },
    ]);
  });
});

describe('the room resources leave, in the listing rules', () => {
  const booking = fc
    .record({
      startsAt: fc.integer({ min: 0, max: 100 }),
      length: fc.integer({ min: 1, max: 60 }),
      units: fc.integer({ min: 1, max: 4 }),
    })
    .map(({ startsAt, length, units }) => ({
      startsAt,
      endsAt: startsAt + length,
      units,
      status: 'requested' as const,
    }));

  it('a request fits with the room exactly when it fits without it and the room holds its units', () => {
    fc.assert(
      fc.property(
        fc.array(booking, { maxLength: 8 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 8 }),
        (bookings, limit, countUnits, units, room) => {
          const window = { startsAt: 30, endsAt: 70 };
          const facts = { slots: [], bookings };
          const unit = { limit, countUnits };
          const without = evaluateAvailability(window, facts, unit, units);
          const withRoom = evaluateAvailability(window, { ...facts, resourceRoom: room }, unit, units);
          expect(withRoom.isAvailable).toBe(without.isAvailable && room >= units);
          if (countUnits) expect(withRoom.remaining).toBe(Math.min(without.remaining, room));
        },
      ),
    );
  });

  it('a departure’s remaining seats are capped by the room; a private one needs room for its party', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 5 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 10 }),
        (parties, capacity, shared, units, room) => {
          const departure = { startsAt: 1000, endsAt: 2000, capacity, shared, cutoffMinutes: 0 };
          const bookings = parties.map((u) => ({
            startsAt: 1000,
            endsAt: 2000,
            units: u,
            status: 'approved' as const,
          }));
          const without = evaluateDeparture(departure, { bookings, slots: [] }, 0, units);
          const withRoom = evaluateDeparture(
            departure,
            { bookings, slots: [], resourceRoom: room },
            0,
            units,
          );
          expect(withRoom.isAvailable).toBe(without.isAvailable && room >= units);
          if (shared) expect(withRoom.remaining).toBe(Math.min(without.remaining, room));
          else expect(withRoom.remaining).toBe(room >= 1 ? without.remaining : 0);
        },
      ),
    );
  });
});
