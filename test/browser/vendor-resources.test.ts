import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../reliability/server-process.ts';
import { chooseRental } from './customer-seed.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import {
  apiCall,
  expectPageTitle,
  logInAsVendor,
  PHONE,
  QUIET,
  registerCustomer,
  registerVendor,
  windowIn,
} from './vendor-api.ts';

// Shared resources in the vendor dashboard (decisions §22, §26): the Resources page (New resource with
// Name, Quantity and Create; each resource's quantity, Delete, and its use over the coming days as bars
// with a table), and the listing editor's Resources section and an extra's resource, at desktop and phone
// size with axe on each.

describe.skipIf(!browserAvailable)('vendor resources', () => {
  const world = useWorld();

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    it(`creates a resource, shows its use, edits its quantity and refuses a delete while used, on a ${size}`, async () => {
      const base = world.server.url;
      const vendor = await registerVendor(base, `Boats ${size}`);
      const customer = await registerCustomer(base);
      const page = await world.newPage({ viewport });
      await logInAsVendor(page, vendor.email);
      await page.getByRole('link', { name: 'Resources' }).click();
      await expectPageTitle(page, 'Resources');
      await expectAccessible(page);

      await page.getByLabel('Name').fill('Sea kayak');
      await page.getByLabel('Quantity', { exact: true }).fill('4');
      await page.getByRole('button', { name: 'Create' }).click();
      const card = page.getByRole('region', { name: 'Sea kayak', exact: true });
      await expect.poll(() => card.textContent()).toContain('Not in use in the next 7 days.');
      const [kayaks] = (
        await apiCall(base, 'GET', '/api/v1/booking/vendor/resources/', { token: vendor.token })
      ).results as { id: number; quantity: number }[];
      expect(kayaks.quantity).toBe(4);

      // a rental using 3 kayaks tomorrow shows in the table and as a bar
      const item = await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
        token: vendor.token,
        body: {
          public_id: `kayak-${size}`,
          title: 'Kayak',
          price_per_day: '40.00',
          category_id: 1,
          quantity: 10,
          resources: [{ resource_id: kayaks.id, per: 'unit', amount: 1 }],
        },
      });
      const window = windowIn(1, 2);
      await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: customer.token,
        body: { equipment_item_id: item.id, ...window, quantity: 3 },
      });
      await page.reload();
      const table = page.getByRole('table', { name: 'Sea kayak in use, next 7 days' });
      await expect.poll(() => table.getByRole('cell', { name: '3 of 4' }).count()).toBe(1);
      expect(await card.locator('.usage-bar span').getAttribute('style')).toContain('width: 75%');
      await expectAccessible(page);

      // below what bookings hold: the API's refusal; then a quantity that fits
      await card.getByLabel('Quantity of Sea kayak').fill('2');
      await card.getByRole('button', { name: 'Save quantity' }).click();
      await expect
        .poll(() =>
          card.getByText('quantity cannot be 2: current and future bookings use 3 at once.').count(),
        )
        .toBe(1);
      await card.getByLabel('Quantity of Sea kayak').fill('6');
      await card.getByRole('button', { name: 'Save quantity' }).click();
      await expect.poll(() => table.getByRole('cell', { name: '3 of 6' }).count()).toBe(1);

      await card.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => card.getByText(/A listing or an extra uses this resource/).count()).toBe(1);
      await expectAccessible(page);
      expectQuietConsole(world, [...QUIET, /status of 409/]);
    });
  }

  it('tells a customer which resource is taken when another listing holds it', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Lagoon kayaks');
    const customer = await registerCustomer(base);
    const pool = await apiCall(base, 'POST', '/api/v1/booking/vendor/resources/', {
      token: vendor.token,
      body: { name: 'sea kayak', quantity: 1 },
    });
    const item = (publicId: string) =>
      apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
        token: vendor.token,
        body: {
          public_id: publicId,
          title: `Kayak ${publicId}`,
          price_per_day: '40.00',
          category_id: 1,
          quantity: 5,
          resources: [{ resource_id: pool.id, per: 'unit', amount: 1 }],
        },
      });
    const single = await item('single-kayak');
    const double = await item('double-kayak');
    const day = (n: number) => {
      const d = new Date();
      d.setUTCDate(d.getUTCDate() + n);
      d.setUTCHours(9, 0, 0, 0);
      return d.toISOString();
    };
    await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
      token: customer.token,
      body: { equipment_item_id: single.id, starts_at: day(5), ends_at: day(7), quantity: 1 },
    });
    const page = await world.newPage({ viewport: PHONE });
    await page.goto(`/login?next=/equipment/${double.public_id}`);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`**/equipment/${double.public_id}`);
    await chooseRental(page, [5, '09:00'], [7, '09:00'], 'UTC');
    await expect.poll(() => page.getByText('Not available for that choice.').count()).toBe(1);
    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('No sea kayak is free for that time: all 1 are in use.');
    await expectAccessible(page);
    const mine = (await apiCall(base, 'GET', '/api/v1/booking/bookings/', { token: customer.token }))
      .results as {
      equipment_item_id: number;
    }[];
    expect(mine.map((b) => b.equipment_item_id)).toEqual([single.id]);
    expectQuietConsole(world, [...QUIET, /status of 409/]);
  });

  it('chooses resources and how they are used in the listing editor, and an extra’s resource', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Boat tours');
    const boat = await apiCall(base, 'POST', '/api/v1/booking/vendor/resources/', {
      token: vendor.token,
      body: { name: 'RIB boat', quantity: 1 },
    });
    const suits = await apiCall(base, 'POST', '/api/v1/booking/vendor/resources/', {
      token: vendor.token,
      body: { name: 'Wetsuit', quantity: 8 },
    });
    const tour = await apiCall(base, 'POST', '/api/v1/adventrues/vendor/offerings/', {
      token: vendor.token,
      body: {
        public_id: 'dolphins',
        title: 'Dolphin watch',
        price_per_person: '30.00',
        duration_minutes: 90,
        capacity: 10,
        booking_mode: 'shared',
        category_id: 1,
        extras: [{ code: 'wetsuit', label: 'Wetsuit', price: '5.00', per: 'booking', max_quantity: 10 }],
      },
    });
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.goto(`/vendor/listings/adventure/${tour.id}`);
    const section = page.getByRole('region', { name: 'Resources' });
    await section.getByRole('button', { name: 'Add resource' }).click();
    const use = section.getByRole('group', { name: 'Resource use 1' });
    await use.getByLabel('Resource', { exact: true }).selectOption(String(boat.id));
    await use.getByLabel('Used').selectOption('departure');
    await use.getByLabel('Amount').fill('0');
    await section.getByRole('button', { name: 'Save resources' }).click();
    await expect.poll(() => use.getByText('must be >= 1').count()).toBe(1);
    await use.getByLabel('Amount').fill('1');
    await section.getByRole('button', { name: 'Save resources' }).click();
    await expect.poll(() => section.getByText('Resources saved.').count()).toBe(1);

    const prices = page.getByRole('region', { name: 'Prices' });
    await prices
      .getByRole('group', { name: 'Extra 1' })
      .getByLabel('Takes from resource')
      .selectOption(String(suits.id));
    await prices.getByRole('button', { name: 'Save prices' }).click();
    await expect.poll(() => prices.getByText('Prices saved.').count()).toBe(1);
    const saved = await apiCall(base, 'GET', '/api/v1/adventrues/offerings/dolphins/');
    expect(saved.resources).toEqual([{ resource_id: boat.id, per: 'departure', amount: 1 }]);
    expect((saved.extras as { resource_id: number }[])[0].resource_id).toBe(suits.id);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });
});
