import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmApprovedBooking } from '../../../src/modules/booking/index.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, listingOf, transitioner } from './setup.ts';

// GET bookings/ with starts_from and ordering=starts_at: the upcoming bookings, soonest first (the
// vendor dashboard's overview), whatever order they were requested in.

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
const HOUR = 3_600_000;
/** requested in this order; their starts are days 5, 2, 9, 2 (a tie: ids decide) and 1 after BASE */
const STARTS = [5, 2, 9, 2, 1];
let BASE = 0;
const ids: number[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  [vendor, customer] = await Promise.all([registerVendor(t.app), registerCustomer(t.app)]);
  const listing = await listingOf(t.db, vendor, { title: 'Canoe', priceCents: 3000, quantity: 5 });
  BASE = Date.UTC(2030, 0, 1);
  const request = bookingRequester(api);
  for (const day of STARTS) {
    t.clock.advance(1000);
    const starts = BASE + day * 24 * HOUR;
    const res = await request(customer.token, {
      equipment_item_id: listing,
      starts_at: new Date(starts).toISOString(),
      ends_at: new Date(starts + HOUR).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().id);
  }
  // the first three confirmed, the rest left requested
  const transition = transitioner(api);
  for (const id of ids.slice(0, 3)) {
    expect((await transition(vendor.token, id, 'approve')).statusCode).toBe(200);
    expect(await confirmApprovedBooking(t.db, id, t.clock.now().getTime())).toBe(true);
  }
});
afterAll(() => t.close());

const list = (token: string, query: string) =>
  api({ method: 'GET', url: `/api/v1/booking/bookings/${query}`, token });
const idsOf = (res: { json(): { results: { id: number }[] } }) => res.json().results.map((b) => b.id);

describe('the booking list by start', () => {
  it('orders by starts_at, soonest first, ties by id, for the vendor and the customer alike', async () => {
    const expected = [ids[4], ids[1], ids[3], ids[0], ids[2]];
    for (const account of [vendor, customer]) {
      const res = await list(account.token, '?ordering=starts_at');
      expect(res.statusCode).toBe(200);
      expect(idsOf(res)).toEqual(expected);
      expect(res.json().count).toBe(5);
    }
    // the default stays newest first
    expect(idsOf(await list(vendor.token, ''))).toEqual([...ids].reverse());
    expect(idsOf(await list(vendor.token, '?ordering=-created_at'))).toEqual([...ids].reverse());
  });

  it('keeps the bookings starting at or after starts_from, with the status filter and pagination', async () => {
    const from = new Date(BASE + 2 * 24 * HOUR).toISOString();
    const upcoming = await list(vendor.token, `?status=confirmed&ordering=starts_at&starts_from=${from}`);
    expect(idsOf(upcoming)).toEqual([ids[1], ids[0], ids[2]]);
    expect(upcoming.json().count).toBe(3);
    // an offset is read as the moment it names: one hour later than BASE + 2 days excludes the day-2 starts
    const later = new Date(BASE + 2 * 24 * HOUR).toISOString().replace('Z', '-01:00');
    expect(
      idsOf(await list(vendor.token, `?ordering=starts_at&starts_from=${encodeURIComponent(later)}`)),
    ).toEqual([ids[0], ids[2]]);
    const page1 = (await list(vendor.token, `?ordering=starts_at&starts_from=${from}&page_size=2`)).json();
    expect(page1.results.map((b: { id: number }) => b.id)).toEqual([ids[1], ids[3]]);
    expect(page1.count).toBe(4);
    expect(page1.next).toContain('ordering=starts_at');
    expect(page1.next).toContain('starts_from=');
  });

  it('refuses an unknown ordering and a starts_from that is no datetime', async () => {
    const ordering = await list(vendor.token, '?ordering=price');
    expect(ordering.statusCode).toBe(400);
    expect(ordering.json().errors.ordering).toBeDefined();
    const from = await list(vendor.token, '?starts_from=tomorrow');
    expect(from.statusCode).toBe(400);
    expect(from.json().errors).toEqual({ starts_from: ['Enter a valid ISO 8601 datetime.'] });
  });
});
