import {
  zBooking,
  zErrorBadRequest,
  zErrorInvalidBookingUuid,
  zErrorUnprocessableEntity,
} from '@octocloud/types';
import { describe, expect, it } from 'vitest';
import { units } from './octo-fixtures.ts';
import { useOctoSuite } from './octo-suite.ts';

// OCTO's booking moves (decisions §24): a hold that the vendor cannot approve or decline, confirm with the
// contact (no approval, no payment), extend, expiry, cancel within the free period and not after, and
// the channel's own uuids only. Every OCTO answer is checked against @octocloud/types.

const suite = useOctoSuite();
const { departureOn, reserve, platformView } = suite;
const NOW = '2026-06-01T12:00:00.000Z';

describe('a hold, then confirm, extend, cancel', () => {
  it('cannot be approved or declined by the vendor while on hold, only vendor-cancelled', async () => {
    suite.t.clock.set(NOW);
    const booking = await reserve({ unitItems: units('child'), availabilityId: departureOn(15) });
    for (const action of ['approve', 'decline']) {
      const res = await suite.api({
        method: 'POST',
        url: `/api/v1/booking/bookings/${booking.id}/${action}/`,
        token: suite.w.vendor.token,
        payload: {},
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('invalid_state');
    }
    const cancelled = await suite.api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${booking.id}/vendor-cancel/`,
      token: suite.w.vendor.token,
      payload: { note: 'Boat out of service' },
    });
    expect(cancelled.statusCode).toBe(200);
    const after = zBooking.parse((await suite.w.call('GET', `bookings/${booking.uuid}`)).json());
    expect(after.status).toBe('CANCELLED');
    expect(after.cancellation?.utcCancelledAt).toBe('2026-06-01T12:00:00Z');
  });

  it('confirms with the contact, without approval or payment, and lists by reference', async () => {
    suite.t.clock.set(NOW);
    const held = await reserve({
      unitItems: units('adult'),
      resellerReference: 'HH-2002',
      availabilityId: departureOn(16),
    });
    suite.t.clock.set('2026-06-01T12:10:00.000Z');
    const res = await suite.w.call('POST', `bookings/${held.uuid}/confirm`, {
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
    const payments = await suite.t.db
      .selectFrom('payments')
      .select('id')
      .where('booking_id', '=', Number(held.id))
      .execute();
    expect(payments).toHaveLength(0);

    const byReference = await suite.w.call('GET', 'bookings?resellerReference=HH-2002');
    expect(byReference.json().map((b: unknown) => zBooking.parse(b).uuid)).toEqual([held.uuid]);
    const bySupplier = await suite.w.call('GET', `bookings?supplierReference=${held.id}`);
    expect(bySupplier.json().map((b: unknown) => zBooking.parse(b).id)).toEqual([held.id]);
    const neither = await suite.w.call('GET', 'bookings');
    expect(zErrorBadRequest.parse(neither.json()).error).toBe('BAD_REQUEST');

    // a retried confirm records the contact again, and nothing else: no second move, no event
    suite.t.clock.set('2026-06-01T12:20:00.000Z');
    const again = await suite.w.call('POST', `bookings/${held.uuid}/confirm`, {
      contact: { firstName: 'Ana', lastName: 'Costa Silva' },
    });
    expect(zBooking.parse(again.json())).toMatchObject({
      status: 'CONFIRMED',
      utcConfirmedAt: '2026-06-01T12:10:00Z',
      contact: { fullName: 'Ana Costa Silva', emailAddress: null },
    });
    const history = await suite.t.db
      .selectFrom('booking_status_history')
      .select('to_status')
      .where('booking_id', '=', Number(held.id))
      .execute();
    expect(history).toHaveLength(2);
    const events = await suite.t.db
      .selectFrom('notification_events')
      .select('type')
      .where('booking_id', '=', Number(held.id))
      .execute();
    expect(events.map((e) => e.type)).toEqual(['booking.requested', 'booking.confirmed']);
  });

  it('extends a hold, and refuses to confirm one that has expired', async () => {
    suite.t.clock.set(NOW);
    const held = await reserve({
      unitItems: units('adult'),
      expirationMinutes: 10,
      availabilityId: departureOn(17),
    });
    expect(held.utcExpiresAt).toBe('2026-06-01T12:10:00Z');
    suite.t.clock.set('2026-06-01T12:05:00.000Z');
    const extended = zBooking.parse(
      (await suite.w.call('POST', `bookings/${held.uuid}/extend`, { expirationMinutes: 20 })).json(),
    );
    expect(extended.utcExpiresAt).toBe('2026-06-01T12:25:00Z');
    suite.t.clock.set('2026-06-01T12:25:00.000Z');
    const late = await suite.w.call('POST', `bookings/${held.uuid}/confirm`, {
      contact: { fullName: 'Late Larry' },
    });
    expect(zErrorUnprocessableEntity.parse(late.json()).error).toBe('UNPROCESSABLE_ENTITY');
    const after = zBooking.parse((await suite.w.call('GET', `bookings/${held.uuid}`)).json());
    expect(after.status).toBe('EXPIRED');
    expect(after.utcConfirmedAt).toBeNull();
    const extendLate = await suite.w.call('POST', `bookings/${held.uuid}/extend`, { expirationMinutes: 20 });
    expect(zErrorUnprocessableEntity.parse(extendLate.json()).error).toBe('UNPROCESSABLE_ENTITY');
  });

  it('cancels a confirmed booking during the free period, and refuses later with the booking unchanged', async () => {
    suite.t.clock.set(NOW);
    const early = await reserve({ unitItems: units('adult'), availabilityId: departureOn(18) });
    const late = await reserve({ unitItems: units('child'), availabilityId: departureOn(11) });
    for (const b of [early, late])
      await suite.w.call('POST', `bookings/${b.uuid}/confirm`, {
        contact: { firstName: 'Rui', lastName: 'Mar' },
      });
    const cancelled = zBooking.parse(
      (await suite.w.call('POST', `bookings/${early.uuid}/cancel`, { reason: 'Plans changed' })).json(),
    );
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.contact.fullName).toBe('Rui Mar');
    // 23 hours before the start: inside the last 24, the free period is over
    suite.t.clock.set('2026-06-10T09:00:00.000Z');
    const refused = await suite.w.call('POST', `bookings/${late.uuid}/cancel`, {});
    expect(refused.statusCode).toBe(400);
    expect(zErrorBadRequest.parse(refused.json()).errorMessage).toMatch(/free cancellation/);
    const still = zBooking.parse((await suite.w.call('GET', `bookings/${late.uuid}`)).json());
    expect(still).toMatchObject({ status: 'CONFIRMED', cancellable: false });
  });

  it('answers INVALID_BOOKING_UUID for a uuid the channel has no booking of', async () => {
    for (const [method, path] of [
      ['GET', 'bookings/4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01'],
      ['POST', 'bookings/4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01/confirm'],
      ['POST', 'bookings/4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01/cancel'],
    ] as const) {
      const res = await suite.w.call(method, path, method === 'POST' ? { contact: {} } : undefined);
      expect(zErrorInvalidBookingUuid.parse(res.json()).uuid).toBe('4b0ea7e2-75a2-4d4e-8f09-6b4b3d7d5a01');
    }
  });
});
