import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../reliability/server-process.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import {
  apiCall,
  expectPageTitle,
  logInAsVendor,
  PHONE,
  QUIET,
  registerCustomer,
  registerVendor,
} from './vendor-api.ts';

// Rentals the way shops rent (decisions §20) in Chromium: the vendor sets opening hours in Settings and
// rates, limits and a buffer in the listing editor; the customer's booking form then offers only the
// pick-up and return times those allow, in the vendor's zone, and shows the API's price for the window.

const ZONE = 'Europe/Lisbon';
/** The first Monday at least two days ahead in the shop's zone (the Sunday before it is still to come). */
function nextMonday(): Temporal.PlainDate {
  let day = Temporal.Now.plainDateISO(ZONE).add({ days: 2 });
  while (day.dayOfWeek !== 1) day = day.add({ days: 1 });
  return day;
}
const halfHours = (from: string, to: string) => {
  const times: string[] = [];
  for (
    let t = Temporal.PlainTime.from(from);
    Temporal.PlainTime.compare(t, Temporal.PlainTime.from(to)) <= 0;
  ) {
    times.push(t.toString({ smallestUnit: 'minute' }));
    if (t.hour === 23 && t.minute === 30) break;
    t = t.add({ minutes: 30 });
  }
  return times;
};
const optionsOf = (page: Page, label: string) => page.getByLabel(label).locator('option').allTextContents();

describe.skipIf(!browserAvailable)('rentals: hours, rates, limits and the live price', () => {
  const world = useWorld();
  let publicId = '';

  it('lets the vendor set opening hours, then rates, limits and a buffer on an item', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Paddle Shop');
    await apiCall(base, 'PATCH', '/api/v1/accounts/vendor-profile/me/', {
      body: { time_zone: ZONE },
      token: vendor.token,
    });
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expectPageTitle(page, 'Settings');
    const hours = page.getByRole('form', { name: 'Opening hours' });
    await hours.getByLabel('Always open').uncheck();
    // the usual hours are offered; an overlap on Monday is refused at Monday's field
    expect(await hours.getByLabel('Tue hours').inputValue()).toBe('09:00-18:00');
    expect(await hours.getByLabel('Sun hours').inputValue()).toBe('');
    await hours.getByLabel('Mon hours').fill('09:00-13:00, 12:00-18:00');
    await hours.getByRole('button', { name: 'Save opening hours' }).click();
    await expect.poll(() => hours.getByLabel('Mon hours').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => hours.textContent()).toContain('overlap');
    await expectAccessible(page);
    await hours.getByLabel('Mon hours').fill('09:00-18:00');
    await hours.getByRole('button', { name: 'Save opening hours' }).click();
    await expect.poll(() => hours.getByRole('status').textContent()).toBe('Opening hours saved.');
    const profile = await apiCall(base, 'GET', '/api/v1/accounts/vendor-profile/me/', {
      token: vendor.token,
    });
    expect(profile.opening_hours).toEqual({
      mon: [['09:00', '18:00']],
      tue: [['09:00', '18:00']],
      wed: [['09:00', '18:00']],
      thu: [['09:00', '18:00']],
      fri: [['09:00', '18:00']],
      sat: [['09:00', '18:00']],
      sun: [],
    });
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });

    const item = await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
      body: {
        public_id: `board-${Date.now()}`,
        title: 'Paddleboard',
        price_per_day: '60.00',
        category_id: 1,
        quantity: 2,
      },
      token: vendor.token,
    });
    publicId = item.public_id as string;
    await page.goto(`/vendor/listings/equipment/${item.id}`);
    await expectPageTitle(page, 'Paddleboard');
    const rates: [string, string][] = [
      ['10', '15.00'],
      ['120', '25.00'],
      ['240', '40.00'],
    ];
    for (const [i, [minutes, price]] of rates.entries()) {
      await page.getByRole('button', { name: 'Add rate' }).click();
      await page.getByLabel(`Rate ${i + 1} duration (minutes)`).fill(minutes);
      await page.getByLabel(`Rate ${i + 1} price`).fill(price);
    }
    await page.getByLabel('Shortest rental (minutes)').fill('60');
    await page.getByLabel('Longest rental (minutes)').fill('10080');
    await page.getByLabel('Turnaround buffer (minutes)').fill('60');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // ten minutes is too short for a rate: refused at the rate's field
    await expect
      .poll(() => page.getByLabel('Rate 1 duration (minutes)').getAttribute('aria-invalid'))
      .toBe('true');
    await page.getByLabel('Rate 1 duration (minutes)').fill('60');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Saved.');
    await expectAccessible(page);
    const saved = await apiCall(base, 'GET', `/api/v1/equipment/items/${publicId}/`);
    expect(saved).toMatchObject({
      rates: [
        { duration_minutes: 60, price: '15.00' },
        { duration_minutes: 120, price: '25.00' },
        { duration_minutes: 240, price: '40.00' },
      ],
      min_duration_minutes: 60,
      max_duration_minutes: 10080,
      buffer_minutes: 60,
    });
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });

  it('offers only open times within the limits and shows the API price for the window', async () => {
    const customer = await registerCustomer(world.server.url);
    const page = await world.newPage();
    await page.goto(`/login?next=${encodeURIComponent(`/equipment/${publicId}`)}`);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`**/equipment/${publicId}`);
    await expect.poll(() => page.getByText(`Times are local to ${ZONE}.`).count()).toBe(1);

    const monday = nextMonday();
    // Sunday: closed, nothing to pick up
    await page.getByLabel('Pick-up date').fill(monday.subtract({ days: 1 }).toString());
    await expect.poll(() => page.getByText('No pick-up on this date: choose another.').count()).toBe(1);
    expect(await page.getByLabel('Pick-up time').count()).toBe(0);
    // Monday: pick-ups every half hour from opening until before closing
    await page.getByLabel('Pick-up date').fill(monday.toString());
    await expect.poll(() => optionsOf(page, 'Pick-up time')).toEqual(halfHours('09:00', '17:30'));
    await page.getByLabel('Pick-up time').selectOption('09:00');
    await page.getByLabel('Return date').fill(monday.toString());
    // returns at least an hour later (the shortest rental), until closing time itself
    await expect.poll(() => optionsOf(page, 'Return time')).toEqual(halfHours('10:00', '18:00'));
    await page.getByLabel('Return time').selectOption('10:30');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('$25.00');
    await expect.poll(() => page.locator('.price-lines').textContent()).toContain('1 × $25.00');
    await page.getByLabel('Units').fill('2');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('$50.00');
    await page.getByLabel('Units').fill('1');
    await expectAccessible(page);
    // 26 hours: the half-day rate and a day
    await page.getByLabel('Return date').fill(monday.add({ days: 1 }).toString());
    await page.getByLabel('Return time').selectOption('11:00');
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('$100.00');
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect.poll(() => page.locator('[data-booked-total]').textContent()).toBe('$100.00');
    const [booking] = (
      await apiCall(world.server.url, 'GET', '/api/v1/booking/bookings/', { token: customer.token })
    ).results as Record<string, unknown>[];
    const pickUp = monday.toZonedDateTime({ timeZone: ZONE, plainTime: '09:00' }).toInstant().toString();
    expect(Date.parse(booking.starts_at as string)).toBe(Date.parse(pickUp));
    expect(booking.total_price).toBe('100.00');
    expectQuietConsole(world, QUIET);
  });
});
