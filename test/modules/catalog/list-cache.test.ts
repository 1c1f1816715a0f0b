import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { DbHandle } from '../../../src/db/create-db.ts';
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
    return res.json() as { count: number; results: Record<string, any>[] };
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
