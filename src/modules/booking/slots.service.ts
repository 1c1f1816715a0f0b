import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { inReadSnapshot } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { findListingById, findVisibleListing, KINDS, type ListingRef } from '../catalog/index.ts';
import {
  type ListingIdInput,
  type ListingTarget,
  listingTarget,
  optionalListingTarget,
  parseInstant,
  parseWindow,
} from './booking.input.ts';
import * as repo from './slots.repository.ts';

export interface SlotsDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export function toSlot(row: repo.SlotRow) {
  return {
    id: row.id,
    equipment_item_id: row.kind === 'equipment' ? row.listing_id : null,
    adventure_offering_id: row.kind === 'adventure' ? row.listing_id : null,
    starts_at: formatDateTime(row.starts_at),
    ends_at: formatDateTime(row.ends_at),
    is_available: row.is_available === 1,
    created_at: formatDateTime(row.created_at),
  };
}
export type Slot = ReturnType<typeof toSlot>;

const listingNotFound = (target: ListingTarget) => notFound(`${KINDS[target.kind].noun} not found.`);

/** The caller's own listing (inactive ones included, archived ones gone), else 404. */
async function ownListing(db: Db, caller: AuthUser, target: ListingTarget): Promise<ListingRef> {
  const listing = await findListingById(db, target.kind, target.id);
  if (!listing || listing.archived || listing.vendorId !== caller.vendorId) throw listingNotFound(target);
  return listing;
}

async function ownSlot(db: Db, caller: AuthUser, id: number): Promise<repo.SlotRow> {
  const row = caller.vendorId === null ? undefined : await repo.findVendorSlot(db, caller.vendorId, id);
  if (!row) throw notFound('Availability slot not found.');
  return row;
}

export interface CreateSlotInput extends ListingIdInput {
  starts_at: string;
  ends_at: string;
  is_available?: boolean;
}

export async function createSlot(deps: SlotsDeps, caller: AuthUser, input: CreateSlotInput): Promise<Slot> {
  const target = listingTarget(input);
  const window = parseWindow(input.starts_at, input.ends_at);
  const listing = await ownListing(deps.db, caller, target);
  const now = deps.clock.now().getTime();
  const id = await repo.insertSlot(deps.db, {
    listing_id: listing.id,
    vendor_id: listing.vendorId,
    starts_at: window.startsAt,
    ends_at: window.endsAt,
    is_available: input.is_available === false ? 0 : 1,
    created_at: now,
    updated_at: now,
  });
  return toSlot((await repo.findVendorSlot(deps.db, listing.vendorId, id))!);
}

export async function getSlot(deps: SlotsDeps, caller: AuthUser, id: number): Promise<Slot> {
  return toSlot(await ownSlot(deps.db, caller, id));
}

export interface UpdateSlotInput {
  starts_at?: string;
  ends_at?: string;
  is_available?: boolean;
}

/** Changes the window and/or is_available; the slot stays on its listing. */
export async function updateSlot(
  deps: SlotsDeps,
  caller: AuthUser,
  id: number,
  input: UpdateSlotInput,
): Promise<Slot> {
  const row = await ownSlot(deps.db, caller, id);
  const startsAt = input.starts_at === undefined ? row.starts_at : parseInstant('starts_at', input.starts_at);
  const endsAt = input.ends_at === undefined ? row.ends_at : parseInstant('ends_at', input.ends_at);
  if (endsAt <= startsAt) throw invalidFields({ ends_at: 'ends_at must be after starts_at.' });
  await repo.updateSlot(deps.db, id, {
    starts_at: startsAt,
    ends_at: endsAt,
    ...(input.is_available === undefined ? {} : { is_available: input.is_available ? 1 : 0 }),
    updated_at: deps.clock.now().getTime(),
  });
  return toSlot((await repo.findVendorSlot(deps.db, caller.vendorId!, id))!);
}

export async function deleteSlot(deps: SlotsDeps, caller: AuthUser, id: number): Promise<void> {
  await ownSlot(deps.db, caller, id);
  await repo.deleteSlot(deps.db, id);
}

export async function listVendorSlots(deps: SlotsDeps, caller: AuthUser, filter: ListingIdInput, page: Page) {
  const target = optionalListingTarget(filter);
  if (caller.vendorId === null) return { count: 0, results: [] };
  const vendorId = caller.vendorId;
  // the count and the page on one snapshot
  const { rows, count } = await inReadSnapshot(deps.db, (db) =>
    repo.listVendorSlots(db, { vendorId, listingId: target?.id, kind: target?.kind }, page),
  );
  return { count, results: rows.map(toSlot) };
}

export interface PublicSlotsQuery extends ListingIdInput {
  from?: string;
  to?: string;
}

/** A visible listing's slots, optionally those overlapping [from, to). */
export async function listPublicSlots(deps: SlotsDeps, query: PublicSlotsQuery, page: Page) {
  const target = listingTarget(query);
  const from = query.from === undefined ? undefined : parseInstant('from', query.from);
  const to = query.to === undefined ? undefined : parseInstant('to', query.to);
  if (from !== undefined && to !== undefined && to <= from)
    throw invalidFields({ to: 'to must be after from.' });
  // the listing, the count and the page on one snapshot
  const { rows, count } = await inReadSnapshot(deps.db, async (db) => {
    const listing = await findVisibleListing(db, target.kind, target.id);
    if (!listing) throw listingNotFound(target);
    return repo.listPublicSlots(db, { listingId: listing.id, from, to }, page);
  });
  return { count, results: rows.map(toSlot) };
}
