import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../../src/modules/payments/index.ts';
import { simulatePayment } from '../../../src/tools/simulate-payment.ts';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';

const SECRET = 'whsec_test_secret_value';
const HOUR = 3_600_000;

interface Fixture {
  vendor: Account;
  customer: Account;
  bookingId: number;
}

let windowOffset = 0;

/**
 * A vendor's item at 45.00/day, a customer's 50-hour booking of it (135.00), approved unless told not to;
 * the vendor's currency is `currency` (default: the registration's default, usd).
 */
async function bookedFixture(
  t: TestApp,
  api: Injector,
  options: { approve?: boolean; currency?: string } = {},
): Promise<Fixture> {
  const vendor = await registerVendor(t.app, options.currency ? { currency: options.currency } : {});
  const customer = await registerCustomer(t.app);
  const profile = await t.db
    .selectFrom('vendor_profiles')
    .select('id')
    .where('user_id', '=', vendor.id)
    .executeTakeFirstOrThrow();
  const now = t.clock.now().getTime();
  const listing = await t.db
    .insertInto('listings')
    .values({
      kind: 'equipment',
      vendor_id: profile.id,
      category_id: 1,
      public_id: `pay-item-${Math.random().toString(36).slice(2)}`,
      title: 'Sea kayak',
      description: '',
      details: '{}',
      location: 'Lagos',
      price_cents: 4500,
      is_active: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  windowOffset += 100;
  const starts = new Date(now + (24 + windowOffset) * HOUR);
  const ends = new Date(starts.getTime() + 50 * HOUR);
  const booking = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: {
      equipment_item_id: listing.id,
      starts_at: starts.toISOString(),
      ends_at: ends.toISOString(),
      customer_notes: '',
    },
  });
  expect(booking.statusCode).toBe(201);
  expect(booking.json().total_price).toBe('135.00');
  const bookingId = booking.json().id as number;
  if (options.approve !== false) {
    const approved = await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${bookingId}/approve/`,
      token: vendor.token,
    });
    expect(approved.json().status).toBe('approved');
  }
  return { vendor, customer, bookingId };
}

async function createIntent(api: Injector, token: string, bookingId: number, currency?: string) {
  return api({
    method: 'POST',
    url: '/api/v1/payment/intents/',
    token,
    payload: { booking_id: bookingId, currency },
  });
}

function event(intentId: string, type: string, extra: Record<string, unknown> = {}) {
  return {
    gateway_event_id: `evt_${Math.random().toString(36).slice(2)}`,
    event_type: type,
    gateway_payment_intent_id: intentId,
    payload: {},
    ...extra,
  };
}

async function bookingOf(api: Injector, token: string, bookingId: number) {
  return (await api({ method: 'GET', url: `/api/v1/booking/bookings/${bookingId}/`, token })).json();
}

describe('payments without a webhook secret', () => {
  let t: TestApp;
  let api: Injector;
  const webhook = (body: unknown) =>
    api({ method: 'POST', url: '/api/v1/payment/webhooks/gateway/', payload: body as object });

  beforeAll(async () => {
    t = await buildTestApp();
    api = injector(t.app);
  });
  afterAll(() => t.close());

  describe('payment intents', () => {
    it('are refused before approval (409) and created after it with the booking total', async () => {
      const f = await bookedFixture(t, api, { approve: false, currency: 'EUR' });
      const early = await createIntent(api, f.customer.token, f.bookingId);
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe('invalid_state');
      expect(await countRows(t.db, 'payments')).toBe(0);

      await api({
        method: 'POST',
        url: `/api/v1/booking/bookings/${f.bookingId}/approve/`,
        token: f.vendor.token,
      });
      const res = await createIntent(api, f.customer.token, f.bookingId, 'EUR');
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.mocked).toBe(true);
      expect(body.payment).toMatchObject({
        booking_id: f.bookingId,
        amount: '135.00',
        currency: 'eur',
        status: 'requires_payment',
        gateway_charge_id: '',
        created_at: t.clock.now().toISOString(),
      });
      expect(body.payment.gateway_payment_intent_id).toMatch(/^pi_mock_[0-9A-Za-z]{24}$/);
      expect(body.client_secret).toMatch(
        new RegExp(`^${body.payment.gateway_payment_intent_id}_secret_[0-9A-Za-z]+$`),
      );
      expect((await bookingOf(api, f.customer.token, f.bookingId)).currency).toBe('eur');
    });

    it('return the open payment (200) instead of opening a second one', async () => {
      const f = await bookedFixture(t, api);
      const first = await createIntent(api, f.customer.token, f.bookingId);
      const again = await createIntent(api, f.customer.token, f.bookingId);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(200);
      expect(again.json().payment.id).toBe(first.json().payment.id);
      expect(again.json().client_secret).toBe(first.json().client_secret);
      expect(first.json().payment.currency).toBe('usd');
    });

    it('open a new payment after the previous one failed', async () => {
      const f = await bookedFixture(t, api);
      const first = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
      await webhook(event(first.gateway_payment_intent_id, 'payment_intent.payment_failed'));
      const second = await createIntent(api, f.customer.token, f.bookingId);
      expect(second.statusCode).toBe(201);
      expect(second.json().payment.id).not.toBe(first.id);
    });

    it('are 404 for a booking the caller does not own and 403 for a vendor token', async () => {
      const f = await bookedFixture(t, api);
      const stranger = await registerCustomer(t.app);
      const foreign = await createIntent(api, stranger.token, f.bookingId);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().code).toBe('not_found');
      expect((await createIntent(api, f.customer.token, 999_999)).statusCode).toBe(404);
      const vendor = await createIntent(api, f.vendor.token, f.bookingId);
      expect(vendor.statusCode).toBe(403);
      expect(vendor.json().code).toBe('permission_denied');
    });

    it('are in the booking’s currency: another one is a 400 on currency, the same in any case a 201', async () => {
      const f = await bookedFixture(t, api, { currency: 'jpy' });
      const paymentsBefore = await countRows(t.db, 'payments');
      expect((await bookingOf(api, f.customer.token, f.bookingId)).currency).toBe('jpy');
      for (const currency of ['usd', 'EUR', 'jpn']) {
        const other = await createIntent(api, f.customer.token, f.bookingId, currency);
        expect(other.statusCode, currency).toBe(400);
        expect(other.json()).toEqual({
          detail: expect.any(String),
          code: 'invalid',
          errors: { currency: ["Must be the booking's currency (jpy)."] },
        });
      }
      expect(await countRows(t.db, 'payments')).toBe(paymentsBefore);
      const res = await createIntent(api, f.customer.token, f.bookingId, ' JPY ');
      expect(res.statusCode).toBe(201);
      // two decimals in every currency, JPY included
      expect(res.json().payment).toMatchObject({ amount: '135.00', currency: 'jpy' });
      // the open payment is answered again, and only for its own currency
      const again = await createIntent(api, f.customer.token, f.bookingId);
      expect(again.statusCode).toBe(200);
      expect(again.json().payment).toMatchObject({ id: res.json().payment.id, currency: 'jpy' });
      expect((await createIntent(api, f.customer.token, f.bookingId, 'usd')).statusCode).toBe(400);
      const status = await api({
        method: 'GET',
        url: `/api/v1/payment/${res.json().payment.id}/status/`,
        token: f.vendor.token,
      });
      expect(status.json()).toMatchObject({ amount: '135.00', currency: 'jpy', booking_status: 'approved' });
    });

    it('keep the booking’s currency after the vendor changes theirs', async () => {
      const f = await bookedFixture(t, api, { currency: 'gbp' });
      await api({
        method: 'PATCH',
        url: '/api/v1/accounts/vendor-profile/me/',
        token: f.vendor.token,
        payload: { currency: 'chf' },
      });
      const refused = await createIntent(api, f.customer.token, f.bookingId, 'chf');
      expect(refused.statusCode).toBe(400);
      const res = await createIntent(api, f.customer.token, f.bookingId);
      expect(res.statusCode).toBe(201);
      expect(res.json().payment.currency).toBe('gbp');
      expect((await bookingOf(api, f.customer.token, f.bookingId)).currency).toBe('gbp');
    });

    it('validate the currency and the booking id', async () => {
      const f = await bookedFixture(t, api);
      const bad = await createIntent(api, f.customer.token, f.bookingId, 'EURO');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual({ currency: ['Must be a three-letter currency code.'] });
      const missing = await api({
        method: 'POST',
        url: '/api/v1/payment/intents/',
        token: f.customer.token,
        payload: {},
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors.booking_id).toBeDefined();
    });
  });

  describe('payment status', () => {
    it('is shown to the customer and the vendor with the booking status, and hidden from others', async () => {
      const f = await bookedFixture(t, api);
      const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
      for (const token of [f.customer.token, f.vendor.token]) {
        const res = await api({ method: 'GET', url: `/api/v1/payment/${payment.id}/status/`, token });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          id: payment.id,
          status: 'requires_payment',
          amount: '135.00',
          booking_status: 'approved',
        });
        expect(res.json().client_secret).toBeUndefined();
      }
      const otherVendor = await registerVendor(t.app);
      const otherCustomer = await registerCustomer(t.app);
      for (const token of [otherVendor.token, otherCustomer.token]) {
        const res = await api({ method: 'GET', url: `/api/v1/payment/${payment.id}/status/`, token });
        expect(res.statusCode).toBe(404);
      }
      expect((await api({ method: 'GET', url: `/api/v1/payment/${payment.id}/status/` })).statusCode).toBe(
        401,
      );
    });
  });

  describe('webhook', () => {
    it('confirms the booking on success, once, with the charge id from the payload', async () => {
      const f = await bookedFixture(t, api);
      const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
      const succeeded = event(payment.gateway_payment_intent_id, 'payment_intent.succeeded', {
        payload: { charge_id: 'ch_live_123' },
      });
      const first = await webhook(succeeded);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        received: true,
        duplicate: false,
        applied: true,
        payment_status: 'succeeded',
      });
      const repeat = await webhook(succeeded);
      expect(repeat.json()).toEqual({
        received: true,
        duplicate: true,
        applied: true,
        payment_status: 'succeeded',
      });

      const booking = await bookingOf(api, f.customer.token, f.bookingId);
      expect(booking.status).toBe('confirmed');
      const confirmations = booking.status_history.filter(
        (h: { to_status: string }) => h.to_status === 'confirmed',
      );
      expect(confirmations).toHaveLength(1);
      expect(confirmations[0]).toMatchObject({ from_status: 'approved', actor_id: null });
      const status = (
        await api({ method: 'GET', url: `/api/v1/payment/${payment.id}/status/`, token: f.vendor.token })
      ).json();
      expect(status).toMatchObject({
        status: 'succeeded',
        gateway_charge_id: 'ch_live_123',
        booking_status: 'confirmed',
      });
      const stored = await t.db
        .selectFrom('webhook_events')
        .selectAll()
        .where('gateway_event_id', '=', succeeded.gateway_event_id)
        .execute();
      expect(stored).toHaveLength(1);
      expect(JSON.parse(stored[0].payload)).toEqual({ charge_id: 'ch_live_123' });
    });

    it('makes up a mock charge id when the payload has none', async () => {
      const f = await bookedFixture(t, api);
      const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
      await webhook(event(payment.gateway_payment_intent_id, 'payment_intent.succeeded'));
      const status = (
        await api({ method: 'GET', url: `/api/v1/payment/${payment.id}/status/`, token: f.customer.token })
      ).json();
      expect(status.gateway_charge_id).toMatch(/^ch_mock_[0-9A-Za-z]{24}$/);
    });

    it('never moves a payment backwards, but stores every event', async () => {
      const f = await bookedFixture(t, api);
      const intent = (await createIntent(api, f.customer.token, f.bookingId)).json().payment
        .gateway_payment_intent_id;
      const steps: [string, boolean, string][] = [
        ['payment_intent.processing', true, 'processing'],
        ['payment_intent.payment_failed', true, 'failed'],
        ['payment_intent.succeeded', true, 'succeeded'],
        ['payment_intent.processing', false, 'succeeded'],
        ['payment_intent.payment_failed', false, 'succeeded'],
        ['charge.refunded', true, 'refunded'],
        ['payment_intent.succeeded', false, 'refunded'],
        ['payment_intent.processing', false, 'refunded'],
      ];
      const before = await countRows(t.db, 'webhook_events');
      for (const [type, applied, status] of steps) {
        const res = await webhook(event(intent, type));
        expect(res.json(), type).toEqual({
          received: true,
          duplicate: false,
          applied,
          payment_status: status,
        });
      }
      expect(await countRows(t.db, 'webhook_events')).toBe(before + steps.length);
    });

    it('records a success for a booking cancelled meanwhile but leaves the booking cancelled', async () => {
      const f = await bookedFixture(t, api);
      const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
      const cancel = await api({
        method: 'POST',
        url: `/api/v1/booking/bookings/${f.bookingId}/cancel/`,
        token: f.customer.token,
      });
      expect(cancel.json().status).toBe('cancelled');
      const res = await webhook(event(payment.gateway_payment_intent_id, 'payment_intent.succeeded'));
      expect(res.json()).toEqual({
        received: true,
        duplicate: false,
        applied: true,
        payment_status: 'succeeded',
      });
      expect((await bookingOf(api, f.customer.token, f.bookingId)).status).toBe('cancelled');
    });

    it('answers 404 for an unknown intent and 400 for an unknown event type, storing neither', async () => {
      const before = await countRows(t.db, 'webhook_events');
      const unknownIntent = await webhook(event('pi_mock_doesnotexist', 'payment_intent.succeeded'));
      expect(unknownIntent.statusCode).toBe(404);
      expect(unknownIntent.json().code).toBe('not_found');
      const f = await bookedFixture(t, api);
      const intent = (await createIntent(api, f.customer.token, f.bookingId)).json().payment
        .gateway_payment_intent_id;
      const unknownType = await webhook(event(intent, 'payment_intent.created'));
      expect(unknownType.statusCode).toBe(400);
      expect(unknownType.json().errors.event_type).toBeDefined();
      const missing = await webhook({ event_type: 'payment_intent.succeeded' });
      expect(missing.statusCode).toBe(400);
      expect(Object.keys(missing.json().errors).sort()).toEqual([
        'gateway_event_id',
        'gateway_payment_intent_id',
      ]);
      expect(await countRows(t.db, 'webhook_events')).toBe(before);
    });
  });

  describe('under concurrency (real server)', () => {
    let base: string;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });

    it('applies one event delivered 20 times at once exactly once', async () => {
      const f = await bookedFixture(t, api);
      const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
      const body = JSON.stringify(event(payment.gateway_payment_intent_id, 'payment_intent.succeeded'));
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${base}/api/v1/payment/webhooks/gateway/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { duplicate: boolean; applied: boolean },
          })),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(responses.filter((r) => !r.body.duplicate)).toHaveLength(1);
      expect(responses.every((r) => r.body.applied)).toBe(true);
      const id = JSON.parse(body).gateway_event_id;
      expect(
        await t.db.selectFrom('webhook_events').select('id').where('gateway_event_id', '=', id).execute(),
      ).toHaveLength(1);
      const booking = await bookingOf(api, f.customer.token, f.bookingId);
      expect(booking.status).toBe('confirmed');
      expect(
        booking.status_history.filter((h: { to_status: string }) => h.to_status === 'confirmed'),
      ).toHaveLength(1);
    });

    it('opens one payment for ten simultaneous intent requests', async () => {
      const f = await bookedFixture(t, api);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${base}/api/v1/payment/intents/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${f.customer.token}` },
            body: JSON.stringify({ booking_id: f.bookingId }),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as { payment: { id: number } } })),
        ),
      );
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(9);
      expect(new Set(responses.map((r) => r.body.payment.id)).size).toBe(1);
      const rows = await t.db
        .selectFrom('payments')
        .select('id')
        .where('booking_id', '=', f.bookingId)
        .execute();
      expect(rows).toHaveLength(1);
    });
  });
});

describe('payments with a webhook secret', () => {
  let t: TestApp;
  let api: Injector;
  beforeAll(async () => {
    t = await buildTestApp({ env: { PAYMENT_WEBHOOK_SECRET: SECRET } });
    api = injector(t.app);
  });
  afterAll(() => t.close());

  const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);
  const send = (body: string, signature?: string) =>
    api({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'gateway-signature': signature } : {}),
      },
      payload: body,
    });

  it('accepts a correctly signed event and refuses missing, wrong, stale or tampered signatures, storing nothing', async () => {
    const f = await bookedFixture(t, api);
    const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
    const body = JSON.stringify(event(payment.gateway_payment_intent_id, 'payment_intent.succeeded'));
    const bad: [string, string | undefined][] = [
      ['missing', undefined],
      ['wrong secret', signWebhook('another-secret-value', body, nowSeconds())],
      ['stale', signWebhook(SECRET, body, nowSeconds() - 301)],
      ['future', signWebhook(SECRET, body, nowSeconds() + 301)],
      ['tampered body', signWebhook(SECRET, body.replace('succeeded', 'processing'), nowSeconds())],
      ['garbage', 't=abc,v1=xyz'],
    ];
    for (const [name, signature] of bad) {
      const res = await send(body, signature);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().code, name).toBe('invalid');
    }
    expect(await countRows(t.db, 'webhook_events')).toBe(0);
    const status = (
      await api({ method: 'GET', url: `/api/v1/payment/${payment.id}/status/`, token: f.customer.token })
    ).json();
    expect(status.status).toBe('requires_payment');

    const ok = await send(body, signWebhook(SECRET, body, nowSeconds() - 299));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().applied).toBe(true);
    expect(await countRows(t.db, 'webhook_events')).toBe(1);
  });

  it('lets the simulate-payment tool walk a payment to success against a running server', async () => {
    // The tool signs with the real time, so the app's clock is set to it; before the booking is made, or
    // the jump would carry the approved booking past its payment deadline (decisions §11).
    t.clock.set(new Date());
    const f = await bookedFixture(t, api);
    const payment = (await createIntent(api, f.customer.token, f.bookingId)).json().payment;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const result = await simulatePayment(t.db, {
      paymentId: payment.id,
      outcome: 'succeeded',
      baseUrl,
      secret: SECRET,
    });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ applied: true, payment_status: 'succeeded' });
    // (read the booking directly: the app's clock stood still while real time went on)
    const booking = await t.db
      .selectFrom('bookings')
      .select('status')
      .where('id', '=', f.bookingId)
      .executeTakeFirstOrThrow();
    expect(booking.status).toBe('confirmed');
  });
});
