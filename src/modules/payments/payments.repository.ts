import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db, PaymentStatus, PaymentsTable, WebhookEventsTable } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect.ts';
import { OPEN_STATUSES } from './payment-status.ts';

export type PaymentRow = Selectable<PaymentsTable>;

/** The predicate of the partial unique index payments_one_open_per_booking, spelled as it is there. */
export const OPEN_PAYMENT = sql<boolean>`status in ('requires_payment', 'processing')`;

/** Inserts a payment; undefined when the booking already has an open one (the partial unique index). */
export async function insertPaymentUnlessOpen(
  db: Db,
  values: Insertable<PaymentsTable>,
): Promise<PaymentRow | undefined> {
  return db
    .insertInto('payments')
    .values(values)
    .onConflict((oc) => oc.column('booking_id').where(OPEN_PAYMENT).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function findOpenPayment(db: Db, bookingId: number): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('status', 'in', OPEN_STATUSES)
    .executeTakeFirst();
}

export async function findPaymentById(db: Db, id: number): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The payment an event names, locked on PostgreSQL until the transaction ends (events apply in turn). */
export async function findPaymentByIntentForUpdate(
  db: Db,
  intentId: string,
): Promise<PaymentRow | undefined> {
  return forUpdate(
    db,
    db.selectFrom('payments').selectAll().where('gateway_payment_intent_id', '=', intentId),
  ).executeTakeFirst();
}

export async function updatePayment(
  db: Db,
  id: number,
  values: { status: PaymentStatus; gateway_charge_id?: string; updated_at: number },
): Promise<PaymentRow> {
  return db.updateTable('payments').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/**
 * Stores a webhook event unless its gateway_event_id is already stored; false for a repeat. The unique
 * index decides, inside the caller's transaction, so twenty simultaneous deliveries store one event.
 */
export async function insertWebhookEventOnce(
  db: Db,
  values: Insertable<WebhookEventsTable>,
): Promise<boolean> {
  const result = await db
    .insertInto('webhook_events')
    .values(values)
    .onConflict((oc) => oc.column('gateway_event_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows) === 1;
}

export async function findWebhookEvent(db: Db, gatewayEventId: string) {
  return db
    .selectFrom('webhook_events')
    .selectAll()
    .where('gateway_event_id', '=', gatewayEventId)
    .executeTakeFirst();
}

/**
 * The status of each booking's latest payment (its highest id: a failed attempt followed by a new one
 * shows the new one), for the bookings given that have any; the day's manifest shows it per booking.
 */
export async function latestPaymentStatuses(
  db: Db,
  bookingIds: readonly number[],
): Promise<Map<number, PaymentStatus>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('payments')
    .select(['booking_id', 'status'])
    .where('booking_id', 'in', bookingIds)
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.booking_id, r.status]));
}
