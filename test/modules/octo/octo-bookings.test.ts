import {
  zBooking,
  zErrorBadRequest,
  zErrorInvalidAvailabilityId,
  zErrorInvalidBookingUuid,
  zErrorInvalidOptionId,
  zErrorInvalidProductId,
  zErrorInvalidUnitId,
  zErrorUnprocessableEntity,
} from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure } from '../../helpers/catalog-factories.ts';
import { registerVendor } from '../../helpers/factories.ts';
import {
  DEPARTURE_UTC,
  departureOn as departureOf,
  type OctoWorld,
  octoWorld,
  units,
} from './octo-fixtures.ts';

// OCTO's booking endpoints (decisions §24): reserve as a hold through the platform's own booking path,
// idempotent by the reseller's uuid; confirm, extend, cancel; what the platform's views show of a channel
// booking. Every OCTO answer is checked against the OCTO project's own schemas (@octocloud/types).

let t: TestApp;
let api: Injector;
let w: OctoWorld;
const NOW = '2026-06-01T12:00:00.000Z';
const departureOn = (day: number) => departureOf(w, day);

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: 'https://book.example' } });
  api = injector(t.app);
  w = await octoWorld(t, api);
});
afterAll(() => t?.close());

const reserveBody = (overrides: Record<string, unknown> = {}) => ({
  productId: w.tour.public_id,
  optionId: 'DEFAULT',
  availabilityId: departureOn(10),
  unitItems: units('adult', 'adult', 'child'),
  ...overrides,
});

async function reserve(overrides: Record<string, unknown> = {}) {
  const res = await w.call('POST', 'bookings', reserveBody(overrides));
  expect(res.statusCode, res.body).toBe(200);
  return zBooking.parse(res.json());
}

const platformView = async (id: string) =>
  (await api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: w.vendor.token })).json();

describe('POST bookings (reserve)', () => {
  it('holds the departure for 30 minutes as a requested booking priced by category', async () => {
    t.clock.set(NOW);
    const booking = await reserve({ resellerReference: 'HH-1001', notes: 'Window seats' });
    expect(booking.status).toBe('ON_HOLD');
    expect(booking.utcExpiresAt).toBe('2026-06-01T12:30:00Z');
    expect(booking.utcCreatedAt).toBe('2026-06-01T12:00:00Z');
    expect(booking.utcConfirmedAt).toBeNull();
    expect(booking.productId).toBe(w.tour.public_id);
    expect(booking.availabilityId).toBe(departureOn(10));
    expect(booking.availability?.localDateTimeStart).toBe('2026-06-10T09:00:00+01:00');
    expect(booking.availability?.localDateTimeEnd).toBe('2026-06-10T11:00:00+01:00');
    expect(booking.unitItems.map((u) => u.unitId)).toEqual(['adult', 'adult', 'child']);
    expect(booking.pricing).toMatchObject({ retail: 10000, currency: 'USD', currencyPrecision: 2 });
    expect(booking.resellerReference).toBe('HH-1001');
    expect(booking.supplierReference).toBe(booking.id);
    expect(booking.notes).toBe('Window seats');
    expect(booking.cancellable).toBe(true);

    const view = await platformView(booking.id);
    expect(view).toMatchObject({
      status: 'requested',
      starts_at: DEPARTURE_UTC,
      participants_count: 3,
      total_price: '100.00',
      customer: null,
      contact: { full_name: null, email: null, phone_number: null },
      channel: { id: w.channel.id, name: 'Harbour Hotel' },
      reseller_reference: 'HH-1001',
      expires_at: '2026-06-01T12:30:00.000Z',
    });
    // the vendor is told as of any request: its event is in the outbox
    const events = await t.db
      .selectFrom('notification_events')
      .select('type')
      .where('booking_id', '=', Number(booking.id))
      .execute();
    expect(events.map((e) => e.type)).toEqual(['booking.requested']);
  });

  it('holds at most the vendor’s request TTL, however long the reseller asks', async () => {
    t.clock.set(NOW);
    const booking = await reserve({ expirationMinutes: 600, unitItems: units('child') });
    expect(booking.utcExpiresAt).toBe('2026-06-01T13:00:00Z');
  });

  it('returns the same booking for the same uuid, and makes one booking', async () => {
    t.clock.set(NOW);
    const uuid = '7c8bb7f6-6a43-4a39-9c31-2b8f6f0c0a11';
    const first = await reserve({ uuid, unitItems: units('adult'), availabilityId: departureOn(13) });
    const again = await reserve({ uuid, unitItems: units('adult'), availabilityId: departureOn(13) });
    expect(again.id).toBe(first.id);
    expect(again.uuid).toBe(uuid);
    const rows = await t.db.selectFrom('bookings').select('id').where('octo_uuid', '=', uuid).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses what OCTO refuses, with OCTO’s errors', async () => {
    t.clock.set(NOW);
    const cases: [Record<string, unknown>, { parse: (v: unknown) => { error: string } }, string][] = [
      [{ productId: 'no-such-tour' }, zErrorInvalidProductId, 'INVALID_PRODUCT_ID'],
      [{ optionId: 'VIP' }, zErrorInvalidOptionId, 'INVALID_OPTION_ID'],
      [{ unitItems: units('adult', 'senior') }, zErrorInvalidUnitId, 'INVALID_UNIT_ID'],
      [{ unitItems: [] }, zErrorUnprocessableEntity, 'UNPROCESSABLE_ENTITY'],
      [
        { availabilityId: `${w.tour.public_id}@2026-06-10T10:00:00+01:00` },
        zErrorInvalidAvailabilityId,
        'INVALID_AVAILABILITY_ID',
      ],
      [
        { availabilityId: `${w.kayak.public_id}@2026-06-10T09:00:00+01:00` },
        zErrorInvalidAvailabilityId,
        'INVALID_AVAILABILITY_ID',
      ],
      [{ availabilityId: 'tomorrow' }, zErrorInvalidAvailabilityId, 'INVALID_AVAILABILITY_ID'],
      [
        { availabilityId: `${w.tour.public_id}@2026-05-30T09:00:00+01:00` },
        zErrorUnprocessableEntity,
        'UNPROCESSABLE_ENTITY',
      ],
      [
        { unitItems: units('adult', 'adult', 'adult', 'adult', 'adult') },
        zErrorUnprocessableEntity,
        'UNPROCESSABLE_ENTITY',
      ],
    ];
    const before = await t.db.selectFrom('bookings').select('id').execute();
    for (const [overrides, schema, code] of cases) {
      const res = await w.call(
        'POST',
        'bookings',
        reserveBody({ availabilityId: departureOn(13), ...overrides }),
      );
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(schema.parse(res.json()).error, `${JSON.stringify(overrides)}: ${res.body}`).toBe(code);
    }
    expect(await t.db.selectFrom('bookings').select('id').execute()).toHaveLength(before.length);
  });

  it("answers INVALID_PRODUCT_ID for another vendor's product", async () => {
    const other = await registerVendor(t.app, { time_zone: 'Europe/Lisbon' });
    const theirs = await createAdventure(t.app, other, {
      schedule: [{ weekdays: ['wed'], start_times: ['09:00'] }],
    });
    const res = await w.call(
      'POST',
      'bookings',
      reserveBody({ productId: theirs.public_id, unitItems: units('person') }),
    );
    expect(zErrorInvalidProductId.parse(res.json())).toMatchObject({ productId: theirs.public_id });
  });

  it('refuses a departure that is sold out or past its cutoff as UNPROCESSABLE_ENTITY', async () => {
    t.clock.set(NOW);
    // the first two tests took all four seats of the 10 June departure
    const full = await w.call('POST', 'bookings', reserveBody({ unitItems: units('adult') }));
    expect(zErrorUnprocessableEntity.parse(full.json()).errorMessage).toMatch(/sold out/i);
    t.clock.set('2026-06-09T08:30:00.000Z');
    const late = await w.call(
      'POST',
      'bookings',
      reserveBody({ unitItems: units('adult'), availabilityId: departureOn(9) }),
    );
    expect(zErrorUnprocessableEntity.parse(late.json()).error).toBe('UNPROCESSABLE_ENTITY');
  });

  it('holds a whole opening day of equipment, a unit item per kayak', async () => {
    t.clock.set(NOW);
    const booking = await reserve({
      productId: w.kayak.public_id,
      availabilityId: `${w.kayak.public_id}@2026-06-12`,
      unitItems: units('unit', 'unit'),
    });
    expect(booking.availability?.allDay).toBe(true);
    expect(booking.availability?.localDateTimeEnd).toBe('2026-06-12T18:00:00+01:00');
    expect(booking.unitItems).toHaveLength(2);
    expect(booking.pricing?.retail).toBe(9000);
    const view = await platformView(booking.id);
    expect(view).toMatchObject({
      quantity: 2,
      starts_at: '2026-06-12T08:00:00.000Z',
      ends_at: '2026-06-12T17:00:00.000Z',
    });
    const closedStart = await w.call(
      'POST',
      'bookings',
      reserveBody({
        productId: w.kayak.public_id,
        availabilityId: `${w.kayak.public_id}@2026-06-12T09:00:00+01:00`,
        unitItems: units('unit'),
      }),
    );
    expect(zErrorInvalidAvailabilityId.parse(closedStart.json()).error).toBe('INVALID_AVAILABILITY_ID');
  });
});

describe('a hold, then confirm, extend, cancel', () => {
  it('cannot be approved or declined by the vendor while on hold, only vendor-cancelled', async () => {
    t.clock.set(NOW);
    const booking = await reserve({ unitItems: units('child'), availabilityId: departureOn(15) });
    for (const action of ['approve', 'decline']) {
      const res = await api({
        method: 'POST',
        url: `/api/v1/booking/bookings/${booking.id}/${action}/`,
        token: w.vendor.token,
        payload: {},
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('invalid_state');
    }
    const cancelled = await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${booking.id}/vendor-cancel/`,
      token: w.vendor.token,
      payload: { note: 'Boat out of service' },
    });
    expect(cancelled.statusCode).toBe(200);
    const after = zBooking.parse((await w.call('GET', `bookings/${booking.uuid}`)).json());
    expect(after.status).toBe('CANCELLED');
    expect(after.cancellation?.utcCancelledAt).toBe('2026-06-01T12:00:00Z');
  });

  it('confirms with the contact, without approval or payment, and lists by reference', async () => {
    t.clock.set(NOW);
    const held = await reserve({
      unitItems: units('adult'),
      resellerReference: 'HH-2002',
      availabilityId: departureOn(16),
    });
    t.clock.set('2026-06-01T12:10:00.000Z');
    const res = await w.call('POST', `bookings/${held.uuid}/confirm`, {
      contact: { fullName: 'Ana Costa', emailAddress: 'ana@example.com', phoneNumber: '+351 912 345 678' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const confirmed = zBooking.parse(res.json());
    expect(confirmed).toMatchObject({
      status: 'CONFIRMED',
      utcConfirmedAt: '2026-06-01T12:10:00Z',
      utcExpiresAt: null,
      contact: { fullName: 'Ana Costa', emailAddress: 'ana@example.com', phoneNumber: '+351 912 345 678' },
    });
    const view = await platformView(held.id);
    expect(view.status).toBe('confirmed');
    expect(view.contact).toEqual({
      full_name: 'Ana Costa',
      email: 'ana@example.com',
      phone_number: '+351 912 345 678',
    });
    expect(view.status_history.map((h: { to_status: string }) => h.to_status)).toEqual([
      'requested',
      'confirmed',
    ]);
    const payments = await t.db
      .selectFrom('payments')
      .select('id')
      .where('booking_id', '=', Number(held.id))
      .execute();
    expect(payments).toHaveLength(0);

    const byReference = await w.call('GET', 'bookings?resellerReference=HH-2002');
    expect(byReference.json().map((b: unknown) => zBooking.parse(b).uuid)).toEqual([held.uuid]);
    const bySupplier = await w.call('GET', `bookings?supplierReference=${held.id}`);
    expect(bySupplier.json().map((b: unknown) => zBooking.parse(b).id)).toEqual([held.id]);
    const neither = await w.call('GET', 'bookings');
    expect(zErrorBadRequest.parse(neither.json()).error).toBe('BAD_REQUEST');
  });

  it('extends a hold, and refuses to confirm one that has expired', async () => {
    t.clock.set(NOW);
    const held = await reserve({
      unitItems: units('adult'),
      expirationMinutes: 10,
      availabilityId: departureOn(17),
    });
    expect(held.utcExpiresAt).toBe('2026-06-01T12:10:00Z');
    t.clock.set('2026-06-01T12:05:00.000Z');
    const extended = zBooking.parse(
      (await w.call('POST', `bookings/${held.uuid}/extend`, { expirationMinutes: 20 })).json(),
    );
    expect(extended.utcExpiresAt).toBe('2026-06-01T12:25:00Z');
    t.clock.set('2026-06-01T12:25:00.000Z');
    const late = await w.call('POST', `bookings/${held.uuid}/confirm`, {
      contact: { fullName: 'Late Larry' },
    });
    expect(zErrorUnprocessableEntity.parse(late.json()).error).toBe('UNPROCESSABLE_ENTITY');
    const after = zBooking.parse((await w.call('GET', `bookings/${held.uuid}`)).json());
    expect(after.status).toBe('EXPIRED');
    expect(after.utcConfirmedAt).toBeNull();
    const extendLate = await w.call('POST', `bookings/${held.uuid}/extend`, { expirationMinutes: 20 });
    expect(zErrorUnprocessableEntity.parse(extendLate.json()).error).toBe('UNPROCESSABLE_ENTITY');
  });

  it('cancels a confirmed booking during the free period, and refuses later with the booking unchanged', async () => {
    t.clock.set(NOW);
    const early = await reserve({ unitItems: units('adult'), availabilityId: departureOn(18) });
    const late = await reserve({ unitItems: units('child'), availabilityId: departureOn(11) });
    for (const b of [early, late])
      await w.call('POST', `bookings/${b.uuid}/confirm`, { contact: { firstName: 'Rui', lastName: 'Mar' } });
    const cancelled = zBooking.parse(
      (await w.call('POST', `bookings/${early.uuid}/cancel`, { reason: 'Plans changed' })).json(),
    );
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.contact.fullName).toBe('Rui Mar');
    // 23 hours before the start: inside the last 24, the free period is over
    t.clock.set('2026-06-10T09:00:00.000Z');
    const refused = await w.call('POST', `bookings/${late.uuid}/cancel`, {});
    expect(refused.statusCode).toBe(400);
    expect(zErrorBadRequest.parse(refused.json()).errorMessage).toMatch(/free cancellation/);
    const still = zBooking.parse((await w.call('GET', `bookings/${late.uuid}`)).json());
    expect(still).toMatchObject({ status: 'CONFIRMED', cancellable: false });
  });

  it('answers INVALID_BOOKING_UUID for a uuid the channel has no booking of', async () => {
    for (const [method, path] of [
      ['GET', 'bookings/4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01'],
      ['POST', 'bookings/4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01/confirm'],
      ['POST', 'bookings/4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01/cancel'],
    ] as const) {
      const res = await w.call(method, path, method === 'POST' ? { contact: {} } : undefined);
      expect(zErrorInvalidBookingUuid.parse(res.json()).uuid).toBe('4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01');
    }
  });
});
