import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireLapsedBookings } from '../../../src/modules/booking/index.ts';
import {
  buildTestApp,
  type Injector,
  injector,
  type TestApp,
  usingPostgres,
} from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, listingOf, transitioner } from './setup.ts';

// Holds that expire (decisions §11): deadlines, and from the instant a deadline passes a booking holds
// nothing and reads as expired, before any sweep; the sweep then records the transition once.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const REQUEST_TTL = 5;
const PAYMENT_TTL = 3;

let dir: string;
let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let vendor: Account;
let customer: Account;

beforeAll(async () => {
  // the clock moves past several deadlines: tokens outlive them
  // a file, so a second handle can open it (the simultaneous sweeps)
  dir = mkdtempSync(join(tmpdir(), 'booking-expiry-'));
  t = await buildTestApp({
    dbFile: join(dir, 'expiry.sqlite'),
    env: { ACCESS_TOKEN_TTL: String(24 * 3600) },
  });
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  vendor = await registerVendor(t.app, {
    request_ttl_minutes: REQUEST_TTL,
    payment_ttl_minutes: PAYMENT_TTL,
  });
  customer = await registerCustomer(t.app);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = () => t.clock.now().getTime();
const iso = (ms: number) => new Date(ms).toISOString();

/** A window starting `hours` from now, one hour long. */
const windowIn = (hours: number) => ({
  starts_at: iso(now() + hours * HOUR),
  ends_at: iso(now() + hours * HOUR + HOUR),
});

async function requested(listing: number, window = windowIn(48)) {
  const res = await request(customer.token, { equipment_item_id: listing, ...window });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const detail = async (id: number) =>
  (await api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: customer.token })).json();

const availability = async (listing: number, window: { starts_at: string; ends_at: string }) =>
  (
    await api({
      method: 'GET',
      url: '/api/v1/booking/availability/',
      query: { equipment_item_id: String(listing), ...window },
    })
  ).json();

const listStatuses = async (token: string, status: string) =>
  (
    await api({ method: 'GET', url: '/api/v1/booking/bookings/', token, query: { status, page_size: '100' } })
  ).json().results as { id: number; status: string }[];

const expiredEntries = async () =>
  Number(
    (
      await t.db
        .selectFrom('booking_status_history')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('to_status', '=', 'expired')
        .executeTakeFirstOrThrow()
    ).n,
  );

const expiredHistory = (bookingId: number) =>
  t.db
    .selectFrom('booking_status_history')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('to_status', '=', 'expired')
    .execute();

describe('deadlines', () => {
  it("a request holds until creation + the vendor's request TTL, an approval until + the payment TTL", async () => {
    const kayak = await listingOf(t.db, vendor);
    const booking = await requested(kayak);
    expect(booking.expires_at).toBe(iso(now() + REQUEST_TTL * MINUTE));
    t.clock.advance(MINUTE);
    const approved = (await transition(vendor.token, booking.id, 'approve')).json();
    expect(approved.status).toBe('approved');
    expect(approved.expires_at).toBe(iso(now() + PAYMENT_TTL * MINUTE));
  });

  it('never runs past starts_at', async () => {
    const kayak = await listingOf(t.db, vendor);
    const soon = { starts_at: iso(now() + 2 * MINUTE), ends_at: iso(now() + HOUR) };
    const booking = await requested(kayak, soon);
    expect(booking.expires_at).toBe(soon.starts_at);
    const approved = (await transition(vendor.token, booking.id, 'approve')).json();
    expect(approved.expires_at).toBe(soon.starts_at);
  });

  it('is null once declined or cancelled', async () => {
    const kayak = await listingOf(t.db, vendor);
    const declined = await requested(kayak, windowIn(10));
    expect((await transition(vendor.token, declined.id, 'decline')).json()).toMatchObject({
      status: 'declined',
      expires_at: null,
    });
    const cancelled = await requested(kayak, windowIn(20));
    expect((await transition(customer.token, cancelled.id, 'cancel')).json()).toMatchObject({
      status: 'cancelled',
      expires_at: null,
    });
  });
});

describe('the instant a deadline passes', () => {
  it('a request at expires_at - 1 ms conflicts, at expires_at it does not', async () => {
    const kayak = await listingOf(t.db, vendor);
    const window = windowIn(24);
    const first = await requested(kayak, window);
    const deadline = Date.parse(first.expires_at);

    t.clock.set(iso(deadline - 1));
    expect((await detail(first.id)).status).toBe('requested');
    expect(await availability(kayak, window)).toMatchObject({ is_available: false, conflicts: 1 });
    const early = await request(customer.token, { equipment_item_id: kayak, ...window });
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('booking_conflict');

    t.clock.set(iso(deadline));
    const shown = await detail(first.id);
    expect(shown).toMatchObject({ status: 'expired', expires_at: first.expires_at });
    // nothing has recorded it yet: the history still ends with the request
    expect(shown.status_history.map((h: { to_status: string }) => h.to_status)).toEqual(['requested']);
    expect(await availability(kayak, window)).toMatchObject({ is_available: true, conflicts: 0 });
    const second = await request(customer.token, { equipment_item_id: kayak, ...window });
    expect(second.statusCode).toBe(201);
    expect(second.json().status).toBe('requested');
  });

  it('an approved booking past its payment deadline frees the window on the public list filter', async () => {
    const kayak = await listingOf(t.db, vendor);
    const window = windowIn(30);
    const booking = await requested(kayak, window);
    const approved = (await transition(vendor.token, booking.id, 'approve')).json();
    const deadline = Date.parse(approved.expires_at);
    const listed = async () =>
      (
        await api({
          method: 'GET',
          url: '/api/v1/equipment/items/',
          query: {
            vendor_slug: vendor.vendorSlug!,
            available_from: window.starts_at,
            available_to: window.ends_at,
          },
        })
      )
        .json()
        .results.map((r: { id: number }) => r.id);
    t.clock.set(iso(deadline - 1));
    expect(await listed()).not.toContain(kayak);
    t.clock.set(iso(deadline));
    expect(await listed()).toContain(kayak);
  });

  it('approve, decline and cancel answer 409 invalid_state; a payment intent too', async () => {
    const kayak = await listingOf(t.db, vendor);
    const pending = await requested(kayak, windowIn(60));
    const toPay = await requested(kayak, windowIn(62));
    const approved = (await transition(vendor.token, toPay.id, 'approve')).json();
    t.clock.set(iso(Math.max(Date.parse(pending.expires_at), Date.parse(approved.expires_at))));
    for (const [token, id, action] of [
      [vendor.token, pending.id, 'approve'],
      [vendor.token, pending.id, 'decline'],
      [customer.token, pending.id, 'cancel'],
      [vendor.token, toPay.id, 'decline'],
      [customer.token, toPay.id, 'cancel'],
    ] as const) {
      const res = await transition(token, id, action);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        detail: `Cannot ${action} a booking that is expired.`,
        code: 'invalid_state',
      });
    }
    const intent = await api({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      token: customer.token,
      payload: { booking_id: toPay.id },
    });
    expect(intent.statusCode).toBe(409);
    expect(intent.json().code).toBe('invalid_state');
    expect((await detail(toPay.id)).status).toBe('expired');
  });

  it('a payment that succeeds after the deadline is recorded, leaves the booking expired and is refunded', async () => {
    const kayak = await listingOf(t.db, vendor);
    const booking = await requested(kayak, windowIn(70));
    const approved = (await transition(vendor.token, booking.id, 'approve')).json();
    const intent = await api({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      token: customer.token,
      payload: { booking_id: booking.id },
    });
    expect(intent.statusCode).toBe(201);
    const { payment } = intent.json();
    t.clock.set(approved.expires_at);
    const event = await api({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      payload: {
        gateway_event_id: `evt-late-${booking.id}`,
        event_type: 'payment_intent.succeeded',
        gateway_payment_intent_id: payment.gateway_payment_intent_id,
      },
    });
    expect(event.statusCode).toBe(200);
    expect(event.json()).toMatchObject({ applied: true, payment_status: 'succeeded' });
    const status = await api({
      method: 'GET',
      url: `/api/v1/payment/${payment.id}/status/`,
      token: customer.token,
    });
    // recorded as succeeded, then refunded in full by the mock gateway (decisions §11)
    expect(status.json()).toMatchObject({
      status: 'refunded',
      booking_status: 'expired',
      amount: approved.total_price,
      amount_refunded: approved.total_price,
    });
    expect(status.json().refunds).toMatchObject([
      { amount: approved.total_price, currency: approved.currency, reason: 'expired', status: 'succeeded' },
    ]);
    expect((await detail(booking.id)).status).toBe('expired');
  });
});

describe("a vendor's limit edit", () => {
  it('counts a lapsed hold as holding nothing', async () => {
    const kayaks = await listingOf(t.db, vendor, { quantity: 2 });
    const window = windowIn(150);
    const first = await request(customer.token, { equipment_item_id: kayaks, ...window });
    const second = await request(customer.token, { equipment_item_id: kayaks, ...window });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const lower = () =>
      api({
        method: 'PATCH',
        url: `/api/v1/equipment/vendor/items/${kayaks}/`,
        token: vendor.token,
        payload: { quantity: 1 },
      });
    const deadline = Date.parse(first.json().expires_at);
    t.clock.set(iso(deadline - 1));
    const refused = await lower();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('booking_conflict');
    t.clock.set(iso(deadline));
    expect((await lower()).json().quantity).toBe(1);
  });
});

describe('lists', () => {
  it('the status filter counts a lapsed hold as expired, recorded or not, and never as requested', async () => {
    const lister = await registerCustomer(t.app);
    const kayak = await listingOf(t.db, vendor);
    const lapsing = await request(lister.token, { equipment_item_id: kayak, ...windowIn(80) });
    const ids = { lapsing: lapsing.json().id as number };
    t.clock.set(lapsing.json().expires_at);
    const fresh = await request(lister.token, { equipment_item_id: kayak, ...windowIn(82) });
    const freshId = fresh.json().id as number;
    expect(await listStatuses(lister.token, 'expired')).toEqual([
      expect.objectContaining({ id: ids.lapsing, status: 'expired' }),
    ]);
    expect((await listStatuses(lister.token, 'requested')).map((b) => b.id)).toEqual([freshId]);
    const all = await api({ method: 'GET', url: '/api/v1/booking/bookings/', token: lister.token });
    expect(all.json().results.map((b: { status: string }) => b.status)).toEqual(['requested', 'expired']);
    // once recorded, the same answers
    await expireLapsedBookings({ db: t.db, clock: t.clock });
    expect((await listStatuses(lister.token, 'expired')).map((b) => b.id)).toEqual([ids.lapsing]);
    expect((await listStatuses(lister.token, 'requested')).map((b) => b.id)).toEqual([freshId]);
  });
});

describe('the sweep', () => {
  it('records each lapsed hold once (no actor, note "expired"), keeping expires_at', async () => {
    const kayak = await listingOf(t.db, vendor);
    const a = await requested(kayak, windowIn(90));
    const b = await requested(kayak, windowIn(92));
    const approvedB = (await transition(vendor.token, b.id, 'approve')).json();
    const deadlines = [Date.parse(a.expires_at), Date.parse(approvedB.expires_at)];
    const later = Math.max(...deadlines);
    t.clock.set(iso(Math.min(...deadlines) - 1));
    await expireLapsedBookings({ db: t.db, clock: t.clock });
    expect(await expiredHistory(a.id)).toEqual([]);
    expect(await expiredHistory(b.id)).toEqual([]);
    t.clock.set(iso(later));
    const before = await expiredEntries();
    expect(await expireLapsedBookings({ db: t.db, clock: t.clock })).toBe((await expiredEntries()) - before);
    expect(await expireLapsedBookings({ db: t.db, clock: t.clock })).toBe(0);
    for (const [booking, from, expiresAt] of [
      [a, 'requested', a.expires_at],
      [b, 'approved', approvedB.expires_at],
    ] as const) {
      const shown = await detail(booking.id);
      expect(shown).toMatchObject({ status: 'expired', expires_at: expiresAt });
      expect(shown.status_history.at(-1)).toEqual({
        from_status: from,
        to_status: 'expired',
        note: 'expired',
        actor_id: null,
        created_at: iso(later),
      });
      expect(await expiredHistory(booking.id)).toHaveLength(1);
    }
  });

  // Two handles in one thread cannot both hold SQLite's write lock (better-sqlite3 waits synchronously);
  // on SQLite the two-process test (expiry-sweeper.test.ts) runs sweepers at once.
  it.runIf(usingPostgres)(
    'of simultaneous sweeps over one database, exactly one records each booking',
    async () => {
      const kayak = await listingOf(t.db, vendor);
      const bookings = [];
      for (let i = 0; i < 12; i++) bookings.push(await requested(kayak, windowIn(100 + 2 * i)));
      t.clock.set(iso(Math.max(...bookings.map((b) => Date.parse(b.expires_at)))));
      const before = await expiredEntries();
      const second = t.openSecondHandle();
      try {
        const counts = await Promise.all([
          expireLapsedBookings({ db: t.db, clock: t.clock }),
          expireLapsedBookings({ db: second.db, clock: t.clock }),
          expireLapsedBookings({ db: t.db, clock: t.clock }),
          expireLapsedBookings({ db: second.db, clock: t.clock }),
        ]);
        expect(counts.reduce((a, b) => a + b, 0)).toBe((await expiredEntries()) - before);
      } finally {
        await second.close();
      }
      expect((await expiredEntries()) - before).toBeGreaterThanOrEqual(bookings.length);
      for (const booking of bookings) expect(await expiredHistory(booking.id)).toHaveLength(1);
    },
  );
});
