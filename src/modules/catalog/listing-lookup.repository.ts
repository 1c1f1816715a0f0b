import type { ExpressionBuilder, NotNull } from 'kysely';
import { cacheVersion } from '../../db/cache-versions.ts';
import type { BookingMode, Database, Db, ListingKind } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { type OpeningHours, parseOpeningHours } from '../../lib/opening-hours.ts';
import {
  type Extra,
  type PriceCategory,
  parseExtras,
  parsePriceCategories,
} from '../../lib/price-settings.ts';
import { parseQuestions, type Question } from '../../lib/questions.ts';
import { parseRates, type Rate } from '../../lib/rental-terms.ts';
import { parseResourceUses, type ResourceUse } from '../../lib/resource-uses.ts';
import { parseSchedule, type ScheduleRule } from '../../lib/schedule.ts';
import { DetailCache, throughCache } from '../../lib/versioned-cache.ts';

/** What other modules (booking, marketing) need to know of a listing. */
export interface ListingRef {
  id: number;
  kind: ListingKind;
  vendorId: number;
  publicId: string;
  title: string;
  priceCents: number;
  capacity: number | null;
  durationMinutes: number | null;
  /** identical units (equipment) */
  quantity: number;
  /** adventures: private departures or shared seats */
  bookingMode: BookingMode;
  isActive: boolean;
  archived: boolean;
  /** the vendor's currency: a booking stores it when requested */
  currency: string;
  /** the vendor's request_ttl_minutes: how long a request holds the window unanswered (decisions §11) */
  requestTtlMinutes: number;
  /** adventures: the departures' rules (decisions §19); empty: unscheduled */
  schedule: ScheduleRule[];
  /** requests for a window starting less than this long after now are refused */
  bookingCutoffMinutes: number;
  /** the vendor's time zone: a schedule's local times and opening hours are in it */
  timeZone: string;
  /** adventures: priced by these categories when any (decisions §21) */
  priceCategories: PriceCategory[];
  extras: Extra[];
  /** what a request answers (decisions §23) */
  questions: Question[];
  /** shared resources it uses (decisions §22) */
  resources: ResourceUse[];
  /** equipment (decisions §20): rates shortest first, duration limits, turnaround; none for adventures */
  rates: Rate[];
  minDurationMinutes: number | null;
  maxDurationMinutes: number | null;
  bufferMinutes: number;
  /** the vendor's opening hours for pick-up and return; null: always open */
  openingHours: OpeningHours | null;
  /** cancellation policy: a customer's cancel this long before starts_at is refunded in full */
  freeCancellationHours: number;
}

const COLUMNS = [
  'id',
  'kind',
  'vendor_id',
  'public_id',
  'title',
  'price_cents',
  'capacity',
  'duration_minutes',
  'quantity',
  'booking_mode',
  'is_active',
  'archived_at',
  'schedule',
  'booking_cutoff_minutes',
  'price_categories',
  'extras',
  'resources',
  'rates',
  'min_duration_minutes',
  'max_duration_minutes',
  'buffer_minutes',
  'questions',
  'free_cancellation_hours',
] as const;

// The vendor's currency by primary key, in the listing's own statement (no second round trip).
const vendorCurrency = (eb: ExpressionBuilder<Database, 'listings'>) =>
  eb
    .selectFrom('vendor_profiles')
    .select('vendor_profiles.currency')
    .whereRef('vendor_profiles.id', '=', 'listings.vendor_id')
    .as('currency');
const vendorRequestTtl = (eb: ExpressionBuilder<Database, 'listings'>) =>
  eb
    .selectFrom('vendor_profiles')
    .select('vendor_profiles.request_ttl_minutes')
    .whereRef('vendor_profiles.id', '=', 'listings.vendor_id')
    .as('request_ttl_minutes');
const vendorTimeZone = (eb: ExpressionBuilder<Database, 'listings'>) =>
  eb
    .selectFrom('vendor_profiles')
    .select('vendor_profiles.time_zone')
    .whereRef('vendor_profiles.id', '=', 'listings.vendor_id')
    .as('time_zone');
const vendorOpeningHours = (eb: ExpressionBuilder<Database, 'listings'>) =>
  eb
    .selectFrom('vendor_profiles')
    .select('vendor_profiles.opening_hours')
    .whereRef('vendor_profiles.id', '=', 'listings.vendor_id')
    .as('opening_hours');

type Row = {
  id: number;
  kind: ListingKind;
  vendor_id: number;
  public_id: string;
  title: string;
  price_cents: number;
  capacity: number | null;
  duration_minutes: number | null;
  quantity: number;
  booking_mode: BookingMode;
  is_active: number;
  archived_at: number | null;
  currency: string;
  request_ttl_minutes: number;
  schedule: string;
  booking_cutoff_minutes: number;
  time_zone: string;
  price_categories: string;
  extras: string;
  questions: string;
  resources: string;
  rates: string;
  min_duration_minutes: number | null;
  max_duration_minutes: number | null;
  buffer_minutes: number;
  opening_hours: string | null;
  free_cancellation_hours: number;
};

const toRef = (row: Row): ListingRef => ({
  id: row.id,
  kind: row.kind,
  vendorId: row.vendor_id,
  publicId: row.public_id,
  title: row.title,
  priceCents: row.price_cents,
  capacity: row.capacity,
  durationMinutes: row.duration_minutes,
  quantity: row.quantity,
  bookingMode: row.booking_mode,
  isActive: row.is_active === 1,
  archived: row.archived_at !== null,
  currency: row.currency,
  requestTtlMinutes: row.request_ttl_minutes,
  schedule: parseSchedule(row.schedule),
  bookingCutoffMinutes: row.booking_cutoff_minutes,
  timeZone: row.time_zone,
  priceCategories: parsePriceCategories(row.price_categories),
  extras: parseExtras(row.extras),
  questions: parseQuestions(row.questions),
  resources: parseResourceUses(row.resources),
  rates: parseRates(row.rates),
  minDurationMinutes: row.min_duration_minutes,
  maxDurationMinutes: row.max_duration_minutes,
  bufferMinutes: row.buffer_minutes,
  openingHours: parseOpeningHours(row.opening_hours),
  freeCancellationHours: row.free_cancellation_hours,
});

/** A listing's columns with its vendor's, as toRef reads them. */
const listingRows = (db: Db) =>
  db
    .selectFrom('listings')
    .select(COLUMNS)
    .select([vendorCurrency, vendorRequestTtl, vendorTimeZone, vendorOpeningHours])
    .$narrowType<{ currency: NotNull; request_ttl_minutes: NotNull; time_zone: NotNull }>();

/** A listing of that kind by id, whatever its state (archived and inactive included). */
export async function findListingById(
  db: Db,
  kind: ListingKind,
  id: number,
): Promise<ListingRef | undefined> {
  const row = await listingRows(db).where('id', '=', id).where('kind', '=', kind).executeTakeFirst();
  return row ? toRef(row) : undefined;
}

function visibleListingQuery(locked: boolean) {
  return preparedQuery(
    (db, a: { kind: string; id: number }) => {
      const query = db
        .selectFrom('listings')
        .select(COLUMNS)
        .select([vendorCurrency, vendorRequestTtl, vendorTimeZone, vendorOpeningHours])
        .$narrowType<{ currency: NotNull; request_ttl_minutes: NotNull; time_zone: NotNull }>()
        .where('id', '=', a.id)
        .where('kind', '=', a.kind as ListingKind)
        .where('is_active', '=', 1)
        .where('archived_at', 'is', null);
      return locked ? forUpdate(db, query) : query;
    },
    ['kind', 'id'],
  );
}

// Prepared once each: every availability check and booking request starts with this lookup.
const visibleListing = visibleListingQuery(false);
const visibleListingForUpdate = visibleListingQuery(true);

/**
 * A publicly visible (active, not archived) listing by id. With `forUpdate` on PostgreSQL the row is
 * locked until the transaction ends: the per-listing lock that serialises booking requests. SQLite needs
 * no row lock: its transactions start with BEGIN IMMEDIATE and so run one at a time.
 */
export async function findVisibleListing(
  db: Db,
  kind: ListingKind,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<ListingRef | undefined> {
  const [row] = await (options.forUpdate ? visibleListingForUpdate : visibleListing)(db, { kind, id });
  return row ? toRef(row) : undefined;
}

/** A vendor's visible (active, not archived) listings of both kinds, oldest first: what a channel sells. */
export async function findVendorVisibleListings(db: Db, vendorId: number): Promise<ListingRef[]> {
  const rows = await listingRows(db)
    .where('vendor_id', '=', vendorId)
    .where('is_active', '=', 1)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRef);
}

// A reseller's every availability request names its product by public id: prepared once, and found through
// the (kind, public_id) key of both kinds rather than by scanning the vendor's listings.
const vendorListingsByPublicId = preparedQuery(
  (db, a: { vendorId: number; publicId: string }) =>
    db
      .selectFrom('listings')
      .select(COLUMNS)
      .select([vendorCurrency, vendorRequestTtl, vendorTimeZone, vendorOpeningHours])
      .$narrowType<{ currency: NotNull; request_ttl_minutes: NotNull; time_zone: NotNull }>()
      .where('kind', 'in', ['equipment', 'adventure'])
      .where('public_id', '=', a.publicId)
      .where('vendor_id', '=', a.vendorId)
      .where('is_active', '=', 1)
      .where('archived_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id'),
  ['vendorId', 'publicId'],
);

/** A vendor's visible listings with one public id: none, one, or an item and an offering (unique per kind). */
export async function findVendorVisibleListingsByPublicId(
  db: Db,
  vendorId: number,
  publicId: string,
): Promise<ListingRef[]> {
  return (await vendorListingsByPublicId(db, { vendorId, publicId })).map(toRef);
}

/** findVisibleListing through a cache, for reads that lock nothing (availability checks). */
export type CachedVisibleListingLookup = (
  db: Db,
  kind: ListingKind,
  id: number,
) => Promise<ListingRef | undefined>;

/**
 * A visible-listing lookup with a cache of its own (one per app instance: the catalog's deps builder makes
 * it): each listing is read once per catalog version, so nothing older than an acknowledged write is
 * returned. Booking requests do not use it: they read, and on PostgreSQL lock, the row in their transaction.
 */
export function cachedVisibleListingLookup(): CachedVisibleListingLookup {
  const cache = new DetailCache<ListingRef>();
  return (db, kind, id) =>
    throughCache(
      cache,
      () => cacheVersion(db, 'catalog'),
      `${kind}/${id}`,
      () => findVisibleListing(db, kind, id),
    );
}
