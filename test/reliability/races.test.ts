import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import type { Account } from '../helpers/factories.ts';
import { errorBodyProblem } from '../security/error-body.ts';
import {
  apiRoutes,
  encodedBody,
  freshTarget,
  routeName,
  sampleBody,
  sampleQuery,
  sampleUrl,
} from '../security/routes.ts';
import { buildWorld, freshWindow, type World } from '../security/world.ts';

// Requests racing each other: every route's valid request sent several times at once (unique keys,
// row locks, idempotency), and every action on one booking at once. No answer may be a 5xx, every error
// keeps the decided body, and the booking's history must tell exactly how it got to its state.

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await buildTestApp();
  w = await buildWorld(t);
}, 120_000);
afterAll(() => t?.close());

const COPIES = 8;
const ROUNDS = 40;

function callerFor(auth: string): Account | undefined {
  if (auth === 'vendor') return w.a.vendor;
  if (auth === 'customer' || auth === 'user') return w.a.customer;
  if (auth === 'staff') return w.staff;
  return undefined;
}

describe('races', () => {
  it(`survives every route's valid request ${COPIES} times at once`, async () => {
    const problems: string[] = [];
    const statuses = new Map<string, number[]>();
    for (const route of apiRoutes(t.app)) {
      const account = callerFor(route.auth);
      const id = await freshTarget(w, w.a, route);
      const url = sampleUrl(w, w.a, route, id) + sampleQuery(w.a, route);
      // the same body each time: the copies collide
      const body = await encodedBody(sampleBody(w, w.a, route));
      const answers = await Promise.all(
        Array.from({ length: COPIES }, () =>
          t.app.inject({
            method: route.method as 'GET',
            url,
            headers: { ...body.headers, ...(account ? { authorization: `Bearer ${account.token}` } : {}) },
            ...(body.payload === undefined ? {} : { payload: body.payload }),
          }),
        ),
      );
      statuses.set(
        routeName(route),
        answers.map((a) => a.statusCode),
      );
      for (const res of answers) {
        if (res.statusCode >= 500) problems.push(`${routeName(route)}: ${res.statusCode} ${res.body}`);
        else if (res.statusCode >= 400 && errorBodyProblem(res))
          problems.push(`${routeName(route)}: ${errorBodyProblem(res)}`);
      }
    }
    expect(problems).toEqual([]);
    // the collisions resolve as they must: one creation, the copies refused or answered idempotently
    const count = (name: string, status: number) => statuses.get(name)?.filter((s) => s === status).length;
    expect(count('POST /api/v1/booking/bookings/request/', 201)).toBe(1);
    expect(count('POST /api/v1/booking/bookings/request/', 409)).toBe(COPIES - 1);
    expect(count('POST /api/v1/equipment/vendor/items/', 201)).toBe(1);
    expect(count('POST /api/v1/accounts/register/customer/', 201)).toBe(1);
    expect(count('POST /api/v1/booking/bookings/:id/approve/', 200)).toBe(1);
    expect(count('POST /api/v1/booking/bookings/:id/approve/', 409)).toBe(COPIES - 1);
    expect(count('POST /api/v1/payment/webhooks/gateway/', 200)).toBe(COPIES);
  }, 120_000);

  it('keeps one consistent story when every party acts on one booking at once', async () => {
    const problems: string[] = [];
    const outcomes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const requested = await w.api({
        method: 'POST',
        url: '/api/v1/booking/bookings/request/',
        token: w.a.customer.token,
        payload: { adventure_offering_id: w.a.adventure.id, ...freshWindow(t, 2) },
      });
      const id = requested.json().id as number;
      await w.api({
        method: 'POST',
        url: `/api/v1/booking/bookings/${id}/approve/`,
        token: w.a.vendor.token,
      });
      const intent = await w.api({
        method: 'POST',
        url: '/api/v1/payment/intents/',
        token: w.a.customer.token,
        payload: { booking_id: id },
      });
      expect(intent.statusCode).toBe(201);
      const intentId = intent.json().payment.gateway_payment_intent_id as string;
      const webhook = (event: string, n: number) => ({
        method: 'POST' as const,
        url: '/api/v1/payment/webhooks/gateway/',
        payload: {
          gateway_event_id: `race-${id}-${n}`,
          event_type: event,
          gateway_payment_intent_id: intentId,
        },
      });
      const intentAgain = {
        method: 'POST' as const,
        url: '/api/v1/payment/intents/',
        token: w.a.customer.token,
        payload: { booking_id: id },
      };
      // every party at once; or a failing payment, retried while late events for it arrive
      const actions =
        round % 2 === 0
          ? [
              webhook('payment_intent.succeeded', 1),
              webhook('payment_intent.succeeded', 1),
              webhook('payment_intent.processing', 2),
              webhook('payment_intent.payment_failed', 3),
              {
                method: 'POST' as const,
                url: `/api/v1/booking/bookings/${id}/cancel/`,
                token: w.a.customer.token,
              },
              {
                method: 'POST' as const,
                url: `/api/v1/booking/bookings/${id}/decline/`,
                token: w.a.vendor.token,
              },
              intentAgain,
            ]
          : [
              webhook('payment_intent.payment_failed', 1),
              intentAgain,
              webhook('payment_intent.processing', 2),
              intentAgain,
              webhook('payment_intent.processing', 3),
              intentAgain,
              webhook('payment_intent.succeeded', 4),
            ];
      const answers = await Promise.all(actions.map((a) => w.api(a)));
      for (const [i, res] of answers.entries())
        if (res.statusCode >= 500 || (res.statusCode >= 400 && errorBodyProblem(res)))
          problems.push(
            `round ${round}: ${actions[i].url} ${JSON.stringify((actions[i] as { payload?: unknown }).payload)} → ${res.statusCode} ${res.body}`,
          );

      const booking = (
        await w.api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: w.a.customer.token })
      ).json();
      outcomes.set(booking.status, (outcomes.get(booking.status) ?? 0) + 1);
      // the history is a chain from creation to the current status, each step an allowed transition
      const steps = (booking.status_history as { from_status: string | null; to_status: string }[]).map(
        (h) => `${h.from_status}>${h.to_status}`,
      );
      const allowed = new Set([
        'null>requested',
        'requested>approved',
        'approved>confirmed',
        'approved>declined',
        'approved>cancelled',
        'confirmed>cancelled',
      ]);
      if (steps.some((s) => !allowed.has(s))) problems.push(`round ${round}: ${steps.join(' ')}`);
      for (let i = 1; i < booking.status_history.length; i++)
        if (booking.status_history[i].from_status !== booking.status_history[i - 1].to_status)
          problems.push(`round ${round}: broken chain ${steps.join(' ')}`);
      if (booking.status_history.at(-1).to_status !== booking.status)
        problems.push(`round ${round}: history ends ${steps.at(-1)}, status ${booking.status}`);
      // the duplicated success event was applied at most once
      const events = await t.db
        .selectFrom('webhook_events')
        .select('gateway_event_id')
        .where('gateway_payment_intent_id', '=', intentId)
        .execute();
      if (events.filter((e) => e.gateway_event_id === `race-${id}-1`).length !== 1)
        problems.push(`round ${round}: the first event stored ${events.length} times`);
      // never two open payments, never two successful ones (a failed payment may be followed by a new one)
      const payments = await t.db
        .selectFrom('payments')
        .select('status')
        .where('booking_id', '=', id)
        .execute();
      const open = payments.filter((p) => p.status === 'requires_payment' || p.status === 'processing');
      const paid = payments.filter((p) => p.status === 'succeeded' || p.status === 'refunded');
      if (open.length > 1 || paid.length > 1)
        problems.push(`round ${round}: payments ${JSON.stringify(payments)}`);
    }
    expect(problems).toEqual([]);
    expect(
      [...outcomes.keys()].every((s) => ['approved', 'confirmed', 'cancelled', 'declined'].includes(s)),
    ).toBe(true);
    console.log(
      `races (${t.dialect}): final states over ${ROUNDS} rounds: ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );
  }, 120_000);
});
