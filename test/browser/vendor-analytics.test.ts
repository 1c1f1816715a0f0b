import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
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

// The vendor dashboard's analytics page (decisions §8, §17) on clicks and bookings seeded through the
// public API: two campaign clicks, an organic one and a crawler's; a booking from a campaign click that is
// paid and then partly refunded, one from the organic click and one without a click.

/** The local date `days` before today, as the page's date fields write it (en-CA is YYYY-MM-DD). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toLocaleDateString('en-CA');

/** A row's cells after its header cell. */
const cells = (row: Locator) => row.getByRole('cell').allTextContents();

/** The figures of the totals card named `name`: its number, then its hint. */
const stat = (page: Page, name: string) =>
  page
    .locator('.stats > div')
    .filter({ has: page.getByRole('term').getByText(name, { exact: true }) })
    .getByRole('definition')
    .allTextContents();

const FIELDS =
  'marketing_click_id,listing_type,public_id,listing_title,equipment_item_id,adventure_offering_id,' +
  'traffic_type,source,utm_source,utm_medium,utm_campaign,utm_term,utm_content,gclid,fbclid,referrer,' +
  'user_id,is_bot,created_at';

/** Clicks `Export CSV` and answers the saved file's name and rows, each as its fields by name. */
async function exportCsv(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const text = await readFile(await download.path(), 'utf8');
  const [header, ...lines] = text.trimEnd().split(/\r?\n/);
  const names = header.split(',');
  // the seeded values hold no comma or quote, so a plain split reads them
  const rows = lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])));
  return { name: download.suggestedFilename(), header, rows };
}

describe.skipIf(!browserAvailable)('vendor dashboard: analytics', () => {
  const world = useWorld();
  let vendor: Account & { slug: string };

  beforeAll(async () => {
    const base = world.server.url;
    vendor = await registerVendor(base, 'Cove Paddle');
    const customer = await registerCustomer(base);
    await apiCall(base, 'POST', '/api/v1/equipment/vendor/items/', {
      token: vendor.token,
      body: { public_id: 'cove-sup', title: 'Paddleboard', price_per_day: '45.00', category_id: 2 },
    });
    const detail = '/api/v1/equipment/items/cove-sup/';
    const campaign = `${detail}?utm_source=newsletter&utm_medium=email&utm_campaign=summer`;
    await apiCall(base, 'GET', campaign);
    const campaignClick = await apiCall(base, 'GET', campaign);
    const organicClick = await apiCall(base, 'GET', detail);
    // a search engine's crawler: stored, but counted only with bot traffic shown
    await apiCall(base, 'GET', detail, {
      headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    });
    const request = (days: number, hours: number, clickId?: unknown) =>
      apiCall(base, 'POST', '/api/v1/booking/bookings/request/', {
        token: customer.token,
        body: {
          equipment_item_id: organicClick.id,
          ...windowIn(days, hours),
          ...(clickId === undefined ? {} : { marketing_click_id: clickId }),
        },
      }).then((b) => b.id as number);
    // two days at 45.00: 90.00 paid, 20.00 refunded, 70.00 kept
    const paid = await request(10, 26, campaignClick.marketing_click_id);
    await request(14, 2, organicClick.marketing_click_id);
    await request(20, 2);
    await apiCall(base, 'POST', `/api/v1/booking/bookings/${paid}/approve/`, {
      token: vendor.token,
      status: 200,
    });
    const paymentId = await pay(base, customer.token, paid);
    await apiCall(base, 'POST', `/api/v1/payment/${paymentId}/refunds/`, {
      token: vendor.token,
      body: { amount: '20.00' },
    });
  });

  async function openAnalytics(): Promise<Page> {
    const page = await world.newPage();
    await logInAsVendor(page, vendor.email);
    await page.getByRole('link', { name: 'Analytics', exact: true }).click();
    await expectPageTitle(page, 'Analytics');
    await expect.poll(() => page.getByRole('region', { name: 'Totals', exact: true }).count()).toBe(1);
    return page;
  }

  it('shows the totals per traffic type, the campaign with its revenue and the three charts with their table', async () => {
    const page = await openAnalytics();
    expect(await stat(page, 'Clicks')).toEqual(['3', '1 organic, 2 marketing']);
    expect(await stat(page, 'Bookings')).toEqual(['3', '1 without a click']);
    expect((await stat(page, 'Confirmed'))[0]).toBe('1');
    expect((await stat(page, 'Revenue'))[0]).toBe('$70.00');

    const byType = page.getByRole('table', { name: 'By traffic type' });
    expect(await cells(byType.getByRole('row', { name: /^Organic/ }))).toEqual([
      '1',
      '1',
      '100%',
      '0',
      '$0.00',
    ]);
    expect(await cells(byType.getByRole('row', { name: /^Marketing/ }))).toEqual([
      '2',
      '1',
      '50%',
      '1',
      '$70.00',
    ]);
    expect(await cells(byType.getByRole('row', { name: /^Without a click/ }))).toEqual([
      'n/a',
      '1',
      'n/a',
      'n/a',
      'n/a',
    ]);

    const campaigns = page.getByRole('table', { name: 'Campaigns' });
    expect(await cells(campaigns.getByRole('row', { name: /^summer/ }))).toEqual([
      'newsletter',
      'email',
      '2',
      '1',
      '50%',
      '1',
      '$70.00',
    ]);

    for (const what of ['clicks', 'bookings', 'revenue']) {
      const chart = page.getByRole('img', {
        name: new RegExp(`^Chart of ${what} per day from ${daysAgo(29)}`),
      });
      await expect.poll(() => chart.locator('canvas').count()).toBe(1);
    }
    // the charts' numbers as a table: today has every click and booking, and the revenue kept
    await page.getByText('Clicks, bookings and revenue per day as a table').click();
    const perDay = page.getByRole('table', { name: 'Per day' });
    expect(await perDay.getByRole('row').count()).toBe(31);
    expect(await cells(perDay.getByRole('row').last())).toEqual(['1', '2', '1', '1', '1', '$70.00']);
    expect(await cells(perDay.getByRole('row').nth(29))).toEqual(['0', '0', '0', '0', '0', '$0.00']);
    await expectAccessible(page);
    await page.setViewportSize(PHONE);
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });

  it('counts bot clicks only while Show bot traffic is ticked, in the totals, the table and the export', async () => {
    const page = await openAnalytics();
    const bots = page.getByRole('checkbox', { name: 'Show bot traffic' });
    expect(await bots.isChecked()).toBe(false);

    const plain = await exportCsv(page);
    expect(plain.name).toMatch(new RegExp(`^clicks-${daysAgo(29)}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    expect(plain.header).toBe(FIELDS);
    expect(plain.rows.map((r) => [r.public_id, r.traffic_type, r.utm_campaign, r.is_bot])).toEqual([
      ['cove-sup', 'marketing', 'summer', 'false'],
      ['cove-sup', 'marketing', 'summer', 'false'],
      ['cove-sup', 'organic', '', 'false'],
    ]);

    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/marketing/vendor/')) requests.push(r.url());
    });
    await bots.check();
    await expect.poll(() => stat(page, 'Clicks')).toEqual(['4', '2 organic, 2 marketing']);
    const byType = page.getByRole('table', { name: 'By traffic type' });
    expect(await cells(byType.getByRole('row', { name: /^Organic/ }))).toEqual([
      '2',
      '1',
      '50%',
      '0',
      '$0.00',
    ]);
    await page.getByText('Clicks, bookings and revenue per day as a table').click();
    const today = page.getByRole('table', { name: 'Per day' }).getByRole('row').last();
    expect(await cells(today)).toEqual(['2', '2', '1', '1', '1', '$70.00']);

    const withBots = await exportCsv(page);
    expect(withBots.rows).toHaveLength(4);
    expect(withBots.rows.filter((r) => r.is_bot === 'true')).toMatchObject([
      { traffic_type: 'organic', source: 'detail_view', public_id: 'cove-sup' },
    ]);
    // the summary, the time series and the export all asked for the bots
    const paths = requests.map((url) => new URL(url));
    expect(new Set(paths.map((url) => url.pathname))).toEqual(
      new Set([
        '/api/v1/marketing/vendor/summary/',
        '/api/v1/marketing/vendor/timeseries/',
        '/api/v1/marketing/vendor/clicks/export/',
      ]),
    );
    expect(paths.every((url) => url.searchParams.get('include_bots') === 'true')).toBe(true);

    await bots.uncheck();
    await expect.poll(() => stat(page, 'Clicks')).toEqual(['3', '1 organic, 2 marketing']);
    expectQuietConsole(world, QUIET);
  });

  it('sets the range from the presets and from the date fields', async () => {
    const page = await openAnalytics();
    const from = page.getByLabel('From', { exact: true });
    const to = page.getByLabel('To', { exact: true });
    const last30 = page.getByRole('button', { name: 'Last 30 days' });
    expect(await last30.getAttribute('aria-pressed')).toBe('true');
    await page.getByText('Clicks, bookings and revenue per day as a table').click();
    const rows = page.getByRole('table', { name: 'Per day' }).getByRole('row');

    const last7 = page.getByRole('button', { name: 'Last 7 days' });
    await last7.click();
    expect(await from.inputValue()).toBe(daysAgo(6));
    expect(await to.inputValue()).toBe(daysAgo(0));
    await expect.poll(() => rows.count()).toBe(8);
    expect(await last7.getAttribute('aria-pressed')).toBe('true');
    expect(await last30.getAttribute('aria-pressed')).toBe('false');

    await page.getByRole('button', { name: 'Last 90 days' }).click();
    expect(await from.inputValue()).toBe(daysAgo(89));
    await expect.poll(() => rows.count()).toBe(91);

    // a range of the vendor's own: yesterday only, which has none of today's clicks
    await from.fill(daysAgo(1));
    await to.fill(daysAgo(1));
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(async () => (await stat(page, 'Clicks'))[0]).toBe('0');
    expect(await page.getByRole('button', { pressed: true }).count()).toBe(0);
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('No campaign clicks in this range. Links with utm_campaign show up here.');
    await expectAccessible(page);
    expectQuietConsole(world, QUIET);
  });
});
