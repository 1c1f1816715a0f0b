import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { departurePath, tourWorld } from './departures-helpers.ts';

// A vendor's departures (decisions §19): the list with seats sold, changing one, cancelling one.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const SAT_0900 = '2026-06-06T08:00:00.000Z';
const SAT_1430 = '2026-06-06T13:30:00.000Z';
const sqlRaw = (text: string) => CompiledQuery.raw(text);

describe('GET .../vendor/offerings/{id}/departures/', () => {
  it('shows the public objects plus seats booked, bookings, and why one is closed', async () => {
    const w = await tourWorld(t);
    await w.request(SAT_0900, { participants_count: 3 });
    await w.request(SAT_0900, { participants_count: 4 });
    const res = await w.api({
      method: 'GET',
      url: `/api/v1/adventrues/vendor/offerings/${w.tour.id}/departures/`,
      token: w.vendor.token,
      query: { to: '2026-06-07T00:00:00Z' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().departures).toEqual([
      {
        starts_at: SAT_0900,
        ends_at: '2026-06-06T10:00:00.000Z',
        local_date: '2026-06-06',
        local_time: '09:00',
        capacity: 12,
        remaining: 5,
        status: 'limited',
        cutoff_at: SAT_0900,
        booked: 7,
        bookings: 2,
        closed_by: null,
        capacity_override: null,
        cancelled_at: null,
        note: '',
      },
      expect.objectContaining({ starts_at: SAT_1430, booked: 0, bookings: 0, remaining: 12 }),
    ]);
  });

  it("is the caller's own only: another vendor gets 404, a customer 403", async () => {
    const w = await tourWorld(t);
    const other = await registerVendor(t.app);
    const url = `/api/v1/adventrues/vendor/offerings/${w.tour.id}/departures/`;
    expect((await w.api({ method: 'GET', url, token: other.token })).statusCode).toBe(404);
    expect((await w.api({ method: 'GET', url, token: w.customer.token })).statusCode).toBe(403);
    const patch = await w.api({
      method: 'PATCH',
      url: departurePath(w.tour.id, SAT_0900),
      token: other.token,
      payload: { is_closed: true },
    });
    expect(patch.statusCode).toBe(404);
  });
});

describe('PATCH .../departures/{starts_at}/', () => {
  it('changes the capacity, never below the seats held, and follows the schedule again on null', async () => {
    const w = await tourWorld(t);
    await w.request(SAT_0900, { participants_count: 8 });
    const patch = (payload: Record<string, unknown>, at = SAT_0900) =>
      w.api({ method: 'PATCH', url: departurePath(w.tour.id, at), token: w.vendor.token, payload });
    const below = await patch({ capacity: 7 });
    expect(below.statusCode).toBe(409);
    expect(below.json()).toMatchObject({
      code: 'booking_conflict',
      detail: "capacity cannot be 7: the departure's bookings hold 8 seats.",
    });
    const raised = await patch({ capacity: 20 });
    expect(raised.statusCode).toBe(200);
    expect(raised.json()).toMatchObject({
      starts_at: SAT_0900,
      capacity: 20,
      remaining: 12,
      status: 'available',
    });
    expect((await w.departures()).departures[0]).toMatchObject({ capacity: 20, remaining: 12 });
    expect((await w.request(SAT_0900, { participants_count: 12 })).statusCode).toBe(201);
    // back to the schedule's 12 is below the 20 now held
    expect((await patch({ capacity: null })).statusCode).toBe(409);
    const other = await patch({ capacity: 2 }, SAT_1430);
    expect(other.json()).toMatchObject({ capacity: 2, remaining: 2 });
    expect((await patch({ capacity: null }, SAT_1430)).json()).toMatchObject({ capacity: 12, remaining: 12 });
  });

  it('closes and reopens a departure; a closed one refuses requests', async () => {
    const w = await tourWorld(t);
    const patch = (payload: Record<string, unknown>) =>
      w.api({ method: 'PATCH', url: departurePath(w.tour.id, SAT_0900), token: w.vendor.token, payload });
    expect((await patch({ is_closed: true })).json()).toMatchObject({ status: 'closed', remaining: 0 });
    const refused = await w.request(SAT_0900);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBe('Booking has closed: the vendor closed this departure.');
    expect((await patch({ is_closed: false })).json()).toMatchObject({ status: 'available', remaining: 12 });
    expect((await w.request(SAT_0900)).statusCode).toBe(201);
  });

  it('404s an instant that is not a departure, 400s one that is no instant or a bad body', async () => {
    const w = await tourWorld(t);
    const patch = (at: string, payload: Record<string, unknown> = { is_closed: true }) =>
      w.api({ method: 'PATCH', url: departurePath(w.tour.id, at), token: w.vendor.token, payload });
    expect((await patch('2026-06-06T08:01:00.000Z')).statusCode).toBe(404);
    expect((await patch('2026-06-07T08:00:00.000Z')).statusCode).toBe(404);
    const noInstant = await patch('saturday');
    expect(noInstant.statusCode).toBe(400);
    expect(Object.keys(noInstant.json().errors)).toEqual(['starts_at']);
    for (const [payload, field] of [
      [{ capacity: 0 }, 'capacity'],
      [{ capacity: 10_001 }, 'capacity'],
      [{ capacity: '5' }, 'capacity'],
      [{ is_closed: 'yes' }, 'is_closed'],
    ] as const) {
      const res = await patch(SAT_0900, payload);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    // an offset in the path names the same instant
    const offset = await patch('2026-06-06T09:00:00+01:00');
    expect(offset.statusCode).toBe(200);
    expect(offset.json().starts_at).toBe(SAT_0900);
  });
});

describe("an edit of a scheduled offering's capacity or mode", () => {
  it('must fit each departure’s own bookings, not their sum where departures overlap', async () => {
    const w = await tourWorld(t, {
      capacity: 4,
      duration_minutes: 120,
      schedule: [{ weekdays: ['sat'], start_times: ['09:00', '10:00'] }],
    });
    const ten = '2026-06-06T09:00:00.000Z';
    await w.request(SAT_0900, { participants_count: 3 });
    await w.request(ten, { participants_count: 2 });
    await w.request(ten, { participants_count: 1 });
    const patch = w.patchTour;
    expect((await patch({ capacity: 3 })).statusCode).toBe(200);
    const lower = await patch({ capacity: 2 });
    expect(lower.statusCode).toBe(409);
    expect(lower.json().detail).toBe(`capacity cannot be 2: the departure at ${SAT_0900} holds 3 seats.`);
    const privately = await patch({ booking_mode: 'private' });
    expect(privately.statusCode).toBe(409);
    expect(privately.json().detail).toBe(
      `booking_mode cannot be private: the departure at ${ten} has 2 bookings.`,
    );
  });
});

describe('POST .../departures/{starts_at}/cancel/', () => {
  it('closes it and vendor-cancels every booking holding it, refunding paid ones in full', async () => {
    const w = await tourWorld(t);
    const unpaid = (await w.request(SAT_0900, { participants_count: 2 })).json().id;
    const paid = (await w.request(SAT_0900, { participants_count: 3 })).json().id;
    const declined = (await w.request(SAT_0900)).json().id;
    await w.api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${declined}/decline/`,
      token: w.vendor.token,
    });
    const afternoon = (await w.request(SAT_1430)).json().id;
    const paymentId = await w.pay(paid);
    // what the vendor's confirmation shows first: the two bookings, one paid 3 × 30.00
    const preview = await w.api({
      method: 'GET',
      url: departurePath(w.tour.id, SAT_0900, 'cancellation/'),
      token: w.vendor.token,
    });
    expect(preview.json()).toEqual({
      starts_at: SAT_0900,
      booking_ids: [unpaid, paid],
      paid_bookings: 1,
      refund_amount: '90.00',
      currency: 'eur',
    });
    const res = await w.api({
      method: 'POST',
      url: departurePath(w.tour.id, SAT_0900, 'cancel/'),
      token: w.vendor.token,
      payload: { note: 'Storm warning' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ starts_at: SAT_0900, cancelled_booking_ids: [unpaid, paid] });
    for (const id of [unpaid, paid]) {
      const booking = (
        await w.api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: w.customer.token })
      ).json();
      expect(booking.status).toBe('cancelled');
      expect(booking.status_history.at(-1)).toMatchObject({
        to_status: 'cancelled',
        note: 'Storm warning',
        actor_id: w.vendor.id,
      });
    }
    const payment = (
      await w.api({ method: 'GET', url: `/api/v1/payment/${paymentId}/status/`, token: w.customer.token })
    ).json();
    expect(payment).toMatchObject({ amount: '90.00', amount_refunded: '90.00', status: 'refunded' });
    expect(payment.refunds).toEqual([
      expect.objectContaining({ amount: '90.00', reason: 'cancelled_by_vendor', status: 'succeeded' }),
    ]);
    const untouched = await w.api({
      method: 'GET',
      url: `/api/v1/booking/bookings/${afternoon}/`,
      token: w.customer.token,
    });
    expect(untouched.json().status).toBe('requested');
    const list = await w.api({
      method: 'GET',
      url: `/api/v1/adventrues/vendor/offerings/${w.tour.id}/departures/`,
      token: w.vendor.token,
    });
    expect(list.json().departures[0]).toMatchObject({
      status: 'closed',
      closed_by: 'vendor',
      booked: 0,
      cancelled_at: t.clock.now().toISOString(),
      note: 'Storm warning',
    });
    expect((await w.departures()).departures[0]).toMatchObject({ status: 'closed', remaining: 0 });
    expect((await w.request(SAT_0900)).statusCode).toBe(409);
  });

  it('leaves everything as it was when one cancel of it fails (one transaction)', async () => {
    const w = await tourWorld(t);
    const first = (await w.request(SAT_0900)).json().id;
    const second = (await w.request(SAT_0900)).json().id;
    // a trigger refusing the second booking's cancel stands in for a crash half-way
    const dialect = t.dialect;
    if (dialect === 'postgres') {
      await t.db.executeQuery(
        sqlRaw(`create function refuse_cancel() returns trigger as $$ begin
          if new.id = ${second} and new.status = 'cancelled' then raise exception 'crash'; end if;
          return new; end $$ language plpgsql`),
      );
      await t.db.executeQuery(
        sqlRaw(
          'create trigger refuse_cancel before update on bookings for each row execute function refuse_cancel()',
        ),
      );
    } else {
      await t.db.executeQuery(
        sqlRaw(`create trigger refuse_cancel before update of status on bookings
          when new.id = ${second} and new.status = 'cancelled' begin select raise(abort, 'crash'); end`),
      );
    }
    try {
      const res = await w.api({
        method: 'POST',
        url: departurePath(w.tour.id, SAT_0900, 'cancel/'),
        token: w.vendor.token,
      });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.executeQuery(
        sqlRaw(`drop trigger refuse_cancel${dialect === 'postgres' ? ' on bookings' : ''}`),
      );
    }
    const rows = await t.db
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('id', 'in', [first, second])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: first, status: 'requested' },
      { id: second, status: 'requested' },
    ]);
    const overrides = await t.db
      .selectFrom('departure_overrides')
      .selectAll()
      .where('listing_id', '=', w.tour.id)
      .execute();
    expect(overrides).toEqual([]);
    expect((await w.departures()).departures[0].status).toBe('available');
  });
});
