import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { createStaff } from '../../src/modules/accounts/index.ts';
import { type Account, PASSWORD } from './factories.ts';

// API-based factories for the catalog: what a staff member or a vendor would send.

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A public_id no other listing has. */
export const uniquePublicId = (prefix = 'l') => `${prefix}-${unique()}`;

/** A staff account (created as the command line does) and its access token. */
export async function createStaffAccount(t: {
  app: FastifyInstance;
  db: Kysely<Database>;
  clock: Clock;
}): Promise<Account> {
  const email = `staff-${unique()}@example.com`;
  const user = await createStaff({ db: t.db, clock: t.clock }, { email, password: PASSWORD });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/accounts/token/',
    payload: { email, password: PASSWORD },
  });
  if (res.statusCode !== 200) throw new Error(`staff login failed: ${res.statusCode} ${res.body}`);
  const tokens = res.json();
  return { id: user.id, email, token: tokens.access, refresh: tokens.refresh };
}

export interface CategoryOut {
  id: number;
  name: string;
  slug: string;
  description: string;
}

/** Creates a category through the staff API. */
export async function createCategory(
  app: FastifyInstance,
  staffToken: string,
  overrides: Record<string, unknown> = {},
): Promise<CategoryOut> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/categories/',
    headers: { authorization: `Bearer ${staffToken}` },
    payload: { name: `Category ${unique()}`, ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`category creation failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

const categoryIds = new WeakMap<FastifyInstance, Map<string, number>>();

/** The id of a category by slug (the seeded ones: 'kayaks', 'boat-tours', ...), read through the API. */
export async function categoryId(app: FastifyInstance, slug: string): Promise<number> {
  let known = categoryIds.get(app);
  if (!known?.has(slug)) {
    known = new Map();
    for (let page = 1; ; page++) {
      const res = await app.inject({ method: 'GET', url: `/api/v1/categories/?page=${page}&page_size=100` });
      const body = res.json();
      for (const c of body.results) known.set(c.slug, c.id);
      if (!body.next) break;
    }
    categoryIds.set(app, known);
  }
  const id = known.get(slug);
  if (id === undefined) throw new Error(`no category ${slug}`);
  return id;
}

// biome-ignore lint/suspicious/noExplicitAny: listings are checked field by field in tests
export type ListingOut = Record<string, any> & { id: number; public_id: string };

async function createListing(
  app: FastifyInstance,
  vendor: Pick<Account, 'token'>,
  path: string,
  payload: Record<string, unknown>,
): Promise<ListingOut> {
  const res = await app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${vendor.token}` },
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`listing creation failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Creates an equipment item for the vendor (category 'kayaks' unless given). */
export async function createEquipment(
  app: FastifyInstance,
  vendor: Pick<Account, 'token'>,
  overrides: Record<string, unknown> = {},
): Promise<ListingOut> {
  return createListing(app, vendor, '/api/v1/equipment/vendor/items/', {
    public_id: uniquePublicId('eq'),
    title: 'Sea kayak',
    description: 'Two-seat touring kayak',
    details: { seats: 2 },
    location: 'Lagos, Portugal',
    price_per_day: '45.00',
    is_active: true,
    category_id: overrides.category_id ?? (await categoryId(app, 'kayaks')),
    ...overrides,
  });
}

/** Creates an adventure offering for the vendor (category 'boat-tours' unless given). */
export async function createAdventure(
  app: FastifyInstance,
  vendor: Pick<Account, 'token'>,
  overrides: Record<string, unknown> = {},
): Promise<ListingOut> {
  return createListing(app, vendor, '/api/v1/adventrues/vendor/offerings/', {
    public_id: uniquePublicId('adv'),
    title: 'Benagil caves tour',
    description: 'Two hours along the cliffs',
    meeting_point: 'Marina de Lagos',
    duration_minutes: 120,
    capacity: 8,
    price_per_person: '35.00',
    is_active: true,
    category_id: overrides.category_id ?? (await categoryId(app, 'boat-tours')),
    ...overrides,
  });
}
