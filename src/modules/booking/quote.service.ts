import { notFound } from '../../http/errors.ts';
import { MINUTE_MS } from '../../lib/datetime.ts';
import { formatMoney } from '../../lib/money.ts';
import { describeMinutes } from '../../lib/rental-terms.ts';
import { KINDS } from '../catalog/index.ts';
import { askedOf, type BookingDeps, type BookingRequestInput, judgeRequest } from './booking.service.ts';
import { pricedUnits, unitPriceCents } from './pricing.ts';

/**
 * A quote (decisions §21): the price and availability of a booking request's body, judged exactly as a
 * request is (the same 400s and 404s) but creating nothing: no booking, no click. A window a request would
 * get a 409 for is quoted with is_available false. Reads the listing through the catalog's cache and
 * locks nothing: the answer is what a request would get now, not a hold.
 */
export async function quoteBooking(deps: BookingDeps, input: BookingRequestInput) {
  const { target, asked, now } = askedOf(deps, input);
  const listing = await deps.listings.byId(deps.db, target.kind, target.id);
  if (!listing) throw notFound(`${KINDS[target.kind].noun} not found.`);
  const judged = await judgeRequest(deps.db, listing, asked, input, now);
  const minutes = (judged.window.endsAt - judged.window.startsAt) / MINUTE_MS;
  const label =
    listing.kind === 'equipment' ? `${listing.title}, ${describeMinutes(Math.ceil(minutes))}` : listing.title;
  const total = formatMoney(judged.totalCents);
  return {
    currency: listing.currency,
    total_price: total,
    price_lines: [
      {
        kind: 'base' as const,
        code: null,
        label,
        quantity: pricedUnits(listing.kind, judged.demand),
        unit_price: formatMoney(unitPriceCents(listing, judged.window)),
        amount: total,
      },
    ],
    is_available: judged.refusal === undefined,
    remaining: judged.remaining,
  };
}
