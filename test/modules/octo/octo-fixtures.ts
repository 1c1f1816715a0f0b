import type { Injector, TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerVendor } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';

// A vendor in Lisbon selling through a channel (decisions §24): a scheduled tour priced by category and a
// kayak rented by the opening day, and the channel's OCTO caller.

export const ZONE = 'Europe/Lisbon';
/** 09:00 in Lisbon on 10 June 2026 (summer time, UTC+1): a departure of the tour */
export const DEPARTURE_UTC = '2026-06-10T08:00:00.000Z';

export interface OctoWorld {
  vendor: Account;
  channel: { id: number; apiKey: string };
  tour: ListingOut;
  kayak: ListingOut;
  call: ReturnType<typeof octo>;
}

export async function octoWorld(t: TestApp, api: Injector, seats = 4): Promise<OctoWorld> {
  const vendor = await registerVendor(t.app, { time_zone: ZONE, request_ttl_minutes: 60 });
  await api({
    method: 'PATCH',
    url: '/api/v1/accounts/vendor-profile/me/',
    token: vendor.token,
    payload: { opening_hours: openDaily('09:00', '18:00') },
  });
  const tour = await createAdventure(t.app, vendor, {
    title: 'Dolphin watch',
    capacity: seats,
    booking_mode: 'shared',
    duration_minutes: 120,
    price_categories: [
      { code: 'adult', label: 'Adult', price: '40.00' },
      { code: 'child', label: 'Child', price: '20.00' },
    ],
    cancellation_policy: { free_cancellation_hours: 24, late_refund_percent: 0 },
    schedule: [{ weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_times: ['09:00'] }],
  });
  const kayak = await createEquipment(t.app, vendor, {
    title: 'Sea kayak',
    quantity: 3,
    price_per_day: '45.00',
  });
  const channel = await newChannel(api, vendor, 'Harbour Hotel');
  return { vendor, channel, tour, kayak, call: octo(api, channel.apiKey) };
}

export const openDaily = (from: string, to: string) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [[from, to]]]));

export const units = (...ids: string[]) => ids.map((unitId) => ({ unitId }));

/** The tour's 09:00 departure on a day of June 2026, as its availability id (product@local start). */
export const departureOn = (w: Pick<OctoWorld, 'tour'>, day: number) =>
  `${w.tour.public_id}@2026-06-${String(day).padStart(2, '0')}T09:00:00+01:00`;
