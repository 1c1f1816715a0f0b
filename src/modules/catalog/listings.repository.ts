import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type NotNull,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely';
import { cacheVersion } from '../../db/cache-versions.ts';
import type { Database, Db, Dialect, ListingKind, ListingsTable } from '../../db/database.ts';
import { dialectOf, forUpdate } from '../../db/dialect.ts';
import { insertReturningId, preparedQuery } from '../../db/prepared-query.ts';
import type { Page } from '../../http/pagination.ts';
import { DetailCache, throughCache } from '../../lib/versioned-cache.ts';

/** A condition over the listings table; used for the injected availability filter. */
export type ListingsWhere = (eb: ExpressionBuilder<Database, 'listings'>) => Expression<SqlBool>;

/** Which listings a query reads. Archived listings are never read here. */
export interface ListingFilter {
  kind: ListingKind;
  /** only is_active = 1 (public paths) */
  activeOnly: boolean;
  id?: number;
  publicId?: string;
  vendorId?: number;
  categoryId?: number;
  categorySlug?: string;
  locationContains?: string;
  vendorSlug?: string;
  minPriceCents?: number;
  maxPriceCents?: number;
  /** each must start a word of the title, description or location (folded: listing-search.ts); none: all */
  searchWords?: string[];
  /** a further condition, e.g. availability for a window */
  extra?: ListingsWhere;
}

export type OrderColumn = 'price' | 'created_at' | 'title';
export interface ListingOrder {
  column: OrderColumn;
  direction: 'asc' | 'desc';
}

const ORDER_COLUMNS = {
  price: 'listings.price_cents',
  created_at: 'listings.created_at',
  title: 'listings.title',
} as const;

/** `text` as a LIKE pattern matching it anywhere, its own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// Columns are always qualified: subqueries over categories and vendor_profiles share column names
// (id, slug, created_at, ...) with listings.
function conditionOf(filter: ListingFilter, dialect: Dialect): ListingsWhere {
  return (eb) => {
    const all: Expression<SqlBool>[] = [
      eb('listings.kind', '=', filter.kind),
      eb('listings.archived_at', 'is', null),
    ];
    if (filter.activeOnly) all.push(eb('listings.is_active', '=', 1));
    if (filter.id !== undefined) all.push(eb('listings.id', '=', filter.id));
    if (filter.publicId !== undefined) all.push(eb('listings.public_id', '=', filter.publicId));
    if (filter.vendorId !== undefined) all.push(eb('listings.vendor_id', '=', filter.vendorId));
    if (filter.categoryId !== undefined) all.push(eb('listings.category_id', '=', filter.categoryId));
    if (filter.categorySlug !== undefined)
      all.push(
        eb(
          'listings.category_id',
          '=',
          eb
            .selectFrom('categories')
            .select('categories.id')
            .where('categories.slug', '=', filter.categorySlug),
        ),
      );
    if (filter.vendorSlug !== undefined)
      all.push(
        eb(
          'listings.vendor_id',
          '=',
          eb
            .selectFrom('vendor_profiles')
            .select('vendor_profiles.id')
            .where('vendor_profiles.slug', '=', filter.vendorSlug),
        ),
      );
    if (filter.locationContains !== undefined) {
      // Case-insensitive on both: PostgreSQL compares lower() on both sides (its trigram index is on
      // lower(location)); SQLite's LIKE already ignores case, with the same ASCII-only folding its lower()
      // has, and plain LIKE lets the count read the covering index alone.
      const pattern = containsPattern(filter.locationContains);
      all.push(
        dialect === 'postgres'
          ? sql<SqlBool>`lower(${eb.ref('listings.location')}) like lower(${pattern}) escape '\\'`
          : sql<SqlBool>`${eb.ref('listings.location')} like ${pattern} escape '\\'`,
      );
    }
    if (filter.minPriceCents !== undefined) all.push(eb('listings.price_cents', '>=', filter.minPriceCents));
    if (filter.maxPriceCents !== undefined) all.push(eb('listings.price_cents', '<=', filter.maxPriceCents));
    if (filter.searchWords?.length) all.push(matchesSearch(filter.searchWords, dialect));
    if (filter.extra) all.push(filter.extra(eb));
    return eb.and(all);
  };
}

/**
 * Listings having, for every word, a word that starts with it, through the search index of migration
 * 2026112503-listing-search. Each word is quoted as a literal term, so none is read as query syntax
 * (FTS5's AND/OR/NEAR/*, tsquery's & | ! : operators).
 */
function matchesSearch(words: string[], dialect: Dialect): Expression<SqlBool> {
  if (dialect === 'postgres') {
    const query = words.map((w) => `'${w.replace(/[\\']/g, (c) => `\\${c}`)}':*`).join(' & ');
    return sql<SqlBool>`listing_search_document(listings.title, listings.description, listings.location) @@ ${query}::tsquery`;
  }
  const query = words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(' AND ');
  return sql<SqlBool>`listings.id in (select rowid from listings_search where listings_search match ${query})`;
}

// Category and vendor names come from scalar subqueries on primary keys rather than joins: on SQLite the
// join made the detail lookup several times slower than the listing's own index lookup, with or without
// index value samples (docs/performance.md, compiled queries).
function selectListings(db: Db, filter: ListingFilter) {
  return db
    .selectFrom('listings')
    .where(conditionOf(filter, dialectOf(db)))
    .select((eb) => {
      const category = () =>
        eb.selectFrom('categories').whereRef('categories.id', '=', 'listings.category_id');
      const vendor = () =>
        eb.selectFrom('vendor_profiles').whereRef('vendor_profiles.id', '=', 'listings.vendor_id');
      return [
        'listings.id',
        'listings.kind',
        'listings.vendor_id',
        'listings.category_id',
        'listings.public_id',
        'listings.title',
        'listings.description',
        'listings.details',
        'listings.location',
        'listings.price_cents',
        'listings.duration_minutes',
        'listings.capacity',
        'listings.quantity',
        'listings.booking_mode',
        'listings.free_cancellation_hours',
        'listings.late_refund_percent',
        'listings.schedule',
        'listings.booking_cutoff_minutes',
        'listings.price_categories',
        'listings.extras',
        'listings.questions',
        'listings.resources',
        'listings.rates',
        'listings.min_duration_minutes',
        'listings.max_duration_minutes',
        'listings.buffer_minutes',
        'listings.is_active',
        'listings.created_at',
        'listings.updated_at',
        category().select('categories.name').as('category_name'),
        category().select('categories.slug').as('category_slug'),
        vendor().select('vendor_profiles.business_name').as('vendor_business_name'),
        vendor().select('vendor_profiles.slug').as('vendor_slug'),
        vendor().select('vendor_profiles.currency').as('vendor_currency'),
      ];
    })
    .$narrowType<{
      category_name: NotNull;
      category_slug: NotNull;
      vendor_business_name: NotNull;
      vendor_slug: NotNull;
      vendor_currency: NotNull;
    }>();
}

export type ListingRow = Awaited<ReturnType<ReturnType<typeof selectListings>['executeTakeFirstOrThrow']>>;

/** One listing with its category and vendor names, in one query. */
export async function findListing(db: Db, filter: ListingFilter): Promise<ListingRow | undefined> {
  return selectListings(db, filter).executeTakeFirst();
}

const visibleByPublicId = preparedQuery(
  (db, args: { kind: string; publicId: string }) =>
    selectListings(db, { kind: args.kind as ListingKind, activeOnly: true, publicId: args.publicId }),
  ['kind', 'publicId'],
);

/**
 * The public detail lookup (the hottest read of the service): an active, unarchived listing by public
 * id, prepared once.
 */
export async function findVisibleListingRow(
  db: Db,
  kind: ListingKind,
  publicId: string,
): Promise<ListingRow | undefined> {
  return (await visibleByPublicId(db, { kind, publicId }))[0];
}

/** Reads a visible listing by public id as a cached lookup keeps it (the service's `read`). */
export type PublicListingRead<V> = (db: Db, kind: ListingKind, publicId: string) => Promise<V | undefined>;

/**
 * A public detail lookup with a cache of its own (one per app instance: the catalog's deps builder makes
 * it): each visible listing is read once per catalog version and kept as `read` makes it (the row through
 * findVisibleListingRow and what else the value shows, such as the listing's photos, on one snapshot), so
 * every lookup of an unchanged listing returns the same frozen value and costs one version read.
 */
export function cachedPublicListingLookup<V extends object>(
  read: PublicListingRead<V>,
): PublicListingRead<V> {
  const cache = new DetailCache<V>();
  return (db, kind, publicId) =>
    throughCache(
      cache,
      () => catalogVersion(db),
      `${kind}/${publicId}`,
      () => read(db, kind, publicId),
    );
}

export async function listListings(
  db: Db,
  filter: ListingFilter,
  order: ListingOrder,
  page: Page,
): Promise<ListingRow[]> {
  return selectListings(db, filter)
    .orderBy(ORDER_COLUMNS[order.column], order.direction)
    .orderBy('listings.id', order.direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countListings(db: Db, filter: ListingFilter): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .where(conditionOf(filter, dialectOf(db)))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertListing(db: Db, values: Insertable<ListingsTable>): Promise<number> {
  return insertReturningId(db, db.insertInto('listings').values(values));
}

/** Updates a live (unarchived) listing of the vendor; false when there is none. */
export async function updateListing(
  db: Db,
  kind: ListingKind,
  vendorId: number,
  id: number,
  values: Updateable<ListingsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('listings')
    .set(values)
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where('vendor_id', '=', vendorId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Locks a live listing of the vendor until the transaction ends (PostgreSQL; SQLite's write transactions
 * already run one at a time): the lock booking requests take, so an edit of the listing's limit and a
 * request never interleave. False when there is no such listing.
 */
export async function lockOwnListing(
  db: Db,
  kind: ListingKind,
  vendorId: number,
  id: number,
): Promise<boolean> {
  const row = await forUpdate(
    db,
    db
      .selectFrom('listings')
      .select('id')
      .where('id', '=', id)
      .where('kind', '=', kind)
      .where('vendor_id', '=', vendorId)
      .where('archived_at', 'is', null),
  ).executeTakeFirst();
  return row !== undefined;
}

/**
 * The catalog's version: bumped by triggers whenever listings, categories or vendor profiles change (read
 * once per event-loop turn, see cacheVersion).
 */
export const catalogVersion = (db: Db): Promise<number> => cacheVersion(db, 'catalog');
