import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../src/lib/datetime.ts';
import { ATTRIBUTION_WINDOW_MS, isValidAttribution } from '../../src/modules/booking/attribution.ts';
import { rentalDays } from '../../src/modules/booking/pricing.ts';
import { totalPriceCents } from '../helpers/price-engine.ts';

const start = Date.UTC(2026, 6, 1, 10);
const terms = (kind: 'equipment' | 'adventure', priceCents: number) => ({ kind, priceCents, rates: [] });
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
    expect(totalPriceCents(terms('equipment', 4500), window(50), one)).toBe(13500);
    expect(totalPriceCents(terms('equipment', 4500), window(24), one)).toBe(4500);
    expect(totalPriceCents(terms('equipment', 1999), window(25), one)).toBe(3998);
    // participants ignored
    expect(totalPriceCents(terms('equipment', 4500), window(2), { participants: 5, quantity: 1 })).toBe(4500);
  });

  it('multiplies by the units booked', () => {
    expect(totalPriceCents(terms('equipment', 4500), window(50), { participants: null, quantity: 4 })).toBe(
      54000,
    );
    expect(totalPriceCents(terms('equipment', 1999), window(1), { participants: null, quantity: 10 })).toBe(
      19990,
    );
  });
});

describe('adventure pricing', () => {
  it('multiplies participants by the price per person, whatever the duration', () => {
    const participants = (n: number | null) => ({ participants: n, quantity: null });
    expect(totalPriceCents(terms('adventure', 3550), window(3), participants(3))).toBe(10650);
    expect(totalPriceCents(terms('adventure', 3550), window(50), participants(1))).toBe(3550);
    expect(totalPriceCents(terms('adventure', 3550), window(1), participants(null))).toBe(3550);
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
