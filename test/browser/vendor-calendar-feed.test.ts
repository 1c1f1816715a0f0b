import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AXE_HEAVY_MS, browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
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

// The Channels page's calendar feed (decisions §24, §26): the feed URL shown read-only, `Copy` putting it
// on the clipboard, `Rotate` asking first and then showing a new URL while the old one answers 404. The
// feeds are fetched by the page itself, as a calendar application would fetch them.

/** What a GET of `path` answers in the page: status, content type and the text. */
const fetchFrom = (page: Page, path: string) =>
  page.evaluate(async (p) => {
    const res = await fetch(p);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  }, path);

/** What the page's clipboard holds (an expression: the test's own types have no DOM). */
const clipboardOf = (page: Page) => page.evaluate<string>('navigator.clipboard.readText()');

describe.skipIf(!browserAvailable)('vendor dashboard: channels', () => {
  const world = useWorld();

  it(
    'shows the feed URL, copies it, and rotates it so that the old URL stops working',
    async () => {
      const base = world.server.url;
      const vendor = await registerVendor(base, 'Lagos Sea Tours');
      const customer = await registerCustomer(base);
      const item = await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
        token: vendor.token,
        body: { public_id: 'lagos-sup', title: 'Paddleboard', price_per_day: '30.00', category_id: 2 },
      });
      await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: customer.token,
        body: { equipment_item_id: item.id, ...windowIn(5, 26) },
      });
      const { url } = (await apiCall(base, 'GET', '/api/v1/booking/vendor/calendar-feed/', {
        token: vendor.token,
      })) as { url: string };

      const page = await world.newPage();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await logInAsVendor(page, vendor.email);
      await page.getByRole('link', { name: 'Channels', exact: true }).click();
      await expectPageTitle(page, 'Channels');
      const section = page.getByRole('region', { name: 'Calendar feed' });
      const field = section.getByLabel('Calendar feed URL');
      await expect.poll(() => field.inputValue()).toBe(url);
      expect(await field.getAttribute('readonly')).not.toBeNull();
      await expectAccessible(page);

      await section.getByRole('button', { name: 'Copy' }).click();
      await expect.poll(() => section.getByRole('status').textContent()).toBe('Copied.');
      expect(await clipboardOf(page)).toBe(url);

      const oldPath = new URL(url).pathname;
      const before = await fetchFrom(page, oldPath);
      expect(before.status).toBe(200);
      expect(before.type).toBe('text/calendar; charset=utf-8');
      expect(before.text).toContain('SUMMARY:Paddleboard — Maya Costa\\, 1 unit');

      // Rotate asks first; keeping the URL changes nothing
      await section.getByRole('button', { name: 'Rotate' }).click();
      const dialog = page.getByRole('dialog', { name: 'Replace the calendar feed URL?' });
      await expect.poll(() => dialog.count()).toBe(1);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Keep this URL' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await field.inputValue()).toBe(url);
      expect((await fetchFrom(page, oldPath)).status).toBe(200);

      await section.getByRole('button', { name: 'Rotate' }).click();
      await dialog.getByRole('button', { name: 'Yes, rotate' }).click();
      await expect.poll(() => field.inputValue()).not.toBe(url);
      const rotated = await field.inputValue();
      expect(rotated).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
      expect(await section.textContent()).toContain('New URL made: the old one no longer works.');
      const current = (await apiCall(base, 'GET', '/api/v1/booking/vendor/calendar-feed/', {
        token: vendor.token,
      })) as { url: string };
      expect(current.url).toBe(rotated);
      const old = await fetchFrom(page, oldPath);
      expect(old.status).toBe(404);
      expect(JSON.parse(old.text)).toEqual({ detail: 'Calendar feed not found.', code: 'not_found' });
      expect((await fetchFrom(page, new URL(rotated).pathname)).status).toBe(200);

      await page.setViewportSize(PHONE);
      await expectAccessible(page);
      await section.getByRole('button', { name: 'Copy' }).click();
      await expect.poll(() => clipboardOf(page)).toBe(rotated);
      // the failed fetch of the old URL is the point of the test, not a fault of the page
      expectQuietConsole(world, [...QUIET, /status of 404/]);
    },
    AXE_HEAVY_MS,
  );

  it('shows a manager the same feed URL, on a phone', async () => {
    const base = world.server.url;
    const owner = await registerVendor(base, 'Portimão Paddle');
    const manager = await registerCustomer(base);
    // made a manager in the table, as joining by invitation would (the team suites test joining itself)
    const handle = world.database.open();
    try {
      const { vendor_id } = await handle.db
        .selectFrom('users')
        .select('vendor_id')
        .where('id', '=', owner.id)
        .executeTakeFirstOrThrow();
      await handle.db
        .updateTable('users')
        .set({ is_vendor: 1, vendor_id, vendor_role: 'manager' })
        .where('id', '=', manager.id)
        .execute();
    } finally {
      await handle.close();
    }
    const { url } = (await apiCall(base, 'GET', '/api/v1/booking/vendor/calendar-feed/', {
      token: owner.token,
    })) as { url: string };
    const page = await world.newPage({ viewport: PHONE });
    await logInAsVendor(page, manager.email);
    await page.getByRole('link', { name: 'Channels', exact: true }).click();
    await expectPageTitle(page, 'Channels');
    const field = page.getByRole('region', { name: 'Calendar feed' }).getByLabel('Calendar feed URL');
    await expect.poll(() => field.inputValue()).toBe(url);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });
});
