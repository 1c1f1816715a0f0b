import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, listingOf, transitioner } from './setup.ts';

// Every booking object carries both parties with their current contact details, and the currency its
// listing had when it was requested (decisions §10).

let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let vendor: Account;
let customer: Account;
let kayak: number;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  vendor = await registerVendor(t.app, {
    business_name: 'Shimoda Paddle',
    contact_email: 'desk@shimoda-paddle.example',
    contact_phone: '+81 558 00 0000',
    currency: 'JPY',
    time_zone: 'Asia/Tokyo',
  });
  customer = await registerCustomer(t.app, {
    first_name: 'Mei',
    last_name: 'Tanaka',
    phone_number: '+81 90 0000 0000',
  });
  kayak = await listingOf(t.db, vendor, { title: 'Sit-on-top kayak', priceCents: 450_000 });
});
afterAll(() => t.close());

let day = 1;
async function newBooking() {
  const d = String(day++).padStart(2, '0');
  const res = await request(customer.token, {
    equipment_item_id: kayak,
    starts_at: `2026-08-${d}T01:00:00Z`,
    ends_at: `2026-08-${d}T07:00:00Z`,
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const get = (url: string, token: string) => api({ method: 'GET', url, token }).then((r) => r.json());
const detail = (id: number, token: string) => get(`/api/v1/booking/bookings/${id}/`, token);
const listed = async (id: number, token: string) =>
  (await get('/api/v1/booking/bookings/?page_size=100', token)).results.find(
    (b: { id: number }) => b.id === id,
  );

const partiesNow = () => ({
  customer: {
    id: customer.id,
    first_name: 'Mei',
    last_name: 'Tanaka',
    email: customer.email,
    phone_number: '+81 90 0000 0000',
  },
  vendor: {
    business_name: 'Shimoda Paddle',
    slug: vendor.vendorSlug,
    contact_email: 'desk@shimoda-paddle.example',
    contact_phone: '+81 558 00 0000',
    time_zone: 'Asia/Tokyo',
  },
});

describe('both parties on every booking object', () => {
  it('on the request answer, the detail and the lists of both parties, in the vendor’s currency', async () => {
    const booking = await newBooking();
    const expected = { id: booking.id, currency: 'jpy', total_price: '4500.00', ...partiesNow() };
    expect(booking).toMatchObject(expected);
    expect(booking.customer_id).toBe(customer.id);
    expect(booking.vendor_slug).toBe(vendor.vendorSlug);
    for (const token of [customer.token, vendor.token]) {
      expect(await detail(booking.id, token)).toMatchObject(expected);
      expect(await listed(booking.id, token)).toMatchObject(expected);
    }
  });

  it('on the answer of every transition', async () => {
    const approved = await newBooking();
    const approve = await transition(vendor.token, approved.id, 'approve');
    expect(approve.json()).toMatchObject({ status: 'approved', ...partiesNow() });
    const cancel = await transition(customer.token, approved.id, 'cancel');
    expect(cancel.json()).toMatchObject({ status: 'cancelled', ...partiesNow() });
    const declined = await newBooking();
    const decline = await transition(vendor.token, declined.id, 'decline');
    expect(decline.json()).toMatchObject({ status: 'declined', ...partiesNow() });
  });

  it('shows the current contact details, but the currency the booking was requested in', async () => {
    const before = await newBooking();
    const changed = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      payload: {
        business_name: 'Izu Paddle',
        contact_phone: '+81 558 11 1111',
        time_zone: 'Pacific/Kiritimati',
        currency: 'usd',
      },
    });
    expect(changed.statusCode).toBe(200);
    // No route changes a customer's own details yet; the row is what any future one would write.
    await t.db
      .updateTable('users')
      .set({ phone_number: '+81 80 1111 1111', last_name: 'Sato' })
      .where('id', '=', customer.id)
      .execute();
    const now = {
      customer: { ...partiesNow().customer, last_name: 'Sato', phone_number: '+81 80 1111 1111' },
      vendor: {
        ...partiesNow().vendor,
        business_name: 'Izu Paddle',
        slug: 'izu-paddle',
        contact_phone: '+81 558 11 1111',
        time_zone: 'Pacific/Kiritimati',
      },
    };
    for (const token of [customer.token, vendor.token]) {
      const shown = await detail(before.id, token);
      expect(shown).toMatchObject({
        currency: 'jpy',
        total_price: '4500.00',
        vendor_slug: 'izu-paddle',
        ...now,
      });
      expect(await listed(before.id, token)).toMatchObject({ currency: 'jpy', ...now });
    }
    const after = await newBooking();
    expect(after).toMatchObject({ currency: 'usd', total_price: '4500.00', ...now });
  });
});
