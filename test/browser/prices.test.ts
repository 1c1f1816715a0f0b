import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TOUR_PRICES } from '../modules/booking/prices-helpers.ts';
import { apiOf, localInput, type Shop, seedShop } from './customer-seed.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, expectPageTitle, logInAsVendor, PHONE, QUIET } from './vendor-api.ts';

// Prices the way tours are sold (decisions §21, §26): the booking form's categories, extras and promo
// code priced by POST quote, the lines on My bookings and the vendor's booking view, the listing editor's
// prices and the Promo codes page, at desktop and phone size with axe on each.

/** The booking's lines as the pages show them: 2 adults, a child, 3 wetsuits and a GoPro, SPRING10. */
const BOOKED_LINES = [
  'Adult 2 × €35.00€70.00',
  'Child 1 × €20.00€20.00',
  'Wetsuit (1 day) 3 × €5.00€15.00',
  'GoPro 1 × €15.00€15.00',
  'Promo code SPRING10 (10% off) -€12.00',
];

/** The price list's lines as the page shows them: each line's text, in order. */
const lines = (page: Page, name: string) =>
  page.getByRole('list', { name }).getByRole('listitem').allTextContents();

describe.skipIf(!browserAvailable)('prices: categories, extras and promo codes', () => {
  const world = useWorld();
  let shop: Shop;

  it('prices a tour by category, extras and a code as the customer changes the form, and books that price', async () => {
    shop = await seedShop(world.server.url);
    const api = apiOf(world.server.url);
    await apiCall(world.server.url, 'PATCH', `/api/v1/adventrues/vendor/offerings/${shop.adventure.id}/`, {
      body: TOUR_PRICES,
      token: shop.vendorToken,
    });
    await api.post(
      '/api/v1/booking/vendor/promo-codes/',
      { code: 'SPRING10', percent_off: 10, max_redemptions: 50 },
      shop.vendorToken,
    );

    const page = await world.newPage({ viewport: PHONE });
    await page.goto(`/signup?next=${encodeURIComponent(`/adventures/${shop.adventure.public_id}`)}`);
    await page.getByLabel('Email').fill(`prices-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('Tidal-Paddle-2024!');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`**/adventures/${shop.adventure.public_id}`);
    await page.getByLabel('Start', { exact: true }).fill(localInput(4, 17));
    // no Participants field: the categories replace it
    expect(await page.getByLabel('Participants', { exact: true }).count()).toBe(0);
    await page.getByLabel('Adult').fill('2');
    await page.getByLabel('Child').fill('1');
    await page.getByLabel('Wetsuit').fill('3');
    await page.getByLabel('GoPro').fill('1');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('€120.00');
    expect(await lines(page, 'Price')).toEqual(BOOKED_LINES.slice(0, -1));
    await expectAccessible(page);

    // an unknown code: the API's reason at the field, and no total
    await page.getByLabel('Promo code').fill('nope');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByText('Unknown promo code.').count()).toBe(1);
    await expectAccessible(page);
    // Enter in the field applies the code, never submits the booking
    await page.getByLabel('Promo code').fill('spring10');
    await page.getByLabel('Promo code').press('Enter');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('€108.00');
    expect((await lines(page, 'Price')).at(-1)).toBe(BOOKED_LINES.at(-1));
    expect((await api.get('/api/v1/booking/bookings/', shop.vendorToken)).count).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect.poll(() => page.locator('[data-booked-total]').textContent()).toBe('€108.00');
    const [booking] = (await api.get('/api/v1/booking/bookings/', shop.vendorToken)).results as {
      id: number;
      total_price: string;
      promo_code: string;
      participants_count: number;
    }[];
    expect(booking).toMatchObject({ total_price: '108.00', promo_code: 'SPRING10', participants_count: 3 });

    await page.getByRole('link', { name: 'See your bookings' }).click();
    const name = `Price of booking #${booking.id}`;
    await expect.poll(() => lines(page, name)).toEqual(BOOKED_LINES);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, [/401/, /status of 400/]);
  });

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    it(`lets the vendor create and deactivate codes, showing their uses, on a ${size}`, async () => {
      const base = world.server.url;
      const vendorEmail = (await apiOf(base).get('/api/v1/accounts/me/', shop.vendorToken)).email as string;
      const page = await world.newPage({ viewport });
      await logInAsVendor(page, vendorEmail);
      await page.goto('/vendor/promo-codes');
      await expectPageTitle(page, 'Promo codes');
      const spring = page.getByRole('region', { name: 'SPRING10' });
      // the customer's booking holds one use
      await expect.poll(() => spring.locator('[data-used]').textContent()).toBe('1 of 50 used');
      await expectAccessible(page);

      const code = `${size.toUpperCase()}-5`;
      await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
      await page.getByLabel('Amount off').fill('5');
      await page.getByRole('button', { name: 'Create' }).click();
      const made = page.getByRole('region', { name: code });
      await expect.poll(() => made.locator('[data-used]').textContent()).toBe('0 used');
      expect(await made.textContent()).toContain('€5.00 off');

      // both a percentage and an amount: the API's message at the fields
      await page.getByLabel('Code', { exact: true }).fill('BOTH');
      await page.getByLabel('Percent off').fill('10');
      await page.getByLabel('Amount off').fill('5');
      await page.getByRole('button', { name: 'Create' }).click();
      await expect
        .poll(() => page.getByText('Give exactly one of percent_off and amount_off.').count())
        .toBe(2);
      await expectAccessible(page);

      await made.getByRole('button', { name: 'Deactivate' }).click();
      await expect.poll(() => made.textContent()).toContain('Deactivated');
      expect(await made.getByRole('button', { name: 'Deactivate' }).count()).toBe(0);
      const codes = (
        await apiCall(base, 'GET', '/api/v1/booking/vendor/promo-codes/', { token: shop.vendorToken })
      ).results as { code: string; is_active: boolean }[];
      expect(codes.find((c) => c.code === code)?.is_active).toBe(false);
      await expectAccessible(page);
      expectQuietConsole(world, [...QUIET, /status of 400/]);
    });
  }

  it("shows the booking's lines to the vendor and edits a listing's categories and extras", async () => {
    const base = world.server.url;
    const vendorEmail = (await apiOf(base).get('/api/v1/accounts/me/', shop.vendorToken)).email as string;
    const page = await world.newPage();
    await logInAsVendor(page, vendorEmail);
    const [booking] = (await apiOf(base).get('/api/v1/booking/bookings/', shop.vendorToken)).results as {
      id: number;
    }[];
    await page.goto(`/vendor/bookings/${booking.id}`);
    await expect.poll(() => lines(page, `Price of booking #${booking.id}`)).toEqual(BOOKED_LINES);
    await expectAccessible(page);

    await page.goto(`/vendor/listings/equipment/${shop.equipment.id}`);
    const prices = page.getByRole('region', { name: 'Prices' });
    await expect.poll(() => prices.count()).toBe(1);
    // equipment has extras only
    expect(await prices.getByRole('button', { name: 'Add category' }).count()).toBe(0);
    await prices.getByRole('button', { name: 'Add extra' }).click();
    const extra = prices.getByRole('group', { name: 'Extra 1' });
    await extra.getByLabel('Code', { exact: true }).fill('drybag');
    await extra.getByLabel('Label').fill('Dry bag');
    await extra.getByLabel('Price').fill('3.50');
    await extra.getByLabel('Charged').selectOption('day');
    await extra.getByLabel('Max quantity').fill('0');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await expect.poll(() => extra.getByText('must be >= 1').count()).toBe(1);
    await expectAccessible(page);
    await extra.getByLabel('Max quantity').fill('4');
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await expect.poll(() => prices.getByText('Prices saved.').count()).toBe(1);
    const item = await apiCall(base, 'GET', `/api/v1/equipment/items/${shop.equipment.public_id}/`);
    expect(item.extras).toEqual([
      { code: 'drybag', label: 'Dry bag', price: '3.50', per: 'day', max_quantity: 4, resource_id: null },
    ]);

    await page.goto(`/vendor/listings/adventure/${shop.adventure.id}`);
    const tour = page.getByRole('region', { name: 'Prices' });
    await expect
      .poll(() => tour.getByRole('group', { name: 'Category 2' }).getByLabel('Label').inputValue())
      .toBe('Child');
    await tour.getByRole('button', { name: 'Add category' }).click();
    const senior = tour.getByRole('group', { name: 'Category 3' });
    await senior.getByLabel('Code', { exact: true }).fill('senior');
    await senior.getByLabel('Label').fill('Senior');
    await senior.getByLabel('Price').fill('30');
    await tour.getByRole('button', { name: 'Remove extra 2' }).click();
    await tour.getByRole('button', { name: 'Save prices' }).click();
    await expect.poll(() => tour.getByText('Prices saved.').count()).toBe(1);
    const offering = await apiCall(base, 'GET', `/api/v1/adventrues/offerings/${shop.adventure.public_id}/`);
    expect(offering.price_categories).toEqual([
      ...TOUR_PRICES.price_categories,
      { code: 'senior', label: 'Senior', price: '30.00' },
    ]);
    expect((offering.extras as { code: string }[]).map((e) => e.code)).toEqual(['wetsuit']);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });
});
