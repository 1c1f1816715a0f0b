import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer } from '../../helpers/factories.ts';
import { type BookedFixture, bookedFixture } from '../../helpers/refund-factories.ts';

// GET /booking/bookings/{id}/cancellation/: what a cancel by the caller would refund now, and that the
// cancel then refunds exactly that. On SQLite and on PostgreSQL (TEST_DATABASE_URL).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const preview = (f: BookedFixture, token: string) =>
  f.api({ method: 'GET', url: `/api/v1/booking/bookings/${f.bookingId}/cancellation/`, token });
const cancel = (f: BookedFixture, token: string, action = 'cancel') =>
  f.api({ method: 'POST', url: `/api/v1/booking/bookings/${f.bookingId}/${action}/`, token });

describe('the refund a cancel would give', () => {
  it('is all of it at least free_cancellation_hours before the start, and the cancel refunds that', async () => {
    const f = await bookedFixture(t, {
      price: '60.00',
      startsInHours: 72,
      policy: { free_cancellation_hours: 48, late_refund_percent: 25 },
    });
    const res = await preview(f, f.customer.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      can_cancel: true,
      reason: 'Cancelled at least 48 hours before the start: refunded in full.',
      paid_amount: '60.00',
      refund_amount: '60.00',
      currency: 'usd',
      policy: { free_cancellation_hours: 48, late_refund_percent: 25 },
    });
    expect((await cancel(f, f.customer.token)).json().refund).toMatchObject({ amount: '60.00' });
  });

  it('is late_refund_percent inside the window (rounded down to the cent), and the cancel refunds that', async () => {
    const f = await bookedFixture(t, {
      price: '10.01',
      startsInHours: 24,
      policy: { free_cancellation_hours: 48, late_refund_percent: 33 },
    });
    const res = await preview(f, f.customer.token);
    expect(res.json()).toMatchObject({
      can_cancel: true,
      reason: 'Less than 48 hours before the start: 33% of the payment is refunded.',
      paid_amount: '10.01',
      refund_amount: '3.30',
    });
    expect((await cancel(f, f.customer.token)).json().refund).toMatchObject({ amount: '3.30' });
  });

  it("is all that remains for the vendor's cancel, whatever the policy", async () => {
    const f = await bookedFixture(t, {
      price: '80.00',
      startsInHours: 1,
      policy: { late_refund_percent: 0 },
    });
    expect((await preview(f, f.customer.token)).json()).toMatchObject({ refund_amount: '0.00' });
    expect((await preview(f, f.vendor.token)).json()).toMatchObject({
      can_cancel: true,
      reason: "A vendor's cancel refunds the payment in full.",
      refund_amount: '80.00',
    });
  });

  it('is nothing for an unpaid booking, which may still be cancelled', async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    expect((await preview(f, f.customer.token)).json()).toMatchObject({
      can_cancel: true,
      reason: 'Nothing has been paid, so nothing is refunded.',
      paid_amount: '0.00',
      refund_amount: '0.00',
    });
  });

  it('says why a booking that can no longer be cancelled cannot, with the cancel refusing the same', async () => {
    const f = await bookedFixture(t, { price: '50.00' });
    expect((await cancel(f, f.customer.token)).statusCode).toBe(200);
    const res = await preview(f, f.customer.token);
    expect(res.json()).toMatchObject({
      can_cancel: false,
      reason: 'Cannot cancel a booking that is cancelled.',
      // refunded in full by that cancel: no payment holds money any more
      paid_amount: '0.00',
      refund_amount: '0.00',
    });
    const again = await cancel(f, f.customer.token);
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(res.json().reason);
  });

  it('says a confirmed booking that has started cannot be cancelled by its customer', async () => {
    const f = await bookedFixture(t, { startsInHours: 30_000 / 3_600_000 });
    t.clock.advance(30_000);
    try {
      const res = await preview(f, f.customer.token);
      expect(res.json()).toMatchObject({
        can_cancel: false,
        reason: 'A confirmed booking can be cancelled only before it starts.',
        refund_amount: '0.00',
      });
      expect((await cancel(f, f.customer.token)).json().detail).toBe(res.json().reason);
    } finally {
      t.clock.advance(-30_000);
    }
  });

  it('is 404 to anyone not a party to the booking', async () => {
    const f = await bookedFixture(t);
    const stranger = await registerCustomer(t.app);
    const res = await preview(f, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});
