import {
  zAvailability,
  zAvailabilityCalendar,
  zErrorBadRequest,
  zErrorInvalidOptionId,
  zErrorInvalidProductId,
  zErrorInvalidUnitId,
} from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';

// OPENING_HOURS products (decisions §20, §24): one availability per local date, the window of that date's
// opening hours (the whole date when the vendor keeps none), judged as the availability check judges a
// window; in a UTC+14 zone. And OCTO's 400s for bad input, each parsed with OCTO's schemas. The test
// clock starts at 2026-06-01T12:00Z, already Tuesday 2 June 02:00 in Kiritimati.

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
let kayak: ListingOut;
let call: ReturnType<typeof octo>;

const day = (from: string, to: string) => [[from, to]];
const HOURS = {
  mon: day('09:00', '18:00'),
  tue: day('09:00', '18:00'),
  wed: day('09:00', '18:00'),
  thu: day('09:00', '18:00'),
  fri: [
    ['09:00', '12:00'],
    ['14:00', '18:00'],
  ],
  sat: day('10:00', '14:00'),
  sun: [],
};

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app, { time_zone: 'Pacific/Kiritimati', opening_hours: HOURS });
  customer = await registerCustomer(t.app);
  kayak = await createEquipment(t.app, vendor, { public_id: 'kayak', quantity: 3 });
  call = octo(api, (await newChannel(api, vendor)).apiKey);
});
afterAll(() => t?.close());

const ask = (body: object, path = 'availability') =>
  call('POST', path, { productId: 'kayak', optionId: 'DEFAULT', ...body });

describe('an OPENING_HOURS product', () => {
  it('has one availability per local date with opening hours: the day’s hours; none on closed days', async () => {
    const res = await ask({ localDateStart: '2026-06-12', localDateEnd: '2026-06-15' });
    expect(res.statusCode, res.body).toBe(200);
    const list = zAvailability.array().parse(res.json());
    // Sunday the 14th is closed all day: nothing to sell
    expect(list.map((a) => a.id)).toEqual(['kayak@2026-06-12', 'kayak@2026-06-13', 'kayak@2026-06-15']);
    const [fri, sat] = list;
    expect(fri).toEqual({
      id: 'kayak@2026-06-12',
      localDateTimeStart: '2026-06-12T09:00:00+14:00',
      localDateTimeEnd: '2026-06-12T18:00:00+14:00',
      utcCutoffAt: '2026-06-11T19:00:00Z',
      allDay: true,
      available: true,
      status: 'AVAILABLE',
      vacancies: 3,
      capacity: 3,
      maxUnits: 3,
      openingHours: [
        { from: '09:00', to: '12:00' },
        { from: '14:00', to: '18:00' },
      ],
    });
    expect([sat.localDateTimeStart, sat.localDateTimeEnd, sat.status]).toEqual([
      '2026-06-13T10:00:00+14:00',
      '2026-06-13T14:00:00+14:00',
      'AVAILABLE',
    ]);
  });

  it('counts the units booked at any time of the day, as the availability check does', async () => {
    const booked = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        equipment_item_id: kayak.id,
        starts_at: '2026-06-11T20:00:00Z',
        ends_at: '2026-06-11T22:00:00Z',
        quantity: 2,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const [fri] = zAvailability.array().parse((await ask({ localDate: '2026-06-12' })).json());
    expect([fri.vacancies, fri.status, fri.available]).toEqual([1, 'LIMITED', true]);
    const check = await api({
      method: 'GET',
      url: '/api/v1/booking/availability/',
      query: {
        equipment_item_id: String(kayak.id),
        starts_at: '2026-06-11T19:00:00Z',
        ends_at: '2026-06-12T04:00:00Z',
      },
    });
    expect(check.json().remaining).toBe(fri.vacancies);
    const [forTwo] = zAvailability
      .array()
      .parse((await ask({ localDate: '2026-06-12', units: [{ id: 'unit', quantity: 2 }] })).json());
    expect(forTwo.available).toBe(false);
  });

  it('closes a date whose hours have begun, and adds the calendar up by date', async () => {
    const res = await ask({ localDateStart: '2026-06-01', localDateEnd: '2026-06-02' });
    const [monday, tuesday] = zAvailability.array().parse(res.json());
    // 09:00 on Monday 1 June in Kiritimati was 2026-05-31T19:00Z: begun
    expect([monday.status, tuesday.status]).toEqual(['CLOSED', 'AVAILABLE']);
    const calendar = await ask(
      { localDateStart: '2026-06-12', localDateEnd: '2026-06-14' },
      'availability/calendar',
    );
    expect(calendar.statusCode, calendar.body).toBe(200);
    expect(zAvailabilityCalendar.array().parse(calendar.json())).toEqual([
      {
        localDate: '2026-06-12',
        available: true,
        status: 'LIMITED',
        vacancies: 1,
        capacity: 3,
        openingHours: [
          { from: '09:00', to: '12:00' },
          { from: '14:00', to: '18:00' },
        ],
      },
      {
        localDate: '2026-06-13',
        available: true,
        status: 'AVAILABLE',
        vacancies: 3,
        capacity: 3,
        openingHours: [{ from: '10:00', to: '14:00' }],
      },
    ]);
  });

  it('takes the whole date when the vendor keeps no hours; a private charter is booked whole', async () => {
    const open = await registerVendor(t.app, { time_zone: 'UTC' });
    const charter = await createAdventure(t.app, open, { public_id: 'charter', capacity: 8 });
    const charterCall = octo(api, (await newChannel(api, open)).apiKey);
    const check = async () =>
      zAvailability.array().parse(
        (
          await charterCall('POST', 'availability', {
            productId: 'charter',
            optionId: 'DEFAULT',
            localDate: '2026-06-20',
          })
        ).json(),
      )[0];
    expect(await check()).toMatchObject({
      localDateTimeStart: '2026-06-20T00:00:00+00:00',
      localDateTimeEnd: '2026-06-21T00:00:00+00:00',
      openingHours: [{ from: '00:00', to: '24:00' }],
      status: 'AVAILABLE',
      vacancies: 8,
      capacity: 8,
    });
    const booked = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        adventure_offering_id: charter.id,
        starts_at: '2026-06-20T10:00:00Z',
        participants_count: 2,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    expect(await check()).toMatchObject({ status: 'SOLD_OUT', vacancies: 0, available: false });
  });
});

describe("OCTO's errors for bad input", () => {
  it('names a missing or unknown product, option or unit', async () => {
    const noProduct = await call('POST', 'availability', { optionId: 'DEFAULT', localDate: '2026-06-12' });
    expect(zErrorInvalidProductId.parse(noProduct.json())).toMatchObject({
      error: 'INVALID_PRODUCT_ID',
      productId: '',
    });
    for (const optionId of ['OTHER', undefined]) {
      const res = await ask({ optionId, localDate: '2026-06-12' });
      expect(res.statusCode).toBe(400);
      expect(zErrorInvalidOptionId.parse(res.json())).toMatchObject({
        error: 'INVALID_OPTION_ID',
        optionId: optionId ?? '',
      });
    }
    const unit = await ask({ localDate: '2026-06-12', units: [{ id: 'adult', quantity: 1 }] });
    expect(zErrorInvalidUnitId.parse(unit.json())).toMatchObject({
      error: 'INVALID_UNIT_ID',
      unitId: 'adult',
    });
  });

  it('answers BAD_REQUEST in its own body to every malformed request, never the platform’s', async () => {
    const cases: [string, () => ReturnType<typeof ask>][] = [
      ['no dates', () => ask({})],
      ['no end (calendar)', () => ask({ localDateStart: '2026-06-12' }, 'availability/calendar')],
      ['not a date', () => ask({ localDate: '2026-13-01' })],
      ['a number', () => ask({ localDateStart: 5, localDateEnd: '2026-06-12' })],
      ['end before start', () => ask({ localDateStart: '2026-06-12', localDateEnd: '2026-06-11' })],
      ['93 days', () => ask({ localDateStart: '2026-06-01', localDateEnd: '2026-09-01' })],
      ['units not a list', () => ask({ localDate: '2026-06-12', units: 'adult' })],
      ['negative units', () => ask({ localDate: '2026-06-12', units: [{ id: 'unit', quantity: -1 }] })],
      [
        'malformed JSON',
        () =>
          api({
            method: 'POST',
            url: '/octo/v1/availability',
            headers: { authorization: call.authorization, 'content-type': 'application/json' },
            payload: '{"productId": ',
          }),
      ],
      [
        'no body',
        () =>
          api({
            method: 'POST',
            url: '/octo/v1/availability',
            headers: { authorization: call.authorization },
          }),
      ],
    ];
    for (const [label, send] of cases) {
      const res = await send();
      expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
      const body = zErrorBadRequest.parse(res.json());
      expect(body.error, label).toBe('BAD_REQUEST');
      expect(body.errorMessage.length, label).toBeGreaterThan(3);
      expect(res.json(), label).not.toHaveProperty('detail');
    }
    const text = await api({
      method: 'POST',
      url: '/octo/v1/availability',
      headers: { authorization: call.authorization, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(zErrorBadRequest.parse(text.json()).error).toBe('BAD_REQUEST');
    const huge = await api({
      method: 'POST',
      url: '/octo/v1/availability',
      headers: { authorization: call.authorization, 'content-type': 'application/json' },
      payload: JSON.stringify({ productId: 'kayak', padding: 'x'.repeat(1_100_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(zErrorBadRequest.parse(huge.json()).error).toBe('BAD_REQUEST');
    const wrongMethod = await api({
      method: 'PUT',
      url: '/octo/v1/supplier',
      headers: { authorization: call.authorization },
    });
    expect(wrongMethod.statusCode).toBe(404);
    expect(zErrorBadRequest.parse(wrongMethod.json()).error).toBe('NOT_FOUND');
  });
});
