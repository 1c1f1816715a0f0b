import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockGateway } from '../../../src/modules/payments/index.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { approvedBooking as approvedBookingOf } from '../../helpers/payment-factories.ts';

// Found by the race suite (test/reliability/races.test.ts): a late event for a failed payment, arriving
// after the customer opened a new payment, tried to reopen the old one and broke the one-open-payment
// rule with a 500.

/** The mock gateway, remembering which intents the service cancelled. */
class RecordingGateway extends MockGateway {
  readonly cancelled: string[] = [];
  override async cancelIntent(intentId: string): Promise<void> {
    this.cancelled.push(intentId);
  }
}

let t: TestApp;
let api: Injector;
const gateway = new RecordingGateway(null);
beforeAll(async () => {
  t = await buildTestApp({ gateway });
  api = injector(t.app);
});
afterAll(() => t.close());

/** An approved booking and the helpers to pay for it. */
const approvedBooking = () => approvedBookingOf(t);

describe('a late event for a replaced payment', () => {
  it('is stored but does not reopen the failed payment while a newer one is open', async () => {
    const { bookingId, customer, intent, event, payments } = await approvedBooking();
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
    expect(await payments()).toEqual([
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

describe('a late success for a replaced payment', () => {
  it('confirms the booking and closes the newer unpaid payment at the gateway, so it cannot be paid twice', async () => {
    const b = await approvedBooking();
    const first = (await b.intent()).json().payment;
    await b.event('evt_a_fail', 'payment_intent.payment_failed', first.gateway_payment_intent_id);
    const second = (await b.intent()).json().payment;
    expect(second.id).not.toBe(first.id);

    const late = await b.event('evt_a_late_ok', 'payment_intent.succeeded', first.gateway_payment_intent_id);
    expect(late.json()).toEqual({
      received: true,
      duplicate: false,
      applied: true,
      payment_status: 'succeeded',
    });
    expect(await b.payments()).toEqual([
      { id: first.id, status: 'succeeded' },
      { id: second.id, status: 'failed' },
    ]);
    expect(gateway.cancelled).toEqual([second.gateway_payment_intent_id]);
    const booking = await api({
      method: 'GET',
      url: `/api/v1/booking/bookings/${b.bookingId}/`,
      token: b.customer.token,
    });
    expect(booking.json().status).toBe('confirmed');
    // nothing left to pay: a new intent is refused
    expect((await b.intent()).statusCode).toBe(409);
  });

  it('leaves a newer payment that is already processing to finish, and records its outcome', async () => {
    const b = await approvedBooking();
    const first = (await b.intent()).json().payment;
    await b.event('evt_c_fail', 'payment_intent.payment_failed', first.gateway_payment_intent_id);
    const second = (await b.intent()).json().payment;
    await b.event('evt_d_processing', 'payment_intent.processing', second.gateway_payment_intent_id);
    const cancelledBefore = gateway.cancelled.length;

    await b.event('evt_c_late_ok', 'payment_intent.succeeded', first.gateway_payment_intent_id);
    expect(await b.payments()).toEqual([
      { id: first.id, status: 'succeeded' },
      { id: second.id, status: 'processing' },
    ]);
    expect(gateway.cancelled).toHaveLength(cancelledBefore);
    const secondPaid = await b.event(
      'evt_d_ok',
      'payment_intent.succeeded',
      second.gateway_payment_intent_id,
    );
    expect(secondPaid.json()).toMatchObject({ applied: true, payment_status: 'succeeded' });
  });
});
