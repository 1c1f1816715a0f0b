import { describe, expect, it } from 'vitest';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, expectPageTitle, logInAsVendor, PHONE, QUIET, registerVendor } from './vendor-api.ts';

// The Channels page's channel list (decisions §24, §26): `New channel` with `Name` and `Create`, the key
// shown once with `Copy`, `Rotate key` and `Deactivate`; each key tried on the OCTO API as a reseller
// would, at desktop and phone size with axe on each.

/** The status of GET /octo/v1/supplier with a key: 200 for an active channel's, 403 otherwise. */
async function supplierStatus(base: string, key: string): Promise<number> {
  const res = await fetch(`${base}/octo/v1/supplier`, { headers: { authorization: `Bearer ${key}` } });
  await res.body?.cancel();
  return res.status;
}

describe.skipIf(!browserAvailable)('vendor channels', () => {
  const world = useWorld();

  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 900 }],
    ['phone', PHONE],
  ] as const) {
    it(`creates a channel, shows and copies its key once, rotates it and deactivates, on a ${size}`, async () => {
      const base = world.server.url;
      const vendor = await registerVendor(base, `Resold ${size}`);
      const page = await world.newPage({ viewport });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await logInAsVendor(page, vendor.email);
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Channels' })
        .click();
      await expectPageTitle(page, 'Channels');
      await expect.poll(() => page.getByText('No channels yet.').count()).toBe(1);
      await expectAccessible(page);

      await page.getByLabel('Name').fill('Harbour Hotel');
      await page.getByRole('button', { name: 'Create' }).click();
      const keyField = page.getByLabel('Key of Harbour Hotel');
      await expect.poll(() => keyField.count()).toBe(1);
      const key = await keyField.inputValue();
      expect(key).toMatch(/^wbk_[A-Za-z0-9_-]{43}$/);
      // the key's own card: the calendar feed below has a Copy button of its own
      const shownKey = page.locator('.card', { has: keyField });
      await shownKey.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect.poll(() => shownKey.getByRole('status').textContent()).toBe('Copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
      expect(await supplierStatus(base, key)).toBe(200);
      await expectAccessible(page);

      // the key is not shown again: hidden, and not in the list after a reload
      await shownKey.getByRole('button', { name: 'Hide', exact: true }).click();
      await page.reload();
      const card = page.getByRole('region', { name: 'Harbour Hotel', exact: true });
      await expect.poll(() => card.textContent()).toContain('Active');
      expect(await page.content()).not.toContain(key);

      await card.getByRole('button', { name: 'Rotate key' }).click();
      await expect.poll(() => page.getByLabel('Key of Harbour Hotel').count()).toBe(1);
      const rotated = await page.getByLabel('Key of Harbour Hotel').inputValue();
      expect(rotated).not.toBe(key);
      expect([await supplierStatus(base, key), await supplierStatus(base, rotated)]).toEqual([403, 200]);

      await card.getByRole('button', { name: 'Deactivate' }).click();
      await expect.poll(() => card.getByRole('button', { name: 'Reactivate' }).count()).toBe(1);
      expect(await card.textContent()).toContain('Deactivated');
      const [stored] = (await apiCall(base, 'GET', '/api/v1/channels/', { token: vendor.token })).results as {
        is_active: boolean;
      }[];
      expect(stored.is_active).toBe(false);
      expect(await supplierStatus(base, rotated)).toBe(403);
      await expectAccessible(page);
      expectQuietConsole(world, QUIET);
    });
  }
});
