import { describe, expect, it } from 'vitest';
import { insertWebhookDelivery, PUBLIC_HOOK_URL } from '../helpers/notification-factories.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, expectPageTitle, logInAsVendor, QUIET, registerVendor } from './vendor-api.ts';

// The settings page's Webhooks section (decisions §14): endpoints added, their secret shown once, rotated,
// disabled, enabled and deleted, and the delivery log with redelivery. The outbox worker is not part of
// this suite: the delivery in the log is written into the tables as the worker would write it.

describe.skipIf(!browserAvailable)('vendor settings: webhooks', () => {
  // no outbox worker in this server (NOTIFICATION_POLL_INTERVAL_MS, the lead's setting): the log's rows
  // stay as the test writes them
  const world = useWorld({ NOTIFICATION_POLL_INTERVAL_MS: '0' });

  it('adds an endpoint (secret shown once), rotates, disables, shows the delivery log, redelivers and deletes', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Signal Kayaks');
    const endpointsOnServer = async () =>
      (await apiCall(base, 'GET', '/api/v1/notifications/endpoints/', { token: vendor.token })).results as {
        id: number;
        is_active: boolean;
        event_types: string[];
        secret?: string;
      }[];
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expectPageTitle(page, 'Settings');
    await expect.poll(() => page.getByText('No endpoints yet.').count()).toBe(1);

    await page.getByLabel('Endpoint URL').fill(PUBLIC_HOOK_URL);
    await page.getByLabel('All events').uncheck();
    await page.getByLabel('Booking requested').check();
    await page.getByLabel('Booking cancelled').check();
    await page.getByLabel('Note').fill('Booking desk');
    await page.getByRole('button', { name: 'Add endpoint' }).click();

    const secretBox = page.getByLabel(`Signing secret of ${PUBLIC_HOOK_URL}`);
    await expect.poll(() => secretBox.count()).toBe(1);
    const firstSecret = await secretBox.inputValue();
    expect(firstSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
    const card = page.getByRole('article', { name: PUBLIC_HOOK_URL });
    await expect.poll(() => card.textContent()).toContain('Booking requested, Booking cancelled');
    expect(await card.textContent()).toContain('Booking desk');
    expect(await card.textContent()).toContain('Active');
    await expectAccessible(page);
    const [created] = await endpointsOnServer();
    expect(created).toMatchObject({
      event_types: ['booking.requested', 'booking.cancelled'],
      is_active: true,
    });
    expect(created.secret).toBeUndefined();

    // shown once: a reload has the endpoint, not its secret
    await page.reload();
    await expect.poll(() => card.count()).toBe(1);
    expect(await secretBox.count()).toBe(0);

    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => secretBox.count()).toBe(1);
    const rotated = await secretBox.inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(firstSecret);
    await page.getByRole('button', { name: 'Hide secret' }).click();
    expect(await secretBox.count()).toBe(0);

    await card.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => card.textContent()).toContain('Disabled: nothing is sent to it');
    expect((await endpointsOnServer())[0].is_active).toBe(false);
    await card.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => card.textContent()).toContain('Active');
    expect((await endpointsOnServer())[0].is_active).toBe(true);

    // a delivery that used up its retries, as the outbox worker leaves it
    const handle = world.database.open();
    try {
      await insertWebhookDelivery(handle.db, created.id, {
        type: 'booking.cancelled',
        status: 'failed',
        attempts: 8,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: null,
        createdAt: Date.now() - 3_600_000,
      });
    } finally {
      await handle.close();
    }
    await card.getByRole('button', { name: 'Delivery log' }).click();
    const rows = card.getByRole('table').getByRole('row');
    await expect.poll(() => rows.count()).toBe(2); // the header and the delivery
    const cells = async (row: number) =>
      (await rows.nth(row).getByRole('cell').allTextContents()).slice(1, 5);
    expect(await cells(1)).toEqual(['Booking cancelled', 'Failed', '8', 'HTTP 500']);
    await expectAccessible(page);

    await card.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => card.getByRole('status').textContent()).toBe('Redelivery queued.');
    await expect.poll(() => rows.count()).toBe(3);
    // newest first: the new attempt waits to be sent, the old one stays as it was
    expect(await cells(1)).toEqual(['Booking cancelled', 'Pending', '0', '—']);
    expect(await cells(2)).toEqual(['Booking cancelled', 'Failed', '8', 'HTTP 500']);

    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.getByText('No endpoints yet.').count()).toBe(1);
    expect(await endpointsOnServer()).toEqual([]);
    expectQuietConsole(world, QUIET);
  });

  it("shows the API's refusal of a private address at the URL field", async () => {
    const vendor = await registerVendor(world.server.url, 'Quiet Harbour');
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.goto('/vendor/settings');
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:8080/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const field = page.getByLabel('Endpoint URL');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('alert').count()).toBeGreaterThan(0);
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });
});
