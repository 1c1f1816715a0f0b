import { CompiledQuery, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import { pageOf } from '../../../src/http/pagination.ts';
import { searchWords } from '../../../src/modules/catalog/listing-search.ts';
import { countListings, listListings } from '../../../src/modules/catalog/listings.repository.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { categoryId, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerVendor } from '../../helpers/factories.ts';
import { EQUIPMENT_CASE, KIND_CASES, type KindCase, publicPath, vendorPath } from './kind-cases.ts';

let t: TestApp;
let api: Injector;
let alpha: Account;
let beta: Account;
/** per kind: the listings by short name */
const world: Record<string, Record<string, ListingOut>> = {};

// name, vendor, category, price, title, description, location, state
const DATASET = [
  ['S1', 'alpha', 'kayaks', '30.00', 'Água Viva kayak', 'Sit-on-top kayak for two', 'Praia da Luz', 'active'],
  [
    'S2',
    'alpha',
    'surfboards',
    '20.00',
    'ÁGUA SALGADA board',
    "Paddler's favourite stand-up board",
    'Lagos Marina',
    'active',
  ],
  ['S3', 'beta', 'kayaks', '45.00', 'Sea kayak', 'Well-known touring kayak', "Porto d'Abrigo", 'active'],
  ['S4', 'beta', 'kayaks', '10.00', 'Canoe "Special" (OR) NEAR*', 'a:b & c | d ! e', 'Sagres', 'active'],
  ['S5', 'beta', 'kayaks', '10.00', 'Água kayak hidden', 'inactive', 'Lagos', 'inactive'],
  ['S6', 'alpha', 'kayaks', '10.00', 'Água kayak gone', 'archived', 'Lagos', 'archived'],
] as const;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  alpha = await registerVendor(t.app, { business_name: 'Alpha Search Sports' });
  beta = await registerVendor(t.app, { business_name: 'Beta Search Boats' });
  const vendors = { alpha, beta };
  for (const k of KIND_CASES) {
    world[k.kind] = {};
    for (const [name, vendor, category, price, title, description, location, state] of DATASET) {
      t.clock.advance(60_000);
      const listing = await k.create(t.app, vendors[vendor], {
        public_id: `${k.kind}-${name}`,
        category_id: await categoryId(t.app, category),
        [k.price]: price,
        title,
        description,
        [k.location]: location,
        is_active: state !== 'inactive',
      });
      if (state === 'archived')
        await api({ method: 'DELETE', url: vendorPath(k, listing.id), token: vendors[vendor].token });
      world[k.kind][name] = listing;
    }
  }
});
afterAll(() => t.close());

/** The ids a public list search answers, in order. */
async function foundIds(k: KindCase, text: string): Promise<number[]> {
  const res = await api({ method: 'GET', url: publicPath(k), query: { search: text } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((l: { id: number }) => l.id);
}

describe('searchWords', () => {
  it('cuts at anything but letters and digits, folds case and accents, drops repeats', () => {
    expect(searchWords(undefined)).toEqual([]);
    expect(searchWords('   ')).toEqual([]);
    expect(searchWords(`" * : & | ! ( ' -`)).toEqual([]);
    expect(searchWords('ÁGUA água Agua')).toEqual(['agua']);
    expect(searchWords("Well-known paddler's d'Abrigo")).toEqual([
      'well',
      'known',
      'paddler',
      's',
      'd',
      'abrigo',
    ]);
    expect(searchWords('a:b&c|d!e(f)*g"h"')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(searchWords('São Tomé 4.3 Ωmega')).toEqual(['sao', 'tome', '4', '3', 'ωmega']);
    // decomposed input folds as the composed form does
    expect(searchWords('água'.normalize('NFD'))).toEqual(['agua']);
  });
});

describe.each(KIND_CASES)('search on the public list ($kind)', (k: KindCase) => {
  const nameOf = (id: number) =>
    Object.entries(world[k.kind]).find(([, l]) => l.id === id)?.[0] ?? `other:${id}`;

  async function names(query: Record<string, string>, url = publicPath(k)): Promise<string[]> {
    const res = await api({ method: 'GET', url, query });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const result = body.results.map((l: { id: number }) => nameOf(l.id));
    expect(body.count).toBe(result.length);
    return result;
  }
  const search = (text: string, more: Record<string, string> = {}) => names({ search: text, ...more });

  it('matches the start of words, ignoring case and accents, in active listings only', async () => {
    for (const text of ['água', 'agua', 'ÁGUA', 'Agu', 'AGUA'])
      expect(await search(text)).toEqual(['S2', 'S1']);
    expect(await search('kay')).toEqual(['S3', 'S1']);
    expect(await search('Kayak')).toEqual(['S3', 'S1']);
    expect(await search('ayak')).toEqual([]);
    expect(await search('kayaks')).toEqual([]);
    expect(await search('hidden')).toEqual([]);
    expect(await search('gone')).toEqual([]);
  });

  it(`searches title, description and ${k.location}`, async () => {
    expect(await search('viva')).toEqual(['S1']);
    expect(await search('favourite')).toEqual(['S2']);
    expect(await search('touring')).toEqual(['S3']);
    expect(await search('marina')).toEqual(['S2']);
    expect(await search('luz')).toEqual(['S1']);
    expect(await search('sagres')).toEqual(['S4']);
  });

  it('needs every word (AND), in any field and order', async () => {
    expect(await search('água kayak')).toEqual(['S1']);
    expect(await search('kayak água')).toEqual(['S1']);
    expect(await search('agua lagos')).toEqual(['S2']);
    expect(await search('sea abrigo well')).toEqual(['S3']);
    expect(await search('agua sea')).toEqual([]);
  });

  it('splits on hyphens and apostrophes as the index does', async () => {
    for (const text of ['well', 'known', 'well-known', 'Well-kn', 'well known'])
      expect(await search(text)).toEqual(['S3']);
    for (const text of ["d'abrigo", 'abrigo', "porto d'ab"]) expect(await search(text)).toEqual(['S3']);
    for (const text of ["paddler's", 'paddler', 'stand-up', 'up']) expect(await search(text)).toEqual(['S2']);
  });

  it('never reads the search as query syntax', async () => {
    // punctuation only: no words, no filter
    for (const text of ['"', '*', ':', '&', '|', '!', '(', "'", '" * : & | ! ( \'', '-', '""'])
      expect(await search(text)).toEqual(['S4', 'S3', 'S2', 'S1']);
    expect(await search('OR')).toEqual(['S4']);
    expect(await search('near')).toEqual(['S4']);
    expect(await search('NEAR*')).toEqual(['S4']);
    expect(await search('"special"')).toEqual(['S4']);
    expect(await search('(OR)')).toEqual(['S4']);
    expect(await search('kayak*')).toEqual(['S3', 'S1']);
    expect(await search('(kayak')).toEqual(['S3', 'S1']);
    // operators are words that every listing would have to contain
    expect(await search('"kayak" OR "board"')).toEqual([]);
    expect(await search('kayak OR board')).toEqual([]);
    expect(await search('NEAR(kayak sea)')).toEqual([]);
    // "!" is no negation: both words must be there
    expect(await search('kayak & !sea')).toEqual(['S3']);
    expect(await search('a:b')).toEqual(['S4', 'S2']);
    expect(await search('c | d')).toEqual(['S4']);
    expect(await search('!e')).toEqual(['S4']);
    expect(await search("sea' OR '1'='1")).toEqual([]);
    expect(await search('\\')).toEqual(['S4', 'S3', 'S2', 'S1']);
  });

  it('treats a blank search as no filter', async () => {
    expect(await search('')).toEqual(['S4', 'S3', 'S2', 'S1']);
    expect(await search('   ')).toEqual(['S4', 'S3', 'S2', 'S1']);
  });

  it('refuses a search over 200 characters with a 400 on search', async () => {
    const longest = `kayak ${'x'.repeat(194)}`;
    expect(longest).toHaveLength(200);
    expect(await search(longest)).toEqual([]);
    const res = await api({ method: 'GET', url: publicPath(k), query: { search: `${longest}y` } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Invalid input.',
      code: 'invalid',
      errors: { search: [expect.stringContaining('200')] },
    });
  });

  it('combines with category, vendor, price, ordering and pagination', async () => {
    expect(await search('kayak', { category: 'kayaks' })).toEqual(['S3', 'S1']);
    expect(await search('agua', { category: 'surfboards' })).toEqual(['S2']);
    expect(await search('kayak', { min_price: '40' })).toEqual(['S3']);
    expect(await search('kayak', { max_price: '40' })).toEqual(['S1']);
    expect(await search('kayak', { vendor_slug: beta.vendorSlug! })).toEqual(['S3']);
    expect(await search('kayak', { location: 'luz' })).toEqual(['S1']);
    expect(await search('agua', { ordering: 'price' })).toEqual(['S2', 'S1']);
    expect(await search('agua', { ordering: '-price' })).toEqual(['S1', 'S2']);
    expect(await search('agua', { ordering: 'title' })).toEqual(['S2', 'S1']);
    expect(await search('agua', { ordering: 'created_at' })).toEqual(['S1', 'S2']);

    const base = `http://localhost${publicPath(k)}`;
    const first = (
      await api({ method: 'GET', url: `${publicPath(k)}?search=a&ordering=price&page_size=2` })
    ).json();
    // "a" starts a word of S4 ("a:b"), S3 ("Abrigo"), S2 and S1 ("Água")
    expect(first.count).toBe(4);
    expect(first.results.map((l: { id: number }) => nameOf(l.id))).toEqual(['S4', 'S2']);
    expect(first.next).toBe(`${base}?search=a&ordering=price&page_size=2&page=2`);
    const second = (await api({ method: 'GET', url: first.next.replace('http://localhost', '') })).json();
    expect(second.count).toBe(4);
    expect(second.results.map((l: { id: number }) => nameOf(l.id))).toEqual(['S1', 'S3']);
    expect(second.previous).toBe(`${base}?search=a&ordering=price&page_size=2&page=1`);
    expect(second.next).toBeNull();
  });

  it('searches a storefront within its vendor', async () => {
    const storefront = (slug: string) => `${k.base}/storefront/${slug}/`;
    const open = async (slug: string, query: Record<string, string>) => {
      const res = await api({ method: 'GET', url: storefront(slug), query });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const alphaAgua = await open(alpha.vendorSlug!, { search: 'agua' });
    expect(alphaAgua.vendor.slug).toBe(alpha.vendorSlug);
    expect(alphaAgua.count).toBe(2);
    expect(alphaAgua.results.map((l: { id: number }) => nameOf(l.id))).toEqual(['S2', 'S1']);
    expect((await open(beta.vendorSlug!, { search: 'agua' })).count).toBe(0);
    const betaKayak = await open(beta.vendorSlug!, { search: 'KAY', ordering: 'price' });
    expect(betaKayak.results.map((l: { id: number }) => nameOf(l.id))).toEqual(['S3']);
    const paged = await open(alpha.vendorSlug!, { search: 'água', page_size: '1' });
    expect(paged.count).toBe(2);
    expect(paged.next).toBe(
      `http://localhost${storefront(alpha.vendorSlug!)}?search=%C3%A1gua&page_size=1&page=2`,
    );
    expect((await open(alpha.vendorSlug!, { search: '!' })).count).toBe(2);
    const tooLong = await api({
      method: 'GET',
      url: storefront(alpha.vendorSlug!),
      query: { search: 'x'.repeat(201) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().errors)).toEqual(['search']);
  });
});

describe.each(KIND_CASES)('search and listing edits ($kind)', (k: KindCase) => {
  it('finds a new word at once after an edit, and no longer the old one (cached pages included)', async () => {
    const vendor = await registerVendor(t.app, { business_name: `Editing ${k.kind}` });
    const listing = await k.create(t.app, vendor, {
      title: 'Orca watcher',
      description: 'plain',
      [k.location]: 'Bay',
    });
    const found = (text: string) => foundIds(k, text);
    expect(await found('orca')).toEqual([listing.id]);
    expect(await found('zambezi')).toEqual([]);
    // the same requests again: the cached pages
    expect(await found('orca')).toEqual([listing.id]);
    expect(await found('zambezi')).toEqual([]);
    const patch = await api({
      method: 'PATCH',
      url: vendorPath(k, listing.id),
      token: vendor.token,
      payload: { title: 'Zambezi drifter' },
    });
    expect(patch.statusCode).toBe(200);
    expect(await found('zambezi')).toEqual([listing.id]);
    expect(await found('orca')).toEqual([]);
    await api({
      method: 'PATCH',
      url: vendorPath(k, listing.id),
      token: vendor.token,
      payload: { [k.location]: 'Île de Ré' },
    });
    expect(await found('ile re zamb')).toEqual([listing.id]);
    expect(await found('bay')).toEqual([]);
    const archived = await api({ method: 'DELETE', url: vendorPath(k, listing.id), token: vendor.token });
    expect(archived.statusCode).toBe(204);
    expect(await found('zambezi')).toEqual([]);
  });
});

/** Records the last query run through the handle, compiled for its dialect. */
function lastQueryRecorder() {
  const seen: { node?: RootOperationNode } = {};
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      seen.node = args.node;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { plugin, last: () => seen.node };
}

describe('the search index', () => {
  it('keeps listings written before the migration searchable (backfill) and follows deletes', async () => {
    const vendor = await registerVendor(t.app, { business_name: 'Backfill Boats' });
    const before = await createEquipmentTitled(vendor, 'Pelican pedalo');
    // back to the schema before the search migration; rows written then have no index entry yet
    const down = await migrateDownThrough(t.db, '2026112503-listing-search', await currentSchema());
    expect(down.at(-1)).toEqual('Down 2026112503-listing-search: Success');
    await t.db
      .updateTable('listings')
      .set({ title: 'Pelican catamaran' })
      .where('id', '=', before.id)
      .execute();
    expect(await migrateToLatest(t.db, await currentSchema())).toEqual(
      down.map((line) => line.replace('Down', 'Up')).reverse(),
    );
    const found = (text: string) => foundIds(EQUIPMENT_CASE, text);
    expect(await found('catamaran')).toEqual([before.id]);
    expect(await found('pedalo')).toEqual([]);
    await t.db.deleteFrom('listings').where('id', '=', before.id).execute();
    expect(await found('catamaran')).toEqual([]);
  });

  it('is what the list and count queries read, with 20,000 listings', async () => {
    const vendor = await registerVendor(t.app, { business_name: 'Many Kayaks' });
    const { id: vendorId } = await t.db
      .selectFrom('vendor_profiles')
      .select('id')
      .where('slug', '=', vendor.vendorSlug!)
      .executeTakeFirstOrThrow();
    const kayaks = await categoryId(t.app, 'kayaks');
    // one statement: 20,000 equipment items, one in 5,000 with a rare word
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
      insert into listings (kind, vendor_id, category_id, public_id, title, description, details, location,
        price_cents, duration_minutes, capacity, is_active, archived_at, created_at, updated_at)
      select 'equipment', ${vendorId}, ${kayaks}, 'bulk-' || i,
        case when i % 5000 = 0 then 'Narwhal kayak ' || i else 'Touring kayak ' || i end,
        'A kayak for the lagoon', '{}', 'Lagos', 1000 + i, null, null, 1, null, i, i
      from n`.execute(t.db);
    if (t.dialect === 'postgres') await sql`analyze listings`.execute(t.db);

    const filter = { kind: 'equipment' as const, activeOnly: true, searchWords: searchWords('narwhal kay') };
    expect(await countListings(t.db, filter)).toBe(4);
    const rows = await listListings(t.db, filter, { column: 'price', direction: 'asc' }, pageOf({}));
    expect(rows.map((r) => r.title)).toEqual([
      'Narwhal kayak 5000',
      'Narwhal kayak 10000',
      'Narwhal kayak 15000',
      'Narwhal kayak 20000',
    ]);

    const recorder = lastQueryRecorder();
    const plans: string[] = [];
    await t.db.transaction().execute(async (trx) => {
      const traced = trx.withPlugin(recorder.plugin);
      const missing = { ...filter, searchWords: searchWords('walrus') };
      const newest = { column: 'created_at', direction: 'desc' } as const;
      for (const run of [
        () => countListings(traced, filter),
        () => listListings(traced, filter, newest, pageOf({})),
        // a word no listing has: walking the newest-first index instead would read every listing
        () => listListings(traced, missing, newest, pageOf({})),
      ]) {
        await run();
        const compiled = trx.getExecutor().compileQuery(recorder.last()!, { queryId: 'plan' } as never);
        const explain = t.dialect === 'postgres' ? 'explain ' : 'explain query plan ';
        const { rows: planRows } = await trx.executeQuery(
          CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
        );
        plans.push(planRows.map((r) => Object.values(r as object).join(' ')).join('\n'));
      }
    });
    for (const plan of plans)
      expect(plan).toMatch(
        t.dialect === 'postgres' ? /listings_search_idx/ : /listings_search VIRTUAL TABLE/,
      );
  });
});

async function createEquipmentTitled(vendor: Account, title: string): Promise<ListingOut> {
  return EQUIPMENT_CASE.create(t.app, vendor, {
    title,
    description: 'pedal boat',
    location: 'Lake',
  });
}

/** The PostgreSQL schema the test app works in (migrations keep their bookkeeping there); none on SQLite. */
async function currentSchema(): Promise<string | undefined> {
  if (t.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
  return rows[0].schema;
}
