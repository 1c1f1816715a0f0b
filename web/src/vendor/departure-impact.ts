// What cancelling a departure would refund, before the vendor confirms it: the sum of what the API says a
// vendor cancel of each paid booking holding it would refund (GET bookings/{id}/cancellation/). The page
// adds the API's amounts; it applies no refund rule of its own.
import { api, call } from '../api.ts';
import type { Adventure } from './data.ts';

const cents = (amount: string) => Math.round(Number(amount) * 100);

/** The vendor's confirmed (paid) bookings that start at the departure's instant. */
async function paidBookingsAt(offeringId: number, startsAt: string) {
  const at = Date.parse(startsAt);
  const found: number[] = [];
  for (let page = 1; ; page++) {
    const result = await call(() =>
      api.GET('/api/v1/booking/bookings/', {
        params: {
          query: { status: 'confirmed', starts_from: startsAt, ordering: 'starts_at', page, page_size: 100 },
        },
      }),
    );
    for (const booking of result.results)
      if (booking.adventure_offering_id === offeringId && Date.parse(booking.starts_at) === at)
        found.push(booking.id);
    // ordered by start: once a later start is listed, no more of this departure follow
    const last = result.results.at(-1);
    if (!result.next || !last || Date.parse(last.starts_at) > at) return found;
  }
}

export async function cancellationImpact(
  offering: Adventure,
  departure: { starts_at: string },
): Promise<{ refundCents: number }> {
  const ids = await paidBookingsAt(offering.id, departure.starts_at);
  const previews = await Promise.all(
    ids.map((id) =>
      call(() => api.GET('/api/v1/booking/bookings/{id}/cancellation/', { params: { path: { id } } })),
    ),
  );
  return { refundCents: previews.reduce((sum, p) => sum + cents(p.refund_amount), 0) };
}
