import { describe, expect, it } from 'vitest';
import type { ListingKind } from '../../src/db/database.ts';
import { DAY_MS, HOUR_MS } from '../../src/lib/datetime.ts';
import { ATTRIBUTION_WINDOW_MS, isValidAttribution } from '../../src/modules/booking/attribution.ts';
import { priceBooking, rentalDays } from '../../src/modules/booking/pricing.ts';

/** The engine with no categories, extras or code: the spec's price (decisions §6, §10). */
const totalPriceCents = (
  kind: ListingKind,
  priceCents: number,
  window: { startsAt: number; endsAt: number },
  booked: { participants: number | null; quantity: number | null },
) =>
  priceBooking(
    window,
    { kind, priceCents, priceCategories: [], extras: [] },
    { ...booked, categories: null, extras: {} },
    null,
  ).totalCents;

const start = Date.UTC(2026, 6, 1, 10);
const window = (hours: number) => ({ startsAt: start, endsAt: start + hours * HOUR_MS });

describe('equipment pricing', () => {
  it('rounds the duration up to whole 24-hour days', () => {
    expect(rentalDays(start, start + 1)).toBe(1);
    expect(rentalDays(start, start + HOUR_MS)).toBe(1);
    expect(rentalDays(start, start + DAY_MS)).toBe(1);
    expect(rentalDays(start, start + DAY_MS + 1)).toBe(2);
    expect(rentalDays(start, start + 25 * HOUR_MS)).toBe(2);
    expect(rentalDays(start, start + 48 * HOUR_MS)).toBe(2);
    expect(rentalDays(start, start + 50 * HOUR_MS)).toBe(3);
  });

  const one = { participants: null, quantity: 1 };
  it('multiplies days by the price per day in integer cents', () => {
    expect(totalPriceCents('equipment', 4500, window(50), one)).toBe(13500);
    expect(totalPriceCents('equipment', 4500, window(24), one)).toBe(4500);
    expect(totalPriceCents('equipment', 1999, window(25), one)).toBe(3998);
    // participants ignored
    expect(totalPriceCents('equipment', 4500, window(2), { participants: 5, quantity: 1 })).toBe(4500);
  });

  it('multiplies by the units booked', () => {
    expect(totalPriceCents('equipment', 4500, window(50), { participants: null, quantity: 4 })).toBe(54000);
    expect(totalPriceCents('equipment', 1999, window(1), { participants: null, quantity: 10 })).toBe(19990);
  });
});

describe('adventure pricing', () => {
  it('multiplies participants by the price per person, whatever the duration', () => {
    const participants = (n: number | null) => ({ participants: n, quantity: null });
    expect(totalPriceCents('adventure', 3550, window(3), participants(3))).toBe(10650);
    expect(totalPriceCents('adventure', 3550, window(50), participants(1))).toBe(3550);
    expect(totalPriceCents('adventure', 3550, window(1), participants(null))).toBe(3550);
  });
});

describe('attribution window', () => {
  const created = Date.UTC(2026, 2, 1, 12);
  const click = { id: 7, listingId: 3, createdAt: created };

  it('accepts a click of the same listing up to exactly 90 days old', () => {
    expect(ATTRIBUTION_WINDOW_MS).toBe(90 * DAY_MS);
    expect(isValidAttribution(click, 3, created)).toBe(true);
    expect(isValidAttribution(click, 3, created + 90 * DAY_MS)).toBe(true);
    expect(isValidAttribution(click, 3, created + 90 * DAY_MS + 1)).toBe(false);
  });

  it('refuses a click of another listing', () => {
    expect(isValidAttribution(click, 4, created + 1000)).toBe(false);
  });
});
