import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardFormula } from '../../../src/lib/csv.ts';
import { clicksInChunks, listClicks } from '../../../src/modules/marketing/analytics.repository.ts';
import { isBotAgent } from '../../../src/modules/marketing/traffic.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, freshToken, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  clickRow,
  insertBooking,
  insertListing,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';
import { BOT_AGENT } from '../../helpers/rollups.ts';

// Decisions §17: bot clicks stored and left out unless asked for; the click list as streamed CSV.

const DAY = '2026-07-02';
const at = (time: string) => `${DAY}T${time}.000Z`;
const RANGE = { from: `${DAY}T00:00:00Z`, to: '2026-07-03T00:00:00Z' };

let t: TestApp;
let api: Injector;
let vendor: Account;
let other: Account;
let kayak: TestListing;
let theirs: TestListing;

const CLIENTS = ['curl/8.5.0', 'node', 'python-requests/2.32.3', 'Go-http-client/1.1', 'axios/1.7.2'];
const CRAWLERS = [
  BOT_AGENT,
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
];
const BROWSER =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

async function view(listing: TestListing, time: string, userAgent: string | undefined, query = '') {
  t.clock.set(at(time));
  const res = await api({
    method: 'GET',
    url: `/api/v1/equipment/items/${listing.publicId}/${query}`,
    headers: userAgent === undefined ? { 'user-agent': '' } : { 'user-agent': userAgent },
  });
  // a crawler's detail view is answered like anyone's
  expect(res.statusCode).toBe(200);
  expect(res.json().public_id).toBe(listing.publicId);
  return res.json().marketing_click_id as number;
}

/** A vendor's GET at the clock's now, with a token issued then. */
const get = async (path: string, query: Record<string, string | boolean> = {}, account = vendor) =>
  api({
    method: 'GET',
    url: path,
    query: { ...RANGE, ...query } as Record<string, string>,
    token: await freshToken(t.app, account),
  });

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  t.clock.set(at('00:00:00'));
  vendor = await registerVendor(t.app, { business_name: 'Lagos Kayaks' });
  other = await registerVendor(t.app, { business_name: 'Sagres Boards' });
  kayak = await insertListing(t.db, await vendorProfileId(t.db, vendor.id), 'equipment', {
    title: 'Kayak, "double"',
  });
  theirs = await insertListing(t.db, await vendorProfileId(t.db, other.id), 'equipment');
});
afterAll(() => t.close());

describe('bot clicks', () => {
  it('tells crawlers from browsers, API clients and a missing User-Agent', () => {
    for (const agent of CRAWLERS) expect(isBotAgent(agent), agent).toBe(true);
    for (const agent of [...CLIENTS, BROWSER, '', undefined])
      expect(isBotAgent(agent), String(agent)).toBe(false);
  });

  it('are stored with is_bot and left out of the list, the summary and the series unless include_bots=true', async () => {
    const humans = [
      await view(kayak, '09:00:00', BROWSER, '?utm_source=google&utm_campaign=july'),
      await view(kayak, '09:01:00', 'curl/8.5.0'),
      await view(kayak, '09:02:00', undefined),
    ];
    const bots = [
      await view(kayak, '09:03:00', BOT_AGENT, '?utm_source=google&utm_campaign=july'),
      await view(kayak, '09:04:00', CRAWLERS[2]),
    ];
    // the explicit track records the caller's User-Agent too
    t.clock.set(at('09:05:00'));
    const tracked = await api({
      method: 'POST',
      url: '/api/v1/marketing/track/click/',
      headers: { 'user-agent': CRAWLERS[3] },
      payload: { listing_type: 'equipment', public_id: kayak.publicId },
    });
    expect(tracked.statusCode).toBe(201);
    bots.push(tracked.json().marketing_click_id);
    const stored = await t.db
      .selectFrom('listing_clicks')
      .select(['id', 'is_bot'])
      .where('id', 'in', [...humans, ...bots])
      .orderBy('id')
      .execute();
    expect(stored).toEqual([
      ...humans.map((id) => ({ id, is_bot: 0 })),
      ...bots.map((id) => ({ id, is_bot: 1 })),
    ]);

    t.clock.set(at('12:00:00'));
    const ids = (body: { results: { marketing_click_id: number }[] }) =>
      body.results.map((r) => r.marketing_click_id);
    const list = (await get('/api/v1/marketing/vendor/clicks/')).json();
    expect(list.count).toBe(3);
    expect(ids(list)).toEqual(humans.toReversed());
    const all = (await get('/api/v1/marketing/vendor/clicks/', { include_bots: true })).json();
    expect(all.count).toBe(6);
    expect(
      all.results
        .filter((r: { is_bot: boolean }) => r.is_bot)
        .map((r: { marketing_click_id: number }) => r.marketing_click_id),
    ).toEqual(bots.toReversed());

    const summary = (await get('/api/v1/marketing/vendor/summary/')).json();
    expect(summary.clicks).toEqual({ organic: 2, marketing: 1, total: 3 });
    expect(
      summary.campaigns.map((r: { utm_campaign: string; clicks: number }) => [r.utm_campaign, r.clicks]),
    ).toEqual([['july', 1]]);
    const withBots = (await get('/api/v1/marketing/vendor/summary/', { include_bots: 'true' })).json();
    expect(withBots.clicks).toEqual({ organic: 4, marketing: 2, total: 6 });
    expect(
      withBots.campaigns.map((r: { utm_campaign: string; clicks: number }) => [r.utm_campaign, r.clicks]),
    ).toEqual([['july', 2]]);

    const series = (await get('/api/v1/marketing/vendor/timeseries/')).json();
    expect(series.points).toEqual([
      expect.objectContaining({ date: DAY, clicks: { organic: 2, marketing: 1 } }),
    ]);
    const seriesWithBots = (await get('/api/v1/marketing/vendor/timeseries/', { include_bots: true })).json();
    expect(seriesWithBots.points[0].clicks).toEqual({ organic: 4, marketing: 2 });
  });

  it('refuses an include_bots that is not a boolean', async () => {
    const res = await get('/api/v1/marketing/vendor/summary/', { include_bots: 'perhaps' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid', errors: { include_bots: [expect.any(String)] } });
  });
});

describe('GET marketing/vendor/clicks/export/', () => {
  const EXPORT = '/api/v1/marketing/vendor/clicks/export/';
  const HEADER = [
    'marketing_click_id',
    'listing_type',
    'public_id',
    'listing_title',
    'equipment_item_id',
    'adventure_offering_id',
    'traffic_type',
    'source',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'utm_term',
    'utm_content',
    'gclid',
    'fbclid',
    'referrer',
    'user_id',
    'is_bot',
    'created_at',
  ];
  const EXPORT_DAY = { from: '2026-08-01T00:00:00Z', to: '2026-08-02T00:00:00Z' };
  let customer: Account;
  let hostile: number;

  beforeAll(async () => {
    t.clock.set('2026-08-01T08:00:00.000Z');
    customer = await registerCustomer(t.app);
    // values a spreadsheet would run, and values that need quoting
    t.clock.set('2026-08-01T08:00:00.000Z');
    const res = await api({
      method: 'GET',
      url: `/api/v1/equipment/items/${kayak.publicId}/`,
      query: {
        utm_source: '=HYPERLINK("http://evil.example","x")',
        utm_medium: '+cmd',
        utm_campaign: '-1+2',
        utm_term: '@SUM(A1)',
        utm_content: 'line\nbreak, "quoted"',
        referrer: 'https://blog.example/a,b',
      },
      token: await freshToken(t.app, customer),
      headers: { 'user-agent': BROWSER },
    });
    hostile = res.json().marketing_click_id;
    // many clicks at one instant, so chunks of the stream end inside a run of ties
    const rows = Array.from({ length: 2_345 }, (_, n) =>
      clickRow(kayak, Date.parse('2026-08-01T10:00:00.000Z') + Math.floor(n / 7), {
        utm_campaign: n % 2 ? 'bulk' : '',
        is_bot: n % 100 === 0 ? 1 : 0,
      }),
    );
    for (let i = 0; i < rows.length; i += 500)
      await t.db
        .insertInto('listing_clicks')
        .values(rows.slice(i, i + 500))
        .execute();
    await t.db
      .insertInto('listing_clicks')
      .values(clickRow(theirs, Date.parse('2026-08-01T11:00:00.000Z')))
      .execute();
    await insertBooking(t.db, {
      listing: kayak,
      customerId: customer.id,
      createdAt: Date.parse('2026-08-01T12:00:00.000Z'),
    });
    t.clock.set('2026-08-02T12:00:00.000Z');
  });

  it('streams the click list as CSV: a header, one row per click, oldest first, quoted and guarded', async () => {
    const res = await get(EXPORT, EXPORT_DAY);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="clicks-2026-08-01-2026-08-02.csv"',
    );
    const records: string[][] = parse(res.body);
    expect(records[0]).toEqual(HEADER);
    const rows = records.slice(1).map((r) => Object.fromEntries(HEADER.map((h, i) => [h, r[i]])));
    // the other vendor's click is not there; the bots are left out as in the list
    expect(rows).toHaveLength(1 + 2_345 - 24);
    const listed = await get('/api/v1/marketing/vendor/clicks/', { ...EXPORT_DAY, page_size: '1' });
    expect(listed.json().count).toBe(rows.length);
    // oldest first, ties by id: strictly increasing (created_at, id), so no row twice across chunks
    const keys = rows.map((r) => [r.created_at, Number(r.marketing_click_id)] as const);
    for (let i = 1; i < keys.length; i++)
      expect(
        keys[i][0] > keys[i - 1][0] || (keys[i][0] === keys[i - 1][0] && keys[i][1] > keys[i - 1][1]),
      ).toBe(true);
    expect(rows[0]).toEqual({
      marketing_click_id: String(hostile),
      listing_type: 'equipment',
      public_id: kayak.publicId,
      listing_title: 'Kayak, "double"',
      equipment_item_id: String(kayak.id),
      adventure_offering_id: '',
      traffic_type: 'marketing',
      source: 'detail_view',
      utm_source: `'=HYPERLINK("http://evil.example","x")`,
      utm_medium: "'+cmd",
      utm_campaign: "'-1+2",
      utm_term: "'@SUM(A1)",
      utm_content: 'line\nbreak, "quoted"',
      gclid: '',
      fbclid: '',
      referrer: 'https://blog.example/a,b',
      user_id: String(customer.id),
      is_bot: 'false',
      created_at: '2026-08-01T08:00:00.000Z',
    });
    // the raw text quotes what needs it, doubling inner quotes
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('resumes each chunk right after the last row of the one before, whatever the chunk size', async () => {
    const filter = {
      vendorId: await vendorProfileId(t.db, vendor.id),
      from: Date.parse(EXPORT_DAY.from),
      to: Date.parse(EXPORT_DAY.to),
      includeBots: true,
    };
    const all = (await listClicks(t.db, filter, { page: 1, limit: 10_000, offset: 0 }))
      .map((r) => r.id)
      .reverse();
    expect(all).toHaveLength(1 + 2_345);
    for (const size of [1, 7, 500, 2_346]) {
      const chunks: number[][] = [];
      for await (const rows of clicksInChunks(t.db, filter, size)) chunks.push(rows.map((r) => r.id));
      expect(chunks.flat()).toEqual(all);
      expect(chunks.slice(0, -1).every((c) => c.length === size)).toBe(true);
    }
  });

  it('takes the list filters and include_bots', async () => {
    const bulk = parse((await get(EXPORT, { ...EXPORT_DAY, utm_campaign: 'bulk', include_bots: true })).body);
    expect(bulk).toHaveLength(1 + 1_172); // the header, and the odd clicks (no bot among them)
    const bots = parse((await get(EXPORT, { ...EXPORT_DAY, include_bots: true })).body).slice(1);
    expect(bots.filter((r: string[]) => r[17] === 'true')).toHaveLength(24);
    const organic = parse((await get(EXPORT, { ...EXPORT_DAY, traffic_type: 'organic' })).body);
    expect(organic.slice(1).every((r: string[]) => r[6] === 'organic')).toBe(true);
    expect(organic).toHaveLength(1 + 1_173 - 24); // the even clicks less the bots
  });

  it('is an empty CSV with its header for a range without clicks', async () => {
    const res = await get(EXPORT, { from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`${HEADER.join(',')}\n`);
  });

  it('answers a bad range with the decided 400 body, never a half-written file', async () => {
    const res = await get(EXPORT, { from: '2026-08-02T00:00:00Z', to: '2026-08-01T00:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      detail: 'Invalid input.',
      code: 'invalid',
      errors: { to: ['Must be later than from.'] },
    });
  });

  it('is for vendors only', async () => {
    expect((await get(EXPORT, EXPORT_DAY, customer)).statusCode).toBe(403);
    expect((await api({ method: 'GET', url: EXPORT, query: EXPORT_DAY })).statusCode).toBe(401);
  });

  it('guards every cell a spreadsheet would take for a formula', () => {
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx', 'a=1', '', 'ok'].map(guardFormula)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@a",
      "'\tx",
      "'\rx",
      'a=1',
      '',
      'ok',
    ]);
  });
});
