import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../src/lib/datetime.ts';
import type { Extra, PriceCategory } from '../../src/lib/price-settings.ts';
import {
  type Discount,
  discountCents,
  type PriceChoices,
  type PriceTerms,
  priceBooking,
  rentalDays,
  unitPriceCents,
} from '../../src/modules/booking/pricing.ts';
import { refusalOf } from '../../src/modules/booking/promo-codes.ts';
import { plainTerms } from '../helpers/price-engine.ts';

// The one price engine (decisions §21) on random listings, choices and codes.

const cents = fc.integer({ min: 0, max: 99_999_999 });
const window = fc
  .record({ start: fc.integer({ min: 0, max: 2 ** 40 }), minutes: fc.integer({ min: 1, max: 60 * 24 * 60 }) })
  .map(({ start, minutes }) => ({ startsAt: start, endsAt: start + minutes * MINUTE_MS }));
const code = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const categories = fc.uniqueArray(fc.record({ code, label: fc.constant('Category'), priceCents: cents }), {
  maxLength: 10,
  selector: (c) => c.code,
}) as fc.Arbitrary<PriceCategory[]>;
const extras = fc.uniqueArray(
  fc.record({
    code,
    label: fc.constant('Extra'),
    priceCents: cents,
    per: fc.constantFrom('booking' as const, 'day' as const),
    maxQuantity: fc.integer({ min: 1, max: 1000 }),
    resourceId: fc.constant(null),
  }),
  { maxLength: 20, selector: (e) => e.code },
) as fc.Arbitrary<Extra[]>;
const discount: fc.Arbitrary<Discount | null> = fc.option(
  fc.oneof(
    fc.record({
      code: fc.constant('CODE'),
      percentOff: fc.integer({ min: 1, max: 100 }),
      amountOffCents: fc.constant(null),
    }),
    fc.record({
      code: fc.constant('CODE'),
      percentOff: fc.constant(null),
      amountOffCents: fc.integer({ min: 1, max: 99_999_999 }),
    }),
  ),
);

/** A listing with its settings and choices that fit them. */
const priced = fc
  .record({
    kind: fc.constantFrom('equipment' as const, 'adventure' as const),
    priceCents: cents,
    priceCategories: categories,
    extras,
    window,
    discount,
    units: fc.integer({ min: 1, max: 50 }),
    seed: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 30, maxLength: 30 }),
  })
  .map(({ kind, priceCents, priceCategories, extras, window, discount, units, seed }) => {
    const listing: PriceTerms = {
      ...plainTerms(kind, priceCents),
      priceCategories: kind === 'adventure' ? priceCategories : [],
      extras,
    };
    const choices: PriceChoices = {
      participants: kind === 'adventure' ? units : null,
      quantity: kind === 'equipment' ? units : null,
      categories: Object.fromEntries(listing.priceCategories.map((c, i) => [c.code, seed[i]])),
      extras: Object.fromEntries(extras.map((e, i) => [e.code, Math.min(seed[10 + i], e.maxQuantity)])),
    };
    return { listing, choices, window, discount };
  });

const sum = (amounts: number[]) => amounts.reduce((a, b) => a + b, 0);

describe('the price engine', () => {
  it('makes lines that always add up to the total, each quantity × unit price, in integer cents', () => {
    fc.assert(
      fc.property(priced, ({ listing, choices, window, discount }) => {
        const { lines, totalCents, subtotalCents } = priceBooking(window, listing, choices, discount);
        expect(sum(lines.map((l) => l.amountCents))).toBe(totalCents);
        expect(sum(lines.filter((l) => l.kind !== 'discount').map((l) => l.amountCents))).toBe(subtotalCents);
        for (const line of lines) {
          expect(Number.isInteger(line.amountCents)).toBe(true);
          expect(line.amountCents).toBe(line.quantity * line.unitPriceCents);
        }
        expect(lines.filter((l) => l.kind === 'discount')).toHaveLength(discount ? 1 : 0);
      }),
    );
  });

  it('never makes a total negative, nor a discount larger than the subtotal', () => {
    fc.assert(
      fc.property(priced, ({ listing, choices, window, discount }) => {
        const { totalCents, subtotalCents } = priceBooking(window, listing, choices, discount);
        expect(totalCents).toBeGreaterThanOrEqual(0);
        expect(totalCents).toBeLessThanOrEqual(subtotalCents);
      }),
    );
  });

  it("with no new settings, is the spec's price: one base line of units × the unit price", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('equipment' as const, 'adventure' as const),
        cents,
        window,
        fc.integer({ min: 1, max: 1000 }),
        (kind, priceCents, w, units) => {
          const booked = {
            participants: kind === 'adventure' ? units : null,
            quantity: kind === 'equipment' ? units : null,
          };
          const { lines, totalCents } = priceBooking(
            w,
            plainTerms(kind, priceCents),
            { ...booked, categories: null, extras: {} },
            null,
          );
          const spec =
            kind === 'equipment' ? rentalDays(w.startsAt, w.endsAt) * priceCents * units : units * priceCents;
          expect(totalCents).toBe(spec);
          expect(lines).toEqual([
            expect.objectContaining({
              kind: 'base',
              code: null,
              quantity: units,
              unitPriceCents: unitPriceCents(plainTerms(kind, priceCents), w),
            }),
          ]);
        },
      ),
    );
  });

  it('rounds a percentage down to the cent, exactly, even for the largest subtotals', () => {
    const percent = (p: number): Discount => ({ code: 'P', percentOff: p, amountOffCents: null });
    expect(discountCents(1001, percent(33))).toBe(330);
    expect(discountCents(1001, percent(100))).toBe(1001);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }),
        fc.integer({ min: 1, max: 100 }),
        (subtotal, p) => {
          const exact = (subtotal * BigInt(p)) / 100n;
          expect(discountCents(Number(subtotal), percent(p))).toBe(Number(exact));
        },
      ),
    );
  });

  it('caps an amount off at the subtotal', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 1, max: 99_999_999 }), (subtotal, off) => {
        expect(discountCents(subtotal, { code: 'A', percentOff: null, amountOffCents: off })).toBe(
          Math.min(off, subtotal),
        );
      }),
    );
  });

  it('prices a per-day extra by the rental days, a per-booking one once', () => {
    const listing: PriceTerms = {
      ...plainTerms('equipment', 1000),
      extras: [
        { code: 'wetsuit', label: 'Wetsuit', priceCents: 500, per: 'day', maxQuantity: 5, resourceId: null },
        { code: 'gopro', label: 'GoPro', priceCents: 1500, per: 'booking', maxQuantity: 1, resourceId: null },
      ],
    };
    const w = { startsAt: 0, endsAt: 50 * 60 * MINUTE_MS };
    const { lines, totalCents } = priceBooking(
      w,
      listing,
      { participants: null, quantity: 1, categories: null, extras: { wetsuit: 2, gopro: 1 } },
      null,
    );
    expect(lines.map((l) => [l.code, l.quantity, l.unitPriceCents, l.amountCents])).toEqual([
      [null, 1, 3000, 3000],
      ['wetsuit', 2, 1500, 3000],
      ['gopro', 1, 1500, 1500],
    ]);
    expect(totalCents).toBe(7500);
  });
});

describe('a promo code’s refusal', () => {
  const promo = {
    id: 1,
    vendorId: 7,
    code: 'SPRING10',
    percentOff: 10,
    amountOffCents: null,
    validFrom: 1000,
    validUntil: 2000,
    maxRedemptions: 3,
    listingIds: [{ kind: 'adventure' as const, id: 5 }],
    isActive: true,
  };
  const listing = { kind: 'adventure' as const, id: 5, vendorId: 7 };

  it('is none inside its dates with redemptions left, from valid_from inclusive to valid_until exclusive', () => {
    expect(refusalOf(promo, listing, 1000, 2)).toBeUndefined();
    expect(refusalOf(promo, listing, 1999, 0)).toBeUndefined();
    expect(refusalOf(promo, listing, 999, 0)).toMatch(/valid from/);
    expect(refusalOf(promo, listing, 2000, 0)).toMatch(/expired/);
  });

  it('names each reason', () => {
    expect(refusalOf(promo, { ...listing, vendorId: 8 }, 1500, 0)).toMatch(/not valid for this vendor/);
    expect(refusalOf({ ...promo, isActive: false }, listing, 1500, 0)).toMatch(/no longer active/);
    expect(refusalOf(promo, { ...listing, id: 6 }, 1500, 0)).toMatch(/not valid for this listing/);
    expect(refusalOf(promo, { ...listing, kind: 'equipment' }, 1500, 0)).toMatch(
      /not valid for this listing/,
    );
    expect(refusalOf(promo, listing, 1500, 3)).toMatch(/no redemptions left/);
    expect(
      refusalOf({ ...promo, maxRedemptions: null, listingIds: null }, { ...listing, id: 99 }, 1500, 10 ** 6),
    ).toBeUndefined();
  });
});
