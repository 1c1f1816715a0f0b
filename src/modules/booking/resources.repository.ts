import type { Insertable, Selectable } from 'kysely';
import type { BookingResourcesTable, Db, ResourcesTable } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import type { Page } from '../../http/pagination.ts';
import { holdsAt } from './booking.repository.ts';
import { ACTIVE_STATUSES } from './booking.state-machine.ts';
import { departureGroup, type ResourceHold } from './resource-use.ts';

// Resources (decisions §22) and what holding bookings take of them (booking_resources).

export type ResourceRow = Selectable<ResourcesTable>;

/**
 * Locks resources, in ascending id: the lock order every writer touching resources keeps (a listing's
 * lock first, then its resources by id, then a promo code; docs/architecture.md), so two transactions
 * never wait on each other in a circle. PostgreSQL: the rows FOR UPDATE. SQLite: nothing to do, the
 * transaction already holds the single write lock (BEGIN IMMEDIATE).
 */
export async function lockResources(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0 || dialectOf(db) !== 'postgres') return;
  await db
    .selectFrom('resources')
    .select('id')
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function resourcesByIds(db: Db, ids: readonly number[]): Promise<ResourceRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('resources')
    .selectAll()
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

export async function findVendorResource(db: Db, vendorId: number, id: number) {
  return db
    .selectFrom('resources')
    .selectAll()
    .where('id', '=', id)
    .where('vendor_id', '=', vendorId)
    .executeTakeFirst();
}

export async function listVendorResources(db: Db, vendorId: number, page: Page) {
  const base = db.selectFrom('resources').where('vendor_id', '=', vendorId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(count.n) };
}

/** Which of `ids` are resources of the vendor. */
export async function vendorResourceIds(db: Db, vendorId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom('resources')
    .select('id')
    .where('vendor_id', '=', vendorId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertResource(db: Db, values: Insertable<ResourcesTable>): Promise<number> {
  const row = await db.insertInto('resources').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateResource(db: Db, id: number, values: Partial<Insertable<ResourcesTable>>) {
  await db.updateTable('resources').set(values).where('id', '=', id).execute();
}

export async function deleteResource(db: Db, id: number) {
  await db.deleteFrom('resources').where('id', '=', id).execute();
}

/** Whether a listing or one of its extras uses the resource. */
export async function isResourceUsed(db: Db, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('listing_resource_refs')
    .select('listing_id')
    .where('resource_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the resources a listing and its extras use (after a write of either). */
export async function setListingResourceRefs(db: Db, listingId: number, ids: readonly number[]) {
  await db.deleteFrom('listing_resource_refs').where('listing_id', '=', listingId).execute();
  const unique = [...new Set(ids)];
  if (unique.length)
    await db
      .insertInto('listing_resource_refs')
      .values(unique.map((resource_id) => ({ listing_id: listingId, resource_id })))
      .execute();
}

export async function insertBookingResources(db: Db, rows: Insertable<BookingResourcesTable>[]) {
  if (rows.length) await db.insertInto('booking_resources').values(rows).execute();
}

/**
 * The holds at `now` (booking active, deadline not passed) of each resource given meeting [from, to),
 * by resource: what rule 7 counts (resource-use.ts). Read on the (resource_id, held_until) index.
 */
export async function resourceHoldsIn(
  db: Db,
  ids: readonly number[],
  from: number,
  to: number,
  now: number,
): Promise<Map<number, ResourceHold[]>> {
  const holds = new Map<number, ResourceHold[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return holds;
  const rows = await db
    .selectFrom('booking_resources as r')
    .innerJoin('bookings as b', 'b.id', 'r.booking_id')
    .select([
      'r.resource_id',
      'r.listing_id',
      'r.per_departure',
      'r.amount',
      'r.starts_at',
      'r.ends_at',
      'r.held_until',
    ])
    .where('r.resource_id', 'in', [...ids])
    .where('r.held_until', '>', from)
    .where('r.starts_at', '<', to)
    .where('b.status', 'in', ACTIVE_STATUSES)
    .where(holdsAt(now, 'b'))
    .execute();
  for (const r of rows) {
    const startsAt = Number(r.starts_at);
    const window = { startsAt, endsAt: Number(r.ends_at) };
    holds.get(r.resource_id)?.push({
      startsAt,
      endsAt: Number(r.held_until),
      amount: r.amount,
      group: r.per_departure === 1 ? departureGroup(r.listing_id, window) : null,
    });
  }
  return holds;
}

/** The holds of one resource from `from` on, the latest first read to its end (quantity edits). */
export const resourceHoldsFrom = (db: Db, id: number, from: number) =>
  resourceHoldsIn(db, [id], from, Number.MAX_SAFE_INTEGER, from).then((m) => m.get(id) ?? []);

/**
 * Forgets what old bookings took of a resource being deleted (none of them holds any more: a resource a
 * listing uses cannot be deleted, and a listing's bookings keep it used only while it names it).
 */
export async function deleteBookingResourcesOf(db: Db, id: number) {
  await db.deleteFrom('booking_resources').where('resource_id', '=', id).execute();
}
