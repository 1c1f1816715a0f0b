import type { Insertable, Selectable } from 'kysely';
import type {
  Db,
  DeliveryStatus,
  NotificationDeliveriesTable,
  NotificationEventsTable,
} from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { executeSharingCommit, preparedQuery } from '../../db/prepared-query.ts';
import type { DeliveryAttempt, EndpointRow } from './channel.ts';

// The outbox worker's SQL: claiming events to fan out and deliveries to attempt, and recording outcomes.
// On PostgreSQL every claim reads its candidates FOR UPDATE SKIP LOCKED, so processes claiming at the same
// time take different rows instead of waiting for each other; SQLite has one writer at a time.

export type EventRow = Selectable<NotificationEventsTable>;

/** Up to `limit` events not yet fanned out, oldest first, locked for the caller's transaction. */
export async function claimUndispatchedEvents(trx: Db, limit: number): Promise<EventRow[]> {
  let query = trx
    .selectFrom('notification_events')
    .selectAll()
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit);
  if (dialectOf(trx) === 'postgres') query = query.forUpdate().skipLocked();
  return query.execute();
}

export async function markDispatched(trx: Db, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('notification_events').set({ dispatched_at: now }).where('id', 'in', ids).execute();
}

/** Whether anything waits: an event to fan out, or a delivery due by `now` (a cheap read before a claim). */
export async function hasWork(db: Db, now: number): Promise<boolean> {
  const event = await db
    .selectFrom('notification_events')
    .select('id')
    .where('dispatched_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (event) return true;
  const delivery = await db
    .selectFrom('notification_deliveries')
    .select('id')
    .where('next_attempt_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return delivery !== undefined;
}

// The fan-out asks these two of every event: prepared once (see db/prepared-query.ts).
const activeEndpoints = preparedQuery(
  (db, { vendorId }: { vendorId: number }) =>
    db
      .selectFrom('notification_endpoints')
      .selectAll()
      .where('vendor_id', '=', vendorId)
      .where('is_active', '=', 1)
      .orderBy('id'),
  ['vendorId'],
);

const vendorMailAddresses = preparedQuery(
  (db, { vendorId }: { vendorId: number }) =>
    db
      .selectFrom('vendor_profiles')
      .innerJoin('users', 'users.id', 'vendor_profiles.user_id')
      .select(['vendor_profiles.contact_email', 'users.email'])
      .where('vendor_profiles.id', '=', vendorId),
  ['vendorId'],
);

/** The vendor's active endpoints (the fan-out filters them by event type). */
export async function activeEndpointsOf(trx: Db, vendorId: number): Promise<EndpointRow[]> {
  return activeEndpoints(trx, { vendorId });
}

/** Where a vendor's mail goes: the contact address when set, else the login email (decisions §14). */
export async function vendorMailAddress(trx: Db, vendorId: number): Promise<string | undefined> {
  const [row] = await vendorMailAddresses(trx, { vendorId });
  return row && (row.contact_email.trim() || row.email);
}

export async function insertDeliveries(
  trx: Db,
  rows: readonly Insertable<NotificationDeliveriesTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx.insertInto('notification_deliveries').values(rows).execute();
}

/**
 * Claims up to `limit` pending deliveries due by `now`: each gets its attempt counted and its
 * next_attempt_at moved to `claimUntil`, so no other process takes it until that claim runs out (a process
 * that died mid-send leaves it to be tried again then). Returns the rows as claimed, with their events.
 */
export async function claimDueDeliveries(
  trx: Db,
  now: number,
  claimUntil: number,
  limit: number,
): Promise<Pick<DeliveryAttempt, 'delivery' | 'event'>[]> {
  let query = trx
    .selectFrom('notification_deliveries')
    .select('id')
    .where('next_attempt_at', '<=', now)
    .where('status', '=', 'pending')
    .orderBy('next_attempt_at')
    .limit(limit);
  if (dialectOf(trx) === 'postgres') query = query.forUpdate().skipLocked();
  const ids = (await query.execute()).map((r) => r.id);
  if (ids.length === 0) return [];
  await trx
    .updateTable('notification_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      next_attempt_at: claimUntil,
      updated_at: now,
    }))
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
  // each with its event, read once here rather than once per delivery
  const rows = await trx
    .selectFrom('notification_deliveries as d')
    .innerJoin('notification_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select([
      'e.public_id as event_public_id',
      'e.type as event_type',
      'e.payload as event_payload',
      'e.created_at as event_created_at',
    ])
    .where('d.id', 'in', ids)
    .orderBy('d.id')
    .execute();
  return rows.map(({ event_public_id, event_type, event_payload, event_created_at, ...delivery }) => ({
    delivery,
    event: {
      publicId: event_public_id,
      type: event_type,
      payload: event_payload,
      createdAt: event_created_at,
    },
  }));
}

export interface AttemptRecord {
  status: DeliveryStatus;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  updated_at: number;
}

/**
 * Records an attempt's outcome, only if the delivery is still the attempt claimed (same attempt count,
 * still pending): a process whose claim ran out while it waited never overwrites a newer attempt. A
 * finished delivery forgets its secret. On SQLite, outside a transaction, the update shares the commit of
 * its turn's group (group-commit.ts): the sends that finish together are recorded in one commit, not one
 * each. True when recorded.
 */
export async function recordAttempt(
  db: Db,
  id: number,
  claimedAttempts: number,
  record: AttemptRecord,
): Promise<boolean> {
  const update = db
    .updateTable('notification_deliveries')
    .set({ ...record, ...(record.status === 'pending' ? {} : { secret: null }) })
    .where('id', '=', id)
    .where('attempts', '=', claimedAttempts)
    .where('status', '=', 'pending');
  return Number((await executeSharingCommit(db, update.compile())).numAffectedRows) === 1;
}

/**
 * A receiver's 410: the endpoint is disabled and its other pending deliveries fail, so nothing more is
 * sent to it until its vendor enables it again.
 */
export async function disableEndpoint(
  db: Db,
  endpointId: number,
  reason: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('notification_endpoints')
    .set({ is_active: 0, updated_at: now })
    .where('id', '=', endpointId)
    .execute();
  await db
    .updateTable('notification_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: reason, secret: null, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** The outbox's depth for /metrics: events not yet fanned out and deliveries not yet finished. */
export async function outboxDepth(db: Db): Promise<{ events: number; deliveries: number }> {
  const events = await db
    .selectFrom('notification_events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('dispatched_at', 'is', null)
    .executeTakeFirstOrThrow();
  const deliveries = await db
    .selectFrom('notification_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    // only unfinished deliveries have a next_attempt_at: a range of its index
    .where('next_attempt_at', 'is not', null)
    .executeTakeFirstOrThrow();
  return { events: Number(events.n), deliveries: Number(deliveries.n) };
}
