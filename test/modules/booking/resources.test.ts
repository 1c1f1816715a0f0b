import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { quoter } from './prices-helpers.ts';
import { newResource, resourcesApi } from './resources-helpers.ts';
import { bookingRequester, transitioner } from './setup.ts';

// Shared resources (decisions §22) end to end: one boat for two tours, kayaks rented and paddled on a
// tour, wetsuits as an extra; CRUD, the 409s naming the resource, remaining, and the usage segments.
// The test clock starts at 2026-06-01T12:00Z.

let t: TestApp;
let api: Injector;
let vendor: Account;
let other: Account;
let customer: Account;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let res: ReturnType<typeof resourcesApi>;
let boat: number;
let kayaks: number;
let wetsuits: number;
let dolphins: ListingOut;
let caves: ListingOut;
let kayak: ListingOut;
let sunset: ListingOut;
let vendorSlug: string;

const DAY = '2026-07-01';

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  vendor = await registerVendor(t.app, { business_name: 'Lagos Sea Co' });
  other = await registerVendor(t.app, { business_name: 'Elsewhere' });
  vendorSlug = (await api({ method: 'GET', url: '/api/v1/accounts/me/', token: vendor.token })).json()
    .vendor_profile.slug;
  customer = await registerCustomer(t.app);
  res = resourcesApi(api, vendor);
  boat = await newResource(api, vendor, 'RIB boat', 1);
  kayaks = await newResource(api, vendor, 'kayak', 5);
  wetsuits = await newResource(api, vendor, 'wetsuit', 2);
  const tour = { booking_mode: 'shared', capacity: 12, duration_minutes: 120 };
  const onBoat = [{ resource_id: boat, per: 'departure', amount: 1 }];
  dolphins = await createAdventure(t.app, vendor, { ...tour, title: 'Dolphin watch', resources: onBoat });
  caves = await createAdventure(t.app, vendor, {
    ...tour,
    title: 'Sea caves',
    resources: onBoat,
    extras: [
      {
        code: 'wetsuit',
        label: 'Wetsuit',
        price: '5.00',
        per: 'booking',
        max_quantity: 5,
        resource_id: wetsuits,
      },
    ],
  });
  kayak = await createEquipment(t.app, vendor, {
    quantity: 20,
    buffer_minutes: 30,
    resources: [{ resource_id: kayaks, per: 'unit', amount: 1 }],
  });
  sunset = await createAdventure(t.app, vendor, {
    ...tour,
    title: 'Sunset paddle',
    resources: [{ resource_id: kayaks, per: 'participant', amount: 1 }],
  });
});
afterAll(() => t.close());

const at = (time: string) => `${DAY}T${time}:00.000Z`;
const tourAt = (listing: ListingOut, time: string, extra: Record<string, unknown> = {}) =>
  request(customer.token, {
    adventure_offering_id: listing.id,
    starts_at: at(time),
    participants_count: 2,
    ...extra,
  });
const rent = (from: string, to: string, quantity: number) =>
  request(customer.token, { equipment_item_id: kayak.id, starts_at: at(from), ends_at: at(to), quantity });

describe('resource CRUD', () => {
  it('creates, reads, lists and renames; another vendor gets 404', async () => {
    const created = await res.create({ name: '  Trailer ', quantity: 3 });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ name: 'Trailer', quantity: 3 });
    expect((await res.get(body.id)).json().name).toBe('Trailer');
    const listed = (await res.list()).json();
    expect(listed.results.map((r: { name: string }) => r.name)).toEqual([
      'RIB boat',
      'kayak',
      'wetsuit',
      'Trailer',
    ]);
    expect((await res.patch(body.id, { name: 'Big trailer' })).json()).toMatchObject({
      name: 'Big trailer',
      quantity: 3,
    });
    expect((await resourcesApi(api, other).get(body.id)).statusCode).toBe(404);
    expect((await resourcesApi(api, other).patch(body.id, { quantity: 9 })).statusCode).toBe(404);
    expect((await res.remove(body.id)).statusCode).toBe(204);
    expect((await res.get(body.id)).statusCode).toBe(404);
  });

  it('refuses bad bodies naming the member', async () => {
    const bad = await res.create({ name: 'x', quantity: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('quantity');
    const blank = await res.create({ name: '   ', quantity: 2 });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toHaveProperty('name');
    const big = await res.patch(boat, { quantity: 10001 });
    expect(big.statusCode).toBe(400);
    expect(big.json().errors).toHaveProperty('quantity');
  });

  it('a listing may only use the vendor’s own resources, named by member', async () => {
    const foreign = await newResource(api, other, 'Their boat', 1);
    const r = await api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${dolphins.id}/`,
      token: vendor.token,
      payload: {
        resources: [
          { resource_id: boat, per: 'departure', amount: 1 },
          { resource_id: foreign, per: 'booking', amount: 1 },
        ],
        extras: [
          { code: 'x', label: 'X', price: '1.00', per: 'booking', max_quantity: 1, resource_id: foreign },
        ],
      },
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(Object.keys(r.json().errors).sort()).toEqual(['extras.0.resource_id', 'resources.1.resource_id']);
    const shape = await api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${dolphins.id}/`,
      token: vendor.token,
      payload: { resources: [{ resource_id: boat, per: 'hour', amount: 0 }] },
    });
    expect(shape.statusCode).toBe(400);
    expect(shape.json().errors).toHaveProperty('resources.0.per');
    expect(dolphins.resources).toEqual([{ resource_id: boat, per: 'departure', amount: 1 }]);
  });
});

describe('one boat, two tours', () => {
  it('a departure takes the boat once; the other tour at an overlapping time is refused naming the boat', async () => {
    const first = await tourAt(dolphins, '09:00');
    expect(first.statusCode, first.body).toBe(201);
    const same = await tourAt(dolphins, '09:00');
    expect(same.statusCode, same.body).toBe(201);
    const clash = await tourAt(caves, '10:00');
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toBe('No RIB boat is free for that time: all 1 are in use.');
    const later = await tourAt(caves, '11:00');
    expect(later.statusCode, later.body).toBe(201);
    const quote = await quoter(api)({
      adventure_offering_id: caves.id,
      starts_at: at('10:30'),
      participants_count: 1,
    });
    expect(quote.json()).toMatchObject({ is_available: false, remaining: 0 });
    const check = await api({
      method: 'GET',
      url: '/api/v1/booking/availability/',
      query: { adventure_offering_id: String(caves.id), starts_at: at('08:00') },
    });
    expect(check.json()).toMatchObject({ is_available: false, remaining: 0 });
    const free = await api({
      method: 'GET',
      url: '/api/v1/booking/availability/',
      query: { adventure_offering_id: String(caves.id), starts_at: at('13:00') },
    });
    expect(free.json()).toMatchObject({ is_available: true, remaining: 12 });
  });

  it('the usage endpoint shows the boat’s use as consecutive segments', async () => {
    const usage = await res.usage(boat, { from: at('08:00'), to: at('14:00') });
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json()).toEqual({
      resource_id: boat,
      quantity: 1,
      from: at('08:00'),
      to: at('14:00'),
      segments: [
        { starts_at: at('08:00'), ends_at: at('09:00'), used: 0 },
        { starts_at: at('09:00'), ends_at: at('13:00'), used: 1 },
        { starts_at: at('13:00'), ends_at: at('14:00'), used: 0 },
      ],
    });
    const wide = await res.usage(boat, { from: at('08:00'), to: '2026-10-02T08:00:01Z' });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().errors).toHaveProperty('to');
  });

  it('quantity below the peak is refused; delete refused while used', async () => {
    const edit = await res.patch(kayaks, { quantity: 5 });
    expect(edit.statusCode).toBe(200);
    const del = await res.remove(boat);
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe('invalid_state');
  });
});

describe('the boat in lists and departures', () => {
  const listed = async (from: string, to: string) => {
    const r = await api({
      method: 'GET',
      url: '/api/v1/adventrues/offerings/',
      query: { available_from: at(from), available_to: at(to), vendor_slug: vendorSlug, page_size: '100' },
    });
    expect(r.statusCode, r.body).toBe(200);
    return (r.json().results as { id: number }[]).map((l) => l.id).sort((a, b) => a - b);
  };

  it('available_from/available_to leave out a listing whose resource is taken', async () => {
    expect(await listed('09:30', '10:00')).not.toContain(caves.id);
    expect(await listed('13:00', '14:00')).toContain(caves.id);
  });

  it('a scheduled tour on the boat shows the departures the boat cannot take as sold out', async () => {
    const scheduled = await createAdventure(t.app, vendor, {
      booking_mode: 'shared',
      capacity: 6,
      duration_minutes: 60,
      title: 'Harbour hop',
      schedule: [{ weekdays: ['wed'], start_times: ['08:00', '12:00', '13:00'] }],
      resources: [{ resource_id: boat, per: 'departure', amount: 1 }],
    });
    const r = await api({
      method: 'GET',
      url: `/api/v1/adventrues/offerings/${scheduled.public_id}/departures/`,
      query: { from: at('00:00'), to: at('23:59') },
    });
    const rows = (r.json().departures as { starts_at: string; remaining: number; status: string }[]).map(
      (d) => [d.starts_at, d.remaining, d.status],
    );
    expect(rows).toEqual([
      [at('08:00'), 6, 'available'],
      [at('12:00'), 0, 'sold_out'],
      [at('13:00'), 6, 'available'],
    ]);
    expect(await listed('11:30', '12:30')).not.toContain(scheduled.id);
    expect(await listed('12:30', '14:30')).toContain(scheduled.id);
  });
});

describe('kayaks rented and paddled', () => {
  it('rentals and the tour share five kayaks, buffer included', async () => {
    expect((await rent('14:00', '16:00', 3)).statusCode).toBe(201);
    const tooMany = await tourAt(sunset, '16:00', { participants_count: 3 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().detail).toBe('Not enough kayak for that time: only 2 of 5 are free.');
    expect((await tourAt(sunset, '16:30', { participants_count: 2 })).statusCode).toBe(201);
    const departures = await api({
      method: 'GET',
      url: '/api/v1/booking/availability/',
      query: { adventure_offering_id: String(sunset.id), starts_at: at('15:00') },
    });
    expect(departures.json()).toMatchObject({ is_available: true, remaining: 2 });
    const lower = await res.patch(kayaks, { quantity: 2 });
    expect(lower.statusCode).toBe(409);
    expect(lower.json().detail).toBe('quantity cannot be 2: current and future bookings use 3 at once.');
    const usage = (await res.usage(kayaks, { from: at('14:00'), to: at('19:00') })).json();
    expect(usage.segments).toEqual([
      { starts_at: at('14:00'), ends_at: at('16:30'), used: 3 },
      { starts_at: at('16:30'), ends_at: at('18:30'), used: 2 },
      { starts_at: at('18:30'), ends_at: at('19:00'), used: 0 },
    ]);
  });

  it('a cancelled booking gives its kayaks back', async () => {
    const booked = await rent('20:00', '21:00', 5);
    expect(booked.statusCode).toBe(201);
    expect((await rent('20:00', '21:00', 1)).statusCode).toBe(409);
    expect((await transition(customer.token, booked.json().id, 'cancel')).statusCode).toBe(200);
    expect((await rent('20:00', '21:00', 1)).statusCode).toBe(201);
  });
});

describe('wetsuits as an extra', () => {
  it('each chosen unit takes one wetsuit', async () => {
    const r = await tourAt(caves, '15:00', { extras: { wetsuit: 3 } });
    expect(r.statusCode).toBe(409);
    expect(r.json().detail).toBe('Not enough wetsuit for that time: only 2 of 2 are free.');
    expect((await tourAt(caves, '15:00', { extras: { wetsuit: 2 } })).statusCode).toBe(201);
    const q = await quoter(api)({
      adventure_offering_id: caves.id,
      starts_at: at('15:00'),
      participants_count: 1,
      extras: { wetsuit: 1 },
    });
    expect(q.json().is_available).toBe(false);
    // an extra's resource cannot be deleted either
    const del = await res.remove(wetsuits);
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe('invalid_state');
  });
});
