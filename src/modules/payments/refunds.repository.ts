import type { Insertable, Selectable } from 'kysely';
import type { Db, RefundStatus, RefundsTable } from '../../db/database.ts';
import { forUpdate } from '../../db/dialect.ts';
import { insertReturningId } from '../../db/prepared-query.ts';
import type { PaymentRow } from './payments.repository.ts';

export type RefundRow = Selectable<RefundsTable>;

/** A payment by id, locked on PostgreSQL until the transaction ends (refunds of one payment reserve in turn). */
export async function findPaymentForUpdate(db: Db, id: number): Promise<PaymentRow | undefined> {
  return forUpdate(db, db.selectFrom('payments').selectAll().where('id', '=', id)).executeTakeFirst();
}

/**
 * Every payment of a booking, oldest first, locked on PostgreSQL. A cancel takes these locks before the
 * booking's, in the order the webhook takes them (its payment, then the booking), so the two never wait on
 * each other in a circle.
 */
export async function lockPaymentsOfBooking(db: Db, bookingId: number): Promise<PaymentRow[]> {
  return forUpdate(db, paymentsOfBookingQuery(db, bookingId)).execute();
}

/** Every payment of a booking, oldest first, unlocked: for reading what a cancel would refund. */
export async function paymentsOfBooking(db: Db, bookingId: number): Promise<PaymentRow[]> {
  return paymentsOfBookingQuery(db, bookingId).execute();
}

const paymentsOfBookingQuery = (db: Db, bookingId: number) =>
  db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).orderBy('id');

/** The refunds of the given payments, oldest first. */
export async function refundsOf(db: Db, paymentIds: readonly number[]): Promise<RefundRow[]> {
  if (paymentIds.length === 0) return [];
  return db.selectFrom('refunds').selectAll().where('payment_id', 'in', paymentIds).orderBy('id').execute();
}

export async function findRefund(db: Db, id: number): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertRefund(db: Db, values: Insertable<RefundsTable>): Promise<number> {
  return insertReturningId(db, db.insertInto('refunds').values(values));
}

/**
 * Records a pending refund's outcome; false when it was no longer pending (another process, the start-up
 * reconciliation or a charge.refunded settled it first), so an outcome is recorded once.
 */
export async function settlePendingRefund(
  db: Db,
  id: number,
  values: { status: Exclude<RefundStatus, 'pending'>; gateway_refund_id?: string; updated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set(values)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The pending refunds, oldest first: those a crash may have left between the gateway and their outcome. */
export async function pendingRefundIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('refunds')
    .select('id')
    .where('status', '=', 'pending')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
