import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { PASSWORD } from '../reliability/server-process.ts';

// Data for the customer-site browser suites, made through the public API as any client would.

export interface Api {
  get(path: string, token?: string): Promise<Record<string, unknown>>;
  post(path: string, body: unknown, token?: string): Promise<Record<string, unknown>>;
}

export function apiOf(base: string): Api {
  const request = async (method: string, path: string, body: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    get: (path, token) => request('GET', path, undefined, token),
    post: (path, body, token) => request('POST', path, body, token),
  };
}

export interface Shop {
  slug: string;
  businessName: string;
  vendorToken: string;
  equipment: { id: number; public_id: string; title: string };
  adventure: { id: number; public_id: string; title: string };
}

/** A vendor with a kayak (3 units, 45.00 a day, full refund up to 48 h before) and a boat tour. */
export async function seedShop(base: string): Promise<Shop> {
  const api = apiOf(base);
  const n = randomBytes(4).toString('hex');
  const email = `shop-${n}@example.com`;
  const businessName = `Lagoon Paddles ${n}`;
  const vendor = await api.post('/api/v1/accounts/register/vendor/', {
    email,
    password: PASSWORD,
    business_name: businessName,
    description: 'Kayaks and tours on the lagoon.',
    city: 'Lagos',
    country: 'PT',
    currency: 'EUR',
    time_zone: 'Europe/Lisbon',
  });
  const token = (await api.post('/api/v1/accounts/token/', { email, password: PASSWORD })).access as string;
  const equipment = await api.post(
    '/api/v1/equipment/vendor/items/',
    {
      public_id: `kayak-${n}`,
      title: `Touring kayak ${n}`,
      description: 'A stable two-seat touring kayak <b>with</b> paddles.',
      location: 'Lagos marina',
      price_per_day: '45.00',
      quantity: 3,
      is_active: true,
      category_id: 1,
      cancellation_policy: { free_cancellation_hours: 48, late_refund_percent: 50 },
    },
    token,
  );
  const adventure = await api.post(
    '/api/v1/adventrues/vendor/offerings/',
    {
      public_id: `tour-${n}`,
      title: `Sunset boat tour ${n}`,
      description: 'Two hours along the cliffs.',
      meeting_point: 'Marina de Lagos',
      duration_minutes: 120,
      capacity: 8,
      booking_mode: 'shared',
      price_per_person: '35.00',
      is_active: true,
      category_id: 1,
    },
    token,
  );
  const slugOf = (vendor.vendor_profile as { slug: string }).slug;
  const pick = (l: Record<string, unknown>) => ({
    id: l.id as number,
    public_id: l.public_id as string,
    title: l.title as string,
  });
  return {
    slug: slugOf,
    businessName,
    vendorToken: token,
    equipment: pick(equipment),
    adventure: pick(adventure),
  };
}

/** A datetime-local input's value for a moment `days` ahead at `hour`:00 (the browser's time zone: UTC here). */
export function localInput(days: number, hour: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString().slice(0, 16);
}

/** The local date `days` from today in a zone, as a date input takes it. */
export const localDate = (days: number, timeZone = 'Europe/Lisbon') =>
  Temporal.Now.plainDateISO(timeZone).add({ days }).toString();

/**
 * Chooses an equipment rental's pick-up and return in the booking form (decisions §20): dates `days`
 * ahead in the vendor's zone and times among those the form offers.
 */
export async function chooseRental(
  page: Page,
  pickUp: [days: number, time: string],
  giveBack: [days: number, time: string],
  timeZone = 'Europe/Lisbon',
): Promise<void> {
  await page.getByLabel('Pick-up date').fill(localDate(pickUp[0], timeZone));
  await page.getByLabel('Pick-up time').selectOption(pickUp[1]);
  await page.getByLabel('Return date').fill(localDate(giveBack[0], timeZone));
  await page.getByLabel('Return time').selectOption(giveBack[1]);
}
