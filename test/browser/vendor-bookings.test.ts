import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import {
  type Account,
  apiCall,
  expectPageTitle,
  type Json,
  logInAsVendor,
  PHONE,
  pay,
  QUIET,
  registerCustomer,
  registerVendor,
  windowIn,
} from './vendor-api.ts';

// The vendor dashboard's bookings inbox and overview, on bookings and clicks seeded through the public API
// by a customer and the vendor (the analytics page: vendor-analytics.test.ts).

/** The inbox card of one booking: its heading is the listing, its facts name `#id`. */
const card = (page: Page, id: number) => page.getByRole('article').filter({ hasText: `#${id}` });

describe.skipIf(!browserAvailable)('vendor dashboard: bookings, overview', () => {
  const world = useWorld();
  let vendor: Account & { slug: string };
  let customer: Account;
  const ids = { toApprove: 0, toDecline: 0, toCancel: 0 };
  let paymentId = 0;

  beforeAll(async () => {
    const base = world.server.url;
    vendor = await registerVendor(base, 'Bay Rentals');
    customer = await registerCustomer(base);
    await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
      token: vendor.token,
      body: {
        public_id: 'bay-sup',
        title: 'Paddleboard',
        price_per_day: '40.00',
        quantity: 2,
        category_id: 2,
      },
    });
    // two campaign clicks and one organic; the campaign's second click leads to a booking
    const campaign =
      '/api/v1/equipment/items/bay-sup/?utm_source=newsletter&utm_medium=email&utm_campaign=summer';
    await apiCall(base, 'GET', campaign);
    const click = await apiCall(base, 'GET', campaign);
    const organic = await apiCall(base, 'GET', '/api/v1/equipment/items/bay-sup/');
    const request = (days: number, extra: Json = {}) =>
      apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: customer.token,
        body: {
          equipment_item_id: organic.id,
          ...windowIn(days, 26),
          customer_notes: 'Two boards please',
          ...extra,
        },
      }).then((b) => b.id as number);
    ids.toApprove = await request(10, { marketing_click_id: click.marketing_click_id, quantity: 2 });
    ids.toDecline = await request(14);
    ids.toCancel = await request(20);
    await apiCall(base, 'POST', `/api/v1/booking/bookings/${ids.toCancel}/approve/`, {
      token: vendor.token,
      status: 200,
    });
    paymentId = await pay(base, customer.token, ids.toCancel);
  });

  const booking = (id: number) =>
    apiCall(world.server.url, 'GET', `/api/v1/booking/bookings/${id}/`, { token: vendor.token });

  it('shows the waiting requests with their deadlines, the upcoming booking and the last 30 days', async () => {
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    const waiting = page.getByRole('region', { name: 'Requests waiting' });
    await expect.poll(() => waiting.getByRole('listitem').count()).toBe(2);
    expect(await waiting.getByText(/^Answer before /).count()).toBe(2);
    const upcoming = page.getByRole('region', { name: 'Upcoming bookings' });
    await expect.poll(() => upcoming.getByRole('listitem').textContent()).toContain('Confirmed');
    const recent = page.getByRole('region', { name: 'Last 30 days' });
    await expect.poll(() => recent.getByRole('definition').first().textContent()).toBe('3');
    await expect.poll(() => recent.textContent()).toContain('$80.00');
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('approves one request with a note, declines another, and cancels a confirmed booking with its refund', async () => {
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.getByRole('link', { name: 'Bookings', exact: true }).click();
    await expectPageTitle(page, 'Bookings');
    await page.getByLabel('State').selectOption({ label: 'Requested' });
    await page.waitForURL('**/vendor/bookings?status=requested');
    await expect.poll(() => page.getByRole('article').count()).toBe(2);
    const first = card(page, ids.toApprove);
    expect(await first.textContent()).toContain(customer.email);
    expect(await first.textContent()).toContain('+351 912 345 678');
    expect(await first.textContent()).toContain('2 units');
    expect(await first.textContent()).toContain('$160.00');
    expect(await first.textContent()).toMatch(/Answer before /);
    await expectAccessible(page);

    await first.getByLabel('Note (optional)').fill('See you at the slipway');
    await first.getByRole('button', { name: 'Approve' }).click();
    // the list is reloaded: the approved booking leaves the Requested filter
    await expect.poll(() => page.getByRole('article').count()).toBe(1);
    expect(await booking(ids.toApprove)).toMatchObject({
      status: 'approved',
      vendor_notes: 'See you at the slipway',
    });

    const second = card(page, ids.toDecline);
    await second.getByRole('button', { name: 'Decline' }).click();
    expect(await second.getByRole('group').textContent()).toContain('Decline this request?');
    await expectAccessible(page);
    await second.getByRole('button', { name: 'Yes, decline' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('No bookings in the state Requested.');
    expect((await booking(ids.toDecline)).status).toBe('declined');

    await page.getByLabel('State').selectOption({ label: 'Confirmed' });
    const paid = card(page, ids.toCancel);
    await expect.poll(() => paid.count()).toBe(1);
    await paid.getByRole('button', { name: 'Cancel booking' }).click();
    expect(await paid.getByRole('group').textContent()).toContain('refunded to the customer in full');
    await paid.getByRole('button', { name: 'Yes, cancel booking' }).click();
    await expect.poll(() => page.getByRole('article').count()).toBe(0);
    expect((await booking(ids.toCancel)).status).toBe('cancelled');
    const payment = await apiCall(world.server.url, 'GET', `/api/v1/payment/${paymentId}/status/`, {
      token: customer.token,
    });
    expect(payment).toMatchObject({ status: 'refunded', amount_refunded: '80.00' });

    // the states read as words, and the detail view has the history
    await page.getByLabel('State').selectOption({ label: 'All states' });
    await expect.poll(() => page.getByRole('article').count()).toBe(3);
    expect(await card(page, ids.toApprove).locator('.status').textContent()).toBe('Approved');
    expect(await card(page, ids.toDecline).locator('.status').textContent()).toBe('Declined');
    expect(await card(page, ids.toCancel).locator('.status').textContent()).toBe('Cancelled');
    await card(page, ids.toApprove).getByRole('link', { name: 'Paddleboard' }).click();
    await expectPageTitle(page, `Booking #${ids.toApprove}`);
    const history = page.getByRole('list').filter({ hasText: 'Requested' });
    await expect.poll(() => history.getByRole('listitem').count()).toBe(2);
    expect(await history.getByRole('listitem').last().textContent()).toMatch(
      /Approved \(was Requested\): See you at the slipway$/,
    );
    expect(await page.getByText(/^Customer pays before /).count()).toBe(1);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });
});
