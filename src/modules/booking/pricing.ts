import type { ListingKind } from '../../db/database.ts';
import { DAY_MS } from '../../lib/datetime.ts';
import { formatMoney } from '../../lib/money.ts';
import type { Extra, PriceCategory } from '../../lib/price-settings.ts';

// The one price engine (integer cents): a booking request, a quote, the booking objects (through the
// lines stored at request time) and the payment amount (the stored total) all come from priceBooking.

/** Rental days of an equipment booking: the duration in 24-hour days, rounded up (so at least 1). */
export function rentalDays(startsAt: number, endsAt: number): number {
  return Math.max(1, Math.ceil((endsAt - startsAt) / DAY_MS));
}

/** What the price of a booking depends on, of its listing. */
export interface PriceTerms {
  kind: ListingKind;
  /** price per day (equipment) or per person (adventure) */
  priceCents: number;
  /** adventures: when non-empty, participants are priced by category instead of price per person */
  priceCategories: readonly PriceCategory[];
  extras: readonly Extra[];
}

interface Window {
  startsAt: number;
  endsAt: number;
}

/**
 * The price of one unit (equipment: for the window) or one participant (adventure), in cents: what a
 * booking's base price line shows as its unit price.
 */
export function unitPriceCents(listing: Pick<PriceTerms, 'kind' | 'priceCents'>, window: Window): number {
  return listing.kind === 'equipment'
    ? rentalDays(window.startsAt, window.endsAt) * listing.priceCents
    : listing.priceCents;
}

/** How many units or participants a booking without categories pays for. */
export const pricedUnits = (
  kind: ListingKind,
  booked: { participants: number | null; quantity: number | null },
): number => (kind === 'equipment' ? (booked.quantity ?? 1) : (booked.participants ?? 1));

/** What the customer chose, checked against the listing (price-choices.ts). */
export interface PriceChoices {
  participants: number | null;
  quantity: number | null;
  /** counts by category code (adventures with categories); null otherwise */
  categories: Readonly<Record<string, number>> | null;
  /** quantities by extra code; a code left out is 0 */
  extras: Readonly<Record<string, number>>;
}

/** A promo code's discount. */
export interface Discount {
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
}

export type PriceLineKind = 'base' | 'category' | 'extra' | 'discount';

export interface PriceLine {
  kind: PriceLineKind;
  code: string | null;
  label: string;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
}

export interface PricedBooking {
  lines: PriceLine[];
  /** before the discount: base (or categories) + extras */
  subtotalCents: number;
  totalCents: number;
}

const BASE_LABEL: Record<ListingKind, string> = { equipment: 'Rental', adventure: 'Participants' };

const line = (
  kind: PriceLineKind,
  code: string | null,
  label: string,
  quantity: number,
  unitPriceCents: number,
): PriceLine => ({ kind, code, label, quantity, unitPriceCents, amountCents: quantity * unitPriceCents });

/**
 * The discount of a promo code on `subtotalCents` (decisions §21): its amount, capped at the subtotal, or
 * its percentage rounded down to the cent (33 % of 10.01 is 3.30). Split as 100·q + r so the product
 * never leaves the integers a double holds exactly.
 */
export function discountCents(subtotalCents: number, discount: Discount): number {
  if (discount.amountOffCents !== null) return Math.min(discount.amountOffCents, subtotalCents);
  const percent = discount.percentOff ?? 0;
  const whole = Math.floor(subtotalCents / 100);
  return whole * percent + Math.floor(((subtotalCents - whole * 100) * percent) / 100);
}

/**
 * A booking's price lines and total (decisions §6, §10, §21): the base line (units or participants ×
 * the unit price) or, for an adventure with categories, one line per category chosen; one line per
 * extra chosen (quantity × price, × the rental days when priced per day); then the promo code's
 * discount, taken from that subtotal. The lines add up to the total. With no categories, extras or
 * code this is the spec's price: one base line.
 */
export function priceBooking(
  window: Window,
  listing: PriceTerms,
  choices: PriceChoices,
  discount: Discount | null,
): PricedBooking {
  const lines: PriceLine[] = [];
  if (listing.kind === 'adventure' && listing.priceCategories.length > 0) {
    for (const category of listing.priceCategories) {
      const count = choices.categories?.[category.code] ?? 0;
      if (count > 0) lines.push(line('category', category.code, category.label, count, category.priceCents));
    }
  } else {
    const units = pricedUnits(listing.kind, choices);
    lines.push(line('base', null, BASE_LABEL[listing.kind], units, unitPriceCents(listing, window)));
  }
  const days = rentalDays(window.startsAt, window.endsAt);
  for (const extra of listing.extras) {
    const quantity = choices.extras[extra.code] ?? 0;
    if (quantity === 0) continue;
    const perDay = extra.per === 'day';
    const label = perDay ? `${extra.label} (${days} ${days === 1 ? 'day' : 'days'})` : extra.label;
    lines.push(
      line('extra', extra.code, label, quantity, perDay ? extra.priceCents * days : extra.priceCents),
    );
  }
  const subtotalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  if (discount === null) return { lines, subtotalCents, totalCents: subtotalCents };
  const off = discountCents(subtotalCents, discount);
  const what = discount.percentOff !== null ? `${discount.percentOff}% off` : 'amount off';
  lines.push({
    kind: 'discount',
    code: discount.code,
    label: `Promo code ${discount.code} (${what})`,
    quantity: 1,
    unitPriceCents: -off,
    amountCents: -off,
  });
  return { lines, subtotalCents, totalCents: subtotalCents - off };
}

/**
 * The lines of a booking requested before price lines were stored: one base line for its whole total
 * (per unit or participant when the total divides evenly, as the spec's prices always did).
 */
export function legacyPriceLines(
  kind: ListingKind,
  totalCents: number,
  booked: { participants: number | null; quantity: number | null },
): PriceLine[] {
  const units = pricedUnits(kind, booked);
  const even = units > 0 && totalCents % units === 0;
  return [line('base', null, BASE_LABEL[kind], even ? units : 1, even ? totalCents / units : totalCents)];
}

/** Price lines as the API shows them: money as two-decimal strings, the discount's negative. */
export const priceLinesOut = (lines: readonly PriceLine[]) =>
  lines.map((l) => ({
    kind: l.kind,
    code: l.code,
    label: l.label,
    quantity: l.quantity,
    unit_price: formatMoney(l.unitPriceCents),
    amount: formatMoney(l.amountCents),
  }));
