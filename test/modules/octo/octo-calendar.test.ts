import { zBooking } from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { parseCalendar } from '../../helpers/ical.ts';
import { DEPARTURE_UTC, departureOn, type OctoWorld, octoWorld, units } from './octo-fixtures.ts';

// A reseller's booking in the vendor's calendar feed (decisions §24): the feed names who it is for as every
// other place does (bookedFor): the channel while it is a hold without a contact, the contact once confirmed.

let t: TestApp;
let api: Injector;
let w: OctoWorld;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: 'https://book.example' } });
  t.clock.set('2026-06-01T12:00:00.000Z');
  api = injector(t.app);
  w = await octoWorld(t, api);
});
afterAll(() => t?.close());

async function feedEvents() {
  const { url } = (
    await api({ method: 'GET', url: '/api/v1/booking/vendor/calendar-feed/', token: w.vendor.token })
  ).json();
  const res = await api({ method: 'GET', url: new URL(url).pathname });
  expect(res.statusCode).toBe(200);
  return parseCalendar(res.body).events;
}

describe('a channel booking in the calendar feed', () => {
  it('is the channel’s tentative hold, then the contact’s confirmed booking, under one UID', async () => {
    const reserved = await w.call('POST', 'bookings', {
      productId: w.tour.public_id,
      optionId: 'DEFAULT',
      availabilityId: departureOn(w, 10),
      unitItems: units('adult', 'adult', 'child'),
    });
    expect(reserved.statusCode, reserved.body).toBe(200);
    const hold = zBooking.parse(reserved.json());
    const [held] = await feedEvents();
    expect(held).toMatchObject({
      uid: `booking-${hold.id}@book.example`,
      start: DEPARTURE_UTC,
      end: '2026-06-10T10:00:00.000Z',
      summary: 'Dolphin watch — Harbour Hotel, 3 participants',
      status: 'TENTATIVE',
    });

    const confirmed = await w.call('POST', `bookings/${hold.uuid}/confirm`, {
      contact: { fullName: 'Ana Costa', emailAddress: 'ana@example.com' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await feedEvents()).toEqual([
      {
        ...held,
        summary: 'Dolphin watch — Ana Costa, 3 participants',
        status: 'CONFIRMED',
      },
    ]);
  });
});
