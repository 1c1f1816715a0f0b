import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, transitioner } from './setup.ts';

// Units and seats (decisions §10) through the API: equipment quantity, shared adventures, the peak rule,
// the availability check's `remaining`, the list filter, and the vendor's edits of a listing's limit.

let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let vendor: Account;
let customer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  vendor = await registerVendor(t.app, { business_name: 'Lagos Kayak Hire' });
  customer = await registerCustomer(t.app);
});
afterAll(() => t.close());

/** 2026-07-{day}T{hour}:00Z */
const at = (day: number, hour: number) => new Date(Date.UTC(2026, 6, day, hour)).toISOString();
const kayaks = (quantity: number, price = '45.00') =>
  createEquipment(t.app, vendor, { quantity, price_per_day: price });
const sharedTour = (capacity: number) =>
  createAdventure(t.app, vendor, { booking_mode: 'shared', capacity, price_per_person: '30.00' });

async function check(query: string) {
  return api({ method: 'GET', url: `/api/v1/booking/availability/?${query}` });
}

describe('equipment quantity on bookings', () => {
  it('books several units, priced days × price per day × quantity, and shows quantity', async () => {
    const item = await kayaks(10);
    const res = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(1, 10),
      ends_at: at(3, 12), // 50 hours: 3 days
      quantity: 4,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ quantity: 4, participants_count: null, total_price: '540.00' });
    const row = await t.db
      .selectFrom('bookings')
      .select(['quantity', 'total_price_cents'])
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ quantity: 4, total_price_cents: 54000 });
  });

  it('defaults quantity to 1 and stores null for adventures', async () => {
    const item = await kayaks(3);
    const one = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(5, 9),
      ends_at: at(5, 10),
    });
    expect(one.json()).toMatchObject({ quantity: 1, total_price: '45.00' });
    const tour = await createAdventure(t.app, vendor);
    const seat = await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(5, 9),
      ends_at: at(5, 11),
      participants_count: 2,
    });
    expect(seat.json()).toMatchObject({ quantity: null, participants_count: 2, total_price: '70.00' });
  });

  it('refuses more units than the item has, quantity 0, and quantity for an adventure (400 on quantity)', async () => {
    const item = await kayaks(3);
    const tour = await createAdventure(t.app, vendor);
    const cases = [
      { equipment_item_id: item.id, starts_at: at(6, 9), ends_at: at(6, 10), quantity: 4 },
      { equipment_item_id: item.id, starts_at: at(6, 9), ends_at: at(6, 10), quantity: 0 },
      { equipment_item_id: item.id, starts_at: at(6, 9), ends_at: at(6, 10), quantity: 'two' },
      { adventure_offering_id: tour.id, starts_at: at(6, 9), ends_at: at(6, 10), quantity: 1 },
    ];
    for (const payload of cases) {
      const res = await request(customer.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('invalid');
      expect(Object.keys(res.json().errors)).toEqual(['quantity']);
    }
    const bookings = await t.db
      .selectFrom('bookings')
      .select('id')
      .where('listing_id', 'in', [item.id, tour.id])
      .execute();
    expect(bookings).toEqual([]);
  });

  it('names quantity when the units push the total over 99,999,999.99', async () => {
    const item = await kayaks(10_000, '50000.00');
    const over = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(7, 9),
      ends_at: at(7, 10),
      quantity: 2000, // 2000 × 50,000.00 = 100,000,000.00
    });
    expect(over.statusCode).toBe(400);
    expect(Object.keys(over.json().errors)).toEqual(['quantity']);
    const under = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(7, 9),
      ends_at: at(7, 10),
      quantity: 1999,
    });
    expect(under.json()).toMatchObject({ total_price: '99950000.00', quantity: 1999 });
  });
});

describe('the peak rule', () => {
  it('the worked example: 09-11 × 5 and 13-15 × 5 fit 5 units, 10-14 × 1 conflicts with both', async () => {
    const item = await kayaks(5);
    const morning = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(8, 9),
      ends_at: at(8, 11),
      quantity: 5,
    });
    const afternoon = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(8, 13),
      ends_at: at(8, 15),
      quantity: 5,
    });
    expect([morning.statusCode, afternoon.statusCode]).toEqual([201, 201]);
    const across = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(8, 10),
      ends_at: at(8, 14),
      quantity: 1,
    });
    expect(across.statusCode).toBe(409);
    expect(across.json()).toEqual({
      code: 'booking_conflict',
      detail: 'All 5 units are taken for that window.',
    });
    const between = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(8, 11),
      ends_at: at(8, 13),
      quantity: 5,
    });
    expect(between.statusCode).toBe(201);
    // once the morning booking is declined its units are free again
    await transition(vendor.token, morning.json().id, 'decline');
    const again = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(8, 9),
      ends_at: at(8, 11),
      quantity: 5,
    });
    expect(again.statusCode).toBe(201);
  });

  it('says how many units are short and accepts what still fits', async () => {
    const item = await kayaks(5);
    await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(9, 9),
      ends_at: at(9, 12),
      quantity: 3,
    });
    const tooMany = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(9, 11),
      ends_at: at(9, 13),
      quantity: 3,
    });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toBe('Only 2 of 5 units are free for that window.');
    const fits = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(9, 11),
      ends_at: at(9, 13),
      quantity: 2,
    });
    expect(fits.statusCode).toBe(201);
  });

  it('keeps the spec rule for a single item: one booking per overlapping window', async () => {
    const item = await kayaks(1);
    await request(customer.token, { equipment_item_id: item.id, starts_at: at(10, 9), ends_at: at(10, 12) });
    const res = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(10, 11),
      ends_at: at(10, 13),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('The requested window overlaps another booking.');
  });
});

describe('shared adventures', () => {
  it('sell seats up to the capacity at every instant; private ones take one booking', async () => {
    const tour = await sharedTour(12);
    const seats = [5, 4, 3];
    for (const n of seats) {
      const res = await request(customer.token, {
        adventure_offering_id: tour.id,
        starts_at: at(11, 9),
        participants_count: n,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        participants_count: n,
        ends_at: at(11, 11), // starts_at + 120 minutes
        total_price: `${n * 30}.00`,
      });
    }
    const full = await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(11, 10),
      ends_at: at(11, 12),
      participants_count: 1,
    });
    expect(full.statusCode).toBe(409);
    expect(full.json().detail).toBe('All 12 seats are taken for that window.');
    const later = await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(11, 11),
      participants_count: 12,
    });
    expect(later.statusCode).toBe(201);

    const privateTour = await createAdventure(t.app, vendor, { capacity: 12 });
    expect(privateTour.booking_mode).toBe('private');
    await request(customer.token, {
      adventure_offering_id: privateTour.id,
      starts_at: at(11, 9),
      participants_count: 2,
    });
    const second = await request(customer.token, {
      adventure_offering_id: privateTour.id,
      starts_at: at(11, 9),
      participants_count: 2,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toBe('The requested window overlaps another booking.');
  });

  it('needs ends_at for equipment and a duration for an adventure without one', async () => {
    const item = await kayaks(2);
    const res = await request(customer.token, { equipment_item_id: item.id, starts_at: at(12, 9) });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['ends_at']);
    const tour = await sharedTour(4);
    await t.db.updateTable('listings').set({ duration_minutes: null }).where('id', '=', tour.id).execute();
    const noDuration = await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(12, 9),
    });
    expect(noDuration.statusCode).toBe(400);
    expect(Object.keys(noDuration.json().errors)).toEqual(['ends_at']);
  });
});

describe('the availability check', () => {
  it('answers remaining (the minimum free over the window) and accounts for quantity', async () => {
    const item = await kayaks(5);
    await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(13, 9),
      ends_at: at(13, 11),
      quantity: 2,
    });
    await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(13, 10),
      ends_at: at(13, 12),
      quantity: 1,
    });
    const q = (from: string, to: string, extra = '') =>
      check(`equipment_item_id=${item.id}&starts_at=${from}&ends_at=${to}${extra}`).then((r) => r.json());
    expect(await q(at(13, 9), at(13, 12))).toMatchObject({ is_available: true, remaining: 2, conflicts: 2 });
    expect(await q(at(13, 9), at(13, 12), '&quantity=2')).toMatchObject({ is_available: true, remaining: 2 });
    expect(await q(at(13, 9), at(13, 12), '&quantity=3')).toMatchObject({
      is_available: false,
      remaining: 2,
    });
    expect(await q(at(13, 11), at(13, 13))).toMatchObject({ is_available: true, remaining: 4 });
    expect(await q(at(13, 12), at(13, 14))).toMatchObject({ is_available: true, remaining: 5, conflicts: 0 });
    const tooMany = await check(
      `equipment_item_id=${item.id}&starts_at=${at(13, 9)}&ends_at=${at(13, 10)}&quantity=6`,
    );
    expect(tooMany.statusCode).toBe(400);
    expect(Object.keys(tooMany.json().errors)).toEqual(['quantity']);
    const bad = await check(
      `equipment_item_id=${item.id}&starts_at=${at(13, 9)}&ends_at=${at(13, 10)}&quantity=x`,
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['quantity']);
  });

  it('counts seats of a shared adventure, 1 or 0 for a private one, 0 in the past or blocked', async () => {
    const tour = await sharedTour(10);
    await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(14, 9),
      participants_count: 7,
    });
    const seats = await check(
      `adventure_offering_id=${tour.id}&starts_at=${at(14, 10)}&participants_count=3`,
    );
    expect(seats.json()).toMatchObject({ is_available: true, remaining: 3, ends_at: at(14, 12) });
    const four = await check(`adventure_offering_id=${tour.id}&starts_at=${at(14, 10)}&participants_count=4`);
    expect(four.json()).toMatchObject({ is_available: false, remaining: 3 });
    const over = await check(
      `adventure_offering_id=${tour.id}&starts_at=${at(14, 10)}&participants_count=11`,
    );
    expect(over.statusCode).toBe(400);
    expect(Object.keys(over.json().errors)).toEqual(['participants_count']);

    const privateTour = await createAdventure(t.app, vendor);
    const free = await check(`adventure_offering_id=${privateTour.id}&starts_at=${at(14, 9)}`);
    expect(free.json()).toMatchObject({ is_available: true, remaining: 1 });
    await request(customer.token, { adventure_offering_id: privateTour.id, starts_at: at(14, 9) });
    const taken = await check(`adventure_offering_id=${privateTour.id}&starts_at=${at(14, 10)}`);
    expect(taken.json()).toMatchObject({ is_available: false, remaining: 0 });

    const past = await check(`adventure_offering_id=${tour.id}&starts_at=2026-05-01T09:00:00Z`);
    expect(past.json()).toMatchObject({ is_available: false, remaining: 0 });
    await api({
      method: 'POST',
      url: '/api/v1/booking/vendor/slots/',
      token: vendor.token,
      payload: {
        adventure_offering_id: tour.id,
        starts_at: at(15, 9),
        ends_at: at(15, 10),
        is_available: false,
      },
    });
    const blocked = await check(`adventure_offering_id=${tour.id}&starts_at=${at(15, 9)}`);
    expect(blocked.json()).toMatchObject({ is_available: false, remaining: 0, conflicts: 1 });
  });
});

describe('available_from / available_to keep listings with a unit or seat free', () => {
  it('keeps a multi-unit item until its last unit is taken for the window', async () => {
    const item = await createEquipment(t.app, vendor, { quantity: 2, title: 'Filter kayak' });
    const single = await createEquipment(t.app, vendor, { title: 'Filter kayak' });
    const listed = async () => {
      const res = await api({
        method: 'GET',
        url: `/api/v1/equipment/items/?vendor_slug=${vendor.vendorSlug}&available_from=${at(16, 10)}&available_to=${at(16, 12)}&page_size=100`,
      });
      return (res.json().results as { id: number }[])
        .map((l) => l.id)
        .filter((id) => [item.id, single.id].includes(id));
    };
    expect(await listed()).toEqual([single.id, item.id]);
    await request(customer.token, { equipment_item_id: item.id, starts_at: at(16, 9), ends_at: at(16, 11) });
    await request(customer.token, {
      equipment_item_id: single.id,
      starts_at: at(16, 11),
      ends_at: at(16, 12),
    });
    expect(await listed()).toEqual([item.id]);
    await request(customer.token, { equipment_item_id: item.id, starts_at: at(16, 11), ends_at: at(16, 13) });
    expect(await listed()).toEqual([item.id]); // 1 unit held 9-11, another 11-13: never 2 at once
    await request(customer.token, { equipment_item_id: item.id, starts_at: at(16, 10), ends_at: at(16, 12) });
    expect(await listed()).toEqual([]);
  });
});

describe("a vendor's edits of a listing's limit", () => {
  const patch = (kind: 'equipment' | 'adventure', id: number, payload: Record<string, unknown>) =>
    api({
      method: 'PATCH',
      url:
        kind === 'equipment'
          ? `/api/v1/equipment/vendor/items/${id}/`
          : `/api/v1/adventrues/vendor/offerings/${id}/`,
      token: vendor.token,
      payload,
    });

  it('refuses a quantity below the peak of current and future bookings (409), allows it down to the peak', async () => {
    const item = await kayaks(5);
    await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(17, 9),
      ends_at: at(17, 11),
      quantity: 2,
    });
    await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(17, 10),
      ends_at: at(17, 12),
      quantity: 1,
    });
    await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(17, 13),
      ends_at: at(17, 14),
      quantity: 2,
    });
    const res = await patch('equipment', item.id, { quantity: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'booking_conflict',
      detail: 'quantity cannot be 2: current and future bookings hold 3 units at once.',
    });
    const ok = await patch('equipment', item.id, { quantity: 3 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().quantity).toBe(3);
    const outOfRange = await patch('equipment', item.id, { quantity: 10_001 });
    expect(outOfRange.statusCode).toBe(400);
    expect(Object.keys(outOfRange.json().errors)).toEqual(['quantity']);
  });

  it('refuses shared → private while two bookings overlap, and a capacity below the seats held', async () => {
    const tour = await sharedTour(10);
    await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(18, 9),
      participants_count: 4,
    });
    await request(customer.token, {
      adventure_offering_id: tour.id,
      starts_at: at(18, 10),
      participants_count: 3,
    });
    const toPrivate = await patch('adventure', tour.id, { booking_mode: 'private' });
    expect(toPrivate.statusCode).toBe(409);
    expect(toPrivate.json().detail).toBe(
      'booking_mode cannot be private: 2 current or future bookings overlap.',
    );
    const lower = await patch('adventure', tour.id, { capacity: 6 });
    expect(lower.statusCode).toBe(409);
    expect(lower.json().detail).toBe(
      'capacity cannot be 6: current and future bookings hold 7 seats at once.',
    );
    expect((await patch('adventure', tour.id, { capacity: 7 })).json()).toMatchObject({
      capacity: 7,
      booking_mode: 'shared',
    });
  });

  it('ignores past bookings and freed windows', async () => {
    const item = await kayaks(4);
    const held = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: at(19, 9),
      ends_at: at(19, 11),
      quantity: 4,
    });
    await transition(customer.token, held.json().id, 'cancel');
    expect((await patch('equipment', item.id, { quantity: 1 })).statusCode).toBe(200);
  });

  it('needs a capacity for a shared adventure and shows the new fields with their defaults', async () => {
    const tour = await createAdventure(t.app, vendor);
    expect(tour).toMatchObject({ booking_mode: 'private', capacity: 8 });
    await t.db.updateTable('listings').set({ capacity: null }).where('id', '=', tour.id).execute();
    const shared = await patch('adventure', tour.id, { booking_mode: 'shared' });
    expect(shared.statusCode).toBe(400);
    expect(Object.keys(shared.json().errors)).toEqual(['capacity']);
    const bad = await patch('adventure', tour.id, { booking_mode: 'public' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['booking_mode']);
    const item = await createEquipment(t.app, vendor);
    expect(item.quantity).toBe(1);
    const publicView = await api({ method: 'GET', url: `/api/v1/equipment/items/${item.public_id}/` });
    expect(publicView.json().quantity).toBe(1);
  });
});
