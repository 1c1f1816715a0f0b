import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayRefund, GatewayRefundInput } from '../../../src/modules/payments/gateway.ts';
import { MockGateway, reconcilePendingRefunds } from '../../../src/modules/payments/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { type BookedFixture, bookedFixture } from '../../helpers/refund-factories.ts';

// Cancellation policies and refunds (decisions §12), on SQLite and on PostgreSQL (TEST_DATABASE_URL).

const HOUR = 3_600_000;

/**
 * The mock gateway keeping a ledger of the refunds it made, one per idempotency key as a real gateway
 * does; `crashAfterRefund` makes the next refund happen and then throw, as a process killed between the
 * gateway's answer and the database write would leave it.
 */
class LedgerGateway extends MockGateway {
  readonly ledger: Map<string, GatewayRefundInput>;
  crashAfterRefund = false;
  calls = 0;

  constructor(ledger = new Map<string, GatewayRefundInput>()) {
    super(null);
    this.ledger = ledger;
  }

  override async refund(input: GatewayRefundInput): Promise<GatewayRefund> {
    this.calls++;
    const answer = await super.refund(input);
    if (!this.ledger.has(input.idempotencyKey)) this.ledger.set(input.idempotencyKey, input);
    if (this.crashAfterRefund) {
      this.crashAfterRefund = false;
      throw new Error('connection reset after the refund was made');
    }
    return answer;
  }
}

let t: TestApp;
const gateway = new LedgerGateway();

beforeAll(async () => {
  t = await buildTestApp({ gateway });
});
afterAll(() => t.close());

const cancel = (f: BookedFixture, id: number, token: string, action = 'cancel') =>
  f.api({ method: 'POST', url: `/api/v1/booking/bookings/${id}/${action}/`, token });

describe('customer cancel under the cancellation policy', () => {
  it('refunds in full at least free_cancellation_hours before the start', async () => {
    const f = await bookedFixture(t, { price: '50.00', startsInHours: 24 });
    const res = await cancel(f, f.bookingId, f.customer.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'cancelled',
      refund: {
        payment_id: f.paymentId,
        amount: '50.00',
        currency: 'usd',
        reason: 'requested_by_customer',
        status: 'succeeded',
      },
    });
    expect(await f.payment()).toMatchObject({ status: 'refunded', amount_refunded: '50.00' });
    expect((await f.payment()).refunds).toHaveLength(1);
  });

  it('refunds late_refund_percent rounded down to the cent one millisecond inside the cutoff (33 % of 10.01 → 3.30)', async () => {
    const f = await bookedFixture(t, {
      price: '10.01',
      startsInHours: 24,
      policy: { free_cancellation_hours: 24, late_refund_percent: 33 },
    });
    t.clock.advance(1);
    const res = await cancel(f, f.bookingId, f.customer.token);
    t.clock.advance(-1);
    expect(res.json().refund).toMatchObject({ amount: '3.30', status: 'succeeded' });
    const payment = await f.payment();
    expect(payment).toMatchObject({ status: 'partially_refunded', amount_refunded: '3.30', amount: '10.01' });
  });

  it('makes no refund object for a zero refund, nor for an unpaid booking', async () => {
    const late = await bookedFixture(t, { startsInHours: 2 });
    const res = await cancel(late, late.bookingId, late.customer.token);
    expect(res.json()).toMatchObject({ status: 'cancelled', refund: null });
    expect(await late.payment()).toMatchObject({ status: 'succeeded', amount_refunded: '0.00', refunds: [] });

    const unpaid = await bookedFixture(t, { until: 'requested' });
    const unpaidRes = await cancel(unpaid, unpaid.bookingId, unpaid.customer.token);
    expect(unpaidRes.json()).toMatchObject({ status: 'cancelled', refund: null });
  });

  it('refuses to cancel a confirmed booking at or after its start (409), leaving it paid', async () => {
    // a start 30 s away, reached exactly by the clock (well within the access token's life)
    const f = await bookedFixture(t, { startsInHours: 30_000 / HOUR });
    t.clock.advance(30_000);
    const res = await cancel(f, f.bookingId, f.customer.token);
    t.clock.advance(-30_000);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_state');
    expect(await f.payment()).toMatchObject({
      status: 'succeeded',
      booking_status: 'confirmed',
      refunds: [],
    });
  });
});

describe('vendor-cancel', () => {
  it('cancels a confirmed booking and refunds it in full, whatever the policy', async () => {
    const f = await bookedFixture(t, {
      price: '80.00',
      startsInHours: 1,
      policy: { late_refund_percent: 0 },
    });
    const res = await cancel(f, f.bookingId, f.vendor.token, 'vendor-cancel');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'cancelled',
      refund: { amount: '80.00', reason: 'cancelled_by_vendor', status: 'succeeded' },
    });
    expect(res.json().status_history.at(-1)).toMatchObject({
      from_status: 'confirmed',
      to_status: 'cancelled',
    });
    expect(await f.payment()).toMatchObject({ status: 'refunded', amount_refunded: '80.00' });
  });

  it('cancels requested and approved bookings without a refund; 403 for its customer, 404 for others, 409 once cancelled', async () => {
    for (const until of ['requested', 'approved'] as const) {
      const f = await bookedFixture(t, { until });
      expect((await cancel(f, f.bookingId, f.customer.token, 'vendor-cancel')).statusCode).toBe(403);
      const stranger = await registerVendor(t.app);
      expect((await cancel(f, f.bookingId, stranger.token, 'vendor-cancel')).statusCode).toBe(404);
      const res = await cancel(f, f.bookingId, f.vendor.token, 'vendor-cancel');
      expect(res.json()).toMatchObject({ status: 'cancelled', refund: null });
      const again = await cancel(f, f.bookingId, f.vendor.token, 'vendor-cancel');
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('invalid_state');
    }
  });
});

describe('vendor refunds', () => {
  const refund = (f: BookedFixture, token: string, payload: object = {}) =>
    f.api({ method: 'POST', url: `/api/v1/payment/${f.paymentId}/refunds/`, token, payload });

  it('refunds part, then what remains by default; more than remains is 400, then 409 once refunded', async () => {
    const f = await bookedFixture(t, { price: '50.00' });
    const part = await refund(f, f.vendor.token, { amount: '20.00', note: 'a paddle was missing' });
    expect(part.statusCode).toBe(201);
    expect(part.json()).toMatchObject({ amount: '20.00', reason: 'vendor_initiated', status: 'succeeded' });
    expect(await f.payment()).toMatchObject({ status: 'partially_refunded', amount_refunded: '20.00' });

    const tooMuch = await refund(f, f.vendor.token, { amount: '30.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(Object.keys(tooMuch.json().errors)).toEqual(['amount']);

    const rest = await refund(f, f.vendor.token);
    expect(rest.json()).toMatchObject({ amount: '30.00', status: 'succeeded' });
    const payment = await f.payment();
    expect(payment).toMatchObject({ status: 'refunded', amount_refunded: '50.00' });
    expect(payment.refunds.map((r) => r.amount)).toEqual(['20.00', '30.00']);

    const after = await refund(f, f.vendor.token, { amount: '1.00' });
    expect(after.statusCode).toBe(409);
    expect(after.json().code).toBe('invalid_state');
  });

  it('checks the payment state first (409), refuses the customer (403) and hides it from others (404)', async () => {
    const open = await bookedFixture(t, { until: 'approved' });
    const res = await refund(open, open.vendor.token, { amount: '999.00' });
    expect(res.statusCode).toBe(409);
    const paid = await bookedFixture(t);
    expect((await refund(paid, paid.customer.token)).statusCode).toBe(403);
    expect((await refund(paid, (await registerVendor(t.app)).token)).statusCode).toBe(404);
    expect((await refund(paid, (await registerCustomer(t.app)).token)).statusCode).toBe(403);
    expect(await paid.payment()).toMatchObject({ status: 'succeeded', refunds: [] });
  });
});

describe('the gateway side', () => {
  it('charge.refunded records what remains as one refund with reason gateway, once', async () => {
    const f = await bookedFixture(t, { price: '50.00' });
    await f.api({
      method: 'POST',
      url: `/api/v1/payment/${f.paymentId}/refunds/`,
      token: f.vendor.token,
      payload: { amount: '10.00' },
    });
    const event = await f.event('charge.refunded');
    expect(event.json()).toMatchObject({ applied: true, payment_status: 'refunded' });
    const payment = await f.payment();
    expect(payment).toMatchObject({ status: 'refunded', amount_refunded: '50.00' });
    expect(payment.refunds.map((r) => [r.amount, r.reason])).toEqual([
      ['10.00', 'vendor_initiated'],
      ['40.00', 'gateway'],
    ]);
    const again = await f.event('charge.refunded');
    expect(again.json().applied).toBe(false);
    expect((await f.payment()).refunds).toHaveLength(2);
  });

  it('refunds a payment that succeeds after the booking was cancelled or declined', async () => {
    const cancelled = await bookedFixture(t, { until: 'approved', price: '25.00' });
    await cancel(cancelled, cancelled.bookingId, cancelled.customer.token);
    expect((await cancelled.event('payment_intent.succeeded')).json().applied).toBe(true);
    expect(await cancelled.payment()).toMatchObject({
      status: 'refunded',
      booking_status: 'cancelled',
      amount_refunded: '25.00',
      refunds: [
        expect.objectContaining({ amount: '25.00', reason: 'requested_by_customer', status: 'succeeded' }),
      ],
    });

    const declined = await bookedFixture(t, { until: 'approved', price: '25.00' });
    await declined.api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${declined.bookingId}/decline/`,
      token: declined.vendor.token,
    });
    await declined.event('payment_intent.succeeded');
    expect(await declined.payment()).toMatchObject({
      status: 'refunded',
      booking_status: 'declined',
      refunds: [expect.objectContaining({ reason: 'cancelled_by_vendor' })],
    });
  });

  it('a crash between the gateway refund and its record refunds once: pending, then reconciled', async () => {
    const f = await bookedFixture(t, { price: '60.00' });
    gateway.crashAfterRefund = true;
    const res = await cancel(f, f.bookingId, f.customer.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', refund: { amount: '60.00', status: 'pending' } });
    expect(await f.payment()).toMatchObject({ status: 'succeeded', amount_refunded: '0.00' });
    const key = `refund_${res.json().refund.id}`;
    expect(gateway.ledger.has(key)).toBe(true);

    // the restarted process: a new gateway client on the same gateway (ledger), then the start-up pass
    const restarted = new LedgerGateway(gateway.ledger);
    const before = gateway.ledger.size;
    expect(
      await reconcilePendingRefunds({ db: t.db, clock: t.clock, gateway: restarted }),
    ).toBeGreaterThanOrEqual(1);
    expect(gateway.ledger.size).toBe(before);
    const payment = await f.payment();
    expect(payment).toMatchObject({ status: 'refunded', amount_refunded: '60.00' });
    expect(payment.refunds).toEqual([expect.objectContaining({ amount: '60.00', status: 'succeeded' })]);
    // a second pass finds nothing left to do
    expect(await reconcilePendingRefunds({ db: t.db, clock: t.clock, gateway: restarted })).toBe(0);
    expect([...gateway.ledger.keys()].filter((k) => k === key)).toHaveLength(1);
  });

  it('a charge.refunded settles a pending refund instead of adding one', async () => {
    const f = await bookedFixture(t, { price: '60.00' });
    gateway.crashAfterRefund = true;
    const res = await cancel(f, f.bookingId, f.vendor.token, 'vendor-cancel');
    expect(res.json().refund.status).toBe('pending');
    await f.event('charge.refunded');
    const payment = await f.payment();
    expect(payment).toMatchObject({ status: 'refunded', amount_refunded: '60.00' });
    expect(payment.refunds).toEqual([
      expect.objectContaining({ amount: '60.00', reason: 'cancelled_by_vendor', status: 'succeeded' }),
    ]);
  });
});
