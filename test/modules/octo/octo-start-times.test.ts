import {
  zAvailability,
  zAvailabilityCalendar,
  zErrorBadRequest,
  zErrorInvalidAvailabilityId,
} from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { departurePath } from '../booking/departures-helpers.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';

// POST availability and availability/calendar of START_TIME products (decisions §19, §24): the departures,
// with the departures endpoint's remaining and status, in the vendor's zone across a DST change and at a
// 45-minute offset. The test clock starts at 2026-06-01T12:00Z, a Monday; Lisbon is at UTC+1 in summer.

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
let tour: ListingOut;
let call: ReturnType<typeof octo>;

const SAT_0900 = '2026-06-06T08:00:00.000Z';
const SAT_1430 = '2026-06-06T13:30:00.000Z';

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app, { time_zone: 'Europe/Lisbon' });
  customer = await registerCustomer(t.app);
  tour = await createAdventure(t.app, vendor, {
    public_id: 'caves',
    booking_mode: 'shared',
    capacity: 12,
    duration_minutes: 120,
    booking_cutoff_minutes: 60,
    schedule: [{ weekdays: ['sat'], start_times: ['09:00', '14:30'] }],
    price_categories: [
      { code: 'adult', label: 'Adult', price: '30.00' },
      { code: 'child', label: 'Child', price: '15.00' },
    ],
  });
  call = octo(api, (await newChannel(api, vendor)).apiKey);
});
afterAll(() => t?.close());

const ask = (body: object) =>
  call('POST', 'availability', { productId: 'caves', optionId: 'DEFAULT', ...body });
const availabilities = async (body: object) => {
  const res = await ask(body);
  expect(res.statusCode, res.body).toBe(200);
  return zAvailability.array().parse(res.json());
};
const book = (startsAt: string, adults: number) =>
  api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: { adventure_offering_id: tour.id, starts_at: startsAt, participants: { adult: adults } },
  });
const publicDepartures = async () =>
  (
    await api({
      method: 'GET',
      url: `/api/v1/adventrues/offerings/caves/departures/`,
      query: { from: '2026-06-06T00:00:00Z', to: '2026-06-07T00:00:00Z' },
    })
  ).json().departures as { remaining: number; status: string }[];

describe('a START_TIME product', () => {
  it('has one availability per departure of the local dates asked, in the vendor’s zone', async () => {
    expect(await availabilities({ localDateStart: '2026-06-05', localDateEnd: '2026-06-07' })).toEqual([
      {
        id: 'caves@2026-06-06T09:00:00+01:00',
        localDateTimeStart: '2026-06-06T09:00:00+01:00',
        localDateTimeEnd: '2026-06-06T11:00:00+01:00',
        utcCutoffAt: '2026-06-06T07:00:00Z',
        allDay: false,
        available: true,
        status: 'AVAILABLE',
        vacancies: 12,
        capacity: 12,
        maxUnits: 12,
        openingHours: [],
      },
      expect.objectContaining({
        id: 'caves@2026-06-06T14:30:00+01:00',
        localDateTimeEnd: '2026-06-06T16:30:00+01:00',
        utcCutoffAt: '2026-06-06T12:30:00Z',
        status: 'AVAILABLE',
      }),
    ]);
    expect(await availabilities({ localDate: '2026-06-07' })).toEqual([]);
  });

  it('follows the departures’ remaining and status as bookings take seats, and closes with the vendor', async () => {
    expect((await book(SAT_0900, 7)).statusCode).toBe(201);
    let [nine, half] = await availabilities({ localDate: '2026-06-06' });
    expect([nine.vacancies, nine.status, nine.available]).toEqual([5, 'LIMITED', true]);
    const [pub9, pub14] = await publicDepartures();
    expect([nine.vacancies, nine.status]).toEqual([pub9.remaining, pub9.status.toUpperCase()]);
    expect([half.vacancies, half.status]).toEqual([pub14.remaining, pub14.status.toUpperCase()]);
    // more units than are left: the departure stays LIMITED, but not available for them
    const [forSix] = await availabilities({ localDate: '2026-06-06', units: [{ id: 'adult', quantity: 6 }] });
    expect([forSix.status, forSix.available]).toEqual(['LIMITED', false]);
    expect((await book(SAT_0900, 5)).statusCode).toBe(201);
    const closed = await api({
      method: 'PATCH',
      url: departurePath(tour.id, SAT_1430),
      token: vendor.token,
      payload: { is_closed: true },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    [nine, half] = await availabilities({ localDate: '2026-06-06' });
    expect([nine.vacancies, nine.status, nine.available]).toEqual([0, 'SOLD_OUT', false]);
    expect([half.vacancies, half.status, half.available]).toEqual([0, 'CLOSED', false]);
  });

  it('closes a departure at its cutoff', async () => {
    t.clock.set('2026-06-13T07:00:00Z');
    const [nine, half] = await availabilities({ localDate: '2026-06-13' });
    expect([nine.status, nine.vacancies, half.status, half.vacancies]).toEqual([
      'CLOSED',
      0,
      'AVAILABLE',
      12,
    ]);
    t.clock.set('2026-06-01T12:00:00Z');
  });

  it('adds each date with departures up in the calendar: closed when none is open', async () => {
    const calendar = async () => {
      const res = await call('POST', 'availability/calendar', {
        productId: 'caves',
        optionId: 'DEFAULT',
        localDateStart: '2026-06-05',
        localDateEnd: '2026-06-13',
      });
      expect(res.statusCode, res.body).toBe(200);
      return zAvailabilityCalendar.array().parse(res.json());
    };
    // the 6th: 09:00 sold out, 14:30 closed by the vendor; the 13th: both free; no departure on the others
    expect(await calendar()).toEqual([
      {
        localDate: '2026-06-06',
        available: false,
        status: 'SOLD_OUT',
        vacancies: 0,
        capacity: 12,
        openingHours: [],
      },
      {
        localDate: '2026-06-13',
        available: true,
        status: 'AVAILABLE',
        vacancies: 24,
        capacity: 24,
        openingHours: [],
      },
    ]);
    t.clock.set('2026-06-13T14:00:00Z');
    expect((await calendar())[1]).toEqual({
      localDate: '2026-06-13',
      available: false,
      status: 'CLOSED',
      vacancies: 0,
      capacity: null,
      openingHours: [],
    });
    t.clock.set('2026-06-01T12:00:00Z');
  });

  it('takes exactly one way of asking: dates, a date, or ids (else BAD_REQUEST)', async () => {
    const [nine] = await availabilities({ localDate: '2026-06-13' });
    for (const body of [
      { localDateStart: '2026-06-13', localDateEnd: '2026-06-13', availabilityIds: [nine.id] },
      { localDate: '2026-06-13', localDateStart: '2026-06-13', localDateEnd: '2026-06-13' },
      { localDate: '2026-06-13', availabilityIds: [nine.id] },
    ]) {
      const res = await ask(body);
      expect(res.statusCode).toBe(400);
      expect(zErrorBadRequest.parse(res.json()).error).toBe('BAD_REQUEST');
    }
  });

  it('reads an availability back by its id, and refuses ids that are not its departures', async () => {
    const [nine] = await availabilities({ localDate: '2026-06-13' });
    expect(await availabilities({ availabilityIds: [nine.id] })).toEqual([nine]);
    for (const bad of [
      'caves@2026-06-13T09:05:00+01:00',
      'caves@2026-06-13',
      'kayak@2026-06-13T09:00:00+01:00',
      'nonsense',
    ]) {
      const res = await ask({ availabilityIds: [bad] });
      expect(res.statusCode, bad).toBe(400);
      expect(zErrorInvalidAvailabilityId.parse(res.json())).toMatchObject({
        error: 'INVALID_AVAILABILITY_ID',
        availabilityId: bad,
      });
    }
  });

  it('keeps the local time across the night Lisbon leaves summer time', async () => {
    const list = await availabilities({ localDateStart: '2026-10-24', localDateEnd: '2026-10-31' });
    expect(list).toHaveLength(4);
    const [before, , after] = list;
    expect([before.id, before.utcCutoffAt]).toEqual([
      'caves@2026-10-24T09:00:00+01:00',
      '2026-10-24T07:00:00Z',
    ]);
    expect([after.id, after.utcCutoffAt]).toEqual([
      'caves@2026-10-31T09:00:00+00:00',
      '2026-10-31T08:00:00Z',
    ]);
    expect(after.localDateTimeEnd).toBe('2026-10-31T11:00:00+00:00');
  });
});

describe('a START_TIME product at +05:45', () => {
  it('counts a departure by its local date, whatever the UTC date', async () => {
    const kathmandu = await registerVendor(t.app, { time_zone: 'Asia/Kathmandu' });
    await createAdventure(t.app, kathmandu, {
      public_id: 'dawn-raft',
      booking_mode: 'shared',
      capacity: 6,
      duration_minutes: 90,
      schedule: [{ weekdays: ['wed'], start_times: ['00:30', '07:15'] }],
    });
    const raft = octo(api, (await newChannel(api, kathmandu)).apiKey);
    const res = await raft('POST', 'availability', {
      productId: 'dawn-raft',
      optionId: 'DEFAULT',
      localDate: '2026-06-10',
    });
    const list = zAvailability.array().parse(res.json());
    expect(list.map((a) => [a.localDateTimeStart, a.utcCutoffAt, a.vacancies])).toEqual([
      ['2026-06-10T00:30:00+05:45', '2026-06-09T18:45:00Z', 6],
      ['2026-06-10T07:15:00+05:45', '2026-06-10T01:30:00Z', 6],
    ]);
  });
});
