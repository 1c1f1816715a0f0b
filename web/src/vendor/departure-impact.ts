// What cancelling a departure would do, read afresh when the vendor is asked to confirm: its bookings and
// seats as the vendor's departures list counts them now, and the sum of what the API says a vendor cancel
// of each paid booking of it would refund (GET bookings/{id}/cancellation/). The page adds the API's
// amounts; it applies no refund rule of its own.
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

/** The departure as the vendor's list shows it now (its bookings and seats held). */
async function departureNow(offeringId: number, startsAt: string) {
  const list = await call(() =>
    api.GET('/api/v1/adventrues/vendor/offerings/{id}/departures/', {
      params: {
        path: { id: offeringId },
        // the shortest range that holds the instant: [starts_at, starts_at + 1 ms)
        query: { from: startsAt, to: new Date(Date.parse(startsAt) + 1).toISOString() },
      },
    }),
  );
  return list.departures.find((d) => Date.parse(d.starts_at) === Date.parse(startsAt));
}

export interface CancellationImpact {
  bookings: number;
  seats: number;
  refundCents: number;
}

export async function cancellationImpact(
  offering: Adventure,
  departure: { starts_at: string },
): Promise<CancellationImpact> {
  const [now, ids] = await Promise.all([
    departureNow(offering.id, departure.starts_at),
    paidBookingsAt(offering.id, departure.starts_at),
  ]);
  const previews = await Promise.all(
    ids.map((id) =>
      call(() => api.GET('/api/v1/booking/bookings/{id}/cancellation/', { params: { path: { id } } })),
    ),
  );
  return {
    bookings: now?.bookings ?? 0,
    seats: now?.booked ?? 0,
    refundCents: previews.reduce((sum, p) => sum + cents(p.refund_amount), 0),
  };
}
