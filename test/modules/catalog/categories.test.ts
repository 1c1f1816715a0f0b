import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import {
  categoryId,
  createCategory,
  createEquipment,
  createStaffAccount,
} from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';

let t: TestApp;
let api: Injector;
let staff: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  staff = await createStaffAccount(t);
});
afterAll(() => t.close());

const SEEDED = [
  ['Boat tours', 'boat-tours'],
  ['Fishing trips', 'fishing-trips'],
  ['Jet skis', 'jet-skis'],
  ['Kayaks', 'kayaks'],
  ['Sailing', 'sailing'],
  ['Scuba diving', 'scuba-diving'],
  ['Snorkeling gear', 'snorkeling-gear'],
  ['Stand-up paddleboards', 'stand-up-paddleboards'],
  ['Surfboards', 'surfboards'],
  ['Wetsuits', 'wetsuits'],
];

describe('public category list and detail', () => {
  it('lists the ten seeded categories by name, paginated, without a token', async () => {
    const fresh = await buildTestApp();
    try {
      const res = await fresh.app.inject({ method: 'GET', url: '/api/v1/categories/' });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.count).toBe(10);
      expect(body.next).toBeNull();
      expect(body.previous).toBeNull();
      expect(body.results.map((c: { name: string; slug: string }) => [c.name, c.slug])).toEqual(SEEDED);
      expect(body.results[0]).toEqual({
        id: expect.any(Number),
        name: 'Boat tours',
        slug: 'boat-tours',
        description: '',
      });

      const page2 = (
        await fresh.app.inject({ method: 'GET', url: '/api/v1/categories/?page_size=4&page=2' })
      ).json();
      expect(page2.count).toBe(10);
      expect(page2.results.map((c: { slug: string }) => c.slug)).toEqual([
        'sailing',
        'scuba-diving',
        'snorkeling-gear',
        'stand-up-paddleboards',
      ]);
      expect(page2.next).toBe('http://localhost/api/v1/categories/?page_size=4&page=3');
      expect(page2.previous).toBe('http://localhost/api/v1/categories/?page_size=4&page=1');
    } finally {
      await fresh.close();
    }
  });

  it('returns one category by id and 404 for an unknown one', async () => {
    const id = await categoryId(t.app, 'kayaks');
    const res = await api({ method: 'GET', url: `/api/v1/categories/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id, name: 'Kayaks', slug: 'kayaks', description: '' });
    const missing = await api({ method: 'GET', url: '/api/v1/categories/999999/' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Category not found.', code: 'not_found' });
  });
});

describe('staff management', () => {
  it('creates a category with a slug derived from the name, ignoring a supplied slug', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/categories/',
      token: staff.token,
      payload: { name: '  Kite Surfing & Foils ', description: 'Wind powered', slug: 'hacked', id: 5000 },
    });
    expect(res.statusCode).toBe(201);
    const category = res.json();
    expect(category).toEqual({
      id: expect.any(Number),
      name: 'Kite Surfing & Foils',
      slug: 'kite-surfing-foils',
      description: 'Wind powered',
    });
    expect(category.id).not.toBe(5000);
    const row = await t.db
      .selectFrom('categories')
      .selectAll()
      .where('id', '=', category.id)
      .executeTakeFirstOrThrow();
    expect(row.created_at).toBe(t.clock.now().getTime());
  });

  it('refuses a name whose slug is taken, a blank name and a name without letters', async () => {
    const before = await countRows(t.db, 'categories');
    const cases: [unknown, string][] = [
      ['KAYAKS', 'A category with this name (or the same slug) already exists.'],
      ['   ', 'This field may not be blank.'],
      ['!!!', 'The name must contain at least one letter.'],
      ['2024', 'The name must contain at least one letter.'],
    ];
    for (const [name, message] of cases) {
      const res = await api({
        method: 'POST',
        url: '/api/v1/categories/',
        token: staff.token,
        payload: { name },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'Invalid input.', code: 'invalid', errors: { name: [message] } });
    }
    const missing = await api({
      method: 'POST',
      url: '/api/v1/categories/',
      token: staff.token,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ name: ['This field is required.'] });
    expect(await countRows(t.db, 'categories')).toBe(before);
  });

  it('patches name (re-deriving the slug) and description', async () => {
    const category = await createCategory(t.app, staff.token, { name: 'Canyoning' });
    t.clock.advance(1000);
    const res = await api({
      method: 'PATCH',
      url: `/api/v1/categories/${category.id}/`,
      token: staff.token,
      payload: { name: 'River Canyoning' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: category.id,
      name: 'River Canyoning',
      slug: 'river-canyoning',
      description: '',
    });
    const desc = await api({
      method: 'PATCH',
      url: `/api/v1/categories/${category.id}`,
      token: staff.token,
      payload: { description: 'Wet and wild' },
    });
    expect(desc.json()).toEqual({
      id: category.id,
      name: 'River Canyoning',
      slug: 'river-canyoning',
      description: 'Wet and wild',
    });
    const taken = await api({
      method: 'PATCH',
      url: `/api/v1/categories/${category.id}`,
      token: staff.token,
      payload: { name: 'Sailing' },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors.name).toBeDefined();
    const unknown = await api({
      method: 'PATCH',
      url: '/api/v1/categories/999999/',
      token: staff.token,
      payload: { description: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('deletes an unused category and refuses one in use, archived listings included', async () => {
    const unused = await createCategory(t.app, staff.token);
    const del = await api({ method: 'DELETE', url: `/api/v1/categories/${unused.id}/`, token: staff.token });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await api({ method: 'GET', url: `/api/v1/categories/${unused.id}/` })).statusCode).toBe(404);
    expect(
      (await api({ method: 'DELETE', url: `/api/v1/categories/${unused.id}/`, token: staff.token }))
        .statusCode,
    ).toBe(404);

    const used = await createCategory(t.app, staff.token);
    const vendor = await registerVendor(t.app);
    const item = await createEquipment(t.app, vendor, { category_id: used.id });
    const archived = await api({
      method: 'DELETE',
      url: `/api/v1/equipment/vendor/items/${item.id}/`,
      token: vendor.token,
    });
    expect(archived.statusCode).toBe(204);
    const refused = await api({
      method: 'DELETE',
      url: `/api/v1/categories/${used.id}/`,
      token: staff.token,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail: 'This category is used by 1 listing(s) and cannot be deleted.',
      code: 'conflict',
    });
    expect((await api({ method: 'GET', url: `/api/v1/categories/${used.id}/` })).json().slug).toBe(used.slug);
  });

  it('allows writes to staff only: 401 without a token, 403 for vendors and customers', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const id = await categoryId(t.app, 'kayaks');
    const attempts = [
      { method: 'POST' as const, url: '/api/v1/categories/', payload: { name: 'Nope' } },
      { method: 'PATCH' as const, url: `/api/v1/categories/${id}/`, payload: { name: 'Nope' } },
      { method: 'DELETE' as const, url: `/api/v1/categories/${id}/` },
    ];
    for (const attempt of attempts) {
      const anonymous = await api(attempt);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe('not_authenticated');
      for (const account of [vendor, customer]) {
        const res = await api({ ...attempt, token: account.token });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          detail: 'This action needs a staff account.',
          code: 'permission_denied',
        });
      }
    }
    expect((await api({ method: 'GET', url: `/api/v1/categories/${id}/` })).json().name).toBe('Kayaks');
  });
});
