import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import type { ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { KIND_CASES, type KindCase, publicPath, vendorPath } from './kind-cases.ts';

let t: TestApp;
let api: Injector;
let vendor: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app, { business_name: 'Detail Divers' });
});
afterAll(() => t.close());

const TRACKING = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
] as const;

const clicksOf = (listingId: number) =>
  t.db.selectFrom('listing_clicks').selectAll().where('listing_id', '=', listingId).orderBy('id').execute();

describe.each(KIND_CASES)('public detail and click capture ($kind)', (k: KindCase) => {
  let listing: ListingOut;
  beforeAll(async () => {
    listing = await k.create(t.app, vendor);
  });

  it('returns the listing plus the click it recorded, organic without tracking parameters', async () => {
    const res = await api({ method: 'GET', url: publicPath(k, listing.public_id) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    const { marketing_click_id, click_traffic_type, ...rest } = body;
    expect(rest).toEqual(listing);
    expect(click_traffic_type).toBe('organic');
    const clicks = await clicksOf(listing.id);
    expect(clicks.at(-1)).toEqual({
      id: marketing_click_id,
      listing_id: listing.id,
      listing_kind: k.kind,
      vendor_id: expect.any(Number),
      traffic_type: 'organic',
      source: 'detail_view',
      utm_source: '',
      utm_medium: '',
      utm_campaign: '',
      utm_term: '',
      utm_content: '',
      gclid: '',
      fbclid: '',
      referrer: '',
      user_id: null,
      is_bot: 0,
      created_at: t.clock.now().getTime(),
    });
    const profileRow = await t.db
      .selectFrom('vendor_profiles')
      .select('id')
      .where('slug', '=', vendor.vendorSlug!)
      .executeTakeFirstOrThrow();
    expect(clicks.at(-1)!.vendor_id).toBe(profileRow.id);
  });

  it('records no click for a HEAD request (there is no HEAD route)', async () => {
    const before = (await clicksOf(listing.id)).length;
    const res = await api({ method: 'HEAD', url: publicPath(k, listing.public_id) });
    expect(res.statusCode).toBe(404);
    expect((await clicksOf(listing.id)).length).toBe(before);
  });

  it('records one click per view: N views, N rows, N distinct ids', async () => {
    const fresh = await k.create(t.app, vendor);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      const res = await api({ method: 'GET', url: publicPath(k, fresh.public_id) });
      ids.push(res.json().marketing_click_id);
    }
    const clicks = await clicksOf(fresh.id);
    expect(clicks.map((c) => c.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(5);
    expect(clicks.every((c) => c.traffic_type === 'organic' && c.source === 'detail_view')).toBe(true);
    expect(clicks[4].created_at - clicks[0].created_at).toBe(4000);
  });

  it('stores every tracking parameter, the Referer and the user, and classifies marketing', async () => {
    const customer = await registerCustomer(t.app);
    const query = {
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'summer-26',
      utm_term: 'kayak rental',
      utm_content: 'hero',
      gclid: 'g-123',
      fbclid: 'f-456',
    };
    const res = await api({
      method: 'GET',
      url: publicPath(k, listing.public_id),
      query,
      token: customer.token,
      headers: { referer: 'https://news.example/issue-7' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().click_traffic_type).toBe('marketing');
    const click = (await clicksOf(listing.id)).find((c) => c.id === res.json().marketing_click_id)!;
    expect(click).toMatchObject({
      ...query,
      traffic_type: 'marketing',
      referrer: 'https://news.example/issue-7',
      user_id: customer.id,
    });
  });

  it.each(TRACKING)('classifies a view with only %s as marketing', async (param) => {
    const res = await api({ method: 'GET', url: publicPath(k, listing.public_id), query: { [param]: 'x' } });
    expect(res.json().click_traffic_type).toBe('marketing');
    const click = (await clicksOf(listing.id)).at(-1)!;
    expect(click.id).toBe(res.json().marketing_click_id);
    expect(click.traffic_type).toBe('marketing');
    expect(click[param]).toBe('x');
  });

  it('classifies blank tracking parameters and a referrer alone as organic', async () => {
    const res = await api({
      method: 'GET',
      url: publicPath(k, listing.public_id),
      query: { utm_source: '   ', gclid: '' },
      headers: { referer: 'https://www.google.com/' },
    });
    expect(res.json().click_traffic_type).toBe('organic');
    const click = (await clicksOf(listing.id)).at(-1)!;
    expect(click).toMatchObject({
      traffic_type: 'organic',
      utm_source: '',
      referrer: 'https://www.google.com/',
    });
  });

  it('truncates a long Referer to 500 characters; an invalid token is ignored', async () => {
    const referer = `https://example.com/${'r'.repeat(700)}`;
    const res = await api({
      method: 'GET',
      url: publicPath(k, listing.public_id),
      headers: { referer },
      token: 'expired.or.bogus',
    });
    expect(res.statusCode).toBe(200);
    const click = (await clicksOf(listing.id)).at(-1)!;
    expect(click.referrer).toBe(referer.slice(0, 500));
    expect(click.user_id).toBeNull();
  });

  it('stores the referrer parameter instead of the Referer header, organic, with or without the header', async () => {
    const page = publicPath(k, listing.public_id);
    const withHeader = await api({
      method: 'GET',
      url: page,
      query: { referrer: 'https://search.example/?q=kayak' },
      headers: { referer: 'https://shop.example/equipment/x' },
    });
    const withoutHeader = await api({
      method: 'GET',
      url: page,
      query: { referrer: 'https://social.example/post/9' },
    });
    // a page opened directly passes an empty referrer: its own address in the header is not stored
    const empty = await api({
      method: 'GET',
      url: page,
      query: { referrer: '' },
      headers: { referer: 'https://shop.example/equipment/x' },
    });
    const campaign = await api({
      method: 'GET',
      url: page,
      query: { referrer: 'https://mail.example/', utm_source: 'newsletter' },
    });
    const clicks = await clicksOf(listing.id);
    const stored = (res: typeof withHeader) => {
      expect(res.statusCode).toBe(200);
      const click = clicks.find((c) => c.id === res.json().marketing_click_id)!;
      expect(res.json().click_traffic_type).toBe(click.traffic_type);
      return { referrer: click.referrer, traffic_type: click.traffic_type, utm_source: click.utm_source };
    };
    expect(stored(withHeader)).toEqual({
      referrer: 'https://search.example/?q=kayak',
      traffic_type: 'organic',
      utm_source: '',
    });
    expect(stored(withoutHeader)).toEqual({
      referrer: 'https://social.example/post/9',
      traffic_type: 'organic',
      utm_source: '',
    });
    expect(stored(empty)).toEqual({ referrer: '', traffic_type: 'organic', utm_source: '' });
    expect(stored(campaign)).toEqual({
      referrer: 'https://mail.example/',
      traffic_type: 'marketing',
      utm_source: 'newsletter',
    });
  });

  // the referrer parameter is no tracking parameter, but a tracking string of the same cap (decisions §8)
  it.each(['utm_campaign', 'referrer'])(
    'refuses %s over 500 characters and records nothing',
    async (param) => {
      const before = await countRows(t.db, 'listing_clicks');
      const ok = await api({
        method: 'GET',
        url: publicPath(k, listing.public_id),
        query: { [param]: 'c'.repeat(500) },
      });
      expect(ok.statusCode).toBe(200);
      const stored = (await clicksOf(listing.id)).at(-1)!;
      expect(stored[param as 'utm_campaign' | 'referrer']).toBe('c'.repeat(500));
      const res = await api({
        method: 'GET',
        url: publicPath(k, listing.public_id),
        query: { [param]: 'c'.repeat(501) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: 'Invalid input.',
        code: 'invalid',
        errors: { [param]: ['must NOT have more than 500 characters'] },
      });
      expect(await countRows(t.db, 'listing_clicks')).toBe(before + 1);
    },
  );

  it('answers 404 without a click for unknown, inactive, archived and other-kind listings', async () => {
    const inactive = await k.create(t.app, vendor, { is_active: false });
    const archived = await k.create(t.app, vendor);
    await api({ method: 'DELETE', url: vendorPath(k, archived.id), token: vendor.token });
    const otherKind = KIND_CASES.find((c) => c !== k)!;
    const other = await otherKind.create(t.app, vendor);
    const before = await countRows(t.db, 'listing_clicks');
    for (const publicId of ['no-such-listing', inactive.public_id, archived.public_id, other.public_id]) {
      const res = await api({ method: 'GET', url: publicPath(k, publicId), query: { utm_source: 'ad' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({
        detail: `${k.kind === 'equipment' ? 'Equipment item' : 'Adventure offering'} not found.`,
        code: 'not_found',
      });
    }
    expect(await countRows(t.db, 'listing_clicks')).toBe(before);

    // reactivated, it is visible again
    await api({
      method: 'PATCH',
      url: vendorPath(k, inactive.id),
      token: vendor.token,
      payload: { is_active: true },
    });
    expect((await api({ method: 'GET', url: publicPath(k, inactive.public_id) })).statusCode).toBe(200);
  });
});

describe('the adventures alias detail', () => {
  it('records clicks on both spellings', async () => {
    const adventure = await KIND_CASES[1].create(t.app, vendor);
    const a = await api({ method: 'GET', url: `/api/v1/adventrues/offerings/${adventure.public_id}/` });
    const b = await api({ method: 'GET', url: `/api/v1/adventures/offerings/${adventure.public_id}` });
    expect(b.json().marketing_click_id).toBe(a.json().marketing_click_id + 1);
    expect((await clicksOf(adventure.id)).map((c) => c.id)).toEqual([
      a.json().marketing_click_id,
      b.json().marketing_click_id,
    ]);
  });
});
