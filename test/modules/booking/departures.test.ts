import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { freshToken, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { SATURDAYS, tourWorld } from './departures-helpers.ts';

// Decisions §19 end to end through the API: schedules on listings, the public departures, and booking
// requests bound to departures. The clock starts at Monday 2026-06-01T12:00Z; Lisbon is UTC+1.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const SAT_0900 = '2026-06-06T08:00:00.000Z';
const SAT_1430 = '2026-06-06T13:30:00.000Z';

describe('schedule and booking_cutoff_minutes on listings', () => {
  it('are stored, shown with every member, and kept by a PATCH of other fields', async () => {
    const w = await tourWorld(t, { booking_cutoff_minutes: 90 });
    expect(w.tour.schedule).toEqual([
      { weekdays: ['sat'], start_times: ['09:00', '14:30'], from_date: null, to_date: null, capacity: null },
    ]);
    expect(w.tour.booking_cutoff_minutes).toBe(90);
    const patched = await w.patchTour({ title: 'Sunset kayak tour' });
    expect(patched.json().schedule).toEqual(w.tour.schedule);
    const detail = await w.api({ method: 'GET', url: `/api/v1/adventrues/offerings/${w.tour.public_id}/` });
    expect(detail.json().schedule[0].start_times).toEqual(['09:00', '14:30']);
    expect(detail.json().booking_cutoff_minutes).toBe(90);
  });

  it('defaults to no schedule and no cutoff, on both kinds; equipment has no schedule', async () => {
    const vendor = await registerVendor(t.app);
    const item = await createEquipment(t.app, vendor, { booking_cutoff_minutes: 30 });
    expect(item.booking_cutoff_minutes).toBe(30);
    expect(item).not.toHaveProperty('schedule');
    const w = await tourWorld(t, { schedule: undefined });
    expect(w.tour.schedule).toEqual([]);
    expect(w.tour.booking_cutoff_minutes).toBe(0);
  });

  it('refuses a bad schedule with a 400 naming the member, and writes nothing', async () => {
    const w = await tourWorld(t);
    const patch = w.patchTour;
    const rule = { weekdays: ['mon'], start_times: ['09:00'] };
    const cases: [unknown, string][] = [
      [[{ ...rule, start_times: ['09:00', '09:00'] }], 'schedule.0.start_times'],
      [[rule, { ...rule, start_times: ['25:00'] }], 'schedule.1.start_times.0'],
      [[{ ...rule, start_times: [] }], 'schedule.0.start_times'],
      [[{ ...rule, weekdays: [] }], 'schedule.0.weekdays'],
      [[{ ...rule, weekdays: ['mon', 'mon'] }], 'schedule.0.weekdays'],
      [[{ ...rule, weekdays: ['monday'] }], 'schedule.0.weekdays.0'],
      [[{ ...rule, from_date: '2026-07-01', to_date: '2026-06-30' }], 'schedule.0.to_date'],
      [[{ ...rule, from_date: '2026-02-30' }], 'schedule.0.from_date'],
      [[{ ...rule, capacity: 0 }], 'schedule.0.capacity'],
      [[{ ...rule, capacity: 10_001 }], 'schedule.0.capacity'],
      [[{ start_times: ['09:00'] }], 'schedule.0.weekdays'],
      [Array.from({ length: 21 }, () => rule), 'schedule'],
      ['daily', 'schedule'],
    ];
    for (const [schedule, member] of cases) {
      const res = await patch({ schedule });
      expect(res.statusCode, JSON.stringify(schedule)).toBe(400);
      expect(res.json().code).toBe('invalid');
      expect(Object.keys(res.json().errors), JSON.stringify(schedule)).toContain(member);
    }
    for (const booking_cutoff_minutes of [-1, 43_201, 1.5]) {
      const res = await patch({ booking_cutoff_minutes });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['booking_cutoff_minutes']);
    }
    const stored = await t.db
      .selectFrom('listings')
      .select(['schedule'])
      .where('id', '=', w.tour.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.schedule)).toEqual(w.tour.schedule);
  });
});

describe('GET /adventrues/offerings/{public_id}/departures/', () => {
  it('lists the next 14 days of departures in the vendor zone, with seats and status', async () => {
    const w = await tourWorld(t, { booking_cutoff_minutes: 120 });
    const body = await w.departures();
    expect(body).toMatchObject({
      public_id: w.tour.public_id,
      time_zone: 'Europe/Lisbon',
      from: '2026-06-01T12:00:00.000Z',
      to: '2026-06-15T12:00:00.000Z',
      scheduled: true,
    });
    expect(body.departures).toEqual([
      {
        starts_at: SAT_0900,
        ends_at: '2026-06-06T10:00:00.000Z',
        local_date: '2026-06-06',
        local_time: '09:00',
        capacity: 12,
        remaining: 12,
        status: 'available',
        cutoff_at: '2026-06-06T06:00:00.000Z',
      },
      expect.objectContaining({ starts_at: SAT_1430, local_time: '14:30' }),
      expect.objectContaining({ starts_at: '2026-06-13T08:00:00.000Z', local_date: '2026-06-13' }),
      expect.objectContaining({ starts_at: '2026-06-13T13:30:00.000Z' }),
    ]);
  });

  it('takes from and to (an offset honoured), refuses bad ranges, and 404s unknown offerings', async () => {
    const w = await tourWorld(t);
    const body = await w.departures({ from: '2026-06-06T10:00:00+01:00', to: '2026-06-07T00:00:00Z' });
    expect(body.departures.map((d) => d.starts_at)).toEqual([SAT_1430]);
    const bad = async (query: Record<string, string>, field: string) => {
      const res = await w.api({
        method: 'GET',
        url: `/api/v1/adventrues/offerings/${w.tour.public_id}/departures/`,
        query,
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    };
    await bad({ from: '2026-06-10T00:00:00Z', to: '2026-06-10T00:00:00Z' }, 'to');
    await bad({ from: '2026-06-01T00:00:00Z', to: '2026-09-02T00:00:00Z' }, 'to');
    await bad({ from: 'tomorrow' }, 'from');
    const missing = await w.api({
      method: 'GET',
      url: '/api/v1/adventrues/offerings/no-such-tour/departures/',
    });
    expect(missing.statusCode).toBe(404);
    const alias = await w.api({
      method: 'GET',
      url: `/api/v1/adventures/offerings/${w.tour.public_id}/departures`,
    });
    expect(alias.json().departures).toHaveLength(4);
  });

  it('answers scheduled false and no departures for an unscheduled offering', async () => {
    const w = await tourWorld(t, { schedule: [] });
    expect(await w.departures()).toMatchObject({ scheduled: false, departures: [] });
  });

  it('gives the first rule its capacity where two rules make the same instant', async () => {
    const w = await tourWorld(t, {
      schedule: [
        { weekdays: ['sat'], start_times: ['09:00'], capacity: 4 },
        {
          weekdays: ['sat', 'sun'],
          start_times: ['09:00', '11:00'],
          from_date: '2026-06-07',
          to_date: '2026-06-07',
          capacity: 6,
        },
      ],
    });
    const list = (await w.departures({ to: '2026-06-08T00:00:00Z' })).departures;
    expect(list.map((d) => [d.local_date, d.local_time, d.capacity])).toEqual([
      ['2026-06-06', '09:00', 4],
      ['2026-06-07', '09:00', 6],
      ['2026-06-07', '11:00', 6],
    ]);
  });
});

describe('booking requests on a scheduled offering', () => {
  it('must start at a departure and end at its end; ends_at may be left out', async () => {
    const w = await tourWorld(t);
    const off = await w.request('2026-06-06T08:17:00.000Z');
    expect(off.statusCode).toBe(400);
    expect(Object.keys(off.json().errors)).toEqual(['starts_at']);
    const wrongEnd = await w.request(SAT_0900, { ends_at: '2026-06-06T11:00:00Z' });
    expect(wrongEnd.statusCode).toBe(400);
    expect(Object.keys(wrongEnd.json().errors)).toEqual(['ends_at']);
    const withEnd = await w.request('2026-06-06T09:00:00+01:00', { ends_at: '2026-06-06T10:00:00Z' });
    expect(withEnd.statusCode).toBe(201);
    const withoutEnd = await w.request(SAT_0900, { participants_count: 2 });
    expect(withoutEnd.statusCode).toBe(201);
    expect(withoutEnd.json()).toMatchObject({
      starts_at: SAT_0900,
      ends_at: '2026-06-06T10:00:00.000Z',
      total_price: '60.00',
    });
  });

  it('shares a shared departure’s seats: limited below half, sold out at zero, 409 beyond', async () => {
    const w = await tourWorld(t);
    expect((await w.request(SAT_0900, { participants_count: 7 })).statusCode).toBe(201);
    let first = (await w.departures()).departures[0];
    expect(first).toMatchObject({ remaining: 5, status: 'limited' });
    const over = await w.request(SAT_0900, { participants_count: 6 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      code: 'booking_conflict',
      detail: 'Only 5 of 12 seats are free on this departure (asked 6).',
    });
    expect((await w.request(SAT_0900, { participants_count: 5 })).statusCode).toBe(201);
    first = (await w.departures()).departures[0];
    expect(first).toMatchObject({ remaining: 0, status: 'sold_out' });
    const full = await w.request(SAT_0900);
    expect(full.json()).toMatchObject({ code: 'booking_conflict', detail: 'This departure is sold out.' });
    // the afternoon departure is untouched
    expect((await w.departures()).departures[1]).toMatchObject({ remaining: 12, status: 'available' });
  });

  it('counts seats per departure even where departures overlap in time', async () => {
    const w = await tourWorld(t, {
      capacity: 2,
      duration_minutes: 120,
      schedule: [{ weekdays: ['sat'], start_times: ['09:00', '10:00'] }],
    });
    expect((await w.request(SAT_0900, { participants_count: 2 })).statusCode).toBe(201);
    const ten = '2026-06-06T09:00:00.000Z';
    expect((await w.request(ten, { participants_count: 2 })).statusCode).toBe(201);
    const [nine, tenDeparture] = (await w.departures({ to: '2026-06-07T00:00:00Z' })).departures;
    expect([nine.remaining, tenDeparture.remaining]).toEqual([0, 0]);
  });

  it('takes one booking per private departure, of at most its capacity', async () => {
    const w = await tourWorld(t, { booking_mode: 'private', capacity: 6 });
    const tooMany = await w.request(SAT_0900, { participants_count: 7 });
    expect(tooMany.statusCode).toBe(400);
    expect(Object.keys(tooMany.json().errors)).toEqual(['participants_count']);
    expect((await w.request(SAT_0900, { participants_count: 6 })).statusCode).toBe(201);
    expect((await w.departures()).departures[0]).toMatchObject({
      capacity: 6,
      remaining: 0,
      status: 'sold_out',
    });
    expect((await w.departures()).departures[1]).toMatchObject({
      capacity: 6,
      remaining: 6,
      status: 'available',
    });
    expect((await w.request(SAT_0900)).statusCode).toBe(409);
  });

  it('bounds participants by the departure’s capacity, not the offering’s', async () => {
    const w = await tourWorld(t, { capacity: 4, schedule: [{ ...SATURDAYS[0], capacity: 20 }] });
    expect((await w.request(SAT_0900, { participants_count: 15 })).statusCode).toBe(201);
    const over = await w.request(SAT_1430, { participants_count: 21 });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors.participants_count[0]).toContain('20');
  });

  it('closes a departure at its cutoff: status closed, remaining 0, 409 saying booking has closed', async () => {
    const w = await tourWorld(t, { booking_cutoff_minutes: 120 });
    t.clock.set('2026-06-06T06:00:00.000Z');
    try {
      const customer = { ...w.customer, token: await freshToken(t.app, w.customer) };
      const [nine, half] = (await w.departures()).departures;
      expect(nine).toMatchObject({ status: 'closed', remaining: 0, cutoff_at: '2026-06-06T06:00:00.000Z' });
      expect(half).toMatchObject({ status: 'available', remaining: 12 });
      const res = await w.request(SAT_0900, {}, customer);
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toMatch(/^Booking has closed/);
      expect((await w.request(SAT_1430, {}, customer)).statusCode).toBe(201);
    } finally {
      t.clock.set('2026-06-01T12:00:00.000Z');
    }
  });

  it('applies the cutoff to equipment and unscheduled windows too', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const item = await createEquipment(t.app, vendor, { booking_cutoff_minutes: 1440 });
    const ask = (starts: string, ends: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/booking/bookings/request/',
        headers: { authorization: `Bearer ${customer.token}` },
        payload: { equipment_item_id: item.id, starts_at: starts, ends_at: ends },
      });
    const soon = await ask('2026-06-02T11:59:00Z', '2026-06-02T18:00:00Z');
    expect(soon.statusCode).toBe(409);
    expect(soon.json()).toMatchObject({ code: 'booking_conflict' });
    expect(soon.json().detail).toMatch(/^Booking has closed/);
    expect((await ask('2026-06-02T12:00:01Z', '2026-06-02T18:00:00Z')).statusCode).toBe(201);
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/v1/booking/availability/',
      query: {
        equipment_item_id: String(item.id),
        starts_at: '2026-06-02T11:00:00Z',
        ends_at: '2026-06-02T11:30:00Z',
      },
    });
    expect(check.json()).toMatchObject({ is_available: false, remaining: 0 });
  });

  it('treats an unavailable slot as closing every departure it overlaps', async () => {
    const w = await tourWorld(t);
    const slot = await w.api({
      method: 'POST',
      url: '/api/v1/booking/vendor/slots/',
      token: w.vendor.token,
      payload: {
        adventure_offering_id: w.tour.id,
        starts_at: '2026-06-06T09:30:00Z',
        ends_at: '2026-06-06T09:45:00Z',
        is_available: false,
      },
    });
    expect(slot.statusCode).toBe(201);
    const [nine, half] = (await w.departures()).departures;
    expect(nine).toMatchObject({ status: 'closed', remaining: 0 });
    expect(half.status).toBe('available');
    const res = await w.request(SAT_0900);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/^Booking has closed/);
  });

  it('answers the availability check for departures only', async () => {
    const w = await tourWorld(t);
    await w.request(SAT_0900, { participants_count: 10 });
    const check = async (query: Record<string, string>) =>
      (
        await w.api({
          method: 'GET',
          url: '/api/v1/booking/availability/',
          query: { adventure_offering_id: String(w.tour.id), ...query },
        })
      ).json();
    expect(await check({ starts_at: SAT_0900 })).toMatchObject({
      is_available: true,
      remaining: 2,
      conflicts: 1,
    });
    expect(await check({ starts_at: SAT_0900, participants_count: '3' })).toMatchObject({
      is_available: false,
      remaining: 2,
    });
    expect(await check({ starts_at: '2026-06-06T08:30:00Z' })).toMatchObject({
      is_available: false,
      remaining: 0,
      conflicts: 0,
    });
    expect(await check({ starts_at: SAT_1430, ends_at: '2026-06-06T16:00:00Z' })).toMatchObject({
      is_available: false,
    });
  });

  it('keeps bookings as they are when the schedule changes, and they still hold their seats', async () => {
    const w = await tourWorld(t);
    const booked = await w.request(SAT_0900, { participants_count: 8 });
    const patch = (schedule: unknown) => w.patchTour({ schedule });
    expect((await patch([{ weekdays: ['sun'], start_times: ['10:00'] }])).statusCode).toBe(200);
    const after = await w.api({
      method: 'GET',
      url: `/api/v1/booking/bookings/${booked.json().id}/`,
      token: w.customer.token,
    });
    expect(after.json()).toMatchObject({
      status: 'requested',
      starts_at: SAT_0900,
      ends_at: '2026-06-06T10:00:00.000Z',
    });
    expect((await w.departures()).departures[0].local_date).toBe('2026-06-07');
    expect((await patch(SATURDAYS)).statusCode).toBe(200);
    expect((await w.departures()).departures[0]).toMatchObject({ starts_at: SAT_0900, remaining: 4 });
  });
});

describe('available_from / available_to on scheduled offerings', () => {
  it('leave out an unscheduled listing whose cutoff has passed for the window, months ahead too', async () => {
    const vendor = await registerVendor(t.app);
    const item = await createEquipment(t.app, vendor, { booking_cutoff_minutes: 1440 });
    const found = async (from: string, to: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/equipment/items/',
          query: { available_from: from, available_to: to, vendor_slug: vendor.vendorSlug ?? '' },
        })
      )
        .json()
        .results.map((l: { id: number }) => l.id);
    expect(await found('2026-06-02T11:00:00Z', '2026-06-02T13:00:00Z')).toEqual([]);
    expect(await found('2026-06-02T12:00:01Z', '2026-06-02T13:00:00Z')).toEqual([item.id]);
    expect(await found('2026-09-02T12:00:00Z', '2026-09-03T13:00:00Z')).toEqual([item.id]);
  });

  it('keeps an offering with an open departure with a free seat starting in the range', async () => {
    const w = await tourWorld(t, { title: `Filter tour ${Date.now()}` });
    const found = async (from: string, to: string) => {
      const res = await w.api({
        method: 'GET',
        url: '/api/v1/adventrues/offerings/',
        query: { available_from: from, available_to: to, vendor_slug: w.vendor.vendorSlug ?? '' },
      });
      expect(res.statusCode).toBe(200);
      return res.json().results.map((l: { id: number }) => l.id);
    };
    expect(await found('2026-06-06T07:00:00Z', '2026-06-06T09:00:00Z')).toEqual([w.tour.id]);
    // a range begun in the past still holds the coming departure
    expect(await found('2026-05-01T00:00:00Z', '2026-06-06T09:00:00Z')).toEqual([w.tour.id]);
    // no departure starts between them
    expect(await found('2026-06-06T08:30:00Z', '2026-06-06T12:00:00Z')).toEqual([]);
    await w.request(SAT_0900, { participants_count: 12 });
    expect(await found('2026-06-06T07:00:00Z', '2026-06-06T09:00:00Z')).toEqual([]);
    expect(await found('2026-06-06T07:00:00Z', '2026-06-06T14:00:00Z')).toEqual([w.tour.id]);
  });
});
