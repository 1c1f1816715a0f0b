import { describe, expect, it } from 'vitest';
import { apiOf, localInput, type Shop, seedShop } from './customer-seed.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';

// Browsing: search and filters kept in the URL (shareable, the back button works), listing cards, the
// vendor's storefront and an adventure's page, at desktop and phone size with axe on each.

const SIZES = [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;
const NO_SESSION = [/401/];

describe.skipIf(!browserAvailable)('browsing the customer site', () => {
  const world = useWorld();
  let shop: Shop;

  it('searches with the filters in the URL, and the back button returns to the previous search', async () => {
    shop = await seedShop(world.server.url);
    const page = await world.newPage();
    await page.goto('/');
    await expect.poll(() => page.getByRole('link', { name: shop.equipment.title }).count()).toBe(1);
    await expectAccessible(page);

    await page.getByLabel('Search', { exact: true }).fill(`kayak ${shop.equipment.public_id.slice(6)}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.has('search'));
    await expect.poll(() => page.getByRole('heading', { name: '1 result' }).count()).toBe(1);

    await page.getByLabel('What').selectOption('adventures');
    await page.getByLabel('Search', { exact: true }).fill('');
    await page.getByLabel('Highest price').fill('30');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('kind') === 'adventures');
    // the tour costs 35.00 a person: above the highest price asked
    await expect.poll(() => page.getByRole('heading', { name: '0 results' }).count()).toBe(1);
    await page.getByLabel('Highest price').fill('40');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByRole('link', { name: shop.adventure.title }).count()).toBe(1);

    await page.goBack();
    await expect.poll(() => page.getByRole('heading', { name: '0 results' }).count()).toBe(1);
    expect(await page.getByLabel('Highest price').inputValue()).toBe('30');
    await page.goBack();
    await expect.poll(() => page.getByRole('link', { name: shop.equipment.title }).count()).toBe(1);
    expectQuietConsole(world, NO_SESSION);
  });

  for (const [size, viewport] of SIZES) {
    it(`shows the home page, the storefront, an adventure page and the sign-up on a ${size}`, async () => {
      const page = await world.newPage({ viewport });
      await page.goto('/');
      await expect.poll(() => page.getByRole('link', { name: shop.equipment.title }).count()).toBe(1);
      await expectAccessible(page);
      // axe passes text whose colour equals its background; the header's links must differ from it
      const header = await page.evaluate(
        `[getComputedStyle(document.querySelector('.site-header')).backgroundColor,
          ...[...document.querySelectorAll('.site-header a')].map((a) => getComputedStyle(a).color)]`,
      );
      const [background, ...links] = header as string[];
      expect(links.length).toBeGreaterThan(0);
      for (const color of links) expect(color).not.toBe(background);
      await page.goto(`/v/${shop.slug}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(shop.businessName);
      await expect.poll(() => page.getByRole('heading', { name: 'Adventures' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: shop.equipment.title }).count()).toBe(1);
      await expectAccessible(page);

      await page.getByRole('link', { name: shop.adventure.title }).click();
      await page.waitForURL(`**/adventures/${shop.adventure.public_id}`);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe(shop.adventure.title);
      await expect.poll(() => page.getByText('Shared, up to 8 people').count()).toBe(1);
      await expect.poll(() => page.locator('table.availability tbody tr').count()).toBe(14);
      expect(await page.getByRole('link', { name: shop.businessName }).getAttribute('href')).toBe(
        `/v/${shop.slug}`,
      );
      await expectAccessible(page);

      await page.goto('/signup');
      await page.getByLabel('I rent out equipment or run adventures').check();
      await expect.poll(() => page.getByLabel('Business name').count()).toBe(1);
      await expectAccessible(page);
      expectQuietConsole(world, NO_SESSION);
    });
  }

  it("books an adventure's seats at the live price the API then charges, with a declined card first", async () => {
    const email = `browse-customer-${Date.now()}@example.com`;
    const page = await world.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`/signup?next=${encodeURIComponent(`/adventures/${shop.adventure.public_id}`)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('Tidal-Paddle-2024!');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`**/adventures/${shop.adventure.public_id}`);
    await page.getByLabel('Start', { exact: true }).fill(localInput(4, 17));
    await page.getByLabel('Participants').fill('3');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('€105.00');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect.poll(() => page.locator('[data-booked-total]').textContent()).toBe('€105.00');

    const api = apiOf(world.server.url);
    const [booking] = (await api.get('/api/v1/booking/bookings/', shop.vendorToken)).results as {
      id: number;
      total_price: string;
      participants_count: number;
    }[];
    expect(booking).toMatchObject({ total_price: '105.00', participants_count: 3 });
    await api.post(`/api/v1/booking/bookings/${booking.id}/approve/`, {}, shop.vendorToken);

    await page.getByRole('link', { name: 'See your bookings' }).click();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('button', { name: 'Simulate a declined card' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('The card was declined. The booking is still waiting for payment: try Pay again.');
    expect(await page.locator('.status').textContent()).toBe('Approved');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect.poll(() => page.locator('.status').textContent()).toBe('Confirmed');
    expectQuietConsole(world, NO_SESSION);
  });

  it('signs a vendor up with a business name, landing on the dashboard', async () => {
    const page = await world.newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(`browse-vendor-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('Tidal-Paddle-2024!');
    await page.getByLabel('I rent out equipment or run adventures').check();
    await page.getByLabel('Business name').fill('Harbour Boards');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL('**/vendor/');
    expectQuietConsole(world, NO_SESSION);
  });

  it("shows the API's refusal of a sign-up next to the field it concerns", async () => {
    const page = await world.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/signup');
    await page.getByLabel('Email').fill(`short-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    await expect.poll(() => page.getByText('at least 8 characters long', { exact: false }).count()).toBe(1);
    await expectAccessible(page);
    expectQuietConsole(world, [...NO_SESSION, /400/]);
  });
});
