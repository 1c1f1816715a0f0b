import type { LightMyRequestResponse } from 'fastify';
import { type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { approveWithIntent } from '../../helpers/payment-factories.ts';

// A vendor in Lisbon with a scheduled tour, a customer, and the requests the departure tests make.
// The test clock starts at 2026-06-01T12:00Z, a Monday; Lisbon is at UTC+1 in summer.

export const SATURDAYS = [{ weekdays: ['sat'], start_times: ['09:00', '14:30'] }];

export interface TourWorld {
  api: Injector;
  vendor: Account;
  customer: Account;
  tour: ListingOut;
  /** POST bookings/request/ for the tour */
  request: (
    startsAt: string,
    extra?: Record<string, unknown>,
    who?: Account,
  ) => Promise<LightMyRequestResponse>;
  /** GET the public departures, from..to */
  departures: (query?: Record<string, string>) => Promise<DepartureList>;
  /** PATCH the tour as its vendor */
  patchTour: (payload: Record<string, unknown>) => Promise<LightMyRequestResponse>;
  /** approve, open an intent and pay a booking; its payment id */
  pay: (bookingId: number) => Promise<number>;
}

let events = 0;

/** A departures answer, loosely typed for assertions. */
export type DepartureList = Record<string, unknown> & { departures: Record<string, string | number>[] };

export async function tourWorld(t: TestApp, overrides: Record<string, unknown> = {}): Promise<TourWorld> {
  const api = injector(t.app);
  const vendor = await registerVendor(t.app, { time_zone: 'Europe/Lisbon', currency: 'eur' });
  const customer = await registerCustomer(t.app);
  const tour = await createAdventure(t.app, vendor, {
    capacity: 12,
    booking_mode: 'shared',
    schedule: SATURDAYS,
    price_per_person: '30.00',
    ...overrides,
  });
  const request = (startsAt: string, extra: Record<string, unknown> = {}, who: Account = customer) =>
    api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: who.token,
      payload: { adventure_offering_id: tour.id, starts_at: startsAt, ...extra },
    });
  const departures = async (query: Record<string, string> = {}) =>
    (
      await api({ method: 'GET', url: `/api/v1/adventrues/offerings/${tour.public_id}/departures/`, query })
    ).json();
  const pay = async (bookingId: number) => {
    const payment = await approveWithIntent(api, vendor, customer, bookingId);
    const paid = await api({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      payload: {
        gateway_event_id: `evt_departure_${events++}`,
        event_type: 'payment_intent.succeeded',
        gateway_payment_intent_id: payment.gateway_payment_intent_id,
      },
    });
    if (paid.json().payment_status !== 'succeeded') throw new Error(`payment: ${paid.body}`);
    return payment.id as number;
  };
  const patchTour = (payload: Record<string, unknown>) =>
    api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
      token: vendor.token,
      payload,
    });
  return { api, vendor, customer, tour, request, departures, patchTour, pay };
}

/** The path of one departure of the vendor's offering, its instant URL-encoded. */
export const departurePath = (offeringId: number, startsAt: string, tail = '') =>
  `/api/v1/adventrues/vendor/offerings/${offeringId}/departures/${encodeURIComponent(startsAt)}/${tail}`;

export { registerCustomer, registerVendor };
