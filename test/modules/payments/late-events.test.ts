import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';

// Found by the race suite (test/reliability/races.test.ts): a late event for a failed payment, arriving
// after the customer opened a new payment, tried to reopen the old one and broke the one-open-payment
// rule with a 500.

let t: TestApp;
let api: Injector;
beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

describe('a late event for a replaced payment', () => {
  it('is stored but does not reopen the failed payment while a newer one is open', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const item = await createEquipment(t.app, vendor);
    const starts = t.clock.now().getTime() + 3 * 86_400_000;
    const booking = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        equipment_item_id: item.id,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + 86_400_000).toISOString(),
      },
    });
    const bookingId = booking.json().id;
    await api({ method: 'POST', url: `/api/v1/booking/bookings/${bookingId}/approve/`, token: vendor.token });
    const intent = () =>
      api({
        method: 'POST',
        url: '/api/v1/payment/intents/',
        token: customer.token,
        payload: { booking_id: bookingId },
      });
    const event = (id: string, type: string, intentId: string) =>
      api({
        method: 'POST',
        url: '/api/v1/payment/webhooks/gateway/',
        payload: { gateway_event_id: id, event_type: type, gateway_payment_intent_id: intentId },
      });

    const first = (await intent()).json().payment;
    expect(
      (await event('evt_fail', 'payment_intent.payment_failed', first.gateway_payment_intent_id)).json(),
    ).toEqual({
      received: true,
      duplicate: false,
      applied: true,
      payment_status: 'failed',
    });
    const retry = await intent();
    expect(retry.statusCode).toBe(201);
    const second = retry.json().payment;
    expect(second.id).not.toBe(first.id);

    const late = await event('evt_late', 'payment_intent.processing', first.gateway_payment_intent_id);
    expect(late.statusCode).toBe(200);
    expect(late.json()).toEqual({
      received: true,
      duplicate: false,
      applied: false,
      payment_status: 'failed',
    });
    const payments = await t.db
      .selectFrom('payments')
      .select(['id', 'status'])
      .where('booking_id', '=', bookingId)
      .orderBy('id')
      .execute();
    expect(payments).toEqual([
      { id: first.id, status: 'failed' },
      { id: second.id, status: 'requires_payment' },
    ]);
    const stored = await t.db
      .selectFrom('webhook_events')
      .select(['gateway_event_id', 'applied'])
      .where('gateway_event_id', '=', 'evt_late')
      .execute();
    expect(stored).toEqual([{ gateway_event_id: 'evt_late', applied: 0 }]);

    // the new payment goes through as usual
    const paid = await event('evt_paid', 'payment_intent.succeeded', second.gateway_payment_intent_id);
    expect(paid.json()).toMatchObject({ applied: true, payment_status: 'succeeded' });
    const confirmed = await api({
      method: 'GET',
      url: `/api/v1/booking/bookings/${bookingId}/`,
      token: customer.token,
    });
    expect(confirmed.json().status).toBe('confirmed');
  });
});
