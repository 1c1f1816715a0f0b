import type { Db, ListingKind } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect.ts';
import { preparedQuery } from '../../db/prepared-query.ts';

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
  isActive: boolean;
  archived: boolean;
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
  'is_active',
  'archived_at',
] as const;

type Row = {
  id: number;
  kind: ListingKind;
  vendor_id: number;
  public_id: string;
  title: string;
  price_cents: number;
  capacity: number | null;
  duration_minutes: number | null;
  is_active: number;
  archived_at: number | null;
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
  isActive: row.is_active === 1,
  archived: row.archived_at !== null,
});

/** A listing of that kind by id, whatever its state (archived and inactive included). */
export async function findListingById(
  db: Db,
  kind: ListingKind,
  id: number,
): Promise<ListingRef | undefined> {
  const row = await db
    .selectFrom('listings')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return row ? toRef(row) : undefined;
}

function visibleListingQuery(locked: boolean) {
  return preparedQuery(
    (db, a: { kind: string; id: number }) => {
      const query = db
        .selectFrom('listings')
        .select(COLUMNS)
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
