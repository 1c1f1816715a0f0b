import { zBooking } from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { freshToken } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';
import { departureOn, type OctoWorld, octoWorld, units } from './octo-fixtures.ts';

// The vendor summary's channel rows (decisions §24): bookings in range made through each channel, those
// that reached confirmed and their revenue; they count as unattributed in the totals.

let t: TestApp;
let api: Injector;
let w: OctoWorld;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: 'https://book.example' } });
  api = injector(t.app);
  w = await octoWorld(t, api, 20);
});
afterAll(() => t?.close());

async function reserve(call: OctoWorld['call'], unitItems: { unitId: string }[], day = 10) {
  const res = await call('POST', 'bookings', {
    productId: w.tour.public_id,
    optionId: 'DEFAULT',
    availabilityId: departureOn(w, day),
    unitItems,
  });
  expect(res.statusCode, res.body).toBe(200);
  return zBooking.parse(res.json());
}

const summary = async (from: string, to: string) => {
  const res = await api({
    method: 'GET',
    url: `/api/v1/marketing/vendor/summary/?from=${from}&to=${to}`,
    // a token of the test clock's present (it moves)
    token: await freshToken(t.app, w.vendor),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('the summary’s channel rows', () => {
  it('count each channel’s bookings in range, the confirmed ones and their revenue', async () => {
    const concierge = await newChannel(api, w.vendor, 'Beach kiosk');
    const kiosk = octo(api, concierge.apiKey);
    t.clock.set('2026-06-01T12:00:00.000Z');
    const confirmed = await reserve(w.call, units('adult', 'child')); // 60.00
    await reserve(w.call, units('adult')); // stays on hold: 40.00, no revenue
    const cancelled = await reserve(w.call, units('child', 'child')); // confirmed, then cancelled: 40.00
    await reserve(kiosk, units('adult'));
    for (const b of [confirmed, cancelled])
      await w.call('POST', `bookings/${b.uuid}/confirm`, { contact: { fullName: 'Ana Costa' } });
    await w.call('POST', `bookings/${cancelled.uuid}/cancel`, {});
    t.clock.set('2026-06-02T12:00:00.000Z');
    await reserve(w.call, units('adult'), 11); // the next day: out of the range below

    const body = await summary('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z');
    expect(body.channels).toEqual([
      {
        channel_id: w.channel.id,
        name: 'Harbour Hotel',
        bookings: 3,
        bookings_confirmed: 2,
        revenue: '100.00',
      },
      { channel_id: concierge.id, name: 'Beach kiosk', bookings: 1, bookings_confirmed: 0, revenue: '0.00' },
    ]);
    // channel bookings have no click: unattributed
    expect(body.bookings_attributed).toEqual({ organic: 0, marketing: 0, unattributed: 4 });
    expect((await summary('2026-06-02T00:00:00Z', '2026-06-03T00:00:00Z')).channels).toEqual([
      {
        channel_id: w.channel.id,
        name: 'Harbour Hotel',
        bookings: 1,
        bookings_confirmed: 0,
        revenue: '0.00',
      },
    ]);
  });
});
