import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';

// The public lists' available_from/available_to filter, wired to the booking rules (in SQL).

const HOUR = 3_600_000;
let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app);
  customer = await registerCustomer(t.app);
});
afterAll(() => t.close());

const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();

async function listIds(path: string, query: Record<string, string>): Promise<number[]> {
  const res = await api({ method: 'GET', url: path, query: { vendor_slug: vendor.vendorSlug!, ...query } });
  expect(res.statusCode).toBe(200);
  return res.json().results.map((r: { id: number }) => r.id);
}

describe('available_from / available_to on the public lists', () => {
  it('keeps only the listings bookable for the whole window under the booking rules', async () => {
    const free = await createEquipment(t.app, vendor, { title: 'free' });
    const booked = await createEquipment(t.app, vendor, { title: 'booked' });
    const blocked = await createEquipment(t.app, vendor, { title: 'blocked' });
    const covered = await createEquipment(t.app, vendor, { title: 'covered' });
    const uncovered = await createEquipment(t.app, vendor, { title: 'uncovered' });

    const request = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: { equipment_item_id: booked.id, starts_at: at(30), ends_at: at(40), customer_notes: '' },
    });
    expect(request.statusCode).toBe(201);
    const slot = (listing: number, from: number, to: number, is_available: boolean) =>
      api({
        method: 'POST',
        url: '/api/v1/booking/vendor/slots/',
        token: vendor.token,
        payload: { equipment_item_id: listing, starts_at: at(from), ends_at: at(to), is_available },
      });
    expect((await slot(blocked.id, 35, 36, false)).statusCode).toBe(201);
    expect((await slot(covered.id, 20, 50, true)).statusCode).toBe(201);
    expect((await slot(uncovered.id, 33, 50, true)).statusCode).toBe(201);

    const ids = await listIds('/api/v1/equipment/items/', {
      available_from: at(32),
      available_to: at(38),
      ordering: 'title',
    });
    expect(ids).toEqual([covered.id, free.id]);

    // After the booking and the blocking slot, and inside both available slots: every listing.
    const after = await listIds('/api/v1/equipment/items/', {
      available_from: at(40),
      available_to: at(45),
      ordering: 'title',
    });
    expect(after).toEqual([blocked.id, booked.id, covered.id, free.id, uncovered.id]);
  });

  it('works for adventures too, and a declined booking frees the window', async () => {
    const tour = await createAdventure(t.app, vendor, { title: 'tour' });
    const res = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        adventure_offering_id: tour.id,
        starts_at: at(100),
        ends_at: at(102),
        participants_count: 2,
      },
    });
    expect(res.statusCode).toBe(201);
    const window = { available_from: at(101), available_to: at(103) };
    expect(await listIds('/api/v1/adventrues/offerings/', window)).toEqual([]);
    await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${res.json().id}/decline/`,
      token: vendor.token,
    });
    expect(await listIds('/api/v1/adventrues/offerings/', window)).toEqual([tour.id]);
  });

  it('finds nothing for a window in the past, and counts match results', async () => {
    await createEquipment(t.app, vendor);
    const past = await api({
      method: 'GET',
      url: '/api/v1/equipment/items/',
      query: { available_from: at(-5), available_to: at(5) },
    });
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ count: 0, results: [] });
  });
});
