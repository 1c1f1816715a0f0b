import { describe, expect, it } from 'vitest';
import { AXE_HEAVY_MS, browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import {
  apiCall,
  expectPageTitle,
  type Json,
  logInAsVendor,
  PHONE,
  pay,
  QUIET,
  registerCustomer,
  registerVendor,
} from './vendor-api.ts';

// The vendor puts an adventure on a schedule in Chromium (decisions §19, §26): a rule of weekdays, start
// times and capacity saved from the editor; the coming departures with seats sold; Close, Reopen, and
// Cancel departure after a confirmation naming its bookings and the refund. The vendor is in New York and
// the browser in UTC: the page shows New York's times, as the API gives them.

const WEEK = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const DESKTOP = { width: 1280, height: 900 };

/** How an en-US reader (this process, and the test's Chromium) sees a `YYYY-MM-DD` date: "Sun, Nov 29, 2026". */
const DATE_WORDS = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
} as const;
const dateWords = (localDate: string) =>
  new Intl.DateTimeFormat(undefined, DATE_WORDS).format(new Date(`${localDate}T00:00:00Z`));

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A vendor in New York with a shared tour of 6 seats at 30.00 a person, not yet scheduled. */
async function tourInNewYork(base: string, publicId: string) {
  const vendor = await registerVendor(base, `Cape Tours ${publicId}`);
  await apiCall(base, 'PATCH', '/api/v1/accounts/vendor-profile/me/', {
    token: vendor.token,
    body: { time_zone: 'America/New_York' },
  });
  const offering = await apiCall(base, 'POST', '/api/v1/adventrues/vendor/offerings/', {
    token: vendor.token,
    body: {
      public_id: publicId,
      title: 'Whale watching',
      price_per_person: '30.00',
      duration_minutes: 90,
      capacity: 6,
      booking_mode: 'shared',
      category_id: 1,
    },
  });
  return { vendor, offering };
}

describe.skipIf(!browserAvailable)('vendor dashboard: schedule and departures', () => {
  const world = useWorld();

  it(
    'saves a schedule from the editor, shows its departures at once, and saves the booking cutoff',
    async () => {
      const base = world.server.url;
      const { vendor, offering } = await tourInNewYork(base, 'cape-whales');
      const page = await world.newPage();
      await logInAsVendor(page, vendor.email);
      await page.goto(`/vendor/listings/adventure/${offering.id}`);
      await expectPageTitle(page, 'Whale watching');
      const departures = page.getByRole('region', { name: 'Departures' });
      await expect.poll(() => departures.textContent()).toContain('No departures in the coming 14 days.');

      // a rule: every day at 09:00 and 14:30, 4 seats; a time the API refuses is named at its field
      const schedule = page.getByRole('region', { name: 'Schedule' });
      await schedule.getByRole('button', { name: 'Add rule' }).click();
      const rule = schedule.getByRole('group', { name: 'Rule 1' });
      for (const day of WEEK) await rule.getByRole('checkbox', { name: day, exact: true }).check();
      await rule.getByLabel('Start times').fill('09:00, 9am');
      await rule.getByLabel('Capacity', { exact: true }).fill('4');
      await schedule.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => rule.getByLabel('Start times').getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page);
      await rule.getByLabel('Start times').fill('09:00, 14:30');
      await schedule.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => schedule.getByRole('status').textContent()).toBe('Schedule saved.');
      const saved = await apiCall(base, 'GET', `/api/v1/adventrues/vendor/offerings/${offering.id}/`, {
        token: vendor.token,
      });
      expect(saved.schedule).toEqual([
        {
          weekdays: WEEKDAYS,
          start_times: ['09:00', '14:30'],
          from_date: null,
          to_date: null,
          capacity: 4,
        },
      ]);

      // a second rule can be added and removed again before saving
      await schedule.getByRole('button', { name: 'Add rule' }).click();
      await expect.poll(() => schedule.getByRole('group', { name: 'Rule 2' }).count()).toBe(1);
      await schedule.getByRole('button', { name: 'Remove rule 2' }).click();
      expect(await schedule.getByRole('group', { name: /^Rule \d$/ }).count()).toBe(1);

      // the list shows the new departures at once, two a day in New York's times
      const coming = (await apiCall(base, 'GET', '/api/v1/adventrues/offerings/cape-whales/departures/'))
        .departures as Json[];
      const times = departures.locator('tbody tr td:nth-child(2)');
      await expect.poll(() => times.count()).toBe(coming.length);
      expect(new Set(await times.allTextContents())).toEqual(new Set(['09:00', '14:30']));

      // the booking cutoff is a field of the listing form
      await page.getByLabel('Booking closes (minutes before the start)').fill('60');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: /^Saved\.$/ })
            .count(),
        )
        .toBe(1);
      const withCutoff = await apiCall(base, 'GET', `/api/v1/adventrues/vendor/offerings/${offering.id}/`, {
        token: vendor.token,
      });
      expect(withCutoff.booking_cutoff_minutes).toBe(60);
      await page.setViewportSize(PHONE);
      await expectAccessible(page);
      expectQuietConsole(world, [...QUIET, /status of 400/]);
    },
    AXE_HEAVY_MS,
  );

  it(
    'closes and reopens a departure, and cancels one after naming its bookings and refund',
    async () => {
      const base = world.server.url;
      const { vendor, offering } = await tourInNewYork(base, 'cape-dolphins');
      await apiCall(base, 'PATCH', `/api/v1/adventrues/vendor/offerings/${offering.id}/`, {
        token: vendor.token,
        body: { schedule: [{ weekdays: WEEKDAYS, start_times: ['09:00', '14:30'], capacity: 4 }] },
      });
      const coming = (await apiCall(base, 'GET', '/api/v1/adventrues/offerings/cape-dolphins/departures/'))
        .departures as Json[];

      // the third day's 09:00 gets a paid booking of 2 and a request of 1
      const day = [...new Set(coming.map((d) => d.local_date as string))][2] as string;
      const target = coming.find((d) => d.local_date === day && d.local_time === '09:00') as Json;
      const startsAt = target.starts_at as string;
      const payer = await registerCustomer(base);
      const paid = await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: payer.token,
        body: { adventure_offering_id: offering.id, starts_at: startsAt, participants_count: 2 },
      });
      await apiCall(base, 'POST', `/api/v1/booking/bookings/${paid.id}/approve/`, {
        token: vendor.token,
        body: {},
        status: 200,
      });
      const paymentId = await pay(base, payer.token, paid.id as number);
      const asker = await registerCustomer(base);
      const asked = await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: asker.token,
        body: { adventure_offering_id: offering.id, starts_at: startsAt, participants_count: 1 },
      });

      const page = await world.newPage();
      await logInAsVendor(page, vendor.email);
      await page.goto(`/vendor/listings/adventure/${offering.id}`);
      const departures = page.getByRole('region', { name: 'Departures' });
      const row = departures.locator(`tr[data-starts-at="${startsAt}"]`);
      await expect.poll(() => row.getByRole('rowheader').textContent()).toBe(dateWords(day));
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        '09:00',
        '3 of 4',
        '2',
        'Open',
        'CloseCancel departure',
      ]);
      await expectAccessible(page);

      // close it: customers see it closed; reopen it
      await row.getByRole('button', { name: /^Close / }).click();
      await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('Closed');
      const publicStatus = async () =>
        (
          (await apiCall(base, 'GET', '/api/v1/adventrues/offerings/cape-dolphins/departures/'))
            .departures as Json[]
        ).find((d) => d.starts_at === startsAt)?.status;
      expect(await publicStatus()).toBe('closed');
      await row.getByRole('button', { name: /^Reopen / }).click();
      await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('Open');
      expect(await publicStatus()).toBe('limited');

      // cancel it: the confirmation names the 2 bookings and the $60.00 refund before anything happens
      await page.setViewportSize(PHONE);
      await row.getByRole('button', { name: /^Cancel departure / }).click();
      const dialog = page.getByRole('dialog', {
        name: `Cancel the departure at 09:00 on ${dateWords(day)}?`,
      });
      await expect.poll(() => dialog.locator('[data-refund]').textContent()).toBe('$60.00');
      expect(await dialog.locator('[data-bookings]').textContent()).toBe('2 bookings');
      expect(await dialog.textContent()).toContain('2 bookings (1 paid)');
      await expectAccessible(page);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      const untouched = await apiCall(base, 'GET', `/api/v1/booking/bookings/${paid.id}/`, {
        token: vendor.token,
      });
      expect(untouched.status).toBe('confirmed');

      await row.getByRole('button', { name: /^Cancel departure / }).click();
      await expect.poll(() => dialog.locator('[data-refund]').textContent()).toBe('$60.00');
      await dialog.getByLabel('Note to the customers').fill('Gale warning: no boats out.');
      await dialog.getByRole('button', { name: 'Yes, cancel departure' }).click();
      await expect
        .poll(() => departures.getByRole('status').textContent())
        .toBe(`Departure 09:00 on ${dateWords(day)} cancelled, with 2 bookings.`);
      await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('Cancelled');
      // a cancelled departure can only be reopened (the wind dropped), its bookings staying cancelled
      expect(await row.getByRole('button').allTextContents()).toEqual(['Reopen']);
      await expectAccessible(page);
      await page.setViewportSize(DESKTOP);
      await expectAccessible(page);

      // both bookings are cancelled with the note, and the paid one is refunded in full
      for (const id of [paid.id, asked.id]) {
        const booking = await apiCall(base, 'GET', `/api/v1/booking/bookings/${id}/`, {
          token: vendor.token,
        });
        expect(booking.status).toBe('cancelled');
        const last = (booking.status_history as Json[]).at(-1);
        expect(last).toMatchObject({ to_status: 'cancelled', note: 'Gale warning: no boats out.' });
      }
      const payment = await apiCall(base, 'GET', `/api/v1/payment/${paymentId}/status/`, {
        token: payer.token,
      });
      expect(payment).toMatchObject({ amount: '60.00', amount_refunded: '60.00' });

      // reopened, it sells all its seats again; the cancelled bookings stay cancelled
      await row.getByRole('button', { name: /^Reopen / }).click();
      await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('Open');
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        '09:00',
        '0 of 4',
        '0',
        'Open',
        'CloseCancel departure',
      ]);
      expect(await publicStatus()).toBe('available');
      const still = await apiCall(base, 'GET', `/api/v1/booking/bookings/${paid.id}/`, {
        token: vendor.token,
      });
      expect(still.status).toBe('cancelled');
      expectQuietConsole(world, [...QUIET, /status of 400/]);
    },
    AXE_HEAVY_MS,
  );
});
