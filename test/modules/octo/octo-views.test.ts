import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zBooking, zErrorBadRequest, zErrorInvalidBookingUuid } from '@octocloud/types';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';
import { departureOn, type OctoWorld, octoWorld, units } from './octo-fixtures.ts';

// What the platform shows of a channel's booking besides its API object (decisions §24): the vendor's mails
// (none to the channel's account, which is nobody), the day's manifest and its CSV.

let t: TestApp;
let api: Injector;
let w: OctoWorld;
let booking: ReturnType<typeof zBooking.parse>;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: 'https://book.example' } });
  api = injector(t.app);
  w = await octoWorld(t, api);
  t.clock.set('2026-06-01T12:00:00.000Z');
  const held = await w.call('POST', 'bookings', {
    productId: w.tour.public_id,
    optionId: 'DEFAULT',
    availabilityId: departureOn(w, 10),
    unitItems: units('adult', 'child'),
    resellerReference: 'HH-77',
  });
  const confirmed = await w.call('POST', `bookings/${held.json().uuid}/confirm`, {
    contact: { fullName: 'Ana Costa', emailAddress: 'ana@example.com' },
  });
  booking = zBooking.parse(confirmed.json());
});
afterAll(() => t?.close());

describe('a channel booking seen by another key', () => {
  it('is unknown to another channel of the vendor and to another vendor’s channel', async () => {
    const sibling = octo(api, (await newChannel(api, w.vendor, 'Beach kiosk')).apiKey);
    const stranger = octo(api, (await newChannel(api, await registerVendor(t.app))).apiKey);
    for (const call of [sibling, stranger]) {
      const read = await call('GET', `bookings/${booking.uuid}`);
      expect(zErrorInvalidBookingUuid.parse(read.json()).uuid).toBe(booking.uuid);
      const cancel = await call('POST', `bookings/${booking.uuid}/cancel`, {});
      expect(zErrorInvalidBookingUuid.parse(cancel.json()).error).toBe('INVALID_BOOKING_UUID');
      expect((await call('GET', 'bookings?resellerReference=HH-77')).json()).toEqual([]);
    }
    const still = zBooking.parse((await w.call('GET', `bookings/${booking.uuid}`)).json());
    expect(still.status).toBe('CONFIRMED');
  });
});

describe('a channel booking in the vendor’s mail and manifest', () => {
  it('mails the vendor, naming the contact and the channel, and never the channel’s account', async () => {
    await t.app.outbox.runOnce();
    const deliveries = await t.db
      .selectFrom('notification_deliveries')
      .innerJoin('notification_events', 'notification_events.id', 'notification_deliveries.event_id')
      .select(['notification_events.type', 'notification_deliveries.recipient_role'])
      .where('notification_events.booking_id', '=', Number(booking.id))
      .where('notification_deliveries.channel', '=', 'email')
      .orderBy('notification_deliveries.id')
      .execute();
    expect(deliveries).toEqual([
      { type: 'booking.requested', recipient_role: 'vendor' },
      { type: 'booking.confirmed', recipient_role: 'vendor' },
    ]);
    await t.app.outbox.runOnce();
    const mails = await Promise.all(
      readdirSync(t.config.mailDir).map(async (f) => simpleParser(readFileSync(join(t.config.mailDir, f)))),
    );
    const texts = mails.map((m) => m.text ?? '');
    const hold = texts.find((x) => x.includes('Harbour Hotel holds Dolphin watch.'));
    // the hold's deadline, in Lisbon: 30 minutes after the reserve at 13:00 local
    expect(hold).toMatch(/Held until:?\s.*13:30/);
    expect(
      texts.some((x) =>
        x.includes(
          'Harbour Hotel confirmed the booking of Dolphin watch for Ana Costa (paid to the channel).',
        ),
      ),
    ).toBe(true);
    expect(mails.every((m) => !JSON.stringify(m.to).includes('channels.invalid'))).toBe(true);
  });

  it('lists it on the day’s manifest with the contact, and names it so in the CSV', async () => {
    const manifest = await api({
      method: 'GET',
      url: '/api/v1/booking/vendor/manifest/?date=2026-06-10',
      token: w.vendor.token,
    });
    expect(manifest.statusCode, manifest.body).toBe(200);
    const [departure] = manifest.json().departures;
    expect(departure.bookings).toHaveLength(1);
    expect(departure.bookings[0]).toMatchObject({
      id: Number(booking.id),
      customer: null,
      contact: { full_name: 'Ana Costa', email: 'ana@example.com', phone_number: null },
      channel: { id: w.channel.id, name: 'Harbour Hotel' },
      reseller_reference: 'HH-77',
      participants_count: 2,
    });
    const csv = await api({
      method: 'GET',
      url: '/api/v1/booking/vendor/manifest/export/?date=2026-06-10',
      token: w.vendor.token,
    });
    expect(csv.statusCode).toBe(200);
    const [header, row] = csv.body.trim().split(/\r?\n/);
    const cells = Object.fromEntries(header.split(',').map((name, i) => [name, row.split(',')[i]]));
    expect(cells).toMatchObject({
      customer_name: 'Ana Costa (via Harbour Hotel)',
      customer_email: 'ana@example.com',
      participants_count: '2',
    });
  });
});

describe('a vendor asking for a waiver', () => {
  it('refuses a reserve, which OCTO gives no way to accept it, naming the field; no booking is made', async () => {
    const other = await octoWorld(t, api);
    await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: other.vendor.token,
      payload: { waiver_text: 'I take part at my own risk.' },
    });
    const res = await other.call('POST', 'bookings', {
      productId: other.tour.public_id,
      optionId: 'DEFAULT',
      availabilityId: departureOn(other, 10),
      unitItems: units('adult'),
    });
    expect(res.statusCode).toBe(400);
    expect(zErrorBadRequest.parse(res.json()).errorMessage).toMatch(/waiver_acceptance/);
    const made = await t.db
      .selectFrom('bookings')
      .select('id')
      .where('channel_id', '=', other.channel.id)
      .execute();
    expect(made).toHaveLength(0);
  });
});
