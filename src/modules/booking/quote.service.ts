import { notFound } from '../../http/errors.ts';
import { formatMoney } from '../../lib/money.ts';
import { KINDS } from '../catalog/index.ts';
import type { BookingDeps } from './booking.deps.ts';
import { priceLinesOut } from './pricing.ts';
import { askedOf, assessRequest, type BookingRequestInput } from './request-judgement.ts';

/**
 * What a booking request with this body would cost now, and whether it would be accepted (decisions
 * §21): validated and priced by the request's own assessment (assessRequest: the same 400s and 404s),
 * creating nothing (no booking, no redemption, no click). A window the request would refuse with 409 is
 * answered with is_available false. Nothing is locked: a request made next may find the last seat or the
 * code's last redemption taken.
 */
export async function quoteBooking(deps: BookingDeps, input: BookingRequestInput) {
  const { target, asked, now } = askedOf(deps, input);
  const listing = await deps.listings.byId(deps.db, target.kind, target.id);
  if (!listing) throw notFound(`${KINDS[target.kind].noun} not found.`);
  const { refusal, remaining, priced } = await assessRequest(deps.db, listing, asked, input, now, false);
  return {
    currency: listing.currency,
    total_price: formatMoney(priced.totalCents),
    price_lines: priceLinesOut(priced.lines),
    is_available: refusal === undefined,
    remaining,
  };
}
