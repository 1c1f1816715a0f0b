import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { categoryId, uniquePublicId } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  ADVENTURE_CASE,
  EQUIPMENT_CASE,
  KIND_CASES,
  type KindCase,
  publicPath,
  vendorPath,
} from './kind-cases.ts';

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

/** A complete, valid write body for the kind. */
async function fullBody(k: KindCase, overrides: Record<string, unknown> = {}) {
  return {
    public_id: uniquePublicId(k.kind),
    title: 'Full body',
    description: 'Every writable field',
    [k.location]: 'Sagres',
    [k.price]: '12.50',
    is_active: true,
    category_id: await categoryId(t.app, k.defaultCategory),
    ...k.own,
    ...overrides,
  };
}

describe('creating listings: the output object', () => {
  it('returns an equipment item with exactly the decided fields', async () => {
    const vendor = await registerVendor(t.app, { business_name: 'Lagos Kayak Hire' });
    const kayaks = await categoryId(t.app, 'kayaks');
    const res = await api({
      method: 'POST',
      url: '/api/v1/equipment/vendor/items/',
      token: vendor.token,
      payload: {
        public_id: 'sea-kayak_01',
        title: '  Sea kayak  ',
        description: 'Stable double',
        details: { seats: 2, paddles: ['carbon', 'alu'], dry_bag: true },
        location: 'Lagos, Portugal',
        price_per_day: 45.5,
        is_active: true,
        category_id: kayaks,
      },
    });
    expect(res.statusCode).toBe(201);
    const now = t.clock.now().toISOString();
    expect(res.json()).toEqual({
      id: expect.any(Number),
      public_id: 'sea-kayak_01',
      title: 'Sea kayak',
      description: 'Stable double',
      details: { seats: 2, paddles: ['carbon', 'alu'], dry_bag: true },
      quantity: 1,
      rates: [],
      min_duration_minutes: null,
      max_duration_minutes: null,
      buffer_minutes: 0,
      location: 'Lagos, Portugal',
      price_per_day: '45.50',
      currency: 'usd',
      cancellation_policy: { free_cancellation_hours: 24, late_refund_percent: 0 },
      booking_cutoff_minutes: 0,
      extras: [],
      questions: [],
      resources: [],
      is_active: true,
      category_id: kayaks,
      category: { id: kayaks, name: 'Kayaks', slug: 'kayaks' },
      vendor: { business_name: 'Lagos Kayak Hire', slug: vendor.vendorSlug },
      created_at: now,
      updated_at: now,
      photos: [],
    });
    const row = await t.db
      .selectFrom('listings')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'equipment',
      price_cents: 4550,
      is_active: 1,
      archived_at: null,
      capacity: null,
      quantity: 1,
      booking_mode: 'private',
    });
  });

  it('returns an adventure offering with exactly the decided fields', async () => {
    const vendor = await registerVendor(t.app, { business_name: 'Cave Tours', currency: 'JPY' });
    const boats = await categoryId(t.app, 'boat-tours');
    const res = await api({
      method: 'POST',
      url: '/api/v1/adventrues/vendor/offerings/',
      token: vendor.token,
      payload: {
        public_id: 'benagil-caves',
        title: 'Benagil caves',
        description: 'Sea caves by boat',
        meeting_point: 'Marina de Portimão',
        duration_minutes: 150,
        capacity: 12,
        price_per_person: '35',
        // read-only: the listing's currency is its vendor's
        currency: 'eur',
        is_active: false,
        category_id: boats,
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      public_id: 'benagil-caves',
      title: 'Benagil caves',
      description: 'Sea caves by boat',
      meeting_point: 'Marina de Portimão',
      duration_minutes: 150,
      capacity: 12,
      booking_mode: 'private',
      schedule: [],
      price_categories: [],
      price_per_person: '35.00',
      currency: 'jpy',
      cancellation_policy: { free_cancellation_hours: 24, late_refund_percent: 0 },
      booking_cutoff_minutes: 0,
      extras: [],
      questions: [],
      resources: [],
      is_active: false,
      category_id: boats,
      category: { id: boats, name: 'Boat tours', slug: 'boat-tours' },
      vendor: { business_name: 'Cave Tours', slug: vendor.vendorSlug },
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
      photos: [],
    });
  });

  it.each(KIND_CASES)('defaults the optional fields ($kind)', async (k) => {
    const vendor = await registerVendor(t.app);
    const res = await api({
      method: 'POST',
      url: vendorPath(k),
      token: vendor.token,
      payload: {
        public_id: uniquePublicId(),
        title: 'Minimal',
        [k.price]: '0',
        category_id: await categoryId(t.app, k.defaultCategory),
        ...(k.kind === 'adventure' ? { duration_minutes: 1, capacity: 1 } : {}),
      },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(k.keys);
    expect(body).toMatchObject({
      description: '',
      [k.location]: '',
      [k.price]: '0.00',
      is_active: true,
      resources: [],
    });
    if (k.kind === 'equipment') expect(body.details).toEqual({});
  });

  it('serves both spellings of the adventure paths', async () => {
    const vendor = await registerVendor(t.app);
    const res = await api({
      method: 'POST',
      url: '/api/v1/adventures/vendor/offerings/',
      token: vendor.token,
      payload: await fullBody(ADVENTURE_CASE),
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const viaSpec = await api({
      method: 'GET',
      url: `/api/v1/adventrues/vendor/offerings/${id}/`,
      token: vendor.token,
    });
    expect(viaSpec.json()).toEqual(res.json());
  });
});

describe.each(KIND_CASES)('validation ($kind)', (k) => {
  let vendor: Account;
  beforeAll(async () => {
    vendor = await registerVendor(t.app);
  });

  async function expectInvalid(
    payload: Record<string, unknown>,
    fields: string[],
    method = 'POST',
    id?: number,
  ) {
    const before = await countRows(t.db, 'listings');
    const res = await api({ method: method as 'POST', url: vendorPath(k, id), token: vendor.token, payload });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('invalid');
    expect(Object.keys(body.errors).sort()).toEqual([...fields].sort());
    expect(await countRows(t.db, 'listings')).toBe(before);
    return body;
  }

  it.each(['has space', '', 'x'.repeat(65), 'café', 'a/b', 'a.b'])(
    'refuses public_id %j',
    async (publicId) => {
      await expectInvalid(await fullBody(k, { public_id: publicId }), ['public_id']);
    },
  );

  it('accepts a 64-character public_id of every allowed character class', async () => {
    const publicId = `Az09_-${'q'.repeat(52)}${Date.now().toString(36)}`.slice(0, 64);
    const res = await api({
      method: 'POST',
      url: vendorPath(k),
      token: vendor.token,
      payload: await fullBody(k, { public_id: publicId }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().public_id).toBe(publicId);
  });

  it('refuses a public_id another vendor of the same kind uses, but not one of the other kind', async () => {
    const other = await registerVendor(t.app);
    const taken = (await k.create(t.app, other)).public_id;
    const body = await expectInvalid(await fullBody(k, { public_id: taken }), ['public_id']);
    expect(body.errors.public_id[0]).toContain('already exists');
    const otherKind = k.kind === 'equipment' ? ADVENTURE_CASE : EQUIPMENT_CASE;
    const res = await api({
      method: 'POST',
      url: vendorPath(otherKind),
      token: vendor.token,
      payload: await fullBody(otherKind, { public_id: taken }),
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses an unknown or missing category', async () => {
    const body = await expectInvalid(await fullBody(k, { category_id: 999_999 }), ['category_id']);
    expect(body.errors.category_id).toEqual(['Invalid pk "999999" - object does not exist.']);
    const { category_id: _, ...withoutCategory } = await fullBody(k);
    const missing = await expectInvalid(withoutCategory, ['category_id']);
    expect(missing.errors.category_id).toEqual(['This field is required.']);
    await expectInvalid(await fullBody(k, { category_id: '3' }), ['category_id']);
  });

  it('checks the title: required, not blank, at most 200 characters', async () => {
    await expectInvalid(await fullBody(k, { title: '   ' }), ['title']);
    await expectInvalid(await fullBody(k, { title: '' }), ['title']);
    await expectInvalid(await fullBody(k, { title: 'x'.repeat(201) }), ['title']);
    const res = await api({
      method: 'POST',
      url: vendorPath(k),
      token: vendor.token,
      payload: await fullBody(k, { title: 'x'.repeat(200) }),
    });
    expect(res.statusCode).toBe(201);
  });

  it.each(['-1', '1.234', 'abc', '100000000', '1e3', ' ', -5, 1.005])(
    'refuses the price %j',
    async (price) => {
      const body = await expectInvalid(await fullBody(k, { [k.price]: price }), [k.price]);
      expect(body.errors[k.price]).toBeDefined();
    },
  );

  it('refuses a price that is neither string nor number', async () => {
    await expectInvalid(await fullBody(k, { [k.price]: true }), [k.price]);
  });

  it('accepts the largest price and stores cents exactly', async () => {
    const res = await api({
      method: 'POST',
      url: vendorPath(k),
      token: vendor.token,
      payload: await fullBody(k, { [k.price]: '99999999.99' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()[k.price]).toBe('99999999.99');
    const row = await t.db
      .selectFrom('listings')
      .select('price_cents')
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row.price_cents).toBe(9_999_999_999);
  });

  it('names every bad field in one answer', async () => {
    // shape errors (types, patterns, required fields) are found together ...
    const body = await expectInvalid({ public_id: 'bad id', title: '', [k.price]: 'x', is_active: 'yes' }, [
      'public_id',
      'title',
      'is_active',
      'category_id',
      ...(k.kind === 'adventure' ? ['duration_minutes', 'capacity'] : []),
    ]);
    expect(body.detail).toBe('Invalid input.');
    // ... and so are the value errors of a well-shaped body
    await expectInvalid(await fullBody(k, { title: ' ', [k.price]: 'x', category_id: 999_999 }), [
      'title',
      k.price,
      'category_id',
    ]);
  });

  it('refuses a non-object body', async () => {
    const res = await api({
      method: 'POST',
      url: vendorPath(k),
      token: vendor.token,
      payload: [1, 2] as unknown as Record<string, unknown>,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid');
  });

  if (k.kind === 'adventure') {
    it.each([
      ['capacity', 0],
      ['capacity', 1.5],
      ['capacity', '3'],
      ['capacity', -2],
      ['duration_minutes', 0],
      ['duration_minutes', 2.5],
      ['duration_minutes', null],
    ])('refuses %s = %j', async (field, value) => {
      await expectInvalid(await fullBody(k, { [field]: value }), [field]);
    });

    it('requires capacity and duration_minutes on create', async () => {
      const { capacity: _c, duration_minutes: _d, ...rest } = await fullBody(k);
      await expectInvalid(rest, ['capacity', 'duration_minutes']);
    });
  } else {
    it.each([[[1, 2]], ['text'], [null], [3]])('refuses details = %j', async (details) => {
      await expectInvalid(await fullBody(k, { details }), ['details']);
    });

    it('limits details to 16 KiB as JSON', async () => {
      // {"k":"…"} is 8 bytes of framing
      const fits = { k: 'x'.repeat(16 * 1024 - 8) };
      expect(Buffer.byteLength(JSON.stringify(fits))).toBe(16 * 1024);
      const ok = await api({
        method: 'POST',
        url: vendorPath(k),
        token: vendor.token,
        payload: await fullBody(k, { details: fits }),
      });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().details.k.length).toBe(16 * 1024 - 8);
      const body = await expectInvalid(await fullBody(k, { details: { k: 'x'.repeat(16 * 1024 - 7) } }), [
        'details',
      ]);
      expect(body.errors.details).toEqual(['At most 16 KiB as JSON.']);
      // multi-byte characters count by their UTF-8 size
      await expectInvalid(await fullBody(k, { details: { k: 'é'.repeat(8200) } }), ['details']);
    });
  }
});

describe.each(KIND_CASES)('updating, reading and archiving ($kind)', (k) => {
  let vendor: Account;
  beforeAll(async () => {
    vendor = await registerVendor(t.app);
  });

  it('replaces every writable field with PUT and keeps created_at', async () => {
    const created = await k.create(t.app, vendor);
    t.clock.advance(60_000);
    const surfboards = await categoryId(t.app, 'surfboards');
    const body = await fullBody(k, { title: 'Replaced', category_id: surfboards, is_active: false });
    const res = await api({
      method: 'PUT',
      url: vendorPath(k, created.id),
      token: vendor.token,
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    const replaced = res.json();
    expect(replaced).toMatchObject({
      id: created.id,
      public_id: body.public_id,
      title: 'Replaced',
      description: 'Every writable field',
      [k.location]: 'Sagres',
      [k.price]: '12.50',
      is_active: false,
      category_id: surfboards,
      category: { id: surfboards, slug: 'surfboards', name: 'Surfboards' },
      ...k.own,
      created_at: created.created_at,
      updated_at: t.clock.now().toISOString(),
    });
    const again = await api({ method: 'GET', url: vendorPath(k, created.id), token: vendor.token });
    expect(again.json()).toEqual(replaced);
  });

  it('refuses a PUT that leaves out a writable field, naming each', async () => {
    const created = await k.create(t.app, vendor);
    const { description: _d, is_active: _a, ...partial } = await fullBody(k);
    const res = await api({
      method: 'PUT',
      url: vendorPath(k, created.id),
      token: vendor.token,
      payload: partial,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      description: ['This field is required.'],
      is_active: ['This field is required.'],
    });
    const unchanged = await api({ method: 'GET', url: vendorPath(k, created.id), token: vendor.token });
    expect(unchanged.json()).toEqual(created);
  });

  it('changes only the given fields with PATCH and ignores read-only ones', async () => {
    const created = await k.create(t.app, vendor, { [k.price]: '20.00' });
    t.clock.advance(1000);
    const res = await api({
      method: 'PATCH',
      url: vendorPath(k, created.id),
      token: vendor.token,
      payload: {
        [k.price]: '21.99',
        id: 424242,
        vendor: { slug: 'someone-else' },
        created_at: '2000-01-01T00:00:00Z',
        category: { id: 1 },
        slug: 'x',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...created, [k.price]: '21.99', updated_at: t.clock.now().toISOString() });
  });

  it('PATCH validates like create: bad price, unknown category, taken public_id', async () => {
    const created = await k.create(t.app, vendor);
    const other = await k.create(t.app, vendor);
    for (const [payload, field] of [
      [{ [k.price]: '1.001' }, k.price],
      [{ category_id: 999_999 }, 'category_id'],
      [{ public_id: other.public_id }, 'public_id'],
      [{ title: ' ' }, 'title'],
    ] as const) {
      const res = await api({
        method: 'PATCH',
        url: vendorPath(k, created.id),
        token: vendor.token,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
    const unchanged = await api({ method: 'GET', url: vendorPath(k, created.id), token: vendor.token });
    expect(unchanged.json()).toEqual(created);
    // its own public_id again is no conflict
    const same = await api({
      method: 'PATCH',
      url: vendorPath(k, created.id),
      token: vendor.token,
      payload: { public_id: created.public_id },
    });
    expect(same.statusCode).toBe(200);
  });

  it("lists the vendor's own listings only, inactive included, archived excluded, newest first", async () => {
    const own = await registerVendor(t.app);
    const other = await registerVendor(t.app);
    await k.create(t.app, other);
    const first = await k.create(t.app, own);
    t.clock.advance(1000);
    const inactive = await k.create(t.app, own, { is_active: false });
    t.clock.advance(1000);
    const archived = await k.create(t.app, own);
    await api({ method: 'DELETE', url: vendorPath(k, archived.id), token: own.token });
    const res = await api({ method: 'GET', url: vendorPath(k), token: own.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    expect(body.results.map((l: { id: number }) => l.id)).toEqual([inactive.id, first.id]);
    expect(body.results[0].is_active).toBe(false);
    const page = (
      await api({ method: 'GET', url: `${vendorPath(k)}?page_size=1&page=2`, token: own.token })
    ).json();
    expect(page.results.map((l: { id: number }) => l.id)).toEqual([first.id]);
    expect(page.previous).toBe(`http://localhost${vendorPath(k)}?page_size=1&page=1`);
    expect(page.next).toBeNull();
  });

  it("answers 404 for another vendor's listing and for the other kind's id", async () => {
    const owner = await registerVendor(t.app);
    const listing = await k.create(t.app, owner);
    const intruder = await registerVendor(t.app);
    for (const method of ['GET', 'PATCH', 'PUT', 'DELETE'] as const) {
      const payload =
        method === 'PATCH' ? { title: 'Mine now' } : method === 'PUT' ? await fullBody(k) : undefined;
      const res = await api({ method, url: vendorPath(k, listing.id), token: intruder.token, payload });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const otherKind = k.kind === 'equipment' ? ADVENTURE_CASE : EQUIPMENT_CASE;
    const crossKind = await api({
      method: 'GET',
      url: vendorPath(otherKind, listing.id),
      token: owner.token,
    });
    expect(crossKind.statusCode).toBe(404);
    const unchanged = await api({ method: 'GET', url: vendorPath(k, listing.id), token: owner.token });
    expect(unchanged.json()).toEqual(listing);
  });

  it('keeps customers (403) and anonymous callers (401) out of vendor paths', async () => {
    const customer = await registerCustomer(t.app);
    const listing = await k.create(t.app, vendor);
    for (const [method, url] of [
      ['GET', vendorPath(k)],
      ['POST', vendorPath(k)],
      ['GET', vendorPath(k, listing.id)],
      ['PATCH', vendorPath(k, listing.id)],
      ['DELETE', vendorPath(k, listing.id)],
    ] as const) {
      const payload = method === 'POST' || method === 'PATCH' ? await fullBody(k) : undefined;
      const asCustomer = await api({ method, url, token: customer.token, payload });
      expect(asCustomer.statusCode).toBe(403);
      expect(asCustomer.json()).toEqual({
        detail: 'This action needs a vendor account.',
        code: 'permission_denied',
      });
      const anonymous = await api({ method, url, payload });
      expect(anonymous.statusCode).toBe(401);
    }
    expect(
      (await api({ method: 'GET', url: vendorPath(k, listing.id), token: vendor.token })).json().title,
    ).toBe(listing.title);
  });

  it('archives on DELETE: gone from every path, history kept, public_id still taken', async () => {
    const listing = await k.create(t.app, vendor, { location: undefined, [k.location]: 'Archive Bay' });
    const view = await api({
      method: 'GET',
      url: publicPath(k, listing.public_id),
      query: { utm_source: 'x' },
    });
    expect(view.statusCode).toBe(200);
    t.clock.advance(5000);

    const del = await api({ method: 'DELETE', url: vendorPath(k, listing.id), token: vendor.token });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');

    const row = await t.db
      .selectFrom('listings')
      .selectAll()
      .where('id', '=', listing.id)
      .executeTakeFirstOrThrow();
    expect(row.archived_at).toBe(t.clock.now().getTime());
    const clicks = await t.db
      .selectFrom('listing_clicks')
      .select('id')
      .where('listing_id', '=', listing.id)
      .execute();
    expect(clicks.map((c) => c.id)).toEqual([view.json().marketing_click_id]);

    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await api({
        method,
        url: vendorPath(k, listing.id),
        token: vendor.token,
        payload: method === 'PATCH' ? { title: 'x' } : undefined,
      });
      expect(res.statusCode).toBe(404);
    }
    const own = (
      await api({ method: 'GET', url: `${vendorPath(k)}?page_size=100`, token: vendor.token })
    ).json();
    expect(own.results.map((l: { id: number }) => l.id)).not.toContain(listing.id);
    expect((await api({ method: 'GET', url: publicPath(k, listing.public_id) })).statusCode).toBe(404);
    const list = (
      await api({ method: 'GET', url: publicPath(k), query: { location: 'Archive Bay' } })
    ).json();
    expect(list.count).toBe(0);
    const store = (await api({ method: 'GET', url: `${k.base}/storefront/${vendor.vendorSlug}/` })).json();
    expect(store.results.map((l: { id: number }) => l.id)).not.toContain(listing.id);

    const reuse = await api({
      method: 'POST',
      url: vendorPath(k),
      token: vendor.token,
      payload: await fullBody(k, { public_id: listing.public_id }),
    });
    expect(reuse.statusCode).toBe(400);
    expect(Object.keys(reuse.json().errors)).toEqual(['public_id']);
  });
});
