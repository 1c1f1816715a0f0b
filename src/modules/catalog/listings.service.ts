import type { Insertable, Kysely, Updateable } from 'kysely';
import type {
  BookingMode,
  Database,
  Db,
  ListingKind,
  ListingsTable,
  TrafficType,
} from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime, parseDateTime } from '../../lib/datetime.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { formatMoney, parseMoney } from '../../lib/money.ts';
import {
  extrasErrors,
  extrasOut,
  normalizeExtras,
  normalizePriceCategories,
  parseExtras,
  parsePriceCategories,
  priceCategoriesErrors,
  priceCategoriesOut,
} from '../../lib/price-settings.ts';
import { normalizeQuestions, parseQuestions, questionsErrors, questionsOut } from '../../lib/questions.ts';
import { durationLimitErrors, normalizeRates, parseRates, ratesErrors } from '../../lib/rental-terms.ts';
import { parseResourceUses, resourceUsesOut } from '../../lib/resource-uses.ts';
import { normalizeSchedule, parseSchedule, type ScheduleRule, scheduleErrors } from '../../lib/schedule.ts';
import type { MediaStorage } from '../../media/storage.ts';
import { findVendorBySlug, type VendorProfile } from '../accounts/index.ts';
import { findCategory } from './categories.repository.ts';
import { KINDS, type KindDescriptor, type ListingAttribute } from './kinds.ts';
import { type CachedVisibleListingLookup, cachedVisibleListingLookup } from './listing-lookup.repository.ts';
import { refreshResourceRefs, resourceColumns } from './listing-resources.ts';
import { searchWords } from './listing-search.ts';
import * as repo from './listings.repository.ts';
import { MAX_DETAILS_BYTES, type Ordering, type TrackingParam } from './listings.schemas.ts';
import { type Photo, photosByListing } from './photos.service.ts';

// --- dependencies handed in by buildApp (catalog imports no higher module) ------------------------------

/** A detail view's click, as the marketing module records it. */
export interface DetailViewClick {
  listing: { id: number; kind: ListingKind; vendorId: number };
  source: 'detail_view';
  params: Partial<Record<TrackingParam, string>>;
  referrer: string;
  userId: number | null;
  /** the request's User-Agent, by which marketing tells crawlers' views apart */
  userAgent?: string;
}

/** A stored click as a detail view reports it. */
export interface ViewClick {
  marketing_click_id: number;
  traffic_type: TrafficType;
}

/** Stores a click; buildApp passes marketing's recordListingClick bound to the database and clock. */
export type RecordClick = (click: DetailViewClick) => Promise<ViewClick>;

/**
 * The availability filter, from the booking module: for a window [from, to) in epoch milliseconds, a
 * condition over the `listings` row keeping the listings bookable for the whole window. It runs inside
 * the list query, which joins `categories` and `vendor_profiles`: refer to columns qualified
 * (`listings.id`, not `id`).
 */
export type AvailabilityFilter = (
  from: number,
  to: number,
  kind: ListingKind,
) => repo.ListingsWhere | Promise<repo.ListingsWhere>;

/** The catalog's lookups of visible listings, each through a cache of this app instance. */
export interface ListingLookups {
  /** by kind and public id, with the API object (detail views, explicit click tracks) */
  byPublicId: (db: Db, kind: ListingKind, publicId: string) => Promise<VisibleListing | undefined>;
  /** by kind and id, as other modules know listings (availability checks) */
  byId: CachedVisibleListingLookup;
}

/** The fields that set how many bookings a listing holds at once (decisions §10, §20). */
export type LimitField = 'quantity' | 'capacity' | 'booking_mode' | 'buffer_minutes';
const LIMIT_FIELDS: readonly LimitField[] = ['quantity', 'capacity', 'booking_mode', 'buffer_minutes'];

/** A listing's limit fields as a vendor's edit would leave them, and which of them the edit sets. */
export interface LimitEdit {
  id: number;
  kind: ListingKind;
  quantity: number;
  capacity: number | null;
  bookingMode: BookingMode;
  /** equipment: the turnaround the edit leaves (decisions §20) */
  bufferMinutes: number;
  /** adventures: the schedule the edit leaves (a scheduled offering's seats are counted per departure) */
  schedule: ScheduleRule[];
  fields: ReadonlySet<LimitField>;
}

/**
 * From the booking module: refuses (409 booking_conflict) an edit whose limit the listing's current and
 * future bookings would not fit. Runs in the edit's transaction, after the listing's lock was taken.
 */
export type CheckLimitEdit = (trx: Db, edit: LimitEdit, now: number) => Promise<void>;

export interface CatalogDeps {
  db: Kysely<Database>;
  clock: Clock;
  recordClick: RecordClick;
  /** absent until the booking module is wired: the available_from/available_to filter is then a 400 */
  availableIn?: AvailabilityFilter;
  /** absent until the booking module is wired: limits are then edited unchecked */
  checkLimitEdit?: CheckLimitEdit;
  /** where listing photos are stored */
  media: MediaStorage;
  lookups: ListingLookups;
}

/**
 * The catalog's dependencies, with lookups whose caches belong to this app instance: apps built on
 * different databases (tests) never share a cached listing.
 */
export function createCatalogDeps(deps: Omit<CatalogDeps, 'lookups'>): CatalogDeps {
  return {
    ...deps,
    lookups: {
      // a listing and its photos on one snapshot, when the cache does not hold them
      byPublicId: repo.cachedPublicListingLookup((db, kind, publicId) =>
        inReadSnapshot(db, async (snapshot) => {
          const row = await repo.findVisibleListingRow(snapshot, kind, publicId);
          return (
            row && {
              ref: { id: row.id, kind: row.kind, vendorId: row.vendor_id },
              listing: toListing(KINDS[row.kind], row, await photosOf(snapshot, deps.media, row)),
            }
          );
        }),
      ),
      byId: cachedVisibleListingLookup(),
    },
  };
}

export interface ListingsPage {
  count: number;
  results: Listing[];
}

// --- API objects, mapped from rows in one place ----------------------------------------------------------

const ATTRIBUTE_OUT: Record<ListingAttribute, (row: repo.ListingRow) => unknown> = {
  details: (row) => JSON.parse(row.details),
  quantity: (row) => row.quantity,
  duration_minutes: (row) => row.duration_minutes,
  capacity: (row) => row.capacity,
  booking_mode: (row) => row.booking_mode,
  schedule: (row) => parseSchedule(row.schedule),
  price_categories: (row) => priceCategoriesOut(parsePriceCategories(row.price_categories)),
  rates: (row) =>
    parseRates(row.rates).map((r) => ({
      duration_minutes: r.durationMinutes,
      price: formatMoney(r.priceCents),
    })),
  min_duration_minutes: (row) => row.min_duration_minutes,
  max_duration_minutes: (row) => row.max_duration_minutes,
  buffer_minutes: (row) => row.buffer_minutes,
};

/** A listing as the API shows it; the kind's own fields (price, location, attributes) by their API names. */
export interface Listing {
  id: number;
  public_id: string;
  title: string;
  description: string;
  is_active: boolean;
  category_id: number;
  category: { id: number; name: string; slug: string };
  vendor: { business_name: string; slug: string };
  /** the vendor's, read-only */
  currency: string;
  cancellation_policy: { free_cancellation_hours: number; late_refund_percent: number };
  booking_cutoff_minutes: number;
  extras: ReturnType<typeof extrasOut>;
  questions: ReturnType<typeof questionsOut>;
  resources: ReturnType<typeof resourceUsesOut>;
  created_at: string;
  updated_at: string;
  /** in position order */
  photos: Photo[];
  [field: string]: unknown;
}

/**
 * A detail view: the listing as the detail cache holds it (one frozen object per listing until the catalog
 * changes) and the click the view recorded.
 */
export interface ListingView {
  listing: Listing;
  click: ViewClick;
}

export function toListing(kind: KindDescriptor, row: repo.ListingRow, photos: Photo[]): Listing {
  const listing: Listing = {
    id: row.id,
    public_id: row.public_id,
    title: row.title,
    description: row.description,
    [kind.locationField]: row.location,
    [kind.priceField]: formatMoney(row.price_cents),
    currency: row.vendor_currency,
    cancellation_policy: {
      free_cancellation_hours: row.free_cancellation_hours,
      late_refund_percent: row.late_refund_percent,
    },
    booking_cutoff_minutes: row.booking_cutoff_minutes,
    extras: extrasOut(parseExtras(row.extras)),
    questions: questionsOut(parseQuestions(row.questions)),
    resources: resourceUsesOut(parseResourceUses(row.resources)),
    is_active: row.is_active === 1,
    category_id: row.category_id,
    category: { id: row.category_id, name: row.category_name, slug: row.category_slug },
    vendor: { business_name: row.vendor_business_name, slug: row.vendor_slug },
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
    photos,
  };
  for (const attribute of kind.attributes) listing[attribute] = ATTRIBUTE_OUT[attribute](row);
  return listing;
}

const listingNotFound = (kind: KindDescriptor) => notFound(`${kind.noun} not found.`);

/** One listing's photos (a page of listings reads its photos together: pageOfListings). */
async function photosOf(db: Db, media: MediaStorage, row: repo.ListingRow): Promise<Photo[]> {
  return (await photosByListing(db, media, [row.id])).get(row.id) ?? [];
}

// --- public lists, detail and storefront ------------------------------------------------------------------

export interface PublicListQuery {
  category?: string;
  location?: string;
  vendor_slug?: string;
  min_price?: string;
  max_price?: string;
  available_from?: string;
  available_to?: string;
  ordering?: Ordering;
  search?: string;
}

const MONEY_MESSAGE = 'Enter an amount >= 0 with at most two decimal places, below 100,000,000.';
const DATETIME_MESSAGE = 'Enter a valid ISO 8601 datetime.';

function orderOf(ordering: Ordering = '-created_at'): repo.ListingOrder {
  const descending = ordering.startsWith('-');
  const column = (descending ? ordering.slice(1) : ordering) as repo.OrderColumn;
  return { column, direction: descending ? 'desc' : 'asc' };
}

/** The filter of a public list, or null when its answer is certainly empty. */
async function publicFilter(
  deps: CatalogDeps,
  kind: KindDescriptor,
  query: PublicListQuery,
): Promise<repo.ListingFilter | null> {
  const errors: Record<string, string> = {};
  const filter: repo.ListingFilter = { kind: kind.kind, activeOnly: true };
  let empty = false;
  let window: [number, number] | undefined;

  for (const bound of ['min_price', 'max_price'] as const) {
    if (query[bound] === undefined) continue;
    const cents = parseMoney(query[bound]);
    if (cents === null) errors[bound] = MONEY_MESSAGE;
    else filter[bound === 'min_price' ? 'minPriceCents' : 'maxPriceCents'] = cents;
  }

  const { available_from: fromText, available_to: toText } = query;
  if (fromText !== undefined || toText !== undefined) {
    const from = fromText === undefined ? undefined : parseDateTime(fromText);
    const to = toText === undefined ? undefined : parseDateTime(toText);
    if (fromText === undefined) errors.available_from = 'Required together with available_to.';
    else if (from === null) errors.available_from = DATETIME_MESSAGE;
    if (toText === undefined) errors.available_to = 'Required together with available_from.';
    else if (to === null) errors.available_to = DATETIME_MESSAGE;
    if (typeof from === 'number' && typeof to === 'number') {
      if (to <= from) errors.available_to = 'Must be after available_from.';
      else if (!deps.availableIn)
        errors.available_from = 'Filtering by availability is not supported by this server.';
      else window = [from, to];
    }
  }
  if (Object.keys(errors).length) throw invalidFields(errors);
  if (window && deps.availableIn) filter.extra = await deps.availableIn(window[0], window[1], kind.kind);

  if (query.category !== undefined) {
    if (/^\d+$/.test(query.category)) {
      const id = Number(query.category);
      if (id > MAX_ID) empty = true;
      else filter.categoryId = id;
    } else {
      filter.categorySlug = query.category;
    }
  }
  if (query.location !== undefined) filter.locationContains = query.location;
  if (query.vendor_slug !== undefined) filter.vendorSlug = query.vendor_slug;
  filter.searchWords = searchWords(query.search);
  return empty ? null : filter;
}

async function pageOfListings(
  db: Db,
  media: MediaStorage,
  kind: KindDescriptor,
  filter: repo.ListingFilter | null,
  order: repo.ListingOrder,
  page: Page,
): Promise<ListingsPage> {
  if (!filter) return { count: 0, results: [] };
  // the count, the page and its photos on one snapshot
  return inReadSnapshot(db, async (snapshot) => {
    const [count, rows] = await Promise.all([
      repo.countListings(snapshot, filter),
      repo.listListings(snapshot, filter, order, page),
    ]);
    const photos = await photosByListing(
      snapshot,
      media,
      rows.map((row) => row.id),
    );
    return { count, results: rows.map((row) => toListing(kind, row, photos.get(row.id) ?? [])) };
  });
}

/**
 * A public list request, checked: the catalog version its page stays valid for, and how to read the page.
 * The page is read after the version, so it is never older than that version (at worst newer).
 */
export interface PublicListings {
  /** null when the page depends on more than the catalog (availability filters): never kept */
  version: number | null;
  read: () => Promise<ListingsPage>;
}

/**
 * Active listings of a kind, filtered and ordered as the query says. An invalid query is refused here,
 * before anything is read.
 */
export async function listPublicListings(
  deps: CatalogDeps,
  kind: KindDescriptor,
  query: PublicListQuery,
  page: Page,
): Promise<PublicListings> {
  const filter = await publicFilter(deps, kind, query);
  const order = orderOf(query.ordering);
  const read = () => pageOfListings(deps.db, deps.media, kind, filter, order, page);
  // Pages filtered by availability depend on bookings and slots, which the catalog version does not
  // follow; a certainly empty page costs nothing to read.
  if (!filter || filter.extra) return { version: null, read };
  return { version: await repo.catalogVersion(deps.db), read };
}

export type Visit = Omit<DetailViewClick, 'listing' | 'source'>;

/** A publicly visible listing: its identity, which the click of a view needs, and its API object. */
export interface VisibleListing {
  ref: DetailViewClick['listing'];
  listing: Listing;
}

/** A publicly visible listing's identity by public id (explicit click tracks look listings up so). */
export async function findPublicListing(
  deps: Pick<CatalogDeps, 'db' | 'lookups'>,
  kind: ListingKind,
  publicId: string,
): Promise<VisibleListing['ref'] | undefined> {
  return (await deps.lookups.byPublicId(deps.db, kind, publicId))?.ref;
}

/**
 * A public detail view: the visible listing plus the click the view records. The hottest path of the
 * service: one version read (a cached listing) or lookup, and one insert.
 */
export async function viewListing(
  deps: CatalogDeps,
  kind: KindDescriptor,
  publicId: string,
  visit: Visit,
): Promise<ListingView> {
  const found = await deps.lookups.byPublicId(deps.db, kind.kind, publicId);
  if (!found) throw listingNotFound(kind);
  const click = await deps.recordClick({ listing: found.ref, source: 'detail_view', ...visit });
  return { listing: found.listing, click };
}

/** A vendor's public profile and a page of their active listings of the kind. */
export async function storefront(
  deps: CatalogDeps,
  kind: KindDescriptor,
  slug: string,
  query: Pick<PublicListQuery, 'ordering' | 'search'>,
  page: Page,
): Promise<{ vendor: VendorProfile; count: number; results: Listing[] }> {
  // the vendor and the page of their listings on one snapshot
  return inReadSnapshot(deps.db, async (db) => {
    const vendor = await findVendorBySlug(db, slug);
    if (!vendor) throw notFound('Vendor not found.');
    const filter = {
      kind: kind.kind,
      activeOnly: true,
      vendorId: vendor.id,
      searchWords: searchWords(query.search),
    };
    return {
      vendor: vendor.profile,
      ...(await pageOfListings(db, deps.media, kind, filter, orderOf(query.ordering), page)),
    };
  });
}

// --- the vendor's own listings -----------------------------------------------------------------------------

/** A request body of a vendor write, as validated by the kind's schema (API field names). */
export type ListingBody = Record<string, unknown>;

const ownFilter = (kind: KindDescriptor, vendorId: number, id: number): repo.ListingFilter => ({
  kind: kind.kind,
  activeOnly: false,
  vendorId,
  id,
});

export async function listOwnListings(deps: CatalogDeps, kind: KindDescriptor, vendorId: number, page: Page) {
  const filter = { kind: kind.kind, activeOnly: false, vendorId };
  return pageOfListings(deps.db, deps.media, kind, filter, orderOf(), page);
}

export async function getOwnListing(
  deps: CatalogDeps,
  kind: KindDescriptor,
  vendorId: number,
  id: number,
): Promise<Listing> {
  // the listing and its photos on one snapshot
  return inReadSnapshot(deps.db, async (db) => {
    const row = await repo.findListing(db, ownFilter(kind, vendorId, id));
    if (!row) throw listingNotFound(kind);
    return toListing(kind, row, await photosOf(db, deps.media, row));
  });
}

/** A JSON list attribute: its member errors collected, else its stored form. */
const jsonList =
  (
    errorsOf: (value: unknown) => Record<string, string>,
    normalize: (value: Record<string, unknown>[]) => unknown,
  ) =>
  (value: unknown, errors: Record<string, string>) => {
    const found = errorsOf(value);
    Object.assign(errors, found);
    return Object.keys(found).length
      ? undefined
      : JSON.stringify(normalize(value as Record<string, unknown>[]));
  };

const ATTRIBUTE_IN: Record<ListingAttribute, (value: unknown, errors: Record<string, string>) => unknown> = {
  details: (value, errors) => {
    const json = JSON.stringify(value);
    if (Buffer.byteLength(json) > MAX_DETAILS_BYTES)
      errors.details = `At most ${MAX_DETAILS_BYTES / 1024} KiB as JSON.`;
    return json;
  },
  quantity: (value) => value,
  duration_minutes: (value) => value,
  capacity: (value) => value,
  booking_mode: (value) => value,
  schedule: jsonList(scheduleErrors, normalizeSchedule),
  rates: jsonList(ratesErrors, normalizeRates),
  price_categories: jsonList(priceCategoriesErrors, normalizePriceCategories),
  min_duration_minutes: (value) => value,
  max_duration_minutes: (value) => value,
  buffer_minutes: (value) => value,
};

/** min_duration_minutes <= max_duration_minutes as the write leaves them (400 on max_duration_minutes). */
function checkDurationLimits(
  values: Updateable<ListingsTable>,
  current?: { min_duration_minutes: number | null; max_duration_minutes: number | null },
): void {
  const min =
    values.min_duration_minutes === undefined ? current?.min_duration_minutes : values.min_duration_minutes;
  const max =
    values.max_duration_minutes === undefined ? current?.max_duration_minutes : values.max_duration_minutes;
  const errors = durationLimitErrors(min ?? null, max ?? null);
  if (Object.keys(errors).length) throw invalidFields(errors);
}

/**
 * The columns a vendor write sets, from the fields present in the body (API names → columns); field
 * errors are collected so that one answer names every bad field.
 */
async function columnsOf(
  db: Db,
  kind: KindDescriptor,
  vendorId: number,
  body: ListingBody,
): Promise<Updateable<ListingsTable>> {
  const errors: Record<string, string> = {};
  const values: Updateable<ListingsTable> = {};
  const text = (field: string) => (body[field] === undefined ? undefined : String(body[field]).trim());

  if (body.public_id !== undefined) values.public_id = String(body.public_id);
  values.title = text('title');
  if (values.title === '') errors.title = 'This field may not be blank.';
  values.description = text('description');
  values.location = text(kind.locationField);
  if (body[kind.priceField] !== undefined) {
    const cents = parseMoney(body[kind.priceField]);
    if (cents === null) errors[kind.priceField] = MONEY_MESSAGE;
    else values.price_cents = cents;
  }
  if (body.is_active !== undefined) values.is_active = body.is_active ? 1 : 0;
  // each member of the policy is its own column: a PATCH of one keeps the other
  const policy = body.cancellation_policy as
    | { free_cancellation_hours?: number; late_refund_percent?: number }
    | undefined;
  values.free_cancellation_hours = policy?.free_cancellation_hours;
  values.late_refund_percent = policy?.late_refund_percent;
  values.booking_cutoff_minutes = body.booking_cutoff_minutes as number | undefined;
  if (body.extras !== undefined)
    values.extras = jsonList(extrasErrors, normalizeExtras)(body.extras, errors) as string | undefined;
  if (body.questions !== undefined)
    values.questions = jsonList(questionsErrors, normalizeQuestions)(body.questions, errors) as
      | string
      | undefined;
  await resourceColumns(db, vendorId, body, values, errors);
  for (const attribute of kind.attributes) {
    if (body[attribute] !== undefined)
      (values as Record<string, unknown>)[attribute] = ATTRIBUTE_IN[attribute](body[attribute], errors);
  }
  if (body.category_id !== undefined) {
    values.category_id = Number(body.category_id);
    if (!(await findCategory(db, values.category_id)))
      errors.category_id = `Invalid pk "${values.category_id}" - object does not exist.`;
  }
  if (Object.keys(errors).length) throw invalidFields(errors);
  for (const key of Object.keys(values) as (keyof typeof values)[])
    if (values[key] === undefined) delete values[key];
  return values;
}

/** A shared adventure sells seats of its capacity: it cannot be without one (400 on capacity). */
function requireSharedCapacity(mode: BookingMode, capacity: number | null | undefined): void {
  if (mode === 'shared' && (capacity ?? null) === null)
    throw invalidFields({ capacity: 'A shared adventure needs a capacity: its seats per departure.' });
}

/** Maps the constraint errors of a listing write to the field they concern. */
async function writing<T>(kind: KindDescriptor, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // (kind, public_id) is the only unique key of listings besides id
    if (isUniqueViolation(error))
      throw invalidFields({ public_id: `${kind.noun} with this public_id already exists.` });
    // the category was deleted between the check and the write
    if (isForeignKeyViolation(error)) throw invalidFields({ category_id: 'Category does not exist.' });
    throw error;
  }
}

async function reload(
  trx: Db,
  media: MediaStorage,
  kind: KindDescriptor,
  vendorId: number,
  id: number,
): Promise<Listing> {
  const row = await repo.findListing(trx, ownFilter(kind, vendorId, id));
  if (!row) throw new Error(`listing ${id} not readable in the transaction that wrote it`);
  return toListing(kind, row, await photosOf(trx, media, row));
}

export async function createListing(
  deps: CatalogDeps,
  kind: KindDescriptor,
  vendorId: number,
  body: ListingBody,
): Promise<Listing> {
  const now = deps.clock.now().getTime();
  return writing(kind, () =>
    inTransaction(deps.db, async (trx) => {
      const values = await columnsOf(trx, kind, vendorId, body);
      requireSharedCapacity(values.booking_mode ?? 'private', values.capacity ?? null);
      checkDurationLimits(values);
      const id = await repo.insertListing(trx, {
        description: '',
        details: '{}',
        location: '',
        is_active: 1,
        ...values,
        kind: kind.kind,
        vendor_id: vendorId,
        archived_at: null,
        created_at: now,
        updated_at: now,
      } as Insertable<ListingsTable>);
      await refreshResourceRefs(trx, id, values);
      return reload(trx, deps.media, kind, vendorId, id);
    }),
  );
}

/** PUT (the schema requires every writable field) and PATCH (any subset): the fields present are set. */
export async function updateListing(
  deps: CatalogDeps,
  kind: KindDescriptor,
  vendorId: number,
  id: number,
  body: ListingBody,
): Promise<Listing> {
  const now = deps.clock.now().getTime();
  return writing(kind, () =>
    inTransaction(deps.db, async (trx) => {
      const fields = new Set(
        LIMIT_FIELDS.filter((f) => kind.attributes.includes(f) && body[f] !== undefined),
      );
      // A limit edit takes the listing's lock first, as booking requests do (see checkLimitEdit).
      if (fields.size > 0 && !(await repo.lockOwnListing(trx, kind.kind, vendorId, id)))
        throw listingNotFound(kind);
      // another vendor's or an archived listing is a 404 before any field is judged
      const current = await repo.findListing(trx, ownFilter(kind, vendorId, id));
      if (!current) throw listingNotFound(kind);
      const values = await columnsOf(trx, kind, vendorId, body);
      checkDurationLimits(values, current);
      if (fields.size > 0) {
        const edit: LimitEdit = {
          id,
          kind: kind.kind,
          quantity: values.quantity ?? current.quantity,
          capacity: values.capacity === undefined ? current.capacity : values.capacity,
          bookingMode: values.booking_mode ?? current.booking_mode,
          bufferMinutes: values.buffer_minutes ?? current.buffer_minutes,
          schedule: parseSchedule(values.schedule ?? current.schedule),
          fields,
        };
        if (kind.kind === 'adventure') requireSharedCapacity(edit.bookingMode, edit.capacity);
        await deps.checkLimitEdit?.(trx, edit, now);
      }
      await repo.updateListing(trx, kind.kind, vendorId, id, { ...values, updated_at: now });
      await refreshResourceRefs(trx, id, values);
      return reload(trx, deps.media, kind, vendorId, id);
    }),
  );
}

/** DELETE archives: the listing leaves every list and detail; its history and public_id stay. */
export async function archiveListing(
  deps: CatalogDeps,
  kind: KindDescriptor,
  vendorId: number,
  id: number,
): Promise<void> {
  const now = deps.clock.now().getTime();
  const archived = await repo.updateListing(deps.db, kind.kind, vendorId, id, {
    archived_at: now,
    updated_at: now,
  });
  if (!archived) throw listingNotFound(kind);
}
