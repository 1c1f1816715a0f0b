import type { ListingKind } from '../../db/database.ts';
import { DAY_MS, MINUTE_MS } from '../../lib/datetime.ts';
import type { Rate } from '../../lib/rental-terms.ts';

// The one price engine (integer cents): every total the service computes or shows (a booking request, a
// quote, the availability check's price) comes from here.

/** Rental days of an equipment booking: the duration in 24-hour days, rounded up (so at least 1). */
export function rentalDays(startsAt: number, endsAt: number): number {
  return Math.max(1, Math.ceil((endsAt - startsAt) / DAY_MS));
}

/** Days beyond a rate's period: the remaining duration in 24-hour days, rounded up (0 when none remains). */
const daysBeyond = (durationMs: number, rateMinutes: number) =>
  Math.max(0, Math.ceil((durationMs - rateMinutes * MINUTE_MS) / DAY_MS));

/**
 * The price of one unit of an equipment item for a window of `durationMs` (decisions §20): the lowest of
 * (a) a rate at least as long, (b) the rental days × the price per day, and (c) when the window is longer
 * than the longest rate, that rate plus the days beyond it × the price per day. `rates` are sorted
 * shortest first (normalizeRates). With no rates this is (b), the spec's rule.
 *
 * (a) is §20's "shortest rate at least as long" wherever a longer rate does not cost less; where one does
 * (a table like 60 min 20.00, 120 min 15.00), a customer could book the longer rate and come back early,
 * so the cheaper one counts. That also makes removing a rate that is not the longest never lower a price.
 */
export function equipmentUnitPriceCents(
  durationMs: number,
  pricePerDayCents: number,
  rates: readonly Rate[],
): number {
  let best = Math.max(1, Math.ceil(durationMs / DAY_MS)) * pricePerDayCents;
  const covering = rates.filter((r) => r.durationMinutes * MINUTE_MS >= durationMs);
  for (const rate of covering) best = Math.min(best, rate.priceCents);
  if (covering.length === 0 && rates.length > 0) {
    const longest = rates[rates.length - 1];
    best = Math.min(
      best,
      longest.priceCents + daysBeyond(durationMs, longest.durationMinutes) * pricePerDayCents,
    );
  }
  return best;
}

/** What the price of a booking depends on, of its listing. */
export interface PriceTerms {
  kind: ListingKind;
  /** price per day (equipment) or per person (adventure) */
  priceCents: number;
  /** equipment: shortest first; empty for adventures */
  rates: readonly Rate[];
}

/**
 * The price of one unit (equipment: for the window) or one participant (adventure), in cents: what a
 * booking's base price line shows as its unit price.
 */
export function unitPriceCents(listing: PriceTerms, window: { startsAt: number; endsAt: number }): number {
  return listing.kind === 'equipment'
    ? equipmentUnitPriceCents(window.endsAt - window.startsAt, listing.priceCents, listing.rates)
    : listing.priceCents;
}

/** How many units or participants a booking pays for. */
export const pricedUnits = (
  kind: ListingKind,
  booked: { participants: number | null; quantity: number | null },
): number => (kind === 'equipment' ? (booked.quantity ?? 1) : (booked.participants ?? 1));

/**
 * The server-computed total in cents (integers only): equipment is the unit price for the window ×
 * units, an adventure participants × price per person.
 */
export function totalPriceCents(
  listing: PriceTerms,
  window: { startsAt: number; endsAt: number },
  booked: { participants: number | null; quantity: number | null },
): number {
  return unitPriceCents(listing, window) * pricedUnits(listing.kind, booked);
}
