import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { bookedFixture } from '../../helpers/refund-factories.ts';

// Refunds and cancels racing each other over real HTTP against a listening server: SQLite on a file (as in
// production) or PostgreSQL (TEST_DATABASE_URL).

let t: TestApp;
let dir: string;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'refunds-race-'));
  t = await buildTestApp({ dbFile: join(dir, 'race.sqlite') });
  base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(path: string, token: string | null, body: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('refund races', () => {
  it('twenty simultaneous refunds of 10.00 on a 50.00 payment: exactly five succeed', async () => {
    const f = await bookedFixture(t, { price: '50.00' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(`/payment/${f.paymentId}/refunds/`, f.vendor.token, { amount: '10.00' }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 400 || s === 409)).toBe(true);
    const payment = await f.payment();
    expect(payment).toMatchObject({ status: 'refunded', amount_refunded: '50.00' });
    expect(payment.refunds.map((r) => r.amount)).toEqual(Array(5).fill('10.00'));
  }, 60_000);

  it('a cancel and the payment success at once: cancelled and refunded in full, whichever came first', async () => {
    const fixtures = await Promise.all(
      Array.from({ length: 8 }, () => bookedFixture(t, { until: 'approved', price: '40.00' })),
    );
    let n = 0;
    await Promise.all(
      fixtures.flatMap((f) => [
        post(`/booking/bookings/${f.bookingId}/cancel/`, f.customer.token, {}),
        post('/payment/webhooks/gateway/', null, {
          gateway_event_id: `evt_race_${n++}`,
          event_type: 'payment_intent.succeeded',
          gateway_payment_intent_id: f.intentId,
        }),
      ]),
    );
    for (const f of fixtures) {
      const payment = await f.payment();
      // never a paid cancelled booking without its refund
      expect(payment).toMatchObject({
        booking_status: 'cancelled',
        status: 'refunded',
        amount_refunded: '40.00',
      });
      expect(payment.refunds).toEqual([
        expect.objectContaining({ amount: '40.00', status: 'succeeded', reason: 'requested_by_customer' }),
      ]);
    }
  }, 60_000);
});
