import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from '../../src/lib/money.ts';
import { statusAfterRefunds } from '../../src/modules/payments/payment-status.ts';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { createEquipment } from '../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../helpers/factories.ts';
import { listenForRaces, type RaceServers } from '../helpers/race-servers.ts';
import { bookedFixture } from '../helpers/refund-factories.ts';

// Answers assembled from several statements, polled over real HTTP by several clients while their parts
// change: each answer must be one moment of the database (one read snapshot), never rows of two moments.
// SQLite on a file with a second server in a worker thread, or PostgreSQL (TEST_DATABASE_URL).

const POLLERS = 6;
const DAY = 86_400_000;

let t: TestApp;
let dir: string;
let servers: RaceServers;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'torn-reads-'));
  const dbFile = join(dir, 'race.sqlite');
  t = await buildTestApp({ dbFile });
  servers = await listenForRaces(t, dbFile);
}, 60_000);
afterAll(async () => {
  await servers?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const serverFor = (i: number) => servers.addresses[i % servers.addresses.length];

async function send(i: number, method: 'GET' | 'POST', path: string, token: string, body?: unknown) {
  const res = await fetch(`${serverFor(i)}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: an answer of any route, read by the test that asked for it
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Polls `read` from POLLERS clients, spread over the servers, until `work` has finished; every answer is
 * handed to `check`, which returns what is wrong with it (or null). Returns the answers read and the wrong.
 */
async function pollWhile(
  work: Promise<unknown>,
  read: (i: number) => Promise<unknown>[],
  check: (answer: unknown) => string | null,
): Promise<{ answers: number; wrong: string[] }> {
  let done = false;
  const finished = work.finally(() => {
    done = true;
  });
  let answers = 0;
  const wrong: string[] = [];
  const poller = async (i: number) => {
    while (!done) {
      for (const answer of await Promise.all(read(i))) {
        answers++;
        const problem = check(answer);
        if (problem) wrong.push(problem);
      }
    }
  };
  await Promise.all([finished, ...Array.from({ length: POLLERS }, (_, i) => poller(i))]);
  return { answers, wrong };
}

interface PaymentAnswer {
  status: number;
  body: {
    id: number;
    status: string;
    amount: string;
    amount_refunded: string;
    booking_status: string;
    refunds: { amount: string; status: string }[];
  };
}

/** What contradicts decisions §12 in a payment status answer of a paid payment. */
function paymentProblem(answer: unknown): string | null {
  const { status, body } = answer as PaymentAnswer;
  if (status !== 200) return `status ${status}: ${JSON.stringify(body)}`;
  const refunded = body.refunds
    .filter((r) => r.status === 'succeeded')
    .reduce((sum, r) => sum + parseMoney(r.amount)!, 0);
  const expected = statusAfterRefunds(parseMoney(body.amount)!, parseMoney(body.amount_refunded)!);
  if (
    body.amount_refunded !== formatMoney(refunded) ||
    body.status !== expected ||
    body.booking_status !== 'confirmed'
  )
    return `payment ${body.id}: ${body.status}, ${body.amount_refunded} of ${body.amount} refunded, refunds ${JSON.stringify(body.refunds)}, booking ${body.booking_status}`;
  return null;
}

describe('a payment polled while its refunds complete', () => {
  it('always shows a status that agrees with amount_refunded and its refunds', async () => {
    const fixtures = await Promise.all(
      Array.from({ length: 12 }, () => bookedFixture(t, { price: '10.00' })),
    );
    for (const f of fixtures)
      expect(await f.payment()).toMatchObject({ status: 'succeeded', amount: '10.00' });
    const refunds = Promise.all(
      fixtures.flatMap((f, n) =>
        [0, 1].map((k) =>
          send(n + k, 'POST', `/payment/${f.paymentId}/refunds/`, f.vendor.token, { amount: '5.00' }),
        ),
      ),
    );
    const { answers, wrong } = await pollWhile(
      refunds,
      (i) => fixtures.map((f) => send(i, 'GET', `/payment/${f.paymentId}/status/`, f.customer.token)),
      paymentProblem,
    );
    expect((await refunds).map((r) => r.status)).toEqual(Array(24).fill(201));
    expect(answers).toBeGreaterThan(fixtures.length * POLLERS);
    expect(wrong.slice(0, 5)).toEqual([]);
    for (const f of fixtures)
      expect(await f.payment()).toMatchObject({ status: 'refunded', amount_refunded: '10.00' });
  }, 120_000);
});

interface BookingAnswer {
  id: number;
  status: string;
  status_history: { from_status: string | null; to_status: string }[];
}

/** What is wrong with a booking as an answer shows it: its status must be where its history ends. */
function bookingProblem(booking: BookingAnswer): string | null {
  const last = booking.status_history.at(-1)?.to_status;
  return booking.status === last
    ? null
    : `booking ${booking.id}: ${booking.status}, history ends at ${last} (${booking.status_history.length} entries)`;
}

describe('bookings polled while they move', () => {
  it('show the status their history ends at, in the detail and in the list', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const item = await createEquipment(t.app, vendor, { price_per_day: '10.00' });
    const ids: number[] = [];
    for (let n = 0; n < 12; n++) {
      const starts = t.clock.now().getTime() + (3 + n) * DAY;
      const res = await send(0, 'POST', '/booking/bookings/request/', customer.token, {
        equipment_item_id: item.id,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + DAY).toISOString(),
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // approve each, then cancel it: two moves, each a status and a history entry in one transaction
    const moves = Promise.all(
      ids.map(async (id, n) => {
        const approved = await send(n, 'POST', `/booking/bookings/${id}/approve/`, vendor.token, {});
        const cancelled = await send(n + 1, 'POST', `/booking/bookings/${id}/cancel/`, customer.token, {});
        return [approved.status, cancelled.status];
      }),
    );
    const { answers, wrong } = await pollWhile(
      moves,
      (i) => [
        ...ids.map(async (id) => (await send(i, 'GET', `/booking/bookings/${id}/`, customer.token)).body),
        send(i, 'GET', '/booking/bookings/?page_size=100', vendor.token).then((r) => r.body),
      ],
      (answer) => {
        const page = answer as { results?: BookingAnswer[] };
        const bookings = page.results ?? [answer as BookingAnswer];
        return bookings.map(bookingProblem).find((p) => p !== null) ?? null;
      },
    );
    expect(await moves).toEqual(ids.map(() => [200, 200]));
    expect(answers).toBeGreaterThan(ids.length * POLLERS);
    expect(wrong.slice(0, 5)).toEqual([]);
  }, 120_000);
});
