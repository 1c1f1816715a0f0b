// The typed client (types generated from the served OpenAPI document, `npm run check:client`) through a
// scheduled tour (decisions §19): the vendor schedules it, a customer lists its departures and books one,
// the vendor reads the seats sold, changes the departure's capacity and cancels it.
import createClient from 'openapi-fetch';
import type { paths } from '../../web/src/generated/api.d.ts';
import { bearer, need } from './walkthrough.ts';

export interface DeparturesWalkthrough {
  firstDeparture: { local_time: string; remaining: number; status: string };
  booked: { starts_at: string; ends_at: string; participants_count: number | null };
  vendorView: { booked: number; bookings: number; remaining: number };
  changed: { capacity: number; remaining: number };
  cancelled: number[];
}

export async function departuresWalkthrough(
  baseUrl: string,
  tag: string,
  date: string,
): Promise<DeparturesWalkthrough> {
  const client = createClient<paths>({ baseUrl });
  const password = 'correct-horse-battery';
  const token = async (email: string) =>
    need('log in', await client.POST('/api/v1/accounts/token/', { body: { email, password } })).access;
  const vendorEmail = `tour-vendor-${tag}@example.com`;
  need(
    'register the vendor',
    await client.POST('/api/v1/accounts/register/vendor/', {
      body: { email: vendorEmail, password, business_name: `Tours ${tag}`, time_zone: 'Europe/Lisbon' },
    }),
  );
  const vendor = await token(vendorEmail);
  const category = need('categories', await client.GET('/api/v1/categories/')).results[0];
  if (!category) throw new Error('no category');
  const tour = need(
    'schedule a tour',
    await client.POST('/api/v1/adventrues/vendor/offerings/', {
      headers: bearer(vendor),
      body: {
        public_id: `sunset-${tag}`,
        title: 'Sunset kayak tour',
        category_id: category.id,
        price_per_person: '40.00',
        duration_minutes: 120,
        capacity: 12,
        booking_mode: 'shared',
        booking_cutoff_minutes: 60,
        schedule: [
          { weekdays: ['sat'], start_times: ['18:30'], from_date: date, to_date: date, capacity: null },
        ],
      },
    }),
  );
  const customerEmail = `tour-customer-${tag}@example.com`;
  need(
    'register',
    await client.POST('/api/v1/accounts/register/customer/', { body: { email: customerEmail, password } }),
  );
  const customer = await token(customerEmail);

  const list = need(
    'list the departures',
    await client.GET('/api/v1/adventrues/offerings/{public_id}/departures/', {
      params: { path: { public_id: tour.public_id }, query: { to: `${date}T23:59:00Z` } },
    }),
  );
  const departure = list.departures[0];
  if (!departure) throw new Error('no departure');
  const booking = need(
    'book the departure',
    await client.POST('/api/v1/booking/bookings/request/', {
      headers: bearer(customer),
      body: { adventure_offering_id: tour.id, starts_at: departure.starts_at, participants_count: 3 },
    }),
  );
  const range = { path: { id: tour.id }, query: { to: `${date}T23:59:00Z` } };
  const sold = need(
    'read the seats sold',
    await client.GET('/api/v1/adventrues/vendor/offerings/{id}/departures/', {
      params: range,
      headers: bearer(vendor),
    }),
  ).departures[0];
  const path = { id: tour.id, starts_at: departure.starts_at };
  const changed = need(
    'change its capacity',
    await client.PATCH('/api/v1/adventrues/vendor/offerings/{id}/departures/{starts_at}/', {
      params: { path },
      headers: bearer(vendor),
      body: { capacity: 8 },
    }),
  );
  const cancelled = need(
    'cancel it',
    await client.POST('/api/v1/adventrues/vendor/offerings/{id}/departures/{starts_at}/cancel/', {
      params: { path },
      headers: bearer(vendor),
      body: { note: 'Wind' },
    }),
  );
  return {
    firstDeparture: {
      local_time: departure.local_time,
      remaining: departure.remaining,
      status: departure.status,
    },
    booked: {
      starts_at: booking.starts_at,
      ends_at: booking.ends_at,
      participants_count: booking.participants_count,
    },
    vendorView: {
      booked: sold?.booked ?? -1,
      bookings: sold?.bookings ?? -1,
      remaining: sold?.remaining ?? -1,
    },
    changed: { capacity: changed.capacity, remaining: changed.remaining },
    cancelled: cancelled.cancelled_booking_ids,
  };
}
