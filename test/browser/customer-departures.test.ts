import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../reliability/server-process.ts';
import { apiOf, seedShop } from './customer-seed.ts';
import { AXE_HEAVY_MS, browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, PHONE, QUIET, registerCustomer } from './vendor-api.ts';

// A customer books a scheduled tour in Chromium (decisions §19, §26): a date, that day's departures with
// the seats left (full and closed ones not selectable), one of them, participants, Request booking; the
// booking starts at the departure. The vendor is in Europe/Lisbon and the browser in UTC: the times shown
// are the vendor's local ones, as the API gives them.

interface Departure {
  starts_at: string;
  local_date: string;
  local_time: string;
  remaining: number;
  status: string;
}

/** Logs a customer in through the form, which then shows `path`. */
async function logInTo(page: Page, email: string, path: string) {
  await page.goto(`/login?next=${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`**${path}`);
}

/** The departure radio buttons as a person meets them: each one's label, and whether it can be chosen. */
const radioNames = (page: Page) =>
  page
    .getByRole('radio')
    .evaluateAll((inputs) =>
      inputs.map(
        (i) => `${i.parentElement?.textContent?.trim()}${i.hasAttribute('disabled') ? ' (disabled)' : ''}`,
      ),
    );

describe.skipIf(!browserAvailable)('booking a scheduled tour', () => {
  const world = useWorld();

  it(
    'picks a date and a departure, sees what is full or closed, and books the departure',
    async () => {
      const base = world.server.url;
      const api = apiOf(base);
      const shop = await seedShop(base);
      const tour = shop.adventure;
      // every day at 09:00, 14:30 and 18:00 Lisbon time, 8 seats (the offering's capacity)
      await apiCall(base, 'PATCH', `/api/v1/adventrues/vendor/offerings/${tour.id}/`, {
        token: shop.vendorToken,
        body: {
          schedule: [
            {
              weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
              start_times: ['09:00', '14:30', '18:00'],
              from_date: null,
              to_date: null,
              capacity: null,
            },
          ],
        },
      });

      // a day four days ahead: its 14:30 is sold out by another customer, its 18:00 closed by the vendor
      const coming = (await api.get(`/api/v1/adventrues/offerings/${tour.public_id}/departures/`))
        .departures as Departure[];
      const dates = [...new Set(coming.map((d) => d.local_date))];
      const day = dates[4] as string;
      const ofDay = coming.filter((d) => d.local_date === day);
      expect(ofDay.map((d) => d.local_time)).toEqual(['09:00', '14:30', '18:00']);
      const [morning, afternoon, evening] = ofDay as [Departure, Departure, Departure];
      const other = await registerCustomer(base);
      await api.post(
        '/api/v1/booking/bookings/request/',
        { adventure_offering_id: tour.id, starts_at: afternoon.starts_at, participants_count: 8 },
        other.token,
      );
      const departurePath = `/api/v1/adventrues/vendor/offerings/${tour.id}/departures/${encodeURIComponent(evening.starts_at)}/`;
      await apiCall(base, 'PATCH', departurePath, { token: shop.vendorToken, body: { is_closed: true } });

      const customer = await registerCustomer(base);
      const page = await world.newPage();
      await logInTo(page, customer.email, `/adventures/${tour.public_id}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(tour.title);

      // the coming departures in the availability table, a row a day, with no free start field anywhere
      const rows = page.locator('table.departures-table tbody tr');
      await expect.poll(() => rows.count()).toBe(dates.length);
      expect(await rows.nth(4).locator('li').allTextContents()).toEqual([
        '09:00 · 8 left',
        '14:30 · Sold out',
        '18:00 · Closed',
      ]);
      expect(await rows.locator('li').count()).toBe(coming.length);
      expect(await page.getByLabel('Start', { exact: true }).count()).toBe(0);
      // the first date offered is the first with seats: today's or tomorrow's, whatever time it is now
      const firstOpen = coming.find((d) => d.status === 'available');
      await expect.poll(() => page.getByLabel('Date').inputValue()).toBe(firstOpen?.local_date);

      await page.getByLabel('Date').fill(day);
      const radio = (time: string) => page.getByRole('radio', { name: new RegExp(`^${time} · `) });
      // (polled: until the new date's departures replace those of the date first offered)
      await expect
        .poll(() => radioNames(page))
        .toEqual(['09:00 · 8 left', '14:30 · Sold out (disabled)', '18:00 · Closed (disabled)']);
      // nothing to fill in before a departure is chosen
      expect(await page.getByLabel('Participants').count()).toBe(0);
      await expectAccessible(page);

      await radio('09:00').check();
      await page.getByLabel('Participants').fill('3');
      await expect.poll(() => page.locator('[data-total]').textContent()).toBe('€105.00');
      await page.setViewportSize(PHONE);
      await expectAccessible(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('button', { name: 'Request booking' }).click();
      await expect.poll(() => page.locator('[data-booked-start]').textContent()).toContain('09:00');

      // the booking is the departure's, and its seats are taken from it
      const [booking] = (await api.get('/api/v1/booking/bookings/', customer.token)).results as Record<
        string,
        unknown
      >[];
      expect(booking).toMatchObject({
        status: 'requested',
        starts_at: morning.starts_at,
        participants_count: 3,
        total_price: '105.00',
      });
      await page.reload();
      await page.getByLabel('Date').fill(day);
      await expect
        .poll(() => radioNames(page))
        .toEqual(['09:00 · 5 left', '14:30 · Sold out (disabled)', '18:00 · Closed (disabled)']);
      await page.setViewportSize(PHONE);
      await expectAccessible(page);
      expectQuietConsole(world, QUIET);
    },
    AXE_HEAVY_MS,
  );

  it('offers the first date of a season that starts after the coming two weeks', async () => {
    const base = world.server.url;
    const shop = await seedShop(base);
    const opening = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await apiCall(base, 'PATCH', `/api/v1/adventrues/vendor/offerings/${shop.adventure.id}/`, {
      token: shop.vendorToken,
      body: {
        schedule: [
          {
            weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
            start_times: ['10:00'],
            from_date: opening,
          },
        ],
      },
    });
    const customer = await registerCustomer(base);
    const page = await world.newPage({ viewport: PHONE });
    await logInTo(page, customer.email, `/adventures/${shop.adventure.public_id}`);
    await expect.poll(() => page.getByLabel('Date').inputValue()).toBe(opening);
    await expect.poll(() => radioNames(page)).toEqual(['10:00 · 8 left']);
    const notice = page.getByRole('region', { name: 'Availability' }).getByRole('status');
    expect(await notice.textContent()).toMatch(
      /^No departures in the coming two weeks\. The next one with seats leaves on .+ at 10:00\.$/,
    );
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('keeps the free start field for an adventure without a schedule', async () => {
    const shop = await seedShop(world.server.url);
    const customer = await registerCustomer(world.server.url);
    const page = await world.newPage({ viewport: PHONE });
    await logInTo(page, customer.email, `/adventures/${shop.adventure.public_id}`);
    await expect.poll(() => page.getByLabel('Start', { exact: true }).count()).toBe(1);
    expect(await page.getByLabel('Date', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('radio').count()).toBe(0);
    await expect.poll(() => page.locator('table.availability tbody tr').count()).toBe(14);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });
});
