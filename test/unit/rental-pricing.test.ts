import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../src/lib/datetime.ts';
import { normalizeRates, type Rate } from '../../src/lib/rental-terms.ts';
import { equipmentUnitPriceCents } from '../../src/modules/booking/pricing.ts';
import { totalPriceCents } from '../helpers/price-engine.ts';

// decisions §20: the worked example, and the rule's properties over random rates.

const shop = normalizeRates([
  { duration_minutes: 240, price: '40.00' },
  { duration_minutes: 60, price: '15.00' },
  { duration_minutes: 120, price: '25.00' },
]);
const minutes = (m: number) => m * MINUTE_MS;

describe('the worked example of decisions §20', () => {
  it('lets the longest rate raise a longer window: the example without its 240-min rate is cheaper at 26 h', () => {
    // (c) takes the longest rate only: 26 h is 40.00 + a day with it, 25.00 + a day without it
    expect(equipmentUnitPriceCents(minutes(26 * 60), 6000, shop.slice(0, 2))).toBe(8500);
  });

  it('prices 90 min at 25.00, 5 h at 60.00 and 26 h at 100.00', () => {
    expect(equipmentUnitPriceCents(minutes(90), 6000, shop)).toBe(2500);
    expect(equipmentUnitPriceCents(minutes(300), 6000, shop)).toBe(6000);
    expect(equipmentUnitPriceCents(minutes(26 * 60), 6000, shop)).toBe(10_000);
  });

  it('prices the exact rate periods at their rates, and a day at the day price', () => {
    expect(equipmentUnitPriceCents(minutes(60), 6000, shop)).toBe(1500);
    expect(equipmentUnitPriceCents(minutes(61), 6000, shop)).toBe(2500);
    expect(equipmentUnitPriceCents(minutes(240), 6000, shop)).toBe(4000);
    expect(equipmentUnitPriceCents(DAY_MS, 6000, shop)).toBe(6000);
    expect(equipmentUnitPriceCents(2 * DAY_MS, 6000, shop)).toBe(12_000);
  });

  it('multiplies by the units booked', () => {
    const start = Date.UTC(2026, 6, 1, 9);
    const window = { startsAt: start, endsAt: start + minutes(90) };
    const item = { kind: 'equipment' as const, priceCents: 6000, rates: shop };
    expect(totalPriceCents(item, window, { participants: null, quantity: 3 })).toBe(7500);
  });
});

const rateArb = fc.record({
  durationMinutes: fc.integer({ min: 15, max: 43_200 }),
  priceCents: fc.integer({ min: 0, max: 1_000_000 }),
});
const ratesArb = fc
  .uniqueArray(rateArb, { selector: (r) => r.durationMinutes, maxLength: 20 })
  .map((rates) => [...rates].sort((a, b) => a.durationMinutes - b.durationMinutes));
const durationArb = fc.integer({ min: 1, max: 60 * DAY_MS });
const dayPriceArb = fc.integer({ min: 0, max: 1_000_000 });

/**
 * The three candidates of §20, written out as the decision states them, (a) taking the cheapest rate at
 * least D long (the shortest one's price wherever a longer rate does not cost less: docs/api-choices.md).
 */
function candidates(durationMs: number, perDay: number, rates: readonly Rate[]): number[] {
  const d = durationMs / MINUTE_MS;
  const found: number[] = [Math.ceil(d / 1440) * perDay];
  const covering = rates.filter((r) => r.durationMinutes >= d).sort((a, b) => a.priceCents - b.priceCents);
  if (covering.length) found.push(covering[0].priceCents);
  const longest = rates.reduce<Rate | undefined>(
    (l, r) => (!l || r.durationMinutes > l.durationMinutes ? r : l),
    undefined,
  );
  if (longest && d > longest.durationMinutes)
    found.push(longest.priceCents + Math.ceil((d - longest.durationMinutes) / 1440) * perDay);
  return found;
}

describe('the lowest-price rule (property tests)', () => {
  it('is the lowest of the three candidates', () => {
    fc.assert(
      fc.property(durationArb, dayPriceArb, ratesArb, (duration, perDay, rates) => {
        expect(equipmentUnitPriceCents(duration, perDay, rates)).toBe(
          Math.min(...candidates(duration, perDay, rates)),
        );
      }),
    );
  });

  it("with no rates is the spec's rule: rental days × price per day", () => {
    fc.assert(
      fc.property(durationArb, dayPriceArb, (duration, perDay) => {
        expect(equipmentUnitPriceCents(duration, perDay, [])).toBe(
          Math.max(1, Math.ceil(duration / DAY_MS)) * perDay,
        );
      }),
    );
  });

  it('takes the shortest covering rate when prices grow with durations, as §20 words it', () => {
    const growing = ratesArb.map((rates) => rates.map((r, i) => ({ ...r, priceCents: (i + 1) * 500 })));
    fc.assert(
      fc.property(durationArb, dayPriceArb, growing, (duration, perDay, rates) => {
        const shortest = rates.find((r) => r.durationMinutes * MINUTE_MS >= duration);
        const unit = equipmentUnitPriceCents(duration, perDay, rates);
        if (shortest)
          expect(unit).toBe(
            Math.min(shortest.priceCents, Math.max(1, Math.ceil(duration / DAY_MS)) * perDay),
          );
      }),
    );
  });

  it('never decreases when a rate other than the longest is removed', () => {
    fc.assert(
      fc.property(
        durationArb,
        dayPriceArb,
        ratesArb.filter((r) => r.length > 1),
        fc.nat(),
        (duration, perDay, rates, pick) => {
          const without = rates.filter((_, i) => i !== pick % (rates.length - 1));
          expect(equipmentUnitPriceCents(duration, perDay, without)).toBeGreaterThanOrEqual(
            equipmentUnitPriceCents(duration, perDay, rates),
          );
        },
      ),
    );
  });

  it('is an integer number of cents, never above the day price, and × quantity for the total', () => {
    fc.assert(
      fc.property(
        durationArb,
        dayPriceArb,
        ratesArb,
        fc.integer({ min: 1, max: 10_000 }),
        (duration, perDay, rates, quantity) => {
          const unit = equipmentUnitPriceCents(duration, perDay, rates);
          expect(Number.isInteger(unit)).toBe(true);
          expect(unit).toBeLessThanOrEqual(Math.max(1, Math.ceil(duration / DAY_MS)) * perDay);
          const window = { startsAt: 0, endsAt: duration };
          expect(
            totalPriceCents({ kind: 'equipment', priceCents: perDay, rates }, window, {
              participants: null,
              quantity,
            }),
          ).toBe(unit * quantity);
        },
      ),
    );
  });
});
