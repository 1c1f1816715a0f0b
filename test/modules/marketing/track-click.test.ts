import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { insertListing, type TestListing, vendorProfileId } from '../../helpers/marketing-factories.ts';

let t: TestApp;
let api: Injector;
let customer: Account;
let kayak: TestListing;
let tour: TestListing;

const URL = '/api/v1/marketing/track/click/';

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  const vendor = await registerVendor(t.app);
  customer = await registerCustomer(t.app);
  const vendorId = await vendorProfileId(t.db, vendor.id);
  kayak = await insertListing(t.db, vendorId, 'equipment', { publicId: 'kayak-double' });
  tour = await insertListing(t.db, vendorId, 'adventure', { publicId: 'sea-caves' });
  await insertListing(t.db, vendorId, 'equipment', { publicId: 'kayak-old', isActive: false });
  await insertListing(t.db, vendorId, 'adventure', {
    publicId: 'night-paddle',
    archivedAt: Date.UTC(2026, 4, 1),
  });
});
afterAll(() => t.close());

const storedClick = (id: number) =>
  t.db.selectFrom('listing_clicks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /api/v1/marketing/track/click/', () => {
  it('records an organic click without a token', async () => {
    // (within the access token's 15 minutes: the tokens of this file were issued at 12:00)
    t.clock.set('2026-06-01T12:03:30.250Z');
    const res = await api({
      method: 'POST',
      url: URL,
      payload: { listing_type: 'equipment', public_id: 'kayak-double' },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({ marketing_click_id: expect.any(Number), traffic_type: 'organic' });
    expect(await storedClick(body.marketing_click_id)).toMatchObject({
      listing_id: kayak.id,
      listing_kind: 'equipment',
      vendor_id: kayak.vendorId,
      traffic_type: 'organic',
      source: 'track',
      utm_campaign: '',
      referrer: '',
      user_id: null,
      created_at: Date.parse('2026-06-01T12:03:30.250Z'),
    });
  });

  it('classifies any tracking parameter as marketing and stores every string (trimmed)', async () => {
    const res = await api({
      method: 'POST',
      url: URL,
      payload: {
        listing_type: 'adventure',
        public_id: 'sea-caves',
        utm_source: ' google ',
        utm_medium: 'cpc',
        utm_campaign: 'summer-caves',
        utm_term: 'kayak tour',
        utm_content: 'banner-a',
        gclid: 'Cj0KCQ',
        fbclid: 'IwAR2',
        referrer: 'https://www.google.com/',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().traffic_type).toBe('marketing');
    expect(await storedClick(res.json().marketing_click_id)).toMatchObject({
      listing_id: tour.id,
      listing_kind: 'adventure',
      traffic_type: 'marketing',
      source: 'track',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'summer-caves',
      utm_term: 'kayak tour',
      utm_content: 'banner-a',
      gclid: 'Cj0KCQ',
      fbclid: 'IwAR2',
      referrer: 'https://www.google.com/',
    });
  });

  it.each([
    ['gclid alone', { gclid: 'abc' }, 'marketing'],
    ['fbclid alone', { fbclid: 'abc' }, 'marketing'],
    ['a referrer does not count', { referrer: 'https://example.com/' }, 'organic'],
    ['blank parameters do not count', { utm_source: '   ', utm_campaign: '' }, 'organic'],
    ['null is taken as absent', { utm_source: null, referrer: null }, 'organic'],
  ])('classifies %s', async (_name, extra, expected) => {
    const res = await api({
      method: 'POST',
      url: URL,
      payload: { listing_type: 'equipment', public_id: 'kayak-double', ...extra },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().traffic_type).toBe(expected);
    expect((await storedClick(res.json().marketing_click_id)).traffic_type).toBe(expected);
  });

  it('stores the user of a valid token', async () => {
    const res = await api({
      method: 'POST',
      url: URL,
      token: customer.token,
      payload: { listing_type: 'equipment', public_id: 'kayak-double' },
    });
    expect(res.statusCode).toBe(201);
    expect((await storedClick(res.json().marketing_click_id)).user_id).toBe(customer.id);
  });

  it('ignores a garbage token and records an anonymous click', async () => {
    for (const authorization of ['Bearer not.a.jwt', 'Basic abc', 'Bearer']) {
      const res = await api({
        method: 'POST',
        url: URL,
        headers: { authorization },
        payload: { listing_type: 'equipment', public_id: 'kayak-double' },
      });
      expect(res.statusCode).toBe(201);
      expect((await storedClick(res.json().marketing_click_id)).user_id).toBeNull();
    }
  });

  it('accepts strings of exactly 500 characters', async () => {
    const res = await api({
      method: 'POST',
      url: URL,
      payload: { listing_type: 'equipment', public_id: 'kayak-double', utm_campaign: 'c'.repeat(500) },
    });
    expect(res.statusCode).toBe(201);
    expect((await storedClick(res.json().marketing_click_id)).utm_campaign).toHaveLength(500);
  });

  describe('rejects, writing nothing', () => {
    const cases: [string, Record<string, unknown>, number, Record<string, unknown>][] = [
      [
        'an unknown listing_type',
        { listing_type: 'boat', public_id: 'kayak-double' },
        400,
        { errors: { listing_type: expect.any(Array) } },
      ],
      [
        'a missing listing_type',
        { public_id: 'kayak-double' },
        400,
        { errors: { listing_type: ['This field is required.'] } },
      ],
      [
        'a missing public_id',
        { listing_type: 'equipment' },
        400,
        { errors: { public_id: ['This field is required.'] } },
      ],
      [
        'a 501-character utm_campaign',
        { listing_type: 'equipment', public_id: 'kayak-double', utm_campaign: 'c'.repeat(501) },
        400,
        { errors: { utm_campaign: expect.any(Array) } },
      ],
      [
        'a 501-character referrer',
        { listing_type: 'equipment', public_id: 'kayak-double', referrer: `https://x/${'r'.repeat(491)}` },
        400,
        { errors: { referrer: expect.any(Array) } },
      ],
      [
        'a tracking value that is not a string',
        { listing_type: 'equipment', public_id: 'kayak-double', utm_source: 42 },
        400,
        { errors: { utm_source: expect.any(Array) } },
      ],
      [
        'a public_id of the other type',
        { listing_type: 'equipment', public_id: 'sea-caves' },
        404,
        { code: 'not_found' },
      ],
      [
        'the other way round',
        { listing_type: 'adventure', public_id: 'kayak-double' },
        404,
        { code: 'not_found' },
      ],
      [
        'an unknown public_id',
        { listing_type: 'equipment', public_id: 'no-such-thing' },
        404,
        { code: 'not_found' },
      ],
      [
        'an inactive listing',
        { listing_type: 'equipment', public_id: 'kayak-old' },
        404,
        { code: 'not_found' },
      ],
      [
        'an archived listing',
        { listing_type: 'adventure', public_id: 'night-paddle' },
        404,
        { code: 'not_found' },
      ],
    ];
    it.each(cases)('%s', async (_name, payload, status, body) => {
      const before = await countRows(t.db, 'listing_clicks');
      const res = await api({ method: 'POST', url: URL, payload });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code: status === 400 ? 'invalid' : 'not_found', ...body });
      expect(await countRows(t.db, 'listing_clicks')).toBe(before);
    });
  });
});
