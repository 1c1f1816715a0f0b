import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../../src/db/database.ts';
import { confirmApprovedBooking } from '../../../src/modules/booking/index.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, listingOf, transitioner } from './setup.ts';

let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let vendor: Account;
let otherVendor: Account;
let customer: Account;
let otherCustomer: Account;
let kayak: number;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  [vendor, otherVendor, customer, otherCustomer] = await Promise.all([
    registerVendor(t.app, { business_name: 'Tavira Boats' }),
    registerVendor(t.app),
    registerCustomer(t.app),
    registerCustomer(t.app),
  ]);
  kayak = await listingOf(t.db, vendor, { title: 'Double kayak', priceCents: 4500 });
});
afterAll(() => t.close());

let nextHour = 0;
/** A new requested booking of `kayak` by `customer`, in a window of its own. */
async function newBooking(by: Account = customer, listing = kayak) {
  const start = Date.UTC(2026, 6, 1) + nextHour * 3_600_000;
  nextHour += 2;
  const res = await request(by.token, {
    equipment_item_id: listing,
    starts_at: new Date(start).toISOString(),
    ends_at: new Date(start + 3_600_000).toISOString(),
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: number; status: BookingStatus; expires_at: string };
}

/**
 * A booking brought into `state` through the API (confirmed through the payments interface; expired by a
 * deadline of now, with no sweep: it must read as expired all the same).
 */
async function bookingIn(state: BookingStatus): Promise<number> {
  const { id } = await newBooking();
  if (state === 'approved' || state === 'confirmed')
    expect((await transition(vendor.token, id, 'approve')).statusCode).toBe(200);
  if (state === 'confirmed')
    expect(await confirmApprovedBooking(t.db, id, t.clock.now().getTime())).toBe(true);
  if (state === 'declined') expect((await transition(vendor.token, id, 'decline')).statusCode).toBe(200);
  if (state === 'cancelled') expect((await transition(customer.token, id, 'cancel')).statusCode).toBe(200);
  if (state === 'expired')
    await t.db
      .updateTable('bookings')
      .set({ expires_at: t.clock.now().getTime() })
      .where('id', '=', id)
      .execute();
  return id;
}

const get = (token: string, id: number) =>
  api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token });

describe('transitions', () => {
  it('approve stores vendor_notes and the note, and appends to status_history', async () => {
    const { id } = await newBooking();
    t.clock.advance(60_000);
    const res = await transition(vendor.token, id, 'approve', {
      vendor_notes: 'Bring sunscreen',
      note: 'ok',
    });
    expect(res.statusCode).toBe(200);
    const approvedAt = t.clock.now().toISOString();
    const body = res.json();
    expect(body).toMatchObject({
      id,
      status: 'approved',
      vendor_notes: 'Bring sunscreen',
      updated_at: approvedAt,
    });
    expect(body.status_history).toEqual([
      {
        from_status: null,
        to_status: 'requested',
        note: '',
        actor_id: customer.id,
        created_at: expect.any(String),
      },
      {
        from_status: 'requested',
        to_status: 'approved',
        note: 'ok',
        actor_id: vendor.id,
        created_at: approvedAt,
      },
    ]);
    expect(body.created_at).not.toBe(approvedAt);
    // the detail shows the same
    expect((await get(customer.token, id)).json()).toEqual(body);
  });

  it('decline keeps vendor_notes when none are sent; cancel stores its note', async () => {
    const first = await newBooking();
    await transition(vendor.token, first.id, 'approve', { vendor_notes: 'See you' });
    const declined = await transition(vendor.token, first.id, 'decline', { note: 'storm forecast' });
    expect(declined.json()).toMatchObject({ status: 'declined', vendor_notes: 'See you' });
    expect(declined.json().status_history.map((h: { to_status: string }) => h.to_status)).toEqual([
      'requested',
      'approved',
      'declined',
    ]);
    const second = await newBooking();
    const cancelled = await transition(customer.token, second.id, 'cancel', { note: 'changed plans' });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', vendor_notes: '' });
    expect(cancelled.json().status_history[1]).toMatchObject({
      from_status: 'requested',
      to_status: 'cancelled',
      note: 'changed plans',
      actor_id: customer.id,
    });
  });

  // Every action from every state, over HTTP (decisions §6).
  const EXPECTED: Record<BookingStatus, Record<'approve' | 'decline' | 'cancel', BookingStatus | null>> = {
    requested: { approve: 'approved', decline: 'declined', cancel: 'cancelled' },
    approved: { approve: null, decline: 'declined', cancel: 'cancelled' },
    declined: { approve: null, decline: null, cancel: null },
    cancelled: { approve: null, decline: null, cancel: null },
    confirmed: { approve: null, decline: null, cancel: 'cancelled' },
    expired: { approve: null, decline: null, cancel: null },
  };
  for (const [from, actions] of Object.entries(EXPECTED) as [
    BookingStatus,
    (typeof EXPECTED)['requested'],
  ][]) {
    for (const [action, to] of Object.entries(actions) as [
      'approve' | 'decline' | 'cancel',
      BookingStatus | null,
    ][]) {
      it(`${action} from ${from} → ${to ?? '409 invalid_state'}`, async () => {
        const id = await bookingIn(from);
        const actor = action === 'cancel' ? customer : vendor;
        const res = await transition(actor.token, id, action);
        if (to) {
          expect(res.statusCode).toBe(200);
          expect(res.json().status).toBe(to);
          expect(res.json().status_history.at(-1)).toMatchObject({ from_status: from, to_status: to });
        } else {
          expect(res.statusCode).toBe(409);
          expect(res.json()).toEqual({
            detail: `Cannot ${action} a booking that is ${from}.`,
            code: 'invalid_state',
          });
          expect((await get(customer.token, id)).json().status).toBe(from);
        }
      });
    }
  }

  it('answers 403 to the other party and 404 to strangers', async () => {
    const { id } = await newBooking();
    // the booking's customer approving / declining: the vendor-only rule refuses them
    for (const action of ['approve', 'decline'] as const) {
      const res = await transition(customer.token, id, action);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('permission_denied');
    }
    // its vendor cancelling
    const byVendor = await transition(vendor.token, id, 'cancel');
    expect(byVendor.statusCode).toBe(403);
    // another vendor, another customer: the booking does not exist for them
    for (const action of ['approve', 'decline'] as const) {
      const res = await transition(otherVendor.token, id, action);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Booking not found.', code: 'not_found' });
    }
    expect((await transition(otherCustomer.token, id, 'cancel')).statusCode).toBe(404);
    expect((await transition(vendor.token, 999_999, 'approve')).statusCode).toBe(404);
    expect((await transition(customer.token, 999_999, 'cancel')).statusCode).toBe(404);
    // nothing moved
    const after = (await get(customer.token, id)).json();
    expect(after.status).toBe('requested');
    expect(after.status_history).toHaveLength(1);
  });

  it('lets exactly one of many simultaneous cancels win', async () => {
    const { id } = await newBooking();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => transition(customer.token, id, 'cancel', { note: `try ${i}` })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(11).fill(409)]);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'invalid_state')).toBe(
      true,
    );
    const history = (await get(customer.token, id)).json().status_history;
    expect(history).toHaveLength(2);
    expect(history[1]).toMatchObject({ from_status: 'requested', to_status: 'cancelled' });
  });

  it('lets exactly one of many simultaneous approvals win', async () => {
    const { id } = await newBooking();
    const results = await Promise.all(
      Array.from({ length: 12 }, () => transition(vendor.token, id, 'approve')),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(11);
    expect((await get(vendor.token, id)).json().status_history).toHaveLength(2);
  });

  it('records a consistent history when approve, decline and cancel race', async () => {
    for (let round = 0; round < 3; round++) {
      const { id } = await newBooking();
      const results = await Promise.all([
        transition(vendor.token, id, 'approve'),
        transition(customer.token, id, 'cancel'),
        transition(vendor.token, id, 'decline'),
        transition(vendor.token, id, 'approve'),
      ]);
      const wins = results.filter((r) => r.statusCode === 200).length;
      expect(results.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
      const booking = (await get(customer.token, id)).json();
      const history = booking.status_history as { from_status: string | null; to_status: string }[];
      expect(history).toHaveLength(1 + wins);
      for (let i = 1; i < history.length; i++) expect(history[i].from_status).toBe(history[i - 1].to_status);
      expect(history.at(-1)!.to_status).toBe(booking.status);
      expect(['declined', 'cancelled']).toContain(booking.status);
    }
  });
});

describe('reading bookings', () => {
  let fresh: { vendor: Account; customer: Account; ids: number[]; listing: number };

  beforeAll(async () => {
    const [v, c] = await Promise.all([
      registerVendor(t.app, { business_name: 'Sagres Surf' }),
      registerCustomer(t.app),
    ]);
    const listing = await listingOf(t.db, v, { title: 'Longboard', priceCents: 2000 });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000); // distinct created_at, newest last
      ids.push((await newBooking(c, listing)).id);
    }
    ids.push((await newBooking(customer, listing)).id); // another customer on the same vendor
    await transition(v.token, ids[1], 'approve');
    fresh = { vendor: v, customer: c, ids, listing };
  });

  const list = (token: string, query = '') =>
    api({ method: 'GET', url: `/api/v1/booking/bookings/${query}`, token });

  it('gives a customer their own bookings, newest first, with history', async () => {
    const res = await list(fresh.customer.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(3);
    expect(body.next).toBeNull();
    expect(body.results.map((b: { id: number }) => b.id)).toEqual([fresh.ids[2], fresh.ids[1], fresh.ids[0]]);
    expect(body.results[1]).toMatchObject({
      status: 'approved',
      vendor_slug: 'sagres-surf',
      listing_title: 'Longboard',
      total_price: '20.00',
      customer_id: fresh.customer.id,
    });
    expect(body.results[1].status_history.map((h: { to_status: string }) => h.to_status)).toEqual([
      'requested',
      'approved',
    ]);
    expect(body.results[0].status_history).toHaveLength(1);
  });

  it('gives a vendor the bookings of their vendor profile, from every customer', async () => {
    const body = (await list(fresh.vendor.token)).json();
    expect(body.count).toBe(4);
    expect(body.results.map((b: { id: number }) => b.id)).toEqual([...fresh.ids].reverse());
    expect((await list(otherVendor.token)).json().count).toBe(0);
  });

  it('filters by status and refuses unknown statuses', async () => {
    const approved = (await list(fresh.vendor.token, '?status=approved')).json();
    expect(approved.count).toBe(1);
    expect(approved.results[0].id).toBe(fresh.ids[1]);
    expect((await list(fresh.customer.token, '?status=requested')).json().count).toBe(2);
    expect((await list(fresh.customer.token, '?status=declined')).json().count).toBe(0);
    const bad = await list(fresh.customer.token, '?status=pending');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.status).toBeDefined();
  });

  it('paginates with absolute links that keep the filter', async () => {
    const first = (await list(fresh.vendor.token, '?page_size=3&status=requested')).json();
    expect(first.count).toBe(3);
    const page1 = (await list(fresh.vendor.token, '?page_size=2')).json();
    expect(page1.count).toBe(4);
    expect(page1.results).toHaveLength(2);
    expect(page1.next).toMatch(/^http:\/\/[^/]+\/api\/v1\/booking\/bookings\/\?page_size=2&page=2$/);
    const page2 = (await list(fresh.vendor.token, '?page_size=2&page=2')).json();
    expect(page2.results.map((b: { id: number }) => b.id)).toEqual([fresh.ids[1], fresh.ids[0]]);
    expect(page2.next).toBeNull();
    expect((await list(fresh.vendor.token, '?page=9')).json().results).toEqual([]);
  });

  it('shows a booking to its customer and its vendor only', async () => {
    const id = fresh.ids[0];
    const byCustomer = await get(fresh.customer.token, id);
    const byVendor = await get(fresh.vendor.token, id);
    expect(byCustomer.statusCode).toBe(200);
    expect(byVendor.json()).toEqual(byCustomer.json());
    expect(byCustomer.json()).toMatchObject({ id, equipment_item_id: fresh.listing, status: 'requested' });
    for (const stranger of [customer, otherCustomer, otherVendor, vendor]) {
      const res = await get(stranger.token, id);
      expect(res.statusCode).toBe(404);
    }
    expect((await api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/` })).statusCode).toBe(401);
    expect((await get(fresh.customer.token, 0)).statusCode).toBe(400);
  });
});
