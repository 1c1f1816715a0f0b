import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/http/errors.ts';
import { pageOf } from '../../../src/http/pagination.ts';
import { LocalDiskStorage } from '../../../src/media/storage.ts';
import { EQUIPMENT, KINDS, type ListingsWhere } from '../../../src/modules/catalog/index.ts';
import {
  type CatalogDeps,
  createCatalogDeps,
  listPublicListings,
} from '../../../src/modules/catalog/listings.service.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { categoryId, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { KIND_CASES, type KindCase, publicPath, vendorPath } from './kind-cases.ts';

let t: TestApp;
let api: Injector;
let alpha: Account;
let beta: Account;
/** per kind: the listings by short name (A1..A3 of alpha, B1..B4 of beta) */
const world: Record<string, Record<string, ListingOut>> = {};

// name, vendor, category, location, price, title, state
const DATASET = [
  ['A1', 'alpha', 'kayaks', 'Lagos Marina', '10.00', 'Kayak single', 'active'],
  ['A2', 'alpha', 'surfboards', 'lagos beach', '25.50', 'Longboard', 'active'],
  ['A3', 'alpha', 'kayaks', 'Faro 100% Pier', '25.50', 'Kayak double', 'active'],
  ['B1', 'beta', 'kayaks', 'Portimão_Harbour', '40.00', 'Canoe', 'active'],
  ['B2', 'beta', 'wetsuits', 'SAGRES', '0.00', 'Wetsuit', 'active'],
  ['B3', 'beta', 'kayaks', 'Lagos', '15.00', 'Hidden kayak', 'inactive'],
  ['B4', 'beta', 'kayaks', 'Lagos', '15.00', 'Gone kayak', 'archived'],
] as const;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  alpha = await registerVendor(t.app, { business_name: 'Alpha Water Sports', city: 'Lagos' });
  beta = await registerVendor(t.app, { business_name: 'Beta Boats' });
  const vendors = { alpha, beta };
  for (const k of KIND_CASES) {
    world[k.kind] = {};
    for (const [name, vendor, category, location, price, title, state] of DATASET) {
      t.clock.advance(60_000);
      const listing = await k.create(t.app, vendors[vendor], {
        public_id: `${k.kind}-${name}`,
        category_id: await categoryId(t.app, category),
        [k.location]: location,
        [k.price]: price,
        title,
        is_active: state !== 'inactive',
      });
      if (state === 'archived')
        await api({ method: 'DELETE', url: vendorPath(k, listing.id), token: vendors[vendor].token });
      world[k.kind][name] = listing;
    }
  }
});
afterAll(() => t.close());

describe.each(KIND_CASES)('public list ($kind)', (k: KindCase) => {
  async function names(query: Record<string, string> = {}, expectedCount?: number): Promise<string[]> {
    const res = await api({ method: 'GET', url: publicPath(k), query });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const byId = new Map(Object.entries(world[k.kind]).map(([name, l]) => [l.id, name]));
    const result = body.results.map((l: { id: number }) => byId.get(l.id) ?? `other:${l.id}`);
    expect(body.count).toBe(expectedCount ?? result.length);
    return result;
  }

  it('lists active, unarchived listings of the kind only, newest first, without a token', async () => {
    expect(await names()).toEqual(['B2', 'B1', 'A3', 'A2', 'A1']);
    const res = await api({ method: 'GET', url: publicPath(k) });
    const first = res.json().results[0];
    expect(Object.keys(first).sort()).toEqual(k.keys);
    const own = await api({ method: 'GET', url: vendorPath(k, world[k.kind].B2.id), token: beta.token });
    expect(first).toEqual(own.json());
  });

  it('ignores a bad token on the public list', async () => {
    const res = await api({ method: 'GET', url: publicPath(k), token: 'not-a-token' });
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(5);
  });

  it('filters by category id or slug; an unknown category gives an empty list', async () => {
    const kayaks = await categoryId(t.app, 'kayaks');
    expect(await names({ category: String(kayaks) })).toEqual(['B1', 'A3', 'A1']);
    expect(await names({ category: 'kayaks' })).toEqual(['B1', 'A3', 'A1']);
    expect(await names({ category: 'surfboards' })).toEqual(['A2']);
    expect(await names({ category: 'jet-skis' })).toEqual([]);
    expect(await names({ category: 'no-such-category' })).toEqual([]);
    expect(await names({ category: '999999' })).toEqual([]);
    expect(await names({ category: '0' })).toEqual([]);
    expect(await names({ category: '99999999999999999999999' })).toEqual([]);
  });

  it(`matches location case-insensitively as a substring of ${k.location}`, async () => {
    expect(await names({ location: 'lagos' })).toEqual(['A2', 'A1']);
    expect(await names({ location: 'LAGOS' })).toEqual(['A2', 'A1']);
    expect(await names({ location: 'Marina' })).toEqual(['A1']);
    expect(await names({ location: 'sagres' })).toEqual(['B2']);
    expect(await names({ location: 'portimão' })).toEqual(['B1']);
    expect(await names({ location: 'Atlantis' })).toEqual([]);
  });

  it('takes LIKE wildcards in location literally', async () => {
    expect(await names({ location: '%' })).toEqual(['A3']);
    expect(await names({ location: '100%' })).toEqual(['A3']);
    expect(await names({ location: '_' })).toEqual(['B1']);
    expect(await names({ location: 'o_h' })).toEqual(['B1']);
    expect(await names({ location: 'lag_s' })).toEqual([]);
    expect(await names({ location: 'l%s' })).toEqual([]);
    expect(await names({ location: '\\' })).toEqual([]);
  });

  it('filters by vendor slug; an unknown one gives an empty list', async () => {
    expect(await names({ vendor_slug: alpha.vendorSlug! })).toEqual(['A3', 'A2', 'A1']);
    expect(await names({ vendor_slug: beta.vendorSlug! })).toEqual(['B2', 'B1']);
    expect(await names({ vendor_slug: 'nobody' })).toEqual([]);
  });

  it('bounds the price inclusively', async () => {
    expect(await names({ min_price: '25.50' })).toEqual(['B1', 'A3', 'A2']);
    expect(await names({ min_price: '25.51' })).toEqual(['B1']);
    expect(await names({ max_price: '25.5' })).toEqual(['B2', 'A3', 'A2', 'A1']);
    expect(await names({ max_price: '25.49' })).toEqual(['B2', 'A1']);
    expect(await names({ min_price: '25.50', max_price: '25.50' })).toEqual(['A3', 'A2']);
    expect(await names({ min_price: '0', max_price: '0' })).toEqual(['B2']);
    expect(await names({ min_price: '10', max_price: '40' })).toEqual(['B1', 'A3', 'A2', 'A1']);
    expect(await names({ min_price: '30', max_price: '20' })).toEqual([]);
  });

  it('refuses invalid price bounds, naming each', async () => {
    for (const bad of ['abc', '-1', '1.001', '1e2', '100000000']) {
      const res = await api({ method: 'GET', url: publicPath(k), query: { min_price: bad } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: 'Invalid input.',
        code: 'invalid',
        errors: { min_price: ['Enter an amount >= 0 with at most two decimal places, below 100,000,000.'] },
      });
    }
    const both = await api({ method: 'GET', url: publicPath(k), query: { min_price: 'x', max_price: 'y' } });
    expect(Object.keys(both.json().errors).sort()).toEqual(['max_price', 'min_price']);
  });

  it('combines filters', async () => {
    expect(await names({ category: 'kayaks', location: 'lagos', max_price: '10' })).toEqual(['A1']);
    expect(await names({ category: 'kayaks', location: 'lagos', min_price: '10.01' })).toEqual([]);
    expect(await names({ vendor_slug: beta.vendorSlug!, category: 'kayaks' })).toEqual(['B1']);
    expect(
      await names({ vendor_slug: alpha.vendorSlug!, category: 'kayaks', min_price: '20', ordering: 'price' }),
    ).toEqual(['A3']);
    expect(await names({ location: 'a', min_price: '1', ordering: 'title' })).toEqual([
      'B1',
      'A3',
      'A1',
      'A2',
    ]);
  });

  it('orders by price, created_at and title, both ways, ties broken by id', async () => {
    expect(await names({ ordering: 'price' })).toEqual(['B2', 'A1', 'A2', 'A3', 'B1']);
    expect(await names({ ordering: '-price' })).toEqual(['B1', 'A3', 'A2', 'A1', 'B2']);
    expect(await names({ ordering: 'created_at' })).toEqual(['A1', 'A2', 'A3', 'B1', 'B2']);
    expect(await names({ ordering: '-created_at' })).toEqual(['B2', 'B1', 'A3', 'A2', 'A1']);
    expect(await names({ ordering: 'title' })).toEqual(['B1', 'A3', 'A1', 'A2', 'B2']);
    expect(await names({ ordering: '-title' })).toEqual(['B2', 'A2', 'A1', 'A3', 'B1']);
  });

  it('refuses an unknown ordering', async () => {
    for (const ordering of ['name', 'price,title', '+price', 'PRICE']) {
      const res = await api({ method: 'GET', url: publicPath(k), query: { ordering } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid', errors: { ordering: [expect.any(String)] } });
    }
  });

  it('treats empty parameters as not given', async () => {
    expect(
      await names({
        category: '',
        location: '',
        vendor_slug: '',
        min_price: '',
        max_price: '',
        ordering: '',
        available_from: '',
        available_to: '',
      }),
    ).toEqual(['B2', 'B1', 'A3', 'A2', 'A1']);
  });

  it('paginates with absolute next/previous links that keep the other parameters', async () => {
    const base = `http://localhost${publicPath(k)}`;
    const first = (
      await api({ method: 'GET', url: `${publicPath(k)}?ordering=price&max_price=100&page_size=2` })
    ).json();
    expect(first.count).toBe(5);
    expect(first.results.map((l: { public_id: string }) => l.public_id)).toEqual([
      `${k.kind}-B2`,
      `${k.kind}-A1`,
    ]);
    expect(first.previous).toBeNull();
    expect(first.next).toBe(`${base}?ordering=price&max_price=100&page_size=2&page=2`);

    const second = (await api({ method: 'GET', url: first.next.replace('http://localhost', '') })).json();
    expect(second.results.map((l: { public_id: string }) => l.public_id)).toEqual([
      `${k.kind}-A2`,
      `${k.kind}-A3`,
    ]);
    expect(second.previous).toBe(`${base}?ordering=price&max_price=100&page_size=2&page=1`);
    expect(second.next).toBe(`${base}?ordering=price&max_price=100&page_size=2&page=3`);

    const last = (await api({ method: 'GET', url: second.next.replace('http://localhost', '') })).json();
    expect(last.results.map((l: { public_id: string }) => l.public_id)).toEqual([`${k.kind}-B1`]);
    expect(last.next).toBeNull();

    const beyond = (await api({ method: 'GET', url: `${publicPath(k)}?page=7&page_size=2` })).json();
    expect(beyond).toEqual({ count: 5, next: null, previous: `${base}?page=3&page_size=2`, results: [] });

    const defaults = (await api({ method: 'GET', url: publicPath(k) })).json();
    expect(defaults.results).toHaveLength(5);
    expect(defaults.next).toBeNull();
    for (const bad of ['page=0', 'page_size=101', 'page=x', 'page_size=0']) {
      const res = await api({ method: 'GET', url: `${publicPath(k)}?${bad}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid');
    }
  });

  it('validates the availability window before anything else', async () => {
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        { available_from: '2026-07-01T10:00:00Z' },
        { available_to: ['Required together with available_from.'] },
      ],
      [
        { available_to: '2026-07-01T10:00:00Z' },
        { available_from: ['Required together with available_to.'] },
      ],
      [
        { available_from: 'tomorrow', available_to: '2026-07-01T10:00:00Z' },
        { available_from: ['Enter a valid ISO 8601 datetime.'] },
      ],
      [
        { available_from: '2026-07-01T10:00:00Z', available_to: '2026-02-30T10:00:00Z' },
        { available_to: ['Enter a valid ISO 8601 datetime.'] },
      ],
      [
        { available_from: '2026-07-01T10:00:00Z', available_to: '2026-07-01T10:00:00Z' },
        { available_to: ['Must be after available_from.'] },
      ],
      [
        { available_from: '2026-07-01T12:00:00+02:00', available_to: '2026-07-01T09:59:00Z' },
        { available_to: ['Must be after available_from.'] },
      ],
    ];
    for (const [query, errors] of cases) {
      const res = await api({ method: 'GET', url: publicPath(k), query });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Invalid input.', code: 'invalid', errors });
    }
  });
});

describe('the availability hook', () => {
  const deps = (availableIn?: CatalogDeps['availableIn']): CatalogDeps =>
    createCatalogDeps({
      db: t.db,
      clock: t.clock,
      recordClick: async () => {
        throw new Error('no clicks here');
      },
      availableIn,
      media: new LocalDiskStorage(t.config.mediaDir),
    });
  const window = { available_from: '2026-07-01T10:00:00Z', available_to: '2026-07-01T12:00:00Z' };

  it('answers 400 when no availability filter is wired', async () => {
    const error = await listPublicListings(deps(), EQUIPMENT, window, pageOf({})).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('invalid');
    expect(error.errors).toEqual({
      available_from: ['Filtering by availability is not supported by this server.'],
    });
  });

  it('runs the injected condition in SQL with the parsed window, alongside the other filters', async () => {
    const customer = await registerCustomer(t.app);
    const a1 = world.equipment.A1;
    const row = await t.db
      .selectFrom('listings')
      .select('vendor_id')
      .where('id', '=', a1.id)
      .executeTakeFirstOrThrow();
    const at = (iso: string) => Date.parse(iso);
    await t.db
      .insertInto('bookings')
      .values({
        listing_id: a1.id,
        listing_kind: 'equipment',
        vendor_id: row.vendor_id,
        customer_id: customer.id,
        status: 'approved',
        starts_at: at('2026-07-01T11:00:00Z'),
        ends_at: at('2026-07-01T13:00:00Z'),
        participants_count: null,
        customer_notes: '',
        vendor_notes: '',
        total_price_cents: 1000,
        currency: 'usd',
        listing_click_id: null,
        created_at: t.clock.now().getTime(),
        updated_at: t.clock.now().getTime(),
      })
      .execute();
    const seen: [number, number][] = [];
    // a stand-in for the booking module's rule: no overlapping booking
    const noOverlap = (from: number, to: number): ListingsWhere => {
      seen.push([from, to]);
      return (eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('bookings')
              .select('bookings.id')
              .whereRef('bookings.listing_id', '=', 'listings.id')
              .where('bookings.starts_at', '<', to)
              .where('bookings.ends_at', '>', from),
          ),
        );
    };
    const names = async (query: Record<string, string>) => {
      const listings = await listPublicListings(deps(noOverlap), KINDS.equipment, query, pageOf({}));
      const { count, results } = await listings.read();
      const byId = new Map(Object.entries(world.equipment).map(([name, l]) => [l.id, name]));
      expect(count).toBe(results.length);
      return results.map((l) => byId.get(l.id));
    };
    expect(await names({ ...window, category: 'kayaks' })).toEqual(['B1', 'A3']);
    expect(seen).toEqual([[at('2026-07-01T10:00:00Z'), at('2026-07-01T12:00:00Z')]]);
    // half-open windows: ending when the booking starts is no overlap
    expect(
      await names({
        available_from: '2026-07-01T09:00:00Z',
        available_to: '2026-07-01T11:00:00Z',
        category: 'kayaks',
      }),
    ).toEqual(['B1', 'A3', 'A1']);
    expect(await names({ ...window, vendor_slug: alpha.vendorSlug!, ordering: 'price' })).toEqual([
      'A2',
      'A3',
    ]);
  });
});

describe.each(KIND_CASES)('storefront ($kind)', (k: KindCase) => {
  it("shows the vendor's public profile and their active listings of the kind only", async () => {
    const res = await api({ method: 'GET', url: `${k.base}/storefront/${beta.vendorSlug}/` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const profile = (
      await api({ method: 'GET', url: '/api/v1/accounts/vendor-profile/me/', token: beta.token })
    ).json();
    expect(body.vendor).toEqual(profile);
    expect(body.count).toBe(2);
    expect(body.results.map((l: { public_id: string }) => l.public_id)).toEqual([
      `${k.kind}-B2`,
      `${k.kind}-B1`,
    ]);
    expect(body.results[0]).toEqual(
      (await api({ method: 'GET', url: vendorPath(k, world[k.kind].B2.id), token: beta.token })).json(),
    );
    expect(body.previous).toBeNull();
    expect(body.next).toBeNull();
  });

  it('paginates and orders the storefront', async () => {
    const url = `${k.base}/storefront/${alpha.vendorSlug}/?ordering=title&page_size=2`;
    const body = (await api({ method: 'GET', url })).json();
    expect(body.vendor).toMatchObject({
      business_name: 'Alpha Water Sports',
      slug: alpha.vendorSlug,
      city: 'Lagos',
    });
    expect(body.count).toBe(3);
    expect(body.results.map((l: { public_id: string }) => l.public_id)).toEqual([
      `${k.kind}-A3`,
      `${k.kind}-A1`,
    ]);
    expect(body.next).toBe(
      `http://localhost${k.base}/storefront/${alpha.vendorSlug}/?ordering=title&page_size=2&page=2`,
    );
  });

  it('answers 404 for an unknown vendor slug', async () => {
    const res = await api({ method: 'GET', url: `${k.base}/storefront/no-such-vendor/` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Vendor not found.', code: 'not_found' });
  });

  it('shows an empty inventory for a vendor without listings of the kind', async () => {
    const fresh = await registerVendor(t.app, { business_name: 'Empty Shelf' });
    const body = (await api({ method: 'GET', url: `${k.base}/storefront/${fresh.vendorSlug}` })).json();
    expect(body).toMatchObject({ count: 0, next: null, previous: null, results: [] });
    expect(body.vendor.business_name).toBe('Empty Shelf');
  });
});

describe('the adventures alias', () => {
  it('serves the same lists and storefront under /api/v1/adventures/', async () => {
    for (const path of ['offerings/?category=kayaks&ordering=price', `storefront/${alpha.vendorSlug}/`]) {
      const spec = (await api({ method: 'GET', url: `/api/v1/adventrues/${path}` })).json();
      const alias = (await api({ method: 'GET', url: `/api/v1/adventures/${path}` })).json();
      expect(alias.results).toEqual(spec.results);
      expect(alias.count).toBe(spec.count);
      expect(spec.count).toBeGreaterThan(0);
    }
  });

  it('documents the spec paths and leaves the alias out of the OpenAPI document', async () => {
    const doc = (await api({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/api/v1/categories/',
      '/api/v1/categories/{id}/',
      '/api/v1/equipment/items/',
      '/api/v1/equipment/items/{public_id}/',
      '/api/v1/equipment/vendor/items/{id}/',
      '/api/v1/equipment/storefront/{slug}/',
      '/api/v1/adventrues/offerings/',
      '/api/v1/adventrues/offerings/{public_id}/',
      '/api/v1/adventrues/vendor/offerings/',
      '/api/v1/adventrues/storefront/{slug}/',
    ])
      expect(paths).toContain(p);
    expect(paths.filter((p) => p.startsWith('/api/v1/adventures/'))).toEqual([]);
    const item = doc.paths['/api/v1/equipment/vendor/items/{id}/'];
    expect(Object.keys(item).sort()).toEqual(['delete', 'get', 'patch', 'put']);
    expect(item.put.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/v1/categories/{id}/'].delete.responses['409']).toBeDefined();
    const detail = doc.paths['/api/v1/adventrues/offerings/{public_id}/'].get;
    const detailRef: string = detail.responses['200'].content['application/json'].schema.$ref;
    const detailSchema = doc.components.schemas[detailRef.replace('#/components/schemas/', '')];
    expect(Object.keys(detailSchema.properties)).toEqual(
      expect.arrayContaining([
        'marketing_click_id',
        'click_traffic_type',
        'price_per_person',
        'meeting_point',
      ]),
    );
  });
});
