import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, expectAccessible, expectQuietConsole, useWorld } from './harness.ts';
import { apiCall, expectPageTitle, logInAsVendor, QUIET, registerVendor } from './vendor-api.ts';

// Bookings made through a channel (decisions §24) on the vendor's pages, seeded through the OCTO API as a
// reseller would: the bookings list and the Today page label them with the channel's name and show the
// contact the reseller sent instead of a customer; the analytics page's Channels table counts them.

const ZONE = 'Europe/Lisbon';
const localDate = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(iso));

describe.skipIf(!browserAvailable)('vendor dashboard: bookings from a channel', () => {
  const world = useWorld();
  let email = '';
  let bookingId = 0;
  let holdId = 0;
  let startsAt = '';

  beforeAll(async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Lagos Dolphins');
    email = vendor.email;
    await apiCall(base, 'PATCH', '/api/v1/accounts/vendor-profile/me/', {
      body: { time_zone: ZONE },
      token: vendor.token,
    });
    const tour = await apiCall(base, 'POST', '/api/v1/adventrues/vendor/offerings/', {
      token: vendor.token,
      body: {
        public_id: 'dolphin-watch',
        title: 'Dolphin watch',
        price_per_person: '40.00',
        duration_minutes: 120,
        capacity: 10,
        booking_mode: 'shared',
        category_id: 1,
        schedule: [{ weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_times: ['09:00'] }],
      },
    });
    const channel = await apiCall(base, 'POST', '/api/v1/channels/', {
      token: vendor.token,
      body: { name: 'Harbour Hotel' },
    });
    const key = channel.api_key as string;
    const octo = (path: string, body: unknown) =>
      apiCall(base, 'POST', `/octo/v1/${path}`, { token: key, body, status: 200 });
    const day = localDate(new Date(Date.now() + 3 * 86_400_000).toISOString());
    const product = { productId: tour.public_id, optionId: 'DEFAULT' };
    const [availability] = (await octo('availability', { ...product, localDate: day })) as unknown as {
      id: string;
    }[];
    const held = await octo('bookings', {
      ...product,
      uuid: randomUUID(),
      availabilityId: availability.id,
      resellerReference: 'HH-4471',
      unitItems: [{ unitId: 'person' }, { unitId: 'person' }],
    });
    await octo(`bookings/${held.uuid}/confirm`, {
      contact: { fullName: 'Ana Costa', emailAddress: 'ana@example.com', phoneNumber: '+351 912 345 678' },
    });
    bookingId = Number(held.id);
    // a second one left on hold: the channel's to confirm
    const onHold = await octo('bookings', {
      ...product,
      availabilityId: availability.id,
      unitItems: [{ unitId: 'person' }],
    });
    holdId = Number(onHold.id);
    startsAt = (held.availability as { localDateTimeStart: string }).localDateTimeStart;
  });

  async function vendorPage(): Promise<Page> {
    const page = await world.newPage();
    await logInAsVendor(page, email);
    return page;
  }

  it('labels the booking with the channel and shows its contact in the bookings list', async () => {
    const page = await vendorPage();
    await page.getByRole('link', { name: 'Bookings', exact: true }).click();
    await expectPageTitle(page, 'Bookings');
    const card = page.getByRole('article').filter({ hasText: `#${bookingId}` });
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getByText('Via Harbour Hotel').count()).toBe(1);
    const facts = await card.textContent();
    expect(facts).toContain('Ana Costa');
    expect(facts).toContain('ana@example.com');
    expect(facts).toContain('HH-4471');
    expect(await card.getByRole('term').filter({ hasText: 'Contact' }).count()).toBe(1);
    // a hold is the channel's to confirm: no Approve or Decline, only Cancel, and whose deadline it is
    const hold = page.getByRole('article').filter({ hasText: `#${holdId}` });
    expect(await hold.getByText('Via Harbour Hotel').count()).toBe(1);
    expect(await hold.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await hold.getByRole('button', { name: 'Decline' }).count()).toBe(0);
    expect(await hold.getByRole('button', { name: 'Cancel booking' }).count()).toBe(1);
    expect(await hold.textContent()).toContain('Held by Harbour Hotel until');
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('names the contact and the channel on the Today page', async () => {
    const page = await vendorPage();
    await page.getByRole('link', { name: 'Today' }).click();
    await expectPageTitle(page, 'Today');
    await page.getByLabel('Date').fill(startsAt.slice(0, 10));
    const section = page.getByRole('region', { name: 'Dolphin watch 09:00' });
    const booking = section.getByRole('article', { name: 'Ana Costa' });
    await expect.poll(() => booking.count()).toBe(1);
    expect(await booking.getByText('Via Harbour Hotel').count()).toBe(1);
    expect(await booking.textContent()).toContain('2 people');
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('shows the channel’s row on the analytics page', async () => {
    const page = await vendorPage();
    await page.getByRole('link', { name: 'Analytics', exact: true }).click();
    await expectPageTitle(page, 'Analytics');
    const table = page.getByRole('table', { name: 'Channels' });
    const row = table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Harbour Hotel' }) });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByRole('cell').allTextContents()).toEqual(['2', '1', '$80.00']);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });
});
