import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { listMail } from '../../src/modules/notifications/mail-files.ts';
import { PASSWORD } from '../reliability/server-process.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import {
  type Account,
  apiCall,
  expectPageTitle,
  logInAsVendor,
  PHONE,
  pay,
  QUIET,
  registerCustomer,
  registerVendor,
  windowIn,
} from './vendor-api.ts';

// A shop is a team (decisions §25, §26): the owner invites a guide from Settings → Team, the guide joins
// from the invitation mail's link (read from MAIL_DIR, where the server writes it without SMTP), and sees
// only what staff may do: the day's manifest to check people in, the bookings to approve, no way to refund.

const mailDir = mkdtempSync(join(tmpdir(), 'waterbook-team-mail-'));
const GUIDE = 'guide.rui@example.com';

/** The /join link of the invitation mailed to `email`, once the server's outbox has sent it. */
async function invitationLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await listMail(mailDir)).find((m) => m.to.includes(email));
        link = mail && /https?:\/\/\S+\/join\?token=\S+/.exec(mail.text)?.[0];
        return Boolean(link);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return new URL(link!).pathname + new URL(link!).search;
}

const navLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();

describe.skipIf(!browserAvailable)('vendor dashboard: the team', () => {
  const world = useWorld({ MAIL_DIR: mailDir, NOTIFICATION_POLL_INTERVAL_MS: '200' });
  let owner: Account;
  let customer: Account;
  const ids = { requested: 0, confirmed: 0, today: 0 };
  // a kayak picked up two hours from now: on today's manifest (the shop's zone is UTC), check-in open
  const pickUp = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 2 * 3_600_000);

  beforeAll(async () => {
    const base = world.server.url;
    owner = await registerVendor(base, 'Ria Formosa Kayaks');
    customer = await registerCustomer(base);
    const item = await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
      token: owner.token,
      body: {
        public_id: 'ria-kayak',
        title: 'Sea kayak',
        price_per_day: '45.00',
        quantity: 3,
        category_id: 2,
      },
    });
    const request = (days: number) =>
      apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: customer.token,
        body: { equipment_item_id: item.id, ...windowIn(days, 26) },
      }).then((b) => b.id as number);
    ids.requested = await request(9);
    ids.confirmed = await request(12);
    await apiCall(base, 'POST', `/api/v1/booking/bookings/${ids.confirmed}/approve/`, {
      token: owner.token,
      status: 200,
    });
    await pay(base, customer.token, ids.confirmed);
    ids.today = await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
      token: customer.token,
      body: {
        equipment_item_id: item.id,
        starts_at: pickUp.toISOString(),
        ends_at: new Date(pickUp.getTime() + 26 * 3_600_000).toISOString(),
      },
    }).then((b) => b.id as number);
    await apiCall(base, 'POST', `/api/v1/booking/bookings/${ids.today}/approve/`, {
      token: owner.token,
      status: 200,
    });
    await pay(base, customer.token, ids.today);
  });

  it('the owner invites a guide from Team: the invitation is pending and mailed', async () => {
    const page = await world.newPage();
    await logInAsVendor(page, owner.email);
    expect(await navLinks(page)).toEqual(
      expect.arrayContaining([
        'Overview',
        'Today',
        'Bookings',
        'Listings',
        'Promo codes',
        'Analytics',
        'Team',
        'Channels',
        'Settings',
      ]),
    );
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await expectPageTitle(page, 'Team');
    const invite = page.getByRole('region', { name: 'Invite' });
    await invite.getByLabel('Email').fill(GUIDE);
    await invite.getByLabel('Role').selectOption({ label: 'Staff' });
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect
      .poll(() => invite.getByRole('status').textContent())
      .toContain(`Invitation sent to ${GUIDE}`);
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    await expect.poll(() => pending.textContent()).toContain(GUIDE);
    expect(await pending.textContent()).toContain('Staff');
    // the members: the owner alone, with no action on themselves
    const members = page.getByRole('region', { name: 'Members' });
    expect(await members.getByRole('row').count()).toBe(2);
    expect(await members.getByRole('row').nth(1).textContent()).toContain('Owner');
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expect(await invitationLink(GUIDE)).toMatch(/^\/join\?token=/);
    expectQuietConsole(world, QUIET);
  });

  it('the guide joins from the mail, checks a customer in on Today, approves a request, and finds no refund', async () => {
    const page = await world.newPage({ viewport: PHONE });
    await page.goto(await invitationLink(GUIDE));
    await expectPageTitle(page, 'Join a team');
    await expectAccessible(page);
    await page.getByLabel('First name').fill('Rui');
    await page.getByLabel('Last name').fill('Costa');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Join' }).click();
    // staff may not see the overview: the dashboard opens at their first section, the day's manifest
    await page.waitForURL('**/vendor/today');
    await expectPageTitle(page, 'Today');
    expect(await page.getByRole('link', { name: 'Ria Formosa Kayaks' }).count()).toBe(1);
    expect(await navLinks(page)).toEqual(['Today', 'Bookings', 'Account']);
    await page.getByLabel('Date').fill(pickUp.toISOString().slice(0, 10));
    const renter = page
      .getByRole('region', { name: 'Pick-ups' })
      .getByRole('article', { name: 'Maya Costa' });
    await expect.poll(() => renter.locator('[data-attendance]').textContent()).toBe('Not checked in');
    await renter.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => renter.locator('[data-attendance]').textContent()).toBe('Checked in');
    expect(
      (
        await apiCall(world.server.url, 'GET', `/api/v1/booking/bookings/${ids.today}/`, {
          token: owner.token,
        })
      ).attendance,
    ).toBe('checked_in');
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Bookings', exact: true }).click();
    await expectPageTitle(page, 'Bookings');
    await expectAccessible(page);

    // the confirmed, paid booking: no cancel (it would refund), no refund anywhere
    const paid = page.getByRole('article').filter({ hasText: `#${ids.confirmed}` });
    await expect.poll(() => paid.count()).toBe(1);
    expect(await paid.textContent()).toContain('Confirmed');
    expect(await page.getByRole('button', { name: /refund|cancel booking/i }).count()).toBe(0);

    // the request: staff approve it, and the history names the guide
    const waiting = page.getByRole('article').filter({ hasText: `#${ids.requested}` });
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => waiting.textContent()).toContain('Approved');
    const approved = await apiCall(world.server.url, 'GET', `/api/v1/booking/bookings/${ids.requested}/`, {
      token: owner.token,
    });
    const guide = await apiCall(world.server.url, 'GET', '/api/v1/accounts/team/', { token: owner.token });
    const rui = (guide.results as { id: number; email: string; role: string }[]).find(
      (m) => m.email === GUIDE,
    );
    expect(rui?.role).toBe('staff');
    expect((approved.status_history as { actor_id: number }[]).at(-1)?.actor_id).toBe(rui?.id);

    // a page outside the role, opened by its address, says so
    await page.goto('/vendor/settings');
    await expectPageTitle(page, 'Not part of your role');
    expect(await page.getByRole('link', { name: 'Go to your dashboard' }).getAttribute('href')).toBe(
      '/vendor/today',
    );
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('the owner promotes the guide to manager, then removes them after confirming', async () => {
    const page = await world.newPage();
    await logInAsVendor(page, owner.email);
    await page.goto('/vendor/team');
    const members = page.getByRole('region', { name: 'Members' });
    await expect.poll(() => members.getByRole('row').count()).toBe(3);
    await members.getByLabel('Role of Rui Costa').selectOption({ label: 'Manager' });
    await members.getByRole('button', { name: 'Change role of Rui Costa' }).click();
    await expect
      .poll(() => members.getByRole('row', { name: /Rui Costa/ }).textContent())
      .toContain('Manager');

    await members.getByRole('button', { name: 'Remove Rui Costa' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Rui Costa?' });
    expect(await dialog.textContent()).toContain('can no longer sign in');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => members.getByRole('row').count()).toBe(2);
    const login = await fetch(`${world.server.url}/api/v1/accounts/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: GUIDE, password: PASSWORD }),
    });
    expect(login.status).toBe(401);
    expectQuietConsole(world, QUIET);
  });
});
