import type { ListingKind } from '../../db/database.ts';
import { DAY_MS, MINUTE_MS } from '../../lib/datetime.ts';
import { formatMoney } from '../../lib/money.ts';
import type { Extra, PriceCategory } from '../../lib/price-settings.ts';
import { describeMinutes, type Rate } from '../../lib/rental-terms.ts';

// The one price engine (integer cents): a booking request, a quote, the booking objects (through the
// lines stored at request time) and the payment amount (the stored total) all come from priceBooking.

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
  /** names the base line */
  title: string;
  /** price per day (equipment) or per person (adventure) */
  priceCents: number;
  /** equipment: shortest first; empty for adventures */
  rates: readonly Rate[];
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
export function unitPriceCents(
  listing: Pick<PriceTerms, 'kind' | 'priceCents' | 'rates'>,
  window: Window,
): number {
  return listing.kind === 'equipment'
    ? equipmentUnitPriceCents(window.endsAt - window.startsAt, listing.priceCents, listing.rates)
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

/** The base line's label: the listing's title, and for equipment the window's length ("Kayak, 1 h 30 min"). */
const baseLabel = (listing: Pick<PriceTerms, 'kind' | 'title'>, window: Window) =>
  listing.kind === 'equipment'
    ? `${listing.title}, ${describeMinutes(Math.ceil((window.endsAt - window.startsAt) / MINUTE_MS))}`
    : listing.title;

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
    lines.push(line('base', null, baseLabel(listing, window), units, unitPriceCents(listing, window)));
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
  listing: Pick<PriceTerms, 'kind' | 'title'>,
  window: Window,
  totalCents: number,
  booked: { participants: number | null; quantity: number | null },
): PriceLine[] {
  const units = pricedUnits(listing.kind, booked);
  const even = units > 0 && totalCents % units === 0;
  const label = baseLabel(listing, window);
  return [line('base', null, label, even ? units : 1, even ? totalCents / units : totalCents)];
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
