import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, transitioner } from './setup.ts';

// Rental periods through the API (decisions §20): rates priced by the lowest-price rule, duration limits,
// the vendor's opening hours in its time zone, and the turnaround buffer, on requests, quotes, the
// availability check and the list filter.

let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let vendor: Account;
let customer: Account;

const SHOP_RATES = [
  { duration_minutes: 60, price: '15.00' },
  { duration_minutes: 120, price: '25.00' },
  { duration_minutes: 240, price: '40.00' },
];
/** The paddleboard shop of issue 37: Lisbon, 09:00-18:00, closed on Sundays. */
const SHOP_HOURS = {
  mon: [['09:00', '18:00']],
  tue: [['09:00', '18:00']],
  wed: [['09:00', '18:00']],
  thu: [['09:00', '18:00']],
  fri: [['09:00', '18:00']],
  sat: [['09:00', '18:00']],
  sun: [],
};

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  vendor = await registerVendor(t.app, { time_zone: 'Europe/Lisbon', opening_hours: SHOP_HOURS });
  customer = await registerCustomer(t.app);
});
afterAll(() => t.close());

/** A Lisbon local time in July 2026 (UTC+1): 2026-07-{day}T{hh:mm}+01:00 as an instant. */
const lisbon = (day: number, time: string) =>
  new Date(`2026-07-${String(day).padStart(2, '0')}T${time}:00+01:00`).toISOString();
const board = (fields: Record<string, unknown> = {}) =>
  createEquipment(t.app, vendor, { price_per_day: '60.00', rates: SHOP_RATES, ...fields });
const patchProfile = (payload: Record<string, unknown>, token = vendor.token) =>
  api({ method: 'PATCH', url: '/api/v1/accounts/vendor-profile/me/', token, payload });
const quote = (payload: Record<string, unknown>) =>
  api({ method: 'POST', url: '/api/v1/booking/quote/', payload });
const check = (query: Record<string, string | number>) =>
  api({
    method: 'GET',
    url: `/api/v1/booking/availability/?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
  });

describe('rates', () => {
  it('shows the rates shortest first, with the limits and buffer', async () => {
    const item = await board({
      rates: [...SHOP_RATES].reverse(),
      min_duration_minutes: 60,
      max_duration_minutes: 10080,
      buffer_minutes: 60,
    });
    expect(item).toMatchObject({
      rates: SHOP_RATES,
      min_duration_minutes: 60,
      max_duration_minutes: 10080,
      buffer_minutes: 60,
    });
  });

  it('prices the worked example of §20 on requests and quotes (1.5 h 25.00, 5 h 60.00, 26 h 100.00)', async () => {
    const item = await board({ quantity: 5 });
    const windows: [string, string, string, string][] = [
      [lisbon(1, '09:00'), lisbon(1, '10:30'), '25.00', 'Board, 1 h 30 min'],
      [lisbon(2, '09:00'), lisbon(2, '14:00'), '60.00', 'Board, 5 h'],
      [lisbon(3, '09:00'), lisbon(4, '11:00'), '100.00', 'Board, 26 h'],
    ];
    for (const [starts_at, ends_at, price, label] of windows) {
      const body = { equipment_item_id: item.id, starts_at, ends_at };
      const q = await quote(body);
      expect(q.statusCode).toBe(200);
      expect(q.json()).toEqual({
        currency: 'usd',
        total_price: price,
        price_lines: [
          {
            kind: 'base',
            code: null,
            label: expect.stringContaining(label.slice(7)),
            quantity: 1,
            unit_price: price,
            amount: price,
          },
        ],
        is_available: true,
        remaining: 5,
      });
      const booked = await request(customer.token, body);
      expect(booked.statusCode).toBe(201);
      expect(booked.json().total_price).toBe(price);
    }
    // × quantity: two boards for 90 minutes
    const two = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: lisbon(6, '09:00'),
      ends_at: lisbon(6, '10:30'),
      quantity: 2,
    });
    expect(two.json().total_price).toBe('50.00');
    expect(
      (
        await quote({
          equipment_item_id: item.id,
          starts_at: lisbon(6, '09:00'),
          ends_at: lisbon(6, '10:30'),
          quantity: 2,
        })
      ).json(),
    ).toMatchObject({
      total_price: '50.00',
      price_lines: [{ quantity: 2, unit_price: '25.00', amount: '50.00' }],
      remaining: 3,
    });
  });

  it("without rates keeps the spec's price: days × price per day", async () => {
    const item = await createEquipment(t.app, vendor, { price_per_day: '60.00' });
    const res = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: lisbon(7, '09:00'),
      ends_at: lisbon(7, '10:00'),
    });
    expect(res.json().total_price).toBe('60.00');
  });

  it('refuses bad rates with a 400 naming the member', async () => {
    const bad = async (rates: unknown) => {
      const res = await api({
        method: 'PATCH',
        url: `/api/v1/equipment/vendor/items/${(await board()).id}/`,
        token: vendor.token,
        payload: { rates },
      });
      expect(res.statusCode).toBe(400);
      return Object.keys(res.json().errors);
    };
    expect(
      await bad([
        { duration_minutes: 60, price: '1' },
        { duration_minutes: 10, price: '2' },
      ]),
    ).toEqual(['rates.1.duration_minutes']);
    expect(
      await bad([
        { duration_minutes: 60, price: '1' },
        { duration_minutes: 60, price: '2' },
      ]),
    ).toEqual(['rates.1.duration_minutes']);
    expect(await bad([{ duration_minutes: 60, price: '1.234' }])).toEqual(['rates.0.price']);
    expect(await bad([{ duration_minutes: 43201, price: '1' }])).toEqual(['rates.0.duration_minutes']);
    expect(
      await bad(Array.from({ length: 21 }, (_, i) => ({ duration_minutes: 15 + i, price: '1' }))),
    ).toEqual(['rates']);
  });
});

describe('duration limits', () => {
  it('refuses a request shorter or longer than the limits (400 on ends_at) and answers unavailable', async () => {
    const item = await board({ min_duration_minutes: 60, max_duration_minutes: 10080 });
    const short = { equipment_item_id: item.id, starts_at: lisbon(8, '09:00'), ends_at: lisbon(8, '09:45') };
    const res = await request(customer.token, short);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ ends_at: ['A rental lasts at least 1 h.'] });
    expect((await quote(short)).statusCode).toBe(400);
    expect((await check(short)).json()).toMatchObject({ is_available: false, remaining: 0 });
    const long = await request(customer.token, { ...short, ends_at: lisbon(15, '09:01') });
    expect(long.json().errors).toEqual({ ends_at: ['A rental lasts at most 7 days.'] });
    const week = await request(customer.token, { ...short, ends_at: lisbon(15, '09:00') });
    expect(week.statusCode).toBe(201);
  });

  it('refuses limits out of range or min above max (400 naming the field)', async () => {
    const item = await board({ min_duration_minutes: 120 });
    const patch = (payload: Record<string, unknown>) =>
      api({
        method: 'PATCH',
        url: `/api/v1/equipment/vendor/items/${item.id}/`,
        token: vendor.token,
        payload,
      });
    expect(Object.keys((await patch({ max_duration_minutes: 60 })).json().errors)).toEqual([
      'max_duration_minutes',
    ]);
    expect(Object.keys((await patch({ min_duration_minutes: 14 })).json().errors)).toEqual([
      'min_duration_minutes',
    ]);
    expect(Object.keys((await patch({ max_duration_minutes: 525601 })).json().errors)).toEqual([
      'max_duration_minutes',
    ]);
    expect((await patch({ min_duration_minutes: null, max_duration_minutes: 60 })).json()).toMatchObject({
      min_duration_minutes: null,
      max_duration_minutes: 60,
    });
  });
});

describe('opening hours', () => {
  it("refuses a pick-up or return outside the vendor's local hours, naming them, and answers unavailable", async () => {
    const item = await board();
    const sunday = { equipment_item_id: item.id, starts_at: lisbon(5, '10:00'), ends_at: lisbon(6, '10:00') };
    const res = await request(customer.token, sunday);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      starts_at: ['Pick-up at 2026-07-05 10:00 (Europe/Lisbon) is outside the opening hours: sun closed.'],
    });
    // 08:30 Lisbon is 07:30 UTC: outside; return at 18:00 exactly is in time, 18:01 is not
    const early = { equipment_item_id: item.id, starts_at: lisbon(6, '08:30'), ends_at: lisbon(6, '18:00') };
    expect((await request(customer.token, early)).json().errors).toEqual({
      starts_at: [expect.stringContaining('mon 09:00–18:00')],
    });
    expect((await check(early)).json()).toMatchObject({ is_available: false, remaining: 0 });
    const late = { ...early, starts_at: lisbon(6, '09:00'), ends_at: lisbon(6, '18:01') };
    expect(Object.keys((await quote(late)).json().errors)).toEqual(['ends_at']);
    const atClosing = { ...early, starts_at: lisbon(6, '18:00'), ends_at: lisbon(7, '10:00') };
    expect(Object.keys((await request(customer.token, atClosing)).json().errors)).toEqual(['starts_at']);
    const inside = { ...early, starts_at: lisbon(6, '09:00') };
    expect((await check(inside)).json()).toMatchObject({ is_available: true, remaining: 1 });
    expect((await request(customer.token, inside)).statusCode).toBe(201);
    // a change of the hours applies at once, to the checks' cached listing too
    const sundayHours = { ...SHOP_HOURS, sun: [['09:00', '13:00']] };
    expect((await patchProfile({ opening_hours: sundayHours })).statusCode).toBe(200);
    const sundayMorning = { ...sunday, ends_at: lisbon(5, '13:00') };
    expect((await check(sundayMorning)).json()).toMatchObject({ is_available: true });
    // returned half an hour after Sunday's new closing time
    const pastClosing = { ...sunday, starts_at: lisbon(5, '12:30'), ends_at: lisbon(5, '13:30') };
    expect((await check(pastClosing)).json()).toMatchObject({ is_available: false });
    await patchProfile({ opening_hours: SHOP_HOURS });
  });

  it('shows the hours on the profile, refuses bad ones by day, and null opens again', async () => {
    const patch = patchProfile;
    const other = await registerVendor(t.app);
    const { sun: _, ...noSunday } = SHOP_HOURS;
    const res = await patch({ opening_hours: noSunday }, other.token);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['opening_hours.sun']);
    const overlap = await patch(
      {
        opening_hours: {
          ...SHOP_HOURS,
          mon: [
            ['09:00', '13:00'],
            ['12:00', '18:00'],
          ],
        },
      },
      other.token,
    );
    expect(Object.keys(overlap.json().errors)).toEqual(['opening_hours.mon']);
    const ok = await patch(
      {
        opening_hours: {
          ...SHOP_HOURS,
          fri: [
            ['14:00', '24:00'],
            ['08:00', '12:00'],
          ],
        },
      },
      other.token,
    );
    expect(ok.json().opening_hours.fri).toEqual([
      ['08:00', '12:00'],
      ['14:00', '24:00'],
    ]);
    const storefront = await api({ method: 'GET', url: `/api/v1/equipment/storefront/${other.vendorSlug}/` });
    expect(storefront.json().vendor.opening_hours.sun).toEqual([]);
    expect((await patch({ opening_hours: null }, other.token)).json().opening_hours).toBeNull();
  });
});

describe('turnaround buffer', () => {
  it('keeps the units taken until ends_at + buffer, for requests, checks and the list filter', async () => {
    const item = await board({ buffer_minutes: 60 });
    const first = await request(customer.token, {
      equipment_item_id: item.id,
      starts_at: lisbon(9, '12:00'),
      ends_at: lisbon(9, '14:00'),
    });
    expect(first.statusCode).toBe(201);
    const during = { equipment_item_id: item.id, starts_at: lisbon(9, '14:30'), ends_at: lisbon(9, '16:00') };
    expect((await check(during)).json()).toMatchObject({ is_available: false, remaining: 0, conflicts: 1 });
    expect((await quote(during)).json()).toMatchObject({
      is_available: false,
      remaining: 0,
      total_price: '25.00',
    });
    const refused = await request(customer.token, during);
    expect(refused.statusCode).toBe(409);
    // a request's own buffer counts too: ending at 11:30 it would hold until 12:30
    const before = { equipment_item_id: item.id, starts_at: lisbon(9, '10:00'), ends_at: lisbon(9, '11:30') };
    expect((await check(before)).json()).toMatchObject({ is_available: false, remaining: 0 });
    expect((await check({ ...before, ends_at: lisbon(9, '11:00') })).json()).toMatchObject({
      is_available: true,
    });
    const after = { ...during, starts_at: lisbon(9, '15:00') };
    expect((await check(after)).json()).toMatchObject({ is_available: true, remaining: 1 });
    const list = async (from: string, to: string) => {
      const res = await api({
        method: 'GET',
        url: `/api/v1/equipment/items/?vendor_slug=${vendor.vendorSlug}&available_from=${encodeURIComponent(from)}&available_to=${encodeURIComponent(to)}&page_size=100`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().results.map((r: { id: number }) => r.id);
    };
    expect(await list(lisbon(9, '14:30'), lisbon(9, '16:00'))).not.toContain(item.id);
    expect(await list(lisbon(9, '15:00'), lisbon(9, '16:00'))).toContain(item.id);
    // a window ending 30 minutes before the booking: its own buffer reaches into it
    expect(await list(lisbon(9, '10:00'), lisbon(9, '11:30'))).not.toContain(item.id);
    expect(await list(lisbon(9, '10:00'), lisbon(9, '11:00'))).toContain(item.id);
    // nor a window the shop is closed for, or one outside the item's limits
    expect(await list(lisbon(9, '07:00'), lisbon(9, '08:00'))).not.toContain(item.id);
    const limited = await board({ min_duration_minutes: 120 });
    expect(await list(lisbon(9, '10:00'), lisbon(9, '11:00'))).not.toContain(limited.id);
    expect(await list(lisbon(9, '10:00'), lisbon(9, '12:00'))).toContain(limited.id);
    // declining frees the window and its buffer
    await transition(vendor.token, first.json().id, 'decline');
    expect((await check(during)).json()).toMatchObject({ is_available: true });
  });

  it('applies a buffer edit to existing bookings, refusing one their units would no longer fit (409)', async () => {
    const item = await board({ quantity: 1 });
    const patch = (buffer_minutes: number) =>
      api({
        method: 'PATCH',
        url: `/api/v1/equipment/vendor/items/${item.id}/`,
        token: vendor.token,
        payload: { buffer_minutes },
      });
    for (const [from, to] of [
      ['09:00', '11:00'],
      ['11:30', '13:00'],
    ])
      expect(
        (
          await request(customer.token, {
            equipment_item_id: item.id,
            starts_at: lisbon(10, from),
            ends_at: lisbon(10, to),
          })
        ).statusCode,
      ).toBe(201);
    const raised = await patch(45);
    expect(raised.statusCode).toBe(409);
    expect(raised.json().detail).toBe(
      'buffer_minutes cannot be 45: current and future bookings would then hold 2 units at once.',
    );
    expect((await patch(30)).json().buffer_minutes).toBe(30);
    // the current buffer counts for the bookings made before it: 13:00 + 30 min
    const next = { equipment_item_id: item.id, starts_at: lisbon(10, '13:15'), ends_at: lisbon(10, '14:00') };
    expect((await check(next)).json()).toMatchObject({ is_available: false });
    expect((await check({ ...next, starts_at: lisbon(10, '13:30') })).json()).toMatchObject({
      is_available: true,
    });
    expect((await patch(1441)).statusCode).toBe(400);
  });
});
