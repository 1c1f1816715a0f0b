import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { issuePasswordResetToken } from '../../src/modules/accounts/index.ts';
import { PASSWORD_RESET_EVENT } from '../../src/outbox/events.ts';
import { PASSWORD } from '../reliability/server-process.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { expectPageTitle, PHONE, QUIET, registerCustomer, registerVendor } from './vendor-api.ts';

// The account page (profile and password, decisions §15) and the forgotten-password pages. The outbox
// worker that mails the reset link is not part of this suite: the test issues the token the way the worker
// does (issuePasswordResetToken) and opens the link itself.

const NEW_PASSWORD = 'Harbour-Lights-77';

/** Logs in through the form and waits until the header knows the user. */
async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect.poll(() => page.getByRole('link', { name: 'Account' }).count()).toBe(1);
}

describe.skipIf(!browserAvailable)('the account pages', () => {
  // no outbox worker in this server (NOTIFICATION_POLL_INTERVAL_MS, the lead's setting): the test issues
  // the reset token itself, and no mail is written
  const world = useWorld({ NOTIFICATION_POLL_INTERVAL_MS: '0' });

  it('edits the profile (a reload shows it) and changes the password (the new one logs in)', async () => {
    const customer = await registerCustomer(world.server.url);
    const page = await world.newPage();
    await logIn(page, customer.email, PASSWORD);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/account');
    await expectPageTitle(page, 'Account');
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Maya');
    await expectAccessible(page);

    await page.getByLabel('First name').fill('Beatriz');
    await page.getByLabel('Last name').fill('Moura');
    await page.getByLabel('Phone').fill('+351 934 000 111');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Profile saved.' }).count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByLabel('First name').inputValue()).toBe('Beatriz');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Moura');
    expect(await page.getByLabel('Phone').inputValue()).toBe('+351 934 000 111');

    // a wrong current password is the API's 400, shown at the field
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByText('The current password is not correct.').count()).toBe(1);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() =>
        page.getByRole('status').filter({ hasText: 'Password changed. Please log in again.' }).count(),
      )
      .toBe(1);
    // every session ended, this page's too
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.getByRole('link', { name: 'Log in' }).count()).toBe(1);
    await expectAccessible(page);

    await logIn(page, customer.email, NEW_PASSWORD);
    await page.waitForURL('**/bookings');
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });

  it('links the account page from the vendor dashboard too', async () => {
    const vendor = await registerVendor(world.server.url, 'Cove Paddles');
    const page = await world.newPage({ viewport: PHONE });
    await logIn(page, vendor.email, PASSWORD);
    await page.waitForURL('**/vendor/');
    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/account');
    await expect.poll(() => page.getByRole('button', { name: 'Change password' }).count()).toBe(1);
    expectQuietConsole(world, QUIET);
  });

  it('resets a forgotten password: the request is in the outbox, the link sets a new password once', async () => {
    const customer = await registerCustomer(world.server.url);
    const page = await world.newPage({ viewport: PHONE });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await expectPageTitle(page, 'Forgot password');
    await expectAccessible(page);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('If an account exists for that address, we sent a link.');

    const handle = world.database.open();
    let token: string;
    try {
      const events = await handle.db
        .selectFrom('notification_events')
        .select('payload')
        .where('type', '=', PASSWORD_RESET_EVENT)
        .execute();
      expect(events.map((e) => JSON.parse(e.payload).data)).toContainEqual({ email: customer.email });
      const issued = await issuePasswordResetToken(handle.db, customer.email, Date.now());
      token = issued!.token;
    } finally {
      await handle.close();
    }

    await page.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await expectPageTitle(page, 'Reset your password');
    await expectAccessible(page);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Your new password is set. Log in');
    await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL('**/login');
    await logIn(page, customer.email, NEW_PASSWORD);

    // the same link again is refused, in words, with a way to a new one
    const again = await world.newPage();
    await again.goto(`/reset-password?token=${encodeURIComponent(token)}`);
    await again.getByLabel('New password').fill('Another-Password-9');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await expect
      .poll(() => again.getByRole('alert').textContent())
      .toBe(
        'This reset link is not valid: it was already used, has expired or is unknown. Ask for a new link',
      );
    await expectAccessible(again);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });
});
