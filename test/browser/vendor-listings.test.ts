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

// The vendor dashboard's listings, slots and settings, driven through the pages as a vendor would.

const NAV = ['Overview', 'Bookings', 'Listings', 'Analytics', 'Settings'];

describe.skipIf(!browserAvailable)('vendor dashboard: listings, slots, settings', () => {
  const world = useWorld();

  it('sends a visitor who is not logged in to log in, and tells a customer the dashboard is for vendors', async () => {
    const page = await world.newPage();
    await page.goto('/vendor/listings');
    await page.waitForURL('**/login?next=%2Fvendor%2Flistings');
    await expectPageTitle(page, 'Log in');

    const customer = await registerCustomer(world.server.url);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/vendor/listings');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('The dashboard is for vendors');
    expect(await page.getByRole('link', { name: 'Listings' }).count()).toBe(1);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('creates an equipment item and an adventure through the forms, edits one and archives one', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Cove Paddle Co');
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    for (const name of NAV) expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(1);
    await expectAccessible(page);
    // the dashboard's paths with and without the trailing slash, and one it does not have
    await page.goto('/vendor');
    await expectPageTitle(page, 'Overview');
    await page.goto('/vendor/nothing-here');
    await expectPageTitle(page, 'Page not found');
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Listings', exact: true }).click();
    await expectPageTitle(page, 'Listings');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('No listings yet');
    await expectAccessible(page);

    // equipment: a refused field is shown at the field, from the API's 400 body
    await page.getByRole('link', { name: 'New equipment' }).click();
    await expectPageTitle(page, 'New equipment');
    await page.getByLabel('Title').fill('Sea kayak <b>double</b>');
    await page.getByLabel('Public ID').fill('not valid!');
    await page.getByLabel('Category').selectOption({ label: 'Kayaks' });
    await page.getByLabel('Price per day').fill('45.50');
    await page.getByLabel('Units').fill('3');
    await page.getByRole('button', { name: 'Create equipment' }).click();
    await expect.poll(() => page.getByLabel('Public ID').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByLabel('Public ID').fill('cove-double-kayak');
    await page.getByRole('button', { name: 'Create equipment' }).click();
    await expectPageTitle(page, 'Sea kayak <b>double</b>');
    const item = await apiCall(base, 'GET', '/api/v1/equipment/items/cove-double-kayak/');
    expect(item).toMatchObject({ title: 'Sea kayak <b>double</b>', price_per_day: '45.50', quantity: 3 });
    expect(item.category).toMatchObject({ slug: 'kayaks' });

    // edit it: the title and the cancellation policy
    await page.getByLabel('Title').fill('Double sea kayak');
    await page.getByLabel('Refund for a later cancellation (percent)').fill('50');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expectPageTitle(page, 'Double sea kayak');
    const edited = await apiCall(base, 'GET', '/api/v1/equipment/items/cove-double-kayak/');
    expect(edited).toMatchObject({
      title: 'Double sea kayak',
      cancellation_policy: { free_cancellation_hours: 24, late_refund_percent: 50 },
    });

    // an adventure with shared seats
    await page.goto('/vendor/listings/new/adventure');
    await expectPageTitle(page, 'New adventure');
    await page.getByLabel('Title').fill('Sunset boat tour');
    await page.getByLabel('Public ID').fill('cove-sunset-tour');
    await page.getByLabel('Description').fill('Two hours along the cliffs.');
    await page.getByLabel('Category').selectOption({ label: 'Boat tours' });
    await page.getByLabel('Meeting point').fill('Harbour steps');
    await page.getByLabel('Price per person').fill('30');
    await page.getByLabel('Duration (minutes)').fill('120');
    await page.getByLabel('Capacity (people)').fill('8');
    await page.getByLabel('Booking mode').selectOption('shared');
    await page.getByRole('button', { name: 'Create adventure' }).click();
    await expectPageTitle(page, 'Sunset boat tour');
    const tour = await apiCall(base, 'GET', '/api/v1/adventrues/offerings/cove-sunset-tour/');
    expect(tour).toMatchObject({
      meeting_point: 'Harbour steps',
      price_per_person: '30.00',
      duration_minutes: 120,
      capacity: 8,
      booking_mode: 'shared',
    });

    // both are listed; archiving one takes it off the public API
    await page.getByRole('link', { name: 'Listings', exact: true }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(3);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Archive Double sea kayak' }).click();
    await page.getByRole('button', { name: 'Yes, archive' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await apiCall(base, 'GET', '/api/v1/equipment/items/cove-double-kayak/', { status: 404 });
    await apiCall(base, 'GET', '/api/v1/adventrues/offerings/cove-sunset-tour/');
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });

  it('adds a blocking slot on the calendar and deletes it', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Slot Divers');
    const offering = await apiCall(base, 'POST', '/api/v1/adventrues/vendor/offerings/', {
      token: vendor.token,
      body: {
        public_id: 'slot-dive',
        title: 'Morning dive',
        price_per_person: '80.00',
        duration_minutes: 180,
        capacity: 4,
        category_id: 6,
      },
    });
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.goto(`/vendor/listings/adventure/${offering.id}`);
    await expectPageTitle(page, 'Morning dive');
    await expect.poll(() => page.getByRole('table').count()).toBe(1);

    const next = new Date();
    next.setUTCMonth(next.getUTCMonth() + 1, 12);
    const day = next.toISOString().slice(0, 10);
    await page.getByLabel('Slot start').fill(`${day}T08:00`);
    await page.getByLabel('Slot end').fill(`${day}T12:30`);
    await page.getByLabel('Slot type').selectOption({ label: 'Block: not bookable in this window' });
    await page.getByRole('button', { name: 'Add slot' }).click();

    const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(next);
    await expect
      .poll(() => page.locator('table.calendar caption').textContent())
      .toBe(`Slots in ${monthName}`);
    const deleteButton = page.getByRole('button', { name: /^Delete slot / });
    await expect.poll(() => deleteButton.count()).toBe(1);
    expect(await page.getByRole('cell').filter({ hasText: 'Blocked' }).textContent()).toMatch(
      /^12Blocked 08:00/,
    );
    const slots = await apiCall(
      base,
      'GET',
      `/api/v1/booking/vendor/slots/?adventure_offering_id=${offering.id}`,
      {
        token: vendor.token,
      },
    );
    expect(slots.results).toEqual([
      expect.objectContaining({
        // the inputs are in the browser's time zone, which is this process's
        starts_at: new Date(`${day}T08:00`).toISOString(),
        ends_at: new Date(`${day}T12:30`).toISOString(),
        is_available: false,
      }),
    ]);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);

    await deleteButton.click();
    await expect.poll(() => deleteButton.count()).toBe(0);
    const after = await apiCall(
      base,
      'GET',
      `/api/v1/booking/vendor/slots/?adventure_offering_id=${offering.id}`,
      {
        token: vendor.token,
      },
    );
    expect(after.count).toBe(0);
    expectQuietConsole(world, QUIET);
  });

  it('saves the profile, currency, time zone and deadlines, and shows the embed snippet', async () => {
    const base = world.server.url;
    const vendor = await registerVendor(base, 'Lisbon Surf');
    const page = await world.newPage({ viewport: PHONE });
    await logInAsVendor(page, vendor.email);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await expectPageTitle(page, 'Settings');
    await expectAccessible(page);

    // a refused field is named at the field
    await page.getByLabel('Contact email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByLabel('Contact email').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Contact email').fill('hello@lisbon-surf.example');
    await page.getByLabel('Description').fill('Boards & lessons on the Costa.');
    // the saved values are selected, the default UTC too (not among the browser's canonical zones)
    expect(await page.getByLabel('Currency').inputValue()).toBe('usd');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('UTC');
    await page.getByLabel('Currency').selectOption('eur');
    await page.getByLabel('Time zone').selectOption('Europe/Lisbon');
    await page.getByLabel('Time to answer a request (minutes)').fill('90');
    await expect.poll(() => page.getByText('1 hour 30 minutes').count()).toBe(1);
    await page.getByLabel('Time for the customer to pay (minutes)').fill('2880');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Settings saved.' }).count()).toBe(1);
    const profile = await apiCall(base, 'GET', '/api/v1/accounts/vendor-profile/me/', {
      token: vendor.token,
    });
    expect(profile).toMatchObject({
      contact_email: 'hello@lisbon-surf.example',
      description: 'Boards & lessons on the Costa.',
      currency: 'eur',
      time_zone: 'Europe/Lisbon',
      request_ttl_minutes: 90,
      payment_ttl_minutes: 2880,
    });

    const snippet = await page.getByLabel('Embed code').inputValue();
    expect(snippet).toContain(`<iframe src="${base}/embed/${vendor.slug}/"`);
    expect(snippet).toContain('title="Book with Lisbon Surf"');
    expect(await page.getByRole('link', { name: `${base}/v/${vendor.slug}` }).count()).toBe(1);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied.' }).count()).toBe(1);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(snippet);
    await expectAccessible(page);
    expectQuietConsole(world, [...QUIET, /status of 400/]);
  });
});
