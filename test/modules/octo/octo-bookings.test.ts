import {
  zErrorInvalidAvailabilityId,
  zErrorInvalidOptionId,
  zErrorInvalidProductId,
  zErrorInvalidUnitId,
  zErrorUnprocessableEntity,
} from '@octocloud/types';
import { describe, expect, it } from 'vitest';
import { createAdventure } from '../../helpers/catalog-factories.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { DEPARTURE_UTC, units } from './octo-fixtures.ts';
import { useOctoSuite } from './octo-suite.ts';

// OCTO's booking endpoints (decisions §24): reserve as a hold through the platform's own booking path,
// idempotent by the reseller's uuid; confirm, extend, cancel; what the platform's views show of a channel
// booking. Every OCTO answer is checked against the OCTO project's own schemas (@octocloud/types).

const suite = useOctoSuite();
const { departureOn, reserve, reserveBody, platformView } = suite;
const NOW = '2026-06-01T12:00:00.000Z';

describe('POST bookings (reserve)', () => {
  it('holds the departure for 30 minutes as a requested booking priced by category', async () => {
    suite.t.clock.set(NOW);
    const booking = await reserve({ resellerReference: 'HH-1001', notes: 'Window seats' });
    expect(booking.status).toBe('ON_HOLD');
    expect(booking.utcExpiresAt).toBe('2026-06-01T12:30:00Z');
    expect(booking.utcCreatedAt).toBe('2026-06-01T12:00:00Z');
    expect(booking.utcConfirmedAt).toBeNull();
    expect(booking.productId).toBe(suite.w.tour.public_id);
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
      channel: { id: suite.w.channel.id, name: 'Harbour Hotel' },
      reseller_reference: 'HH-1001',
      expires_at: '2026-06-01T12:30:00.000Z',
    });
    // the vendor is told as of any request: its event is in the outbox
    const events = await suite.t.db
      .selectFrom('notification_events')
      .select('type')
      .where('booking_id', '=', Number(booking.id))
      .execute();
    expect(events.map((e) => e.type)).toEqual(['booking.requested']);
  });

  it('holds at most the vendor’s request TTL, however long the reseller asks', async () => {
    suite.t.clock.set(NOW);
    const booking = await reserve({ expirationMinutes: 600, unitItems: units('child') });
    expect(booking.utcExpiresAt).toBe('2026-06-01T13:00:00Z');
  });

  it('returns the same booking for the same uuid, and makes one booking', async () => {
    suite.t.clock.set(NOW);
    const uuid = '7c8bb7f6-6a43-4a39-9c31-2b8f6f0c0a11';
    const first = await reserve({ uuid, unitItems: units('adult'), availabilityId: departureOn(13) });
    const again = await reserve({ uuid, unitItems: units('adult'), availabilityId: departureOn(13) });
    expect(again.id).toBe(first.id);
    expect(again.uuid).toBe(uuid);
    const rows = await suite.t.db.selectFrom('bookings').select('id').where('octo_uuid', '=', uuid).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses what OCTO refuses, with OCTO’s errors', async () => {
    suite.t.clock.set(NOW);
    const cases: [Record<string, unknown>, { parse: (v: unknown) => { error: string } }, string][] = [
      [{ productId: 'no-such-tour' }, zErrorInvalidProductId, 'INVALID_PRODUCT_ID'],
      [{ optionId: 'VIP' }, zErrorInvalidOptionId, 'INVALID_OPTION_ID'],
      [{ unitItems: units('adult', 'senior') }, zErrorInvalidUnitId, 'INVALID_UNIT_ID'],
      [{ unitItems: [] }, zErrorUnprocessableEntity, 'UNPROCESSABLE_ENTITY'],
      [
        { availabilityId: `${suite.w.tour.public_id}@2026-06-10T10:00:00+01:00` },
        zErrorInvalidAvailabilityId,
        'INVALID_AVAILABILITY_ID',
      ],
      [
        { availabilityId: `${suite.w.kayak.public_id}@2026-06-10T09:00:00+01:00` },
        zErrorInvalidAvailabilityId,
        'INVALID_AVAILABILITY_ID',
      ],
      [{ availabilityId: 'tomorrow' }, zErrorInvalidAvailabilityId, 'INVALID_AVAILABILITY_ID'],
      [
        { availabilityId: `${suite.w.tour.public_id}@2026-05-30T09:00:00+01:00` },
        zErrorUnprocessableEntity,
        'UNPROCESSABLE_ENTITY',
      ],
      [
        { unitItems: units('adult', 'adult', 'adult', 'adult', 'adult') },
        zErrorUnprocessableEntity,
        'UNPROCESSABLE_ENTITY',
      ],
    ];
    const before = await suite.t.db.selectFrom('bookings').select('id').execute();
    for (const [overrides, schema, code] of cases) {
      const res = await suite.w.call(
        'POST',
        'bookings',
        reserveBody({ availabilityId: departureOn(13), ...overrides }),
      );
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(schema.parse(res.json()).error, `${JSON.stringify(overrides)}: ${res.body}`).toBe(code);
    }
    expect(await suite.t.db.selectFrom('bookings').select('id').execute()).toHaveLength(before.length);
  });

  it("answers INVALID_PRODUCT_ID for another vendor's product", async () => {
    const other = await registerVendor(suite.t.app, { time_zone: 'Europe/Lisbon' });
    const theirs = await createAdventure(suite.t.app, other, {
      schedule: [{ weekdays: ['wed'], start_times: ['09:00'] }],
    });
    const res = await suite.w.call(
      'POST',
      'bookings',
      reserveBody({ productId: theirs.public_id, unitItems: units('person') }),
    );
    expect(zErrorInvalidProductId.parse(res.json())).toMatchObject({ productId: theirs.public_id });
  });

  it('refuses a departure that is sold out or past its cutoff as UNPROCESSABLE_ENTITY', async () => {
    suite.t.clock.set(NOW);
    // the first two tests took all four seats of the 10 June departure
    const full = await suite.w.call('POST', 'bookings', reserveBody({ unitItems: units('adult') }));
    expect(zErrorUnprocessableEntity.parse(full.json()).errorMessage).toMatch(/sold out/i);
    suite.t.clock.set('2026-06-09T08:30:00.000Z');
    const late = await suite.w.call(
      'POST',
      'bookings',
      reserveBody({ unitItems: units('adult'), availabilityId: departureOn(9) }),
    );
    expect(zErrorUnprocessableEntity.parse(late.json()).error).toBe('UNPROCESSABLE_ENTITY');
  });

  it('holds a whole opening day of equipment, a unit item per kayak', async () => {
    suite.t.clock.set(NOW);
    const booking = await reserve({
      productId: suite.w.kayak.public_id,
      availabilityId: `${suite.w.kayak.public_id}@2026-06-12`,
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
    const closedStart = await suite.w.call(
      'POST',
      'bookings',
      reserveBody({
        productId: suite.w.kayak.public_id,
        availabilityId: `${suite.w.kayak.public_id}@2026-06-12T09:00:00+01:00`,
        unitItems: units('unit'),
      }),
    );
    expect(zErrorInvalidAvailabilityId.parse(closedStart.json()).error).toBe('INVALID_AVAILABILITY_ID');
  });
});
