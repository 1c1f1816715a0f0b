import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../reliability/server-process.ts';
import { apiOf, chooseRental, type Shop, seedShop } from './customer-seed.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';

// The customer's whole journey in Chromium: a campaign link to a listing, sign-up, a booking priced live as
// the API prices it, the vendor's approval, Pay through the mock checkout, Confirmed, the click attributed
// (decisions §18); then Cancel booking with the refund shown before it is applied.

const PHONE = { width: 390, height: 844 };
/** a page load with no session cookie asks for one and is told 401: expected, not a fault */
const NO_SESSION = [/401/];

async function signUp(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('First name').fill('Rita');
  await page.getByRole('button', { name: 'Sign up' }).click();
}

describe.skipIf(!browserAvailable)('the customer journey', () => {
  const world = useWorld();
  let shop: Shop;
  const email = `journey-${Date.now()}@example.com`;

  it('books from a campaign link, pays and is confirmed, with the booking attributed to the campaign', async () => {
    const api = apiOf(world.server.url);
    shop = await seedShop(world.server.url);
    const page = await world.newPage();
    const campaignPath = `/equipment/${shop.equipment.public_id}?utm_source=newsletter&utm_campaign=summer`;
    await page.goto(campaignPath);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(shop.equipment.title);
    // user text is text: the description's markup is shown, never parsed
    await expect.poll(() => page.getByText('with</b> paddles').count()).toBe(1);
    await expect
      .poll(() =>
        page.getByText('Free cancellation up to 48 hours before the start.', { exact: false }).count(),
      )
      .toBe(1);
    await expect.poll(() => page.locator('table.availability tbody tr').count()).toBe(14);
    await expectAccessible(page);

    // logged out: the form asks to log in, keeping the campaign in `next`
    const logIn = page.getByRole('link', { name: 'Log in to book' });
    expect(await logIn.getAttribute('href')).toBe(`/login?next=${encodeURIComponent(campaignPath)}`);
    await logIn.click();
    await page.waitForURL('**/login?next=*');
    await page.getByRole('main').getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL('**/signup?next=*');
    await expectAccessible(page);
    await signUp(page, email);
    await page.waitForURL((url) => url.pathname === `/equipment/${shop.equipment.public_id}`);
    expect(new URL(page.url()).searchParams.get('utm_campaign')).toBe('summer');

    // two days × two units × 45.00, as the API's quote prices it
    await chooseRental(page, [5, '09:00'], [7, '09:00']);
    await page.getByLabel('Units').fill('2');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('€180.00');
    const livePrice = await page.locator('[data-total]').textContent();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect.poll(() => page.locator('[data-booked-total]').textContent()).toBe(livePrice);
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Requested');

    // the API's price is the one shown, and the booking carries a marketing click of the campaign
    const [booking] = (await api.get('/api/v1/booking/bookings/', shop.vendorToken)).results as Record<
      string,
      unknown
    >[];
    expect(booking).toMatchObject({ status: 'requested', total_price: '180.00', quantity: 2 });
    const range = `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`;
    const clicks = (await api.get(`/api/v1/marketing/vendor/clicks/?${range}`, shop.vendorToken))
      .results as Record<string, unknown>[];
    const click = clicks.find((c) => c.marketing_click_id === booking.listing_click);
    expect(click).toMatchObject({
      traffic_type: 'marketing',
      utm_source: 'newsletter',
      utm_campaign: 'summer',
      public_id: shop.equipment.public_id,
    });

    // the vendor approves (through the API); My bookings shows the deadline to pay, then Pay
    await api.post(`/api/v1/booking/bookings/${booking.id}/approve/`, {}, shop.vendorToken);
    await page.getByRole('link', { name: 'My bookings' }).click();
    await page.waitForURL('**/bookings');
    await expect.poll(() => page.getByText('Pay before', { exact: false }).count()).toBe(1);
    await expect.poll(() => page.locator('.status').textContent()).toBe('Approved');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Pay' }).click();
    const checkout = page.getByRole('region', { name: 'Checkout' });
    await expect.poll(() => checkout.textContent()).toContain('€180.00');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect.poll(() => page.locator('.status').textContent()).toBe('Confirmed');
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Paid €180.00. Your booking is confirmed.');

    // the campaign row counts the booking
    const summary = await api.get(`/api/v1/marketing/vendor/summary/?${range}`, shop.vendorToken);
    const campaigns = summary.campaigns as Record<string, unknown>[];
    expect(campaigns.find((c) => c.utm_campaign === 'summer')).toMatchObject({
      utm_source: 'newsletter',
      bookings: 1,
    });
    expectQuietConsole(world, NO_SESSION);
  });

  it('cancels the confirmed booking on a phone, showing the refund before applying it; Escape keeps it', async () => {
    const page = await world.newPage({ viewport: PHONE });
    await page.goto('/login?next=/bookings');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/bookings');
    await expect.poll(() => page.locator('.status').textContent()).toBe('Confirmed');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking?' });
    // five days ahead, more than the 48 hours of the policy: all of it back
    await expect.poll(() => dialog.locator('[data-refund]').textContent()).toBe('€180.00');
    await expect.poll(() => dialog.textContent()).toContain('refunded in full');
    // focus is inside the dialog, and Escape closes it without cancelling
    expect(await page.evaluate('document.activeElement?.closest("dialog") !== null')).toBe(true);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.locator('.status').textContent()).toBe('Confirmed');

    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await expect.poll(() => dialog.locator('[data-refund]').textContent()).toBe('€180.00');
    await dialog.getByRole('button', { name: 'Confirm cancellation' }).click();
    await expect.poll(() => page.locator('.status').textContent()).toBe('Cancelled');
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Booking cancelled. €180.00 is refunded.');
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    expectQuietConsole(world, NO_SESSION);
  });
});
