import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expireLapsedBookings } from '../../../src/modules/booking/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookedFixture } from '../../helpers/refund-factories.ts';

// Every change of decisions §14 writes its event in its own transaction: the outbox rows after each
// step of a booking's life, and none after a change that was refused.

const HOUR = 3_600_000;
let t: TestApp;

beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

interface Body {
  id: string;
  type: string;
  created_at: string;
  data: {
    booking: Record<string, unknown> & { id: number; status: string };
    payment: (Record<string, unknown> & { status: string; amount: string }) | null;
    refund: (Record<string, unknown> & { status: string; amount: string }) | null;
  };
}

async function events(bookingId?: number) {
  let query = t.db.selectFrom('notification_events').selectAll().orderBy('id');
  if (bookingId !== undefined) query = query.where('booking_id', '=', bookingId);
  const rows = await query.execute();
  return rows.map((row) => ({ row, body: JSON.parse(row.payload) as Body }));
}

describe('the outbox gets one event per change, with the objects after it', () => {
  it('request, approve, pay: requested, approved, payment.succeeded, booking.confirmed', async () => {
    const f = await bookedFixture(t, { price: '80.00' });
    const recorded = await events(f.bookingId);
    expect(recorded.map((e) => e.body.type)).toEqual([
      'booking.requested',
      'booking.approved',
      'payment.succeeded',
      'booking.confirmed',
    ]);
    const vendorId = (
      await t.db
        .selectFrom('bookings')
        .select('vendor_id')
        .where('id', '=', f.bookingId)
        .executeTakeFirstOrThrow()
    ).vendor_id;
    for (const { row, body } of recorded) {
      expect(row.public_id).toMatch(/^evt_[0-9a-f]{32}$/);
      expect(body.id).toBe(row.public_id);
      expect(body.created_at).toBe(t.clock.now().toISOString());
      expect(row.vendor_id).toBe(vendorId);
      expect(row.dispatched_at).toBeNull();
      expect(body.data.booking.id).toBe(f.bookingId);
      expect(body.data.booking.total_price).toBe('80.00');
    }
    const [requested, approved, succeeded, confirmed] = recorded.map((e) => e.body);
    expect(requested.data.booking.status).toBe('requested');
    expect(requested.data.payment).toBeNull();
    expect(approved.data.booking.status).toBe('approved');
    expect(approved.data.booking.expires_at).not.toBeNull();
    // confirmed only with (and after) the payment's success
    expect(succeeded.data.payment?.status).toBe('succeeded');
    expect(succeeded.data.payment?.amount).toBe('80.00');
    expect(succeeded.data.booking.status).toBe('confirmed');
    expect(confirmed.data.booking.status).toBe('confirmed');
    expect(confirmed.data.payment?.status).toBe('succeeded');
    expect(confirmed.data.refund).toBeNull();
  });

  it('a failed payment is payment.failed and the booking stays approved: no confirmed event', async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    expect((await f.event('payment_intent.payment_failed')).json().payment_status).toBe('failed');
    const types = (await events(f.bookingId)).map((e) => e.body.type);
    expect(types).toEqual(['booking.requested', 'booking.approved', 'payment.failed']);
    const failed = (await events(f.bookingId))[2].body;
    expect(failed.data.payment?.status).toBe('failed');
    expect(failed.data.booking.status).toBe('approved');
  });

  it("a paid booking's cancel carries its pending refund; the refund's success is payment.refunded", async () => {
    const f = await bookedFixture(t, { price: '120.00' });
    const cancel = await f.api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${f.bookingId}/vendor-cancel/`,
      token: f.vendor.token,
    });
    expect(cancel.statusCode).toBe(200);
    const recorded = (await events(f.bookingId)).map((e) => e.body);
    expect(recorded.map((e) => e.type).slice(4)).toEqual(['booking.cancelled', 'payment.refunded']);
    const [cancelled, refunded] = recorded.slice(4);
    expect(cancelled.data.booking.status).toBe('cancelled');
    expect(cancelled.data.refund).toMatchObject({
      amount: '120.00',
      status: 'pending',
      reason: 'cancelled_by_vendor',
    });
    expect(cancelled.data.payment?.status).toBe('succeeded');
    expect(refunded.data.refund).toMatchObject({ amount: '120.00', status: 'succeeded' });
    expect(refunded.data.payment?.status).toBe('refunded');
    expect(refunded.data.payment?.amount_refunded).toBe('120.00');
  });

  it('decline and the expiry sweep each write theirs', async () => {
    const declined = await bookedFixture(t, { until: 'requested' });
    await declined.api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${declined.bookingId}/decline/`,
      token: declined.vendor.token,
      payload: { note: 'closed that day' },
    });
    const lapsing = await bookedFixture(t, { until: 'requested' });
    t.clock.advance(48 * HOUR);
    expect(await expireLapsedBookings({ db: t.db, clock: t.clock })).toBe(1);
    expect((await events(declined.bookingId)).map((e) => e.body.type)).toEqual([
      'booking.requested',
      'booking.declined',
    ]);
    const lapsed = await events(lapsing.bookingId);
    expect(lapsed.map((e) => e.body.type)).toEqual(['booking.requested', 'booking.expired']);
    expect(lapsed[1].body.data.booking.status).toBe('expired');
    // a second sweep records nothing more
    expect(await expireLapsedBookings({ db: t.db, clock: t.clock })).toBe(0);
    expect(await events(lapsing.bookingId)).toHaveLength(2);
  });
});

describe('a refused change writes nothing', () => {
  it('a 409 booking request and a 409 transition leave no event', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const item = await createEquipment(t.app, vendor);
    const starts = t.clock.now().getTime() + 72 * HOUR;
    const request = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/booking/bookings/request/',
        headers: { authorization: `Bearer ${customer.token}` },
        payload: {
          equipment_item_id: item.id,
          starts_at: new Date(starts).toISOString(),
          ends_at: new Date(starts + 24 * HOUR).toISOString(),
        },
      });
    const first = await request();
    expect(first.statusCode).toBe(201);
    const before = (await events()).length;
    expect((await request()).statusCode).toBe(409);
    const decline = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/booking/bookings/${first.json().id}/decline/`,
        headers: { authorization: `Bearer ${vendor.token}` },
      });
    expect((await decline()).statusCode).toBe(200);
    expect((await decline()).statusCode).toBe(409);
    expect((await events()).map((e) => e.body.type).slice(before)).toEqual(['booking.declined']);
  });
});
