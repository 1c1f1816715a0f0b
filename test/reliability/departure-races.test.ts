import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTwoServers } from './two-servers.ts';

// Departures under real concurrency (decisions §19): two server processes on one database (a SQLite file,
// or PostgreSQL with TEST_DATABASE_URL), simultaneous HTTP requests spread over both. The last seats of a
// departure go to exactly as many requests as there are seats; a departure cancelled while requests and
// payment webhooks for it arrive ends with no booking holding it, every paid booking refunded in full, and
// nothing refunded twice.

const world = useTwoServers();
const { send, account } = world;

// one departure on a date far ahead of the real clock the servers run on
const DEPARTURE = '2031-03-03T09:00:00.000Z';

async function tour(booking_mode: 'shared' | 'private', capacity: number) {
  const vendor = await account('vendor', { business_name: `Race tours ${randomBytes(3).toString('hex')}` });
  const made = await send(
    'POST',
    '/api/v1/adventrues/vendor/offerings/',
    {
      public_id: `race-${randomBytes(4).toString('hex')}`,
      title: 'Race tour',
      price_per_person: '25.00',
      duration_minutes: 120,
      capacity,
      booking_mode,
      category_id: 1,
      schedule: [
        { weekdays: ['mon'], start_times: ['09:00'], from_date: '2031-03-03', to_date: '2031-03-03' },
      ],
    },
    vendor.token,
  );
  expect(made.status).toBe(201);
  return { vendor, id: made.json.id as number };
}

const request = (tourId: number, token: string, participants = 1) =>
  send(
    'POST',
    '/api/v1/booking/bookings/request/',
    { adventure_offering_id: tourId, starts_at: DEPARTURE, participants_count: participants },
    token,
  );

async function seatsHeld(listingId: number) {
  const rows = await world.handle.db
    .selectFrom('bookings')
    .select(['participants_count', 'status'])
    .where('listing_id', '=', listingId)
    .where('status', 'in', ['requested', 'approved', 'confirmed'])
    .execute();
  return rows.reduce((sum, r) => sum + (r.participants_count ?? 0), 0);
}

describe('the last seats of a departure, requested at once through two server processes', () => {
  it('go to exactly as many requests as there are seats (shared)', async () => {
    const { id } = await tour('shared', 9);
    const customer = await account('customer');
    expect((await request(id, customer.token, 4)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 16 }, () => request(id, customer.token)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
    expect(await seatsHeld(id)).toBe(9);
  });

  it('go to exactly one request (private)', async () => {
    const { id } = await tour('private', 6);
    const customer = await account('customer');
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(id, customer.token, 2)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
  });
});

describe('a departure cancelled while requests and payment webhooks for it arrive', () => {
  it('leaves no booking holding it, every paid booking refunded in full, and nothing refunded twice', async () => {
    const { vendor, id } = await tour('shared', 40);
    const customer = await account('customer');
    const intents: string[] = [];
    const bookingIds: number[] = [];
    for (let i = 0; i < 8; i++) {
      const booking = await request(id, customer.token, 2);
      expect(booking.status).toBe(201);
      const approved = await send(
        'POST',
        `/api/v1/booking/bookings/${booking.json.id}/approve/`,
        {},
        vendor.token,
      );
      expect(approved.status).toBe(200);
      const intent = await send(
        'POST',
        '/api/v1/payment/intents/',
        { booking_id: booking.json.id },
        customer.token,
      );
      expect(intent.status).toBe(201);
      intents.push(intent.json.payment.gateway_payment_intent_id);
      bookingIds.push(booking.json.id);
    }
    const webhook = (intent: string, n: number) =>
      send('POST', '/api/v1/payment/webhooks/gateway/', {
        gateway_event_id: `evt_${intent}_${n}`,
        event_type: 'payment_intent.succeeded',
        gateway_payment_intent_id: intent,
      });
    const cancelPath = `/api/v1/adventrues/vendor/offerings/${id}/departures/${encodeURIComponent(DEPARTURE)}/cancel/`;
    const [cancel, ...rest] = await Promise.all([
      send('POST', cancelPath, { note: 'Gale warning' }, vendor.token),
      // each success delivered twice, as gateways do
      ...intents.flatMap((intent) => [webhook(intent, 1), webhook(intent, 1)]),
      ...Array.from({ length: 8 }, () => request(id, customer.token)),
      // and the customer cancels two of them meanwhile (a free cancellation: refunded in full too)
      ...bookingIds
        .slice(0, 2)
        .map((bookingId) =>
          send('POST', `/api/v1/booking/bookings/${bookingId}/cancel/`, {}, customer.token),
        ),
    ]);
    expect(cancel.status).toBe(200);
    expect(rest.map((a) => a.status).filter((status) => ![200, 201, 409].includes(status))).toEqual([]);

    const bookings = await world.handle.db
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('listing_id', '=', id)
      .execute();
    expect(bookings.filter((b) => ['requested', 'approved', 'confirmed'].includes(b.status))).toEqual([]);
    // the cancel took every booking that held the departure when it ran (the customer's own cancels aside);
    // requests after it were refused
    const customerCancelled = rest.slice(-2).filter((a) => a.status === 200).length;
    expect(cancel.json.cancelled_booking_ids.length + customerCancelled).toBe(bookings.length);
    expect(bookings.length).toBeGreaterThanOrEqual(8);

    const payments = await world.handle.db
      .selectFrom('payments')
      .innerJoin('bookings', 'bookings.id', 'payments.booking_id')
      .select(['payments.id', 'payments.status', 'payments.amount_cents'])
      .where('bookings.listing_id', '=', id)
      .execute();
    expect(payments).toHaveLength(8);
    for (const payment of payments) {
      const refunds = await world.handle.db
        .selectFrom('refunds')
        .select(['amount_cents', 'status'])
        .where('payment_id', '=', payment.id)
        .execute();
      // every success was applied once, and its money came back once, in full
      expect(payment.status).toBe('refunded');
      expect(refunds.map((r) => [Number(r.amount_cents), r.status])).toEqual([
        [Number(payment.amount_cents), 'succeeded'],
      ]);
    }
  }, 60_000);
});
