import type { Insertable, Updateable } from 'kysely';
import type { AvailabilitySlotsTable, Db, ListingKind } from '../../db/database.ts';
import { insertReturningId } from '../../db/prepared-query.ts';
import type { Page } from '../../http/pagination.ts';

export interface SlotRow {
  id: number;
  listing_id: number;
  kind: ListingKind;
  starts_at: number;
  ends_at: number;
  is_available: number;
  created_at: number;
}

/** Slots with their listing's kind; slots of archived listings are gone with the listing. */
function slotsView(db: Db) {
  return db
    .selectFrom('availability_slots')
    .innerJoin('listings', 'listings.id', 'availability_slots.listing_id')
    .where('listings.archived_at', 'is', null);
}

const SLOT_COLUMNS = [
  'availability_slots.id',
  'availability_slots.listing_id',
  'listings.kind',
  'availability_slots.starts_at',
  'availability_slots.ends_at',
  'availability_slots.is_available',
  'availability_slots.created_at',
] as const;

export async function insertSlot(db: Db, values: Insertable<AvailabilitySlotsTable>): Promise<number> {
  return insertReturningId(db, db.insertInto('availability_slots').values(values));
}

export async function findVendorSlot(db: Db, vendorId: number, id: number): Promise<SlotRow | undefined> {
  return slotsView(db)
    .select(SLOT_COLUMNS)
    .where('availability_slots.id', '=', id)
    .where('availability_slots.vendor_id', '=', vendorId)
    .executeTakeFirst();
}

export async function updateSlot(
  db: Db,
  id: number,
  values: Updateable<AvailabilitySlotsTable>,
): Promise<void> {
  await db.updateTable('availability_slots').set(values).where('id', '=', id).execute();
}

export async function deleteSlot(db: Db, id: number): Promise<void> {
  await db.deleteFrom('availability_slots').where('id', '=', id).execute();
}

export interface VendorSlotFilter {
  vendorId: number;
  listingId?: number;
  kind?: ListingKind;
}

function vendorSlots(db: Db, filter: VendorSlotFilter) {
  let query = slotsView(db).where('availability_slots.vendor_id', '=', filter.vendorId);
  if (filter.listingId !== undefined && filter.kind !== undefined)
    query = query
      .where('availability_slots.listing_id', '=', filter.listingId)
      .where('listings.kind', '=', filter.kind);
  return query;
}

/** A page of slots in start order, and how many there are in all. */
async function slotPage(slots: ReturnType<typeof slotsView>, page: Page) {
  const [rows, total] = await Promise.all([
    slots
      .select(SLOT_COLUMNS)
      .orderBy('availability_slots.starts_at')
      .orderBy('availability_slots.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    slots.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as SlotRow[], count: Number(total.n) };
}

export async function listVendorSlots(db: Db, filter: VendorSlotFilter, page: Page) {
  return slotPage(vendorSlots(db, filter), page);
}

export interface PublicSlotFilter {
  listingId: number;
  /** keep slots overlapping [from, to) */
  from?: number;
  to?: number;
}

function publicSlots(db: Db, filter: PublicSlotFilter) {
  let query = slotsView(db).where('availability_slots.listing_id', '=', filter.listingId);
  if (filter.from !== undefined) query = query.where('availability_slots.ends_at', '>', filter.from);
  if (filter.to !== undefined) query = query.where('availability_slots.starts_at', '<', filter.to);
  return query;
}

export async function listPublicSlots(db: Db, filter: PublicSlotFilter, page: Page) {
  return slotPage(publicSlots(db, filter), page);
}
