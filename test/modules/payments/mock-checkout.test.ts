import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer } from '../../helpers/factories.ts';
import { bookedFixture } from '../../helpers/refund-factories.ts';

// POST /payment/{id}/mock-checkout/ (the web app's Pay while the mock gateway runs), on SQLite and on
// PostgreSQL (TEST_DATABASE_URL).

const apps: TestApp[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  apps.push(t);
});
afterAll(async () => {
  for (const app of apps) await app.close();
});

const checkout = (t: TestApp, paymentId: number | null, token: string, outcome: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/payment/${paymentId}/mock-checkout/`,
    headers: { authorization: `Bearer ${token}` },
    payload: { outcome },
  });

const bookingStatus = async (t: TestApp, bookingId: number, token: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/booking/bookings/${bookingId}/`,
      headers: { authorization: `Bearer ${token}` },
    })
  ).json().status;

describe('mock checkout', () => {
  it('succeeded: the payment succeeds and the booking is confirmed through the webhook path', async () => {
    const f = await bookedFixture(t, { until: 'approved', price: '45.00' });
    const res = await checkout(t, f.paymentId, f.customer.token, 'succeeded');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: f.paymentId,
      status: 'succeeded',
      amount: '45.00',
      booking_status: 'confirmed',
    });
    expect(res.json().gateway_charge_id).toMatch(/^ch_mock_/);
    expect(await bookingStatus(t, f.bookingId, f.customer.token)).toBe('confirmed');
    // the event is stored as the webhook stores one: applied, under an id of its own
    const events = await t.db
      .selectFrom('webhook_events')
      .select(['gateway_event_id', 'event_type', 'applied'])
      .where('gateway_payment_intent_id', '=', f.intentId ?? '')
      .execute();
    expect(events).toEqual([
      {
        gateway_event_id: expect.stringMatching(/^evt_mock_checkout_/),
        event_type: 'payment_intent.succeeded',
        applied: 1,
      },
    ]);
  });

  it('failed: the payment fails and the booking stays approved, payable again', async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    const res = await checkout(t, f.paymentId, f.customer.token, 'failed');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', booking_status: 'approved' });
    expect(await bookingStatus(t, f.bookingId, f.customer.token)).toBe('approved');
    const retry = await f.api({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      token: f.customer.token,
      payload: { booking_id: f.bookingId },
    });
    expect(retry.statusCode).toBe(201);
  });

  it('a replay after the success changes nothing', async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    const first = await checkout(t, f.paymentId, f.customer.token, 'succeeded');
    for (const outcome of ['succeeded', 'failed']) {
      const again = await checkout(t, f.paymentId, f.customer.token, outcome);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
    }
    expect(await bookingStatus(t, f.bookingId, f.customer.token)).toBe('confirmed');
  });

  it("is 404 to another customer and to the booking's vendor, and leaves the payment open", async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    const other = await registerCustomer(t.app);
    const res = await checkout(t, f.paymentId, other.token, 'succeeded');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
    expect((await checkout(t, f.paymentId, f.vendor.token, 'succeeded')).statusCode).toBe(403);
    expect(await f.payment()).toMatchObject({ status: 'requires_payment', booking_status: 'approved' });
  });

  it('refuses an outcome other than succeeded or failed (400) and an unknown payment (404)', async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    const res = await checkout(t, f.paymentId, f.customer.token, 'processing');
    expect(res.statusCode).toBe(400);
    expect((await checkout(t, 999_999, f.customer.token, 'succeeded')).statusCode).toBe(404);
  });

  it('is 404 with MOCK_CHECKOUT off, leaving the payment open', async () => {
    const off = await buildTestApp({ env: { MOCK_CHECKOUT: 'false' } });
    apps.push(off);
    expect(off.config.mockCheckout).toBe(false);
    const f = await bookedFixture(off, { until: 'approved' });
    const res = await checkout(off, f.paymentId, f.customer.token, 'succeeded');
    expect(res.statusCode).toBe(404);
    expect(await f.payment()).toMatchObject({ status: 'requires_payment', booking_status: 'approved' });
    expect(t.config.mockCheckout).toBe(true);
  });
});
