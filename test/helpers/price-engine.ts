import type { ListingKind } from '../../src/db/database.ts';
import type { Rate } from '../../src/lib/rental-terms.ts';
import { type PriceTerms, priceBooking } from '../../src/modules/booking/pricing.ts';

/** A listing's price terms with none of §21's settings (no categories, no extras). */
export const plainTerms = (
  kind: ListingKind,
  priceCents: number,
  rates: readonly Rate[] = [],
): PriceTerms => ({ kind, title: 'Listing', priceCents, rates, priceCategories: [], extras: [] });

/** The engine's total with no categories, extras or code: the spec's price (decisions §6, §10, §20). */
export const totalPriceCents = (
  terms: { kind: ListingKind; priceCents: number; rates: readonly Rate[] },
  window: { startsAt: number; endsAt: number },
  booked: { participants: number | null; quantity: number | null },
) =>
  priceBooking(
    window,
    plainTerms(terms.kind, terms.priceCents, terms.rates),
    { ...booked, categories: null, extras: {} },
    null,
  ).totalCents;
