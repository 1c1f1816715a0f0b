import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../src/db/transactions.ts';
import { confirmApprovedBooking, findBookingForPayment } from '../../../src/modules/booking/index.ts';
import { vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, listingOf, transitioner } from './setup.ts';

// What the payments module uses of booking, called directly.

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
  [vendor, customer] = await Promise.all([registerVendor(t.app), registerCustomer(t.app)]);
  kayak = await listingOf(t.db, vendor, { priceCents: 4500 });
});
afterAll(() => t.close());

let day = 1;
async function newBooking() {
  const d = String(day++).padStart(2, '0');
  const res = await request(customer.token, {
    equipment_item_id: kayak,
    starts_at: `2026-07-${d}T10:00:00Z`,
    ends_at: `2026-07-${d}T20:00:00Z`,
  });
  return res.json() as { id: number };
}
const detail = async (id: number) =>
  (await api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: customer.token })).json();

describe('booking interface for payments', () => {
  it('findBookingForPayment gives parties, status, amount and currency', async () => {
    const { id } = await newBooking();
    expect(await findBookingForPayment(t.db, id, t.clock.now().getTime())).toEqual({
      id,
      customerId: customer.id,
      vendorId: await vendorProfileId(t.db, vendor.id),
      status: 'requested',
      totalPriceCents: 4500,
      currency: 'usd',
    });
    expect(await findBookingForPayment(t.db, 999_999, t.clock.now().getTime())).toBeUndefined();
    expect(await findBookingForPayment(t.db, 2 ** 40, t.clock.now().getTime())).toBeUndefined();
  });

  it('confirmApprovedBooking moves approved → confirmed once, with a history entry without actor', async () => {
    const { id } = await newBooking();
    const now = t.clock.now().getTime();
    expect(await inTransaction(t.db, (trx) => confirmApprovedBooking(trx, id, now))).toBe(false);
    expect((await detail(id)).status).toBe('requested');
    await transition(vendor.token, id, 'approve');
    const later = now + 5_000;
    expect(await inTransaction(t.db, (trx) => confirmApprovedBooking(trx, id, later))).toBe(true);
    const booking = await detail(id);
    expect(booking.status).toBe('confirmed');
    expect(booking.updated_at).toBe(new Date(later).toISOString());
    expect(booking.status_history.at(-1)).toEqual({
      from_status: 'approved',
      to_status: 'confirmed',
      note: 'payment succeeded',
      actor_id: null,
      created_at: new Date(later).toISOString(),
    });
    expect(await inTransaction(t.db, (trx) => confirmApprovedBooking(trx, id, later))).toBe(false);
    expect((await detail(id)).status_history).toHaveLength(3);
  });

  it('confirmApprovedBooking leaves a declined or cancelled booking as it is', async () => {
    const declined = await newBooking();
    await transition(vendor.token, declined.id, 'approve');
    await transition(vendor.token, declined.id, 'decline');
    const cancelled = await newBooking();
    await transition(vendor.token, cancelled.id, 'approve');
    await transition(customer.token, cancelled.id, 'cancel');
    const now = t.clock.now().getTime();
    for (const [id, status] of [
      [declined.id, 'declined'],
      [cancelled.id, 'cancelled'],
    ] as const) {
      expect(await confirmApprovedBooking(t.db, id, now)).toBe(false);
      expect((await detail(id)).status).toBe(status);
    }
  });

  it('is undone when the caller’s transaction rolls back', async () => {
    const { id } = await newBooking();
    await transition(vendor.token, id, 'approve');
    await expect(
      inTransaction(t.db, async (trx) => {
        expect(await confirmApprovedBooking(trx, id, t.clock.now().getTime())).toBe(true);
        throw new Error('payment write failed');
      }),
    ).rejects.toThrow('payment write failed');
    expect((await detail(id)).status).toBe('approved');
    expect((await detail(id)).status_history).toHaveLength(2);
  });

  it('gives the currency the booking was requested in, whatever the vendor uses later', async () => {
    const { id } = await newBooking();
    const changed = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      payload: { currency: 'EUR' },
    });
    expect(changed.json().currency).toBe('eur');
    expect((await detail(id)).currency).toBe('usd');
    expect((await findBookingForPayment(t.db, id, t.clock.now().getTime()))?.currency).toBe('usd');
    const { id: later } = await newBooking();
    expect((await findBookingForPayment(t.db, later, t.clock.now().getTime()))?.currency).toBe('eur');
  });
});
