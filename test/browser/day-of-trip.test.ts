import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_QUESTIONS } from '../../src/modules/catalog/questions.schemas.ts';
import { apiOf, localInput, type Shop, seedShop } from './customer-seed.ts';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, expectPageTitle, logInAsVendor, pay, QUIET, registerCustomer } from './vendor-api.ts';

// The day of the trip (decisions §23, §26): the booking form's questions and waiver, the answers on My
// bookings, the vendor's Today page on a 360 px phone (attendance buttons, waiver and payment per booking,
// print layout, CSV), and the editors of questions and the waiver text; axe on each.

// the certification level (a required choice per participant) and allergies (a text per booking)
const QUESTIONS = [EXAMPLE_QUESTIONS[0], EXAMPLE_QUESTIONS[2]];
const WAIVER = 'Diving carries risks.\nI take part at my own risk.';
const SMALL_PHONE = { width: 360, height: 740 };
const ZONE = 'Europe/Lisbon';

const localDate = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(iso));
const localTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: ZONE,
  }).format(new Date(iso));
/**
 * When the day's tour starts: two hours from now (a whole minute), or 09:00 the next local day when the
 * kayak booked after it (until 90 minutes after the tour's start) would end past Lisbon's midnight, so
 * the day's bookings share one local date whatever the hour the suite runs. Check-in opens 24 hours
 * before a start, so either is checked in today; a no-show is refused until it.
 */
function tourStart(): Temporal.ZonedDateTime {
  const soon = Temporal.Instant.fromEpochMilliseconds(Math.ceil(Date.now() / 60_000) * 60_000)
    .add({ minutes: 120 })
    .toZonedDateTimeISO(ZONE);
  if (soon.add({ minutes: 90 }).toPlainDate().equals(soon.toPlainDate())) return soon;
  return soon.toPlainDate().add({ days: 1 }).toZonedDateTime({ timeZone: ZONE, plainTime: '09:00' });
}
/** `minutes` after `start`, as the API writes an instant. */
const after = (start: Temporal.ZonedDateTime, minutes: number) =>
  new Date(start.add({ minutes }).epochMilliseconds).toISOString();

describe.skipIf(!browserAvailable)('the day of the trip', () => {
  const world = useWorld();
  let shop: Shop;

  it('asks the questions and the waiver, refuses what is missing at its field, and shows the answers', async () => {
    const base = world.server.url;
    shop = await seedShop(base);
    await apiCall(base, 'PATCH', `/api/v1/adventrues/vendor/offerings/${shop.adventure.id}/`, {
      body: { questions: QUESTIONS },
      token: shop.vendorToken,
    });
    await apiCall(base, 'PATCH', '/api/v1/accounts/vendor-profile/me/', {
      body: { waiver_text: WAIVER },
      token: shop.vendorToken,
    });

    const page = await world.newPage({ viewport: SMALL_PHONE });
    await page.goto(`/signup?next=${encodeURIComponent(`/adventures/${shop.adventure.public_id}`)}`);
    await page.getByLabel('Email').fill(`diver-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('Tidal-Paddle-2024!');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(`**/adventures/${shop.adventure.public_id}`);
    await page.getByLabel('Start', { exact: true }).fill(localInput(4, 10));
    await page.getByLabel('Participants', { exact: true }).fill('2');
    await expect.poll(() => page.getByLabel('Certification level (participant 2)').count()).toBe(1);
    expect(await page.getByLabel('Allergies').count()).toBe(1);
    // the waiver's text, a name and the checkbox
    await expect.poll(() => page.getByRole('region', { name: 'Waiver text' }).textContent()).toBe(WAIVER);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect.poll(() => page.getByText('An answer for participant 1 is required.').count()).toBe(1);
    expect(
      await page.getByText('This vendor asks every booking to accept its waiver', { exact: false }).count(),
    ).toBe(1);
    await expectAccessible(page);

    await page.getByLabel('Certification level (participant 1)').selectOption('Open Water');
    await page.getByLabel('Certification level (participant 2)').selectOption('Advanced');
    await page.getByLabel('Allergies').fill('Penicillin');
    await page.getByLabel('Full name').fill('Maya Costa');
    await page.getByLabel('I accept the waiver').check();
    await expect.poll(() => page.locator('[data-total]').textContent()).toBe('€70.00');
    await page.getByRole('button', { name: 'Request booking' }).click();
    await expect.poll(() => page.locator('[data-booked-total]').count()).toBe(1);

    await page.getByRole('link', { name: 'See your bookings' }).click();
    const answers = page.getByRole('definition').filter({ hasText: 'Open Water' });
    await expect.poll(() => answers.textContent()).toBe('1. Open Water, 2. Advanced');
    expect(await page.getByText('Waiver accepted by Maya Costa', { exact: false }).count()).toBe(1);
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });

  it('runs the day on a 360 px phone: check in, no-show refused before the start, returned, undo, print and CSV', async () => {
    const base = world.server.url;
    const api = apiOf(base);
    const customer = await registerCustomer(base);
    const start = tourStart();
    const tourAt = after(start, 0);
    const tour = await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
      token: customer.token,
      body: {
        adventure_offering_id: shop.adventure.id,
        starts_at: tourAt,
        participants_count: 1,
        answers: { cert: ['Advanced'], allergies: 'None' },
        waiver_acceptance: { accepted: true, name: 'Maya Costa' },
      },
    });
    const kayak = await apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
      token: customer.token,
      body: {
        equipment_item_id: shop.equipment.id,
        starts_at: after(start, 30),
        ends_at: after(start, 90),
        waiver_acceptance: { accepted: true, name: 'Maya Costa' },
      },
    });
    for (const booking of [tour, kayak]) {
      await api.post(`/api/v1/booking/bookings/${booking.id}/approve/`, {}, shop.vendorToken);
      await pay(base, customer.token, booking.id as number);
    }
    const vendorEmail = (await api.get('/api/v1/accounts/me/', shop.vendorToken)).email as string;
    const page = await world.newPage({ viewport: SMALL_PHONE });
    await logInAsVendor(page, vendorEmail);
    await page.getByRole('link', { name: 'Today' }).click();
    await expectPageTitle(page, 'Today');
    await page.getByLabel('Date').fill(localDate(tourAt));

    const section = page.getByRole('region', { name: `${shop.adventure.title} ${localTime(tourAt)}` });
    const diver = section.getByRole('article', { name: 'Maya Costa' });
    await expect.poll(() => diver.locator('[data-attendance]').textContent()).toBe('Not checked in');
    expect(await diver.textContent()).toContain('Paid');
    expect(await diver.textContent()).toContain('Waiver accepted by Maya Costa');
    expect(await diver.getByRole('button', { name: 'Returned' }).count()).toBe(0);
    // readable at 360 px: nothing wider than the screen, buttons a thumb can hit
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    const box = await diver.getByRole('button', { name: 'Check in' }).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(48);
    await expectAccessible(page);

    await diver.getByRole('button', { name: 'No-show' }).click();
    await expect
      .poll(() => diver.getByText('A booking can be marked a no-show only from its start.').count())
      .toBe(1);
    await diver.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => diver.locator('[data-attendance]').textContent()).toBe('Checked in');
    await diver.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => diver.locator('[data-attendance]').textContent()).toBe('Not checked in');
    await diver.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => diver.locator('[data-attendance]').textContent()).toBe('Checked in');

    const pickups = page.getByRole('region', { name: 'Pick-ups' });
    const renter = pickups.getByRole('article', { name: 'Maya Costa' });
    await renter.getByRole('button', { name: 'Check in' }).click();
    await expect.poll(() => renter.locator('[data-attendance]').textContent()).toBe('Checked in');
    await renter.getByRole('button', { name: 'Returned' }).click();
    await expect.poll(() => renter.locator('[data-attendance]').textContent()).toBe('Returned');
    await expectAccessible(page);
    const stored = (await api.get(`/api/v1/booking/bookings/${tour.id}/`, shop.vendorToken)) as {
      attendance: string;
      status_history: { note: string }[];
    };
    expect(stored.attendance).toBe('checked_in');
    expect(stored.status_history.map((h) => h.note).filter((n) => n.startsWith('attendance'))).toEqual([
      'attendance: pending → checked_in',
      'attendance: checked_in → pending',
      'attendance: pending → checked_in',
    ]);

    await expectCsv(page, String(tour.id));
    await expectPrintLayout(page);
    expectQuietConsole(world, [...QUIET, /status of 409/]);
  });

  it('edits a listing’s questions and the waiver text', async () => {
    const base = world.server.url;
    const vendorEmail = (await apiOf(base).get('/api/v1/accounts/me/', shop.vendorToken)).email as string;
    const page = await world.newPage();
    await logInAsVendor(page, vendorEmail);
    await page.goto(`/vendor/listings/equipment/${shop.equipment.id}`);
    const questions = page.getByRole('region', { name: 'Questions' });
    await questions.getByRole('button', { name: 'Add question' }).click();
    const first = questions.getByRole('group', { name: 'Question 1' });
    await first.getByLabel('Question', { exact: true }).fill('Paddle length');
    await first.getByLabel('Code', { exact: true }).fill('paddle');
    await first.getByLabel('Answer').selectOption('choice');
    await first.getByLabel('Asked').selectOption('participant');
    await questions.getByRole('button', { name: 'Save questions' }).click();
    await expect.poll(() => first.getByText('Enter 1 to 50 choices.').count()).toBe(1);
    await expectAccessible(page);
    await first.getByLabel('Choices').fill('200 cm, 210 cm, 220 cm');
    await first.getByLabel('Required').check();
    await questions.getByRole('button', { name: 'Save questions' }).click();
    await expect.poll(() => questions.getByText('Questions saved.').count()).toBe(1);
    const item = await apiCall(base, 'GET', `/api/v1/equipment/items/${shop.equipment.public_id}/`);
    expect(item.questions).toEqual([
      {
        code: 'paddle',
        label: 'Paddle length',
        kind: 'choice',
        choices: ['200 cm', '210 cm', '220 cm'],
        required: true,
        per: 'participant',
      },
    ]);

    await page.goto('/vendor/settings');
    await expect.poll(() => page.getByLabel('Waiver text').inputValue()).toBe(WAIVER);
    await page.getByLabel('Waiver text').fill('Rent at your own risk.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByText('Settings saved.').count()).toBe(1);
    const profile = await apiCall(base, 'GET', '/api/v1/accounts/vendor-profile/me/', {
      token: shop.vendorToken,
    });
    expect(profile.waiver_text).toBe('Rent at your own risk.');
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });
});

/** `Download CSV` saves the day's manifest: a header row and the booking's row. */
async function expectCsv(page: Page, bookingId: string) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const text = readFileSync((await download.path()) as string, 'utf8');
  const [header, ...rows] = text.trim().split('\n');
  expect(header.startsWith('section,local_time,listing_title,booking_id')).toBe(true);
  expect(rows.some((r) => r.split(',')[3] === bookingId && r.includes('checked_in'))).toBe(true);
}

/** In print, the controls are gone and every section starts its own page. */
async function expectPrintLayout(page: Page) {
  await page.emulateMedia({ media: 'print' });
  expect(await page.getByRole('button', { name: 'Check in' }).first().isVisible()).toBe(false);
  expect(await page.getByLabel('Date').isVisible()).toBe(false);
  expect(await page.locator('.site-header').isVisible()).toBe(false);
  const breaks = (await page.evaluate(
    `[...document.querySelectorAll('.trip-section')].map((s) => getComputedStyle(s).breakAfter)`,
  )) as string[];
  expect(breaks.length).toBeGreaterThanOrEqual(2);
  expect(breaks).toEqual([...breaks.slice(0, -1).map(() => 'page'), 'auto']);
  await page.emulateMedia({ media: 'screen' });
}
