import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester } from './setup.ts';

// POST /api/v1/booking/quote/ (decisions §21, the fields that exist so far): a request's body priced and
// judged exactly as a request would be, creating nothing.

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app, { currency: 'EUR' });
  customer = await registerCustomer(t.app);
});
afterAll(() => t.close());

const quote = (payload: Record<string, unknown>, token?: string) =>
  api({ method: 'POST', url: '/api/v1/booking/quote/', payload, token });

describe('quotes', () => {
  it('prices an adventure by participants, in the vendor currency, ignoring a token', async () => {
    const tour = await createAdventure(t.app, vendor, { price_per_person: '35.00', capacity: 8 });
    const body = { adventure_offering_id: tour.id, starts_at: '2026-07-01T09:00:00Z', participants_count: 3 };
    const res = await quote(body, 'not-a-token');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      currency: 'eur',
      total_price: '105.00',
      price_lines: [
        { kind: 'base', code: null, label: tour.title, quantity: 3, unit_price: '35.00', amount: '105.00' },
      ],
      is_available: true,
      remaining: 1,
    });
  });

  it('creates nothing, and quotes a window a request would be refused as unavailable', async () => {
    const item = await createEquipment(t.app, vendor, { price_per_day: '45.00', quantity: 2 });
    const body = {
      equipment_item_id: item.id,
      starts_at: '2026-07-02T09:00:00Z',
      ends_at: '2026-07-03T12:00:00Z',
    };
    const before = await countRows(t.db, 'bookings');
    const clicks = await countRows(t.db, 'listing_clicks');
    expect((await quote({ ...body, quantity: 2 })).json()).toMatchObject({
      total_price: '180.00',
      remaining: 2,
    });
    expect(await countRows(t.db, 'bookings')).toBe(before);
    expect(await countRows(t.db, 'listing_clicks')).toBe(clicks);
    expect((await bookingRequester(api)(customer.token, { ...body, quantity: 2 })).statusCode).toBe(201);
    expect((await quote(body)).json()).toMatchObject({
      total_price: '90.00',
      is_available: false,
      remaining: 0,
    });
  });

  it('answers the same 400s and 404s as a request', async () => {
    const item = await createEquipment(t.app, vendor, { quantity: 2 });
    const window = { starts_at: '2026-07-04T09:00:00Z', ends_at: '2026-07-04T10:00:00Z' };
    expect((await quote({ equipment_item_id: 999_999, ...window })).statusCode).toBe(404);
    const tooMany = await quote({ equipment_item_id: item.id, ...window, quantity: 3 });
    expect(tooMany.statusCode).toBe(400);
    expect(Object.keys(tooMany.json().errors)).toEqual(['quantity']);
    const past = await quote({
      equipment_item_id: item.id,
      starts_at: '2020-01-01T09:00:00Z',
      ends_at: window.ends_at,
    });
    expect(Object.keys(past.json().errors)).toEqual(['starts_at']);
    const both = await quote({ equipment_item_id: item.id, adventure_offering_id: 1, ...window });
    expect(both.statusCode).toBe(400);
  });
});
