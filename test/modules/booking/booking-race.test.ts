import { beforeAll, describe, expect, it } from 'vitest';
import { peakUnits } from '../../../src/modules/booking/availability.ts';
import { vendorProfileId } from '../../helpers/booking-factories.ts';
import { countRows } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { postInTurns, raceFixture } from '../../helpers/race-servers.ts';
import { listingOf } from './setup.ts';

// Simultaneous overlapping requests against real listening servers: exactly one may win, on SQLite (a
// file database, as in production) and on PostgreSQL (TEST_DATABASE_URL). On SQLite a second server on
// the same file runs in a worker thread and gets every other request (see race-server.worker.ts).

const N = 50;
const fixture = raceFixture('booking-race-');
const send = postInTurns(fixture);
const post = (path: string, token: string, body: unknown) => send(`/api/v1/booking${path}`, token, body);
let vendor: Account;
let customers: Account[];

beforeAll(async () => {
  vendor = await registerVendor(fixture.t.app);
  customers = await Promise.all(Array.from({ length: N }, () => registerCustomer(fixture.t.app)));
}, 120_000);

async function activeBookingsOf(listingId: number) {
  return fixture.t.db
    .selectFrom('bookings')
    .select(['id', 'customer_id', 'starts_at', 'ends_at', 'status', 'quantity', 'participants_count'])
    .where('listing_id', '=', listingId)
    .execute();
}

/** The most units (quantity, or participants) the listing's stored bookings hold at one instant. */
async function storedPeak(listingId: number): Promise<number> {
  const rows = await activeBookingsOf(listingId);
  const holds = rows.map((r) => ({
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    units: r.quantity ?? r.participants_count ?? 1,
  }));
  return peakUnits({ startsAt: 0, endsAt: Number.MAX_SAFE_INTEGER }, holds);
}

describe(`${N} simultaneous overlapping booking requests`, () => {
  it('on an equipment item: exactly one 201, the rest 409 booking_conflict, one row', async () => {
    const kayak = await listingOf(fixture.t.db, vendor, { priceCents: 4500 });
    const start = Date.UTC(2026, 6, 1, 10);
    // every window contains 12:00-13:00, each customer asks for a slightly different one
    const results = await Promise.all(
      customers.map((c, i) =>
        post('/bookings/request/', c.token, {
          equipment_item_id: kayak,
          starts_at: new Date(start + i * 60_000).toISOString(),
          ends_at: new Date(start + 3 * 3_600_000 + i * 60_000).toISOString(),
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(N - 1);
    expect(refused.every((r) => r.body.code === 'booking_conflict')).toBe(true);
    const rows = await activeBookingsOf(kayak);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created[0].body.id, status: 'requested' });
    expect(created[0].body).toMatchObject({ total_price: '45.00', customer_id: rows[0].customer_id });
    expect(
      await fixture.t.db
        .selectFrom('booking_status_history')
        .select('id')
        .where('booking_id', '=', rows[0].id)
        .execute(),
    ).toHaveLength(1);
  });

  it('on an adventure covered by a slot, identical windows: exactly one wins', async () => {
    const tour = await listingOf(fixture.t.db, vendor, { kind: 'adventure', priceCents: 3000, capacity: 10 });
    await fixture.t.db
      .insertInto('availability_slots')
      .values({
        listing_id: tour,
        vendor_id: await vendorProfileId(fixture.t.db, vendor.id),
        starts_at: Date.UTC(2026, 6, 2, 8),
        ends_at: Date.UTC(2026, 6, 2, 18),
        is_available: 1,
        created_at: Date.UTC(2026, 5, 1),
        updated_at: Date.UTC(2026, 5, 1),
      })
      .execute();
    const before = await countRows(fixture.t.db, 'bookings');
    const results = await Promise.all(
      customers.map((c) =>
        post('/bookings/request/', c.token, {
          adventure_offering_id: tour,
          starts_at: '2026-07-02T09:00:00Z',
          ends_at: '2026-07-02T12:00:00Z',
          participants_count: 2,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(N - 1).fill(409)]);
    expect(results.find((r) => r.status === 201)!.body).toMatchObject({
      total_price: '60.00',
      participants_count: 2,
    });
    expect(await countRows(fixture.t.db, 'bookings')).toBe(before + 1);
    expect(await activeBookingsOf(tour)).toHaveLength(1);
  });

  it('lets non-overlapping requests all through while overlapping ones race', async () => {
    const kayak = await listingOf(fixture.t.db, vendor);
    // 10 distinct touching hours, each asked for by 5 customers at once
    const results = await Promise.all(
      customers.map((c, i) => {
        const hour = i % 10;
        return post('/bookings/request/', c.token, {
          equipment_item_id: kayak,
          starts_at: new Date(Date.UTC(2026, 6, 3, hour)).toISOString(),
          ends_at: new Date(Date.UTC(2026, 6, 3, hour + 1)).toISOString(),
        }).then((r) => ({ ...r, hour }));
      }),
    );
    const winners = results
      .filter((r) => r.status === 201)
      .map((r) => r.hour)
      .sort((a, b) => a - b);
    expect(winners).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(results.filter((r) => r.status === 409)).toHaveLength(N - 10);
    expect(await activeBookingsOf(kayak)).toHaveLength(10);
  });
});

// Units and seats (decisions §10): the unit check and the insert run under the listing's lock, so of many
// simultaneous requests exactly those that fit get through, on both databases.
const M = 200;

describe(`${M} simultaneous requests for units and seats`, () => {
  const hour = (day: number, h: number) => new Date(Date.UTC(2026, 7, day, h)).toISOString();
  const customerOf = (i: number) => customers[i % customers.length];

  it('on a 5-unit item, one window: exactly 5 x 201, the rest 409, 5 bookings stored', async () => {
    const kayaks = await listingOf(fixture.t.db, vendor, { priceCents: 4500, quantity: 5 });
    const results = await Promise.all(
      Array.from({ length: M }, (_, i) =>
        post('/bookings/request/', customerOf(i).token, {
          equipment_item_id: kayaks,
          starts_at: hour(1, 9),
          ends_at: hour(1, 12),
          quantity: 1,
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(M - 5);
    expect(refused.every((r) => r.body.code === 'booking_conflict')).toBe(true);
    expect(created.every((r) => r.body.quantity === 1 && r.body.total_price === '45.00')).toBe(true);
    const rows = await activeBookingsOf(kayaks);
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => r.id).sort()).toEqual(created.map((r) => r.body.id as number).sort());
    expect(await storedPeak(kayaks)).toBe(5);
  });

  it('on a shared adventure of 12 seats, requests of 2 and 3 seats: the winners fill what fits', async () => {
    const tour = await listingOf(fixture.t.db, vendor, {
      kind: 'adventure',
      priceCents: 3000,
      capacity: 12,
      bookingMode: 'shared',
    });
    const results = await Promise.all(
      Array.from({ length: M }, (_, i) =>
        post('/bookings/request/', customerOf(i).token, {
          adventure_offering_id: tour,
          starts_at: hour(2, 9), // ends_at: starts_at + the tour's 120 minutes
          participants_count: i % 2 === 0 ? 2 : 3,
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const seats = created.reduce((sum, r) => sum + (r.body.participants_count as number), 0);
    // at most 12, and no request of 2 could have fitted into what is left
    expect(seats).toBeLessThanOrEqual(12);
    expect(seats).toBeGreaterThanOrEqual(11);
    expect(results.filter((r) => r.status === 409)).toHaveLength(M - created.length);
    for (const r of created)
      expect(r.body).toMatchObject({
        ends_at: hour(2, 11),
        total_price: `${(r.body.participants_count as number) * 30}.00`,
      });
    const rows = await activeBookingsOf(tour);
    expect(rows).toHaveLength(created.length);
    expect(rows.reduce((sum, r) => sum + (r.participants_count ?? 0), 0)).toBe(seats);
    expect(await storedPeak(tour)).toBe(seats);
  });

  it('peak, not sum: windows that do not overlap each other all fill up, 5 units each', async () => {
    const kayaks = await listingOf(fixture.t.db, vendor, { quantity: 5 });
    // 10 touching hours, each asked for by 20 requests of 1 unit
    const results = await Promise.all(
      Array.from({ length: M }, (_, i) =>
        post('/bookings/request/', customerOf(i).token, {
          equipment_item_id: kayaks,
          starts_at: hour(3, i % 10),
          ends_at: hour(3, (i % 10) + 1),
        }).then((r) => ({ ...r, h: i % 10 })),
      ),
    );
    const perHour = Array.from(
      { length: 10 },
      (_, h) => results.filter((r) => r.h === h && r.status === 201).length,
    );
    expect(perHour).toEqual(Array(10).fill(5));
    expect(results.filter((r) => r.status === 409)).toHaveLength(M - 50);
    expect(await activeBookingsOf(kayaks)).toHaveLength(50); // 50 bookings on 5 units
    expect(await storedPeak(kayaks)).toBe(5);
  });

  it('mixed windows: a long window racing short ones never exceeds the units at any instant', async () => {
    const kayaks = await listingOf(fixture.t.db, vendor, { quantity: 5 });
    // 150 requests for 10 touching hours, 50 for the whole 10 hours
    const results = await Promise.all(
      Array.from({ length: M }, (_, i) => {
        const long = i % 4 === 3;
        const h = long ? -1 : i % 10;
        return post('/bookings/request/', customerOf(i).token, {
          equipment_item_id: kayaks,
          starts_at: hour(4, long ? 0 : h),
          ends_at: hour(4, long ? 10 : h + 1),
        }).then((r) => ({ ...r, h }));
      }),
    );
    const won = (h: number) => results.filter((r) => r.h === h && r.status === 201).length;
    const long = won(-1);
    // every hour was asked for more often than it has units: each ends exactly full
    for (let h = 0; h < 10; h++) expect(long + won(h), `hour ${h}`).toBe(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'booking_conflict')).toBe(
      true,
    );
    expect(await activeBookingsOf(kayaks)).toHaveLength(long + 10 * (5 - long));
    expect(await storedPeak(kayaks)).toBe(5);
  });

  it("a vendor lowering the quantity while requests race: the stored peak never exceeds the item's quantity", async () => {
    const kayaks = await listingOf(fixture.t.db, vendor, { quantity: 5 });
    const lower = fetch(`${fixture.servers.addresses[0]}/api/v1/equipment/vendor/items/${kayaks}/`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${vendor.token}` },
      body: JSON.stringify({ quantity: 2 }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
    const requests = Array.from({ length: 40 }, (_, i) =>
      post('/bookings/request/', customerOf(i).token, {
        equipment_item_id: kayaks,
        starts_at: hour(5, 9),
        ends_at: hour(5, 12),
      }),
    );
    const [edit, ...results] = await Promise.all([lower, ...requests]);
    const created = results.filter((r) => r.status === 201).length;
    expect(results.every((r) => r.status === 201 || r.body.code === 'booking_conflict')).toBe(true);
    const stored = await fixture.t.db
      .selectFrom('listings')
      .select('quantity')
      .where('id', '=', kayaks)
      .executeTakeFirstOrThrow();
    // the edit went through before more than 2 were booked, or it was refused and the 5 units stayed
    if (edit.status === 200) expect([stored.quantity, created]).toEqual([2, 2]);
    else {
      expect(edit).toMatchObject({ status: 409, body: { code: 'booking_conflict' } });
      expect([stored.quantity, created]).toEqual([5, 5]);
    }
    expect(await storedPeak(kayaks)).toBe(created);
  });
});
