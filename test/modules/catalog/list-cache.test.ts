import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { DbHandle } from '../../../src/db/create-db.ts';
import { DetailCache } from '../../../src/lib/versioned-cache.ts';
import { ListCache } from '../../../src/modules/catalog/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { createCategory, createEquipment, createStaffAccount } from '../../helpers/catalog-factories.ts';
import { type Account, registerVendor } from '../../helpers/factories.ts';

describe('ListCache', () => {
  const body = (text: string) => Buffer.from(text);

  it('serves a page only for the version it was stored at', () => {
    const cache = new ListCache(1024);
    cache.set('q', 3, body('page at 3'));
    expect(cache.get('q', 3)?.toString()).toBe('page at 3');
    expect(cache.get('q', 4)).toBeUndefined();
    expect(cache.get('q', 3)).toBeUndefined(); // a stale entry is dropped on sight
    expect(cache.bytes).toBe(0);
  });

  it('keeps at most its byte budget, dropping the least recently used pages first', () => {
    const cache = new ListCache(25);
    cache.set('a', 1, body('a'.repeat(10)));
    cache.set('b', 1, body('b'.repeat(10)));
    cache.get('a', 1);
    cache.set('c', 1, body('c'.repeat(10))); // 30 bytes would not fit: b, the least recently used, goes
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)?.length).toBe(10);
    expect(cache.get('c', 1)?.length).toBe(10);
    expect([cache.size, cache.bytes]).toEqual([2, 20]);
    cache.set('a', 2, body('A'.repeat(12))); // replacing an entry counts only the new body
    expect([cache.size, cache.bytes]).toEqual([2, 22]);
    cache.set('huge', 1, body('h'.repeat(26))); // larger than the whole budget: not kept, nothing evicted
    expect([cache.size, cache.bytes]).toEqual([2, 22]);
  });
});

describe('DetailCache', () => {
  it('serves a value only for the version it was stored at, frozen', () => {
    const cache = new DetailCache<{ title: string; vendor: { name: string } }>(10);
    cache.set('equipment/k1', 7, { title: 'Kayak', vendor: { name: 'V' } });
    const hit = cache.get('equipment/k1', 7);
    expect(hit).toEqual({ title: 'Kayak', vendor: { name: 'V' } });
    expect(Object.isFrozen(hit) && Object.isFrozen(hit?.vendor)).toBe(true);
    expect(cache.get('equipment/k1', 8)).toBeUndefined();
    expect(cache.size).toBe(0); // a stale entry is dropped on sight
  });

  it('keeps at most its entry count, dropping the least recently used first', () => {
    const cache = new DetailCache<{ n: number }>(2);
    cache.set('a', 1, { n: 1 });
    cache.set('b', 1, { n: 2 });
    cache.get('a', 1);
    cache.set('c', 1, { n: 3 });
    expect([cache.get('a', 1)?.n, cache.get('b', 1), cache.get('c', 1)?.n]).toEqual([1, undefined, 3]);
  });
});

// Two server instances, each with its own connection and its own cache, on one database: what one
// acknowledges, the next public list of the other shows.
describe('public list cache across server instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'list-cache-'));
  let t: TestApp;
  let second: { app: FastifyInstance; handle: DbHandle };
  let vendor: Account;

  beforeAll(async () => {
    t = await buildTestApp({ dbFile: join(dir, 'db.sqlite') });
    const handle = t.openSecondHandle();
    second = { app: await buildApp(t.config, { db: handle.db, clock: t.clock }), handle };
    vendor = await registerVendor(t.app, { business_name: 'Cache Kayaks' });
  });
  afterAll(async () => {
    await second.app.close();
    await second.handle.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const listOnSecond = async (query: Record<string, string> = {}) => {
    const res = await second.app.inject({
      method: 'GET',
      url: '/api/v1/equipment/items/',
      query: { vendor_slug: vendor.vendorSlug!, ...query },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as {
      count: number;
      results: {
        title: string;
        price_per_day: string;
        category: { name: string };
        vendor: Record<string, unknown>;
      }[];
    };
  };

  it('shows a listing created, changed, deactivated or renamed elsewhere in the very next list', async () => {
    expect((await listOnSecond()).count).toBe(0);
    const item = await createEquipment(t.app, vendor, { title: 'Fresh kayak', price_per_day: '30.00' });
    expect((await listOnSecond()).results.map((r) => r.title)).toEqual(['Fresh kayak']);

    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/equipment/vendor/items/${item.id}/`,
      headers: { authorization: `Bearer ${vendor.token}` },
      payload: { price_per_day: '31.50' },
    });
    expect((await listOnSecond()).results[0].price_per_day).toBe('31.50');

    await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      headers: { authorization: `Bearer ${vendor.token}` },
      payload: { description: 'only the description' },
    });
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      headers: { authorization: `Bearer ${vendor.token}` },
      payload: { business_name: 'Cache Kayaks Renamed' },
    });
    const newSlug = renamed.json().slug;
    const byNewSlug = await listOnSecond({ vendor_slug: newSlug });
    expect(byNewSlug.results[0].vendor).toEqual({ business_name: 'Cache Kayaks Renamed', slug: newSlug });
    vendor.vendorSlug = newSlug;

    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/equipment/vendor/items/${item.id}/`,
      headers: { authorization: `Bearer ${vendor.token}` },
      payload: { is_active: false },
    });
    expect((await listOnSecond()).count).toBe(0);
  });

  it('shows a renamed category at once', async () => {
    const staff = await createStaffAccount(t);
    const category = await createCategory(t.app, staff.token, { name: 'Canoes' });
    await createEquipment(t.app, vendor, { title: 'Canoe', category_id: category.id });
    expect((await listOnSecond({ category: 'canoes' })).results[0].category.name).toBe('Canoes');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/categories/${category.id}/`,
      headers: { authorization: `Bearer ${staff.token}` },
      payload: { name: 'Open canoes' },
    });
    expect((await listOnSecond({ category: String(category.id) })).results[0].category.name).toBe(
      'Open canoes',
    );
  });

  it('serves a repeated query from the cache while the catalog version stands still', async () => {
    const before = await listOnSecond({ ordering: 'title' });
    // A row slipped in without moving the version (only possible by hand, as here) is not seen ...
    const { version } = await t.db
      .selectFrom('cache_versions')
      .select('version')
      .where('name', '=', 'catalog')
      .executeTakeFirstOrThrow();
    const profile = await t.db
      .selectFrom('vendor_profiles')
      .select('id')
      .where('slug', '=', vendor.vendorSlug!)
      .executeTakeFirstOrThrow();
    const now = t.clock.now().getTime();
    await t.db
      .insertInto('listings')
      .values({
        kind: 'equipment',
        vendor_id: profile.id,
        category_id: 1,
        public_id: 'slipped-in',
        title: 'Slipped in',
        description: '',
        details: '{}',
        location: '',
        price_cents: 100,
        duration_minutes: null,
        capacity: null,
        is_active: 1,
        archived_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db.updateTable('cache_versions').set({ version }).where('name', '=', 'catalog').execute();
    expect((await listOnSecond({ ordering: 'title' })).count).toBe(before.count);
    // ... until the version moves, as every real write moves it.
    await t.db
      .updateTable('cache_versions')
      .set({ version: version + 1 })
      .where('name', '=', 'catalog')
      .execute();
    expect((await listOnSecond({ ordering: 'title' })).count).toBe(before.count + 1);
  });
});

// The same for the public detail view (and the explicit click track, which looks the listing up the same
// way): each instance keeps the listings it showed, and shows what the other acknowledged at once.
describe('public detail cache across server instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'detail-cache-'));
  let t: TestApp;
  let second: { app: FastifyInstance; handle: DbHandle };
  let vendor: Account;
  let staff: Account;
  let category: { id: number };
  let item: { id: number; public_id: string };

  beforeAll(async () => {
    t = await buildTestApp({ dbFile: join(dir, 'db.sqlite') });
    const handle = t.openSecondHandle();
    second = { app: await buildApp(t.config, { db: handle.db, clock: t.clock }), handle };
    vendor = await registerVendor(t.app, { business_name: 'Detail Kayaks' });
    staff = await createStaffAccount(t);
    category = await createCategory(t.app, staff.token, { name: 'Sea kayaks' });
    item = await createEquipment(t.app, vendor, {
      title: 'Tandem kayak',
      price_per_day: '45.00',
      category_id: category.id,
    });
  });
  afterAll(async () => {
    await second.app.close();
    await second.handle.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface DetailBody {
    title: string;
    price_per_day: string;
    is_active: boolean;
    vendor: { business_name: string };
    category: { id: number; name: string; slug: string };
    marketing_click_id: number;
    code?: string;
  }
  const viewOnSecond = async (expectedStatus = 200) => {
    const res = await second.app.inject({ method: 'GET', url: `/api/v1/equipment/items/${item.public_id}/` });
    expect(res.statusCode).toBe(expectedStatus);
    return res.json() as DetailBody;
  };
  const trackOnSecond = (campaign: string) =>
    second.app.inject({
      method: 'POST',
      url: '/api/v1/marketing/track/click/',
      payload: { listing_type: 'equipment', public_id: item.public_id, utm_campaign: campaign },
    });
  const patch = (url: string, payload: object, token = vendor.token) =>
    t.app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${token}` }, payload });

  it('records a click of its own for every view of a cached listing', async () => {
    const first = await viewOnSecond();
    const again = await viewOnSecond();
    expect([first.title, again.title]).toEqual(['Tandem kayak', 'Tandem kayak']);
    expect(again.price_per_day).toBe('45.00');
    expect(again.marketing_click_id).not.toBe(first.marketing_click_id);
    const stored = await t.db
      .selectFrom('listing_clicks')
      .select('listing_id')
      .where('id', 'in', [first.marketing_click_id, again.marketing_click_id])
      .execute();
    expect(stored.map((row) => row.listing_id)).toEqual([item.id, item.id]);
  });

  it('shows a listing changed, its vendor or category renamed, elsewhere in the very next view', async () => {
    await viewOnSecond();
    await patch(`/api/v1/equipment/vendor/items/${item.id}/`, {
      title: 'Tandem sea kayak',
      price_per_day: '47.50',
    });
    const changed = await viewOnSecond();
    expect([changed.title, changed.price_per_day]).toEqual(['Tandem sea kayak', '47.50']);

    await patch('/api/v1/accounts/vendor-profile/me/', { business_name: 'Detail Kayaks Renamed' });
    expect((await viewOnSecond()).vendor.business_name).toBe('Detail Kayaks Renamed');

    await patch(`/api/v1/categories/${category.id}/`, { name: 'Touring kayaks' }, staff.token);
    expect((await viewOnSecond()).category).toEqual({
      id: category.id,
      name: 'Touring kayaks',
      slug: expect.any(String),
    });
  });

  it('answers 404 to views and tracks of a listing deactivated elsewhere, and shows it again once active', async () => {
    await viewOnSecond();
    expect((await trackOnSecond('before')).statusCode).toBe(201);
    await patch(`/api/v1/equipment/vendor/items/${item.id}/`, { is_active: false });
    expect((await viewOnSecond(404)).code).toBe('not_found');
    const track = await trackOnSecond('while-inactive');
    expect([track.statusCode, track.json().code]).toEqual([404, 'not_found']);
    await patch(`/api/v1/equipment/vendor/items/${item.id}/`, { is_active: true });
    expect((await viewOnSecond()).is_active).toBe(true);
    expect((await trackOnSecond('after')).statusCode).toBe(201);
  });

  it('answers availability checks for a listing deactivated elsewhere with 404 at once', async () => {
    const start = t.clock.now().getTime() + 2 * 86_400_000;
    const available = async (expectedStatus: number) => {
      const res = await second.app.inject({
        method: 'GET',
        url: '/api/v1/booking/availability/',
        query: {
          equipment_item_id: String(item.id),
          starts_at: new Date(start).toISOString(),
          ends_at: new Date(start + 3_600_000).toISOString(),
        },
      });
      expect(res.statusCode).toBe(expectedStatus);
      return res.json() as { is_available?: boolean; code?: string };
    };
    expect((await available(200)).is_available).toBe(true);
    await patch(`/api/v1/equipment/vendor/items/${item.id}/`, { is_active: false });
    expect((await available(404)).code).toBe('not_found');
    await patch(`/api/v1/equipment/vendor/items/${item.id}/`, { is_active: true });
    expect((await available(200)).is_available).toBe(true);

    // the lookup is cached: archived by hand without moving the version, the listing is still found ...
    const { version } = await t.db
      .selectFrom('cache_versions')
      .select('version')
      .where('name', '=', 'catalog')
      .executeTakeFirstOrThrow();
    await t.db.updateTable('listings').set({ archived_at: start }).where('id', '=', item.id).execute();
    await t.db.updateTable('cache_versions').set({ version }).where('name', '=', 'catalog').execute();
    expect((await available(200)).is_available).toBe(true);
    // ... until the version moves, as every real write moves it
    await t.db
      .updateTable('cache_versions')
      .set({ version: version + 1 })
      .where('name', '=', 'catalog')
      .execute();
    expect((await available(404)).code).toBe('not_found');
    await t.db.updateTable('listings').set({ archived_at: null }).where('id', '=', item.id).execute();
  });

  it('serves a cached listing while the catalog version stands still', async () => {
    const before = await viewOnSecond();
    const { version } = await t.db
      .selectFrom('cache_versions')
      .select('version')
      .where('name', '=', 'catalog')
      .executeTakeFirstOrThrow();
    // a change slipped in without moving the version (only possible by hand, as here) is not seen ...
    await t.db.updateTable('listings').set({ title: 'Changed by hand' }).where('id', '=', item.id).execute();
    await t.db.updateTable('cache_versions').set({ version }).where('name', '=', 'catalog').execute();
    expect((await viewOnSecond()).title).toBe(before.title);
    // ... until the version moves, as every real write moves it
    await t.db
      .updateTable('cache_versions')
      .set({ version: version + 1 })
      .where('name', '=', 'catalog')
      .execute();
    expect((await viewOnSecond()).title).toBe('Changed by hand');
  });
});
