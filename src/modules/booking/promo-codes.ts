import type { ListingKind } from '../../db/database.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import type { Discount } from './pricing.ts';

// A promo code's rules (decisions §21), pure: what code a request means, and why a code cannot be
// redeemed by a request for a listing at an instant. The request and the quote both ask refusalOf.

export const PROMO_CODE_PATTERN = '^[A-Za-z0-9-]{3,32}$';

/** Codes match without regard to case: stored and compared in upper case. */
export const normalizePromoCode = (code: string) => code.trim().toUpperCase();

export interface ListingKey {
  kind: ListingKind;
  id: number;
}

export interface PromoCode {
  id: number;
  vendorId: number;
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  validFrom: number | null;
  validUntil: number | null;
  maxRedemptions: number | null;
  /** null: every listing of the vendor */
  listingIds: ListingKey[] | null;
  isActive: boolean;
}

/**
 * Why `promo` cannot be redeemed by a request for `listing` at `now`, with `redemptions` held by other
 * bookings; undefined when it can. Valid from valid_from (inclusive) until valid_until (exclusive).
 */
export function refusalOf(
  promo: PromoCode,
  listing: ListingKey & { vendorId: number },
  now: number,
  redemptions: number,
): string | undefined {
  if (promo.vendorId !== listing.vendorId) return 'This promo code is not valid for this vendor.';
  if (!promo.isActive) return 'This promo code is no longer active.';
  if (
    promo.listingIds !== null &&
    !promo.listingIds.some((l) => l.kind === listing.kind && l.id === listing.id)
  )
    return 'This promo code is not valid for this listing.';
  if (promo.validFrom !== null && now < promo.validFrom)
    return `This promo code is valid from ${formatDateTime(promo.validFrom)}.`;
  if (promo.validUntil !== null && now >= promo.validUntil)
    return `This promo code expired at ${formatDateTime(promo.validUntil)}.`;
  if (promo.maxRedemptions !== null && redemptions >= promo.maxRedemptions)
    return 'This promo code has no redemptions left.';
  return undefined;
}

export const discountOf = (promo: PromoCode): Discount => ({
  code: promo.code,
  percentOff: promo.percentOff,
  amountOffCents: promo.amountOffCents,
});
