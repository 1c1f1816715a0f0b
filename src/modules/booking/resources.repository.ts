import type { Insertable, Selectable } from 'kysely';
import type { BookingResourcesTable, Db, ResourcesTable } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { preparedInsert, preparedQuery } from '../../db/prepared-query.ts';
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
  for (const id of [...ids].sort((a, b) => a - b)) await lockResource(db, { id });
}

// A request reads its resources and their holds on every call: prepared once (preparedQuery).
const lockResource = preparedQuery(
  (db, a: { id: number }) => db.selectFrom('resources').select('id').where('id', '=', a.id).forUpdate(),
  ['id'],
);
const resourceRow = preparedQuery(
  (db, a: { id: number }) => db.selectFrom('resources').selectAll().where('id', '=', a.id),
  ['id'],
);
const holdsOfResource = preparedQuery(
  (db, a: { id: number; from: number; to: number; now: number }) =>
    db
      .selectFrom('booking_resources as r')
      .innerJoin('bookings as b', 'b.id', 'r.booking_id')
      .select(['r.listing_id', 'r.per_departure', 'r.amount', 'r.starts_at', 'r.ends_at', 'r.held_until'])
      .where('r.resource_id', '=', a.id)
      .where('r.held_until', '>', a.from)
      .where('r.starts_at', '<', a.to)
      .where('b.status', 'in', ACTIVE_STATUSES)
      .where(holdsAt(a.now, 'b')),
  ['id', 'from', 'to', 'now'],
);
const insertHold = preparedInsert(
  (db, a: Insertable<BookingResourcesTable> & Record<string, number>) =>
    db.insertInto('booking_resources').values({
      booking_id: a.booking_id,
      resource_id: a.resource_id,
      listing_id: a.listing_id,
      per_departure: a.per_departure,
      amount: a.amount,
      starts_at: a.starts_at,
      ends_at: a.ends_at,
      held_until: a.held_until,
    }),
  [
    'booking_id',
    'resource_id',
    'listing_id',
    'per_departure',
    'amount',
    'starts_at',
    'ends_at',
    'held_until',
  ],
);

export async function resourcesByIds(db: Db, ids: readonly number[]): Promise<ResourceRow[]> {
  const rows: ResourceRow[] = [];
  for (const id of [...ids].sort((a, b) => a - b)) rows.push(...(await resourceRow(db, { id })));
  return rows;
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
  for (const row of rows)
    await insertHold(db, row as Insertable<BookingResourcesTable> & Record<string, number>);
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
  const rows = [];
  for (const id of ids)
    for (const row of await holdsOfResource(db, { id, from, to, now }))
      rows.push({ ...row, resource_id: id });
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
