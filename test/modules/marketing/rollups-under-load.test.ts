import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { summariseVendorClicks, vendorTimeseries } from '../../../src/modules/marketing/analytics.service.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { vendorProfileId } from '../../helpers/marketing-factories.ts';
import { listenForRaces, type RaceServers } from '../../helpers/race-servers.ts';
import { BOT_AGENT, rollupsAndRecount } from '../../helpers/rollups.ts';

// A randomised workload of real HTTP requests sent at once to real servers (on SQLite two servers on one
// file, on PostgreSQL one server and its pool): clicks from people and crawlers, attributed booking
// requests, approvals, declines, payments (webhooks delivered twice at once), cancellations with refunds
// and partial refunds racing on one payment. Afterwards every analytics rollup must equal a recount from
// the raw rows, with each booking's revenue recounted from its history and refunds rather than from the
// columns the rollups read; and the summary read through the rollups must equal the one read raw.

const DAY = 86_400_000;
let t: TestApp;
let dir: string;
let servers: RaceServers;
let vendor: Account;
let customers: Account[];
let items: { id: number; public_id: string }[];

/** A small seeded generator, so that a failure can be run again with the same workload. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    chance: (p: number) => next() < p,
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}
const SEED = Number(process.env.ROLLUP_SEED ?? 20261127);
const random = generator(SEED);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rollups-load-'));
  t = await buildTestApp({ dbFile: join(dir, 'load.sqlite') });
  vendor = await registerVendor(t.app);
  customers = await Promise.all(Array.from({ length: 4 }, () => registerCustomer(t.app)));
  items = await Promise.all(
    Array.from({ length: 3 }, () =>
      createEquipment(t.app, vendor, { price_per_day: '50.00', quantity: 100 }),
    ),
  );
  servers = await listenForRaces(t, join(dir, 'load.sqlite'));
}, 120_000);
afterAll(async () => {
  await servers.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

let sent = 0;
/** One request to the servers in turn; the answer's status and JSON body. */
async function call(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; agent?: string } = {},
) {
  const base = servers.addresses[sent++ % servers.addresses.length];
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      'user-agent': options.agent ?? 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0',
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const all = <T>(n: number, f: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => f(i)));

it('keeps every rollup equal to a recount of the raw rows after a concurrent workload with refunds', async () => {
  const campaigns = [
    { utm_source: 'google', utm_campaign: 'reef' },
    { utm_source: 'newsletter', utm_campaign: 'wreck' },
    {},
  ];

  // clicks: detail views and tracks, a fifth of them by a crawler
  const clicks = await all(90, async (i) => {
    const item = random.pick(items);
    const params = new URLSearchParams(random.pick(campaigns) as Record<string, string>);
    const agent = random.chance(0.2) ? BOT_AGENT : undefined;
    const res =
      i % 3 === 0
        ? await call('POST', '/api/v1/marketing/track/click/', {
            agent,
            body: { listing_type: 'equipment', public_id: item.public_id, ...Object.fromEntries(params) },
          })
        : await call('GET', `/api/v1/equipment/items/${item.public_id}/?${params}`, { agent });
    expect([200, 201]).toContain(res.status);
    return res.body.marketing_click_id as number;
  });

  // booking requests, most attributed to one of those clicks
  const start = t.clock.now().getTime() + 5 * DAY;
  const bookings = await all(36, async (i) => {
    const customer = random.pick(customers);
    const starts = start + i * DAY;
    const res = await call('POST', '/api/v1/booking/bookings/request/', {
      token: customer.token,
      body: {
        equipment_item_id: random.pick(items).id,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + DAY).toISOString(),
        ...(random.chance(0.8) ? { marketing_click_id: random.pick(clicks) } : {}),
      },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as number, customer };
  });

  // the vendor answers: most approved, some declined, some left waiting
  const approved = (
    await all(bookings.length, async (i) => {
      const b = bookings[i];
      const action = random.chance(0.75) ? 'approve' : random.chance(0.5) ? 'decline' : null;
      if (!action) return null;
      const res = await call('POST', `/api/v1/booking/bookings/${b.id}/${action}/`, { token: vendor.token });
      expect(res.status).toBe(200);
      return action === 'approve' ? b : null;
    })
  ).filter((b) => b !== null);

  // payments: most succeed, each webhook delivered twice at once; a few customers cancel instead
  const paid = (
    await all(approved.length, async (i) => {
      const b = approved[i];
      if (random.chance(0.15)) {
        expect(
          (await call('POST', `/api/v1/booking/bookings/${b.id}/cancel/`, { token: b.customer.token }))
            .status,
        ).toBe(200);
        return null;
      }
      const intent = await call('POST', '/api/v1/payment/intents/', {
        token: b.customer.token,
        body: { booking_id: b.id },
      });
      expect(intent.status).toBe(201);
      const event = {
        gateway_event_id: `evt_load_${SEED}_${b.id}`,
        event_type: random.chance(0.85) ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
        gateway_payment_intent_id: intent.body.payment.gateway_payment_intent_id,
      };
      const answers = await Promise.all(
        [1, 2].map(() => call('POST', '/api/v1/payment/webhooks/gateway/', { body: event })),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      return event.event_type === 'payment_intent.succeeded'
        ? { ...b, paymentId: intent.body.payment.id as number }
        : null;
    })
  ).filter((b) => b !== null);
  expect(paid.length).toBeGreaterThan(5);

  // after payment: refunds racing on one payment, cancellations by either side, or nothing
  await all(paid.length, async (i) => {
    const b = paid[i];
    const roll = i % 4;
    if (roll === 0) {
      // two partial refunds at once: both fit (10.00 + 15.00 of 50.00)
      const answers = await Promise.all(
        ['10.00', '15.00'].map((amount) =>
          call('POST', `/api/v1/payment/${b.paymentId}/refunds/`, { token: vendor.token, body: { amount } }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
    } else if (roll === 1) {
      expect(
        (await call('POST', `/api/v1/booking/bookings/${b.id}/cancel/`, { token: b.customer.token })).status,
      ).toBe(200);
    } else if (roll === 2) {
      const [refund, cancel] = await Promise.all([
        call('POST', `/api/v1/payment/${b.paymentId}/refunds/`, {
          token: vendor.token,
          body: { amount: '5.00' },
        }),
        call('POST', `/api/v1/booking/bookings/${b.id}/vendor-cancel/`, { token: vendor.token }),
      ]);
      expect(cancel.status).toBe(200);
      // the refund lands before the cancel's full refund of what remains, or finds nothing left
      expect([201, 400, 409]).toContain(refund.status);
    }
  });

  const state = await rollupsAndRecount(t.db);
  expect(state.stored).toEqual(state.recount);
  // the workload reached every kind of row the rollups add up
  const sums = (table: string, column: string) =>
    state.stored[table].reduce((n, r) => n + Number(r[column]), 0);
  expect(sums('listing_click_daily', 'clicks')).toBe(90);
  expect(state.stored.listing_click_daily.some((r) => r.is_bot === 1)).toBe(true);
  expect(sums('booking_daily', 'bookings')).toBe(36);
  expect(sums('booking_daily', 'confirmed')).toBe(paid.length);
  expect(sums('booking_daily', 'revenue_cents')).toBeLessThan(paid.length * 5_000);

  const deps = { db: t.db, clock: t.clock };
  const vendorId = await vendorProfileId(t.db, vendor.id);
  const now = t.clock.now().getTime();
  for (const [from, to] of [
    [now - 3 * DAY, now + DAY],
    [now - DAY / 2, now + DAY / 3],
  ]) {
    for (const include_bots of [false, true]) {
      const query = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), include_bots };
      const summary = await summariseVendorClicks(deps, vendorId, query);
      expect(await summariseVendorClicks(deps, vendorId, query, { rollup: false })).toEqual(summary);
      const series = await vendorTimeseries(deps, vendorId, query);
      const total = series.points.reduce((n, p) => n + p.clicks.organic + p.clicks.marketing, 0);
      expect(total).toBe(summary.clicks.total);
      const revenue = series.points.reduce((n, p) => n + Math.round(Number(p.revenue) * 100), 0);
      // the series counts unattributed bookings' revenue too; the summary the attributed ones
      expect(revenue).toBeGreaterThanOrEqual(
        Math.round((Number(summary.revenue.organic) + Number(summary.revenue.marketing)) * 100),
      );
    }
  }
}, 120_000);
