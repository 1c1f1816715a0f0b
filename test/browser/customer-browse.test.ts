import { describe, expect, it } from 'vitest';
import { type Shop, seedShop } from './customer-seed.ts';
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
    it(`shows the storefront, an adventure page and the sign-up on a ${size}`, async () => {
      const page = await world.newPage({ viewport });
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
