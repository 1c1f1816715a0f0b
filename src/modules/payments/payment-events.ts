import type { Db } from '../../db/database.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { formatMoney } from '../../lib/money.ts';
import type { EventType } from '../../outbox/events.ts';
import { type Refund, recordBookingEvent } from '../booking/index.ts';
import * as payments from './payments.repository.ts';
import * as repo from './refunds.repository.ts';

// Payments and refunds as the API shows them, and the events that carry them (decisions §14): each is
// recorded in the transaction of the change it reports, with the booking as it stands after that change.

export function toRefund(row: repo.RefundRow): Refund {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: formatMoney(row.amount_cents),
    currency: row.currency,
    reason: row.reason,
    status: row.status,
    actor_id: row.actor_id,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

/** The cents of a payment's refunds that have succeeded. */
export function refundedCents(refunds: readonly repo.RefundRow[]): number {
  return refunds.reduce((sum, r) => (r.status === 'succeeded' ? sum + r.amount_cents : sum), 0);
}

/** A payment as the API shows it, with its refunds (oldest first) and what they have refunded. */
export function toPayment(row: payments.PaymentRow, refunds: readonly repo.RefundRow[]) {
  return {
    id: row.id,
    booking_id: row.booking_id,
    gateway_payment_intent_id: row.gateway_payment_intent_id,
    gateway_charge_id: row.gateway_charge_id,
    amount: formatMoney(row.amount_cents),
    currency: row.currency,
    status: row.status,
    amount_refunded: formatMoney(refundedCents(refunds)),
    refunds: refunds.map(toRefund),
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
export type Payment = ReturnType<typeof toPayment>;

/** A payment as it stands in `db` (the caller's transaction), with its refunds. */
export async function paymentObject(db: Db, paymentId: number): Promise<Payment> {
  const row = await payments.findPaymentById(db, paymentId);
  if (!row) throw new Error(`payment ${paymentId} not found`);
  return toPayment(row, await repo.refundsOf(db, [paymentId]));
}

/** A refund and its payment as they stand in `db` (the caller's transaction). */
export async function describeRefund(
  db: Db,
  refundId: number,
): Promise<{ payment: Payment; refund: Refund }> {
  const refund = await repo.findRefund(db, refundId);
  if (!refund) throw new Error(`refund ${refundId} not found`);
  return { payment: await paymentObject(db, refund.payment_id), refund: toRefund(refund) };
}

/**
 * Records a payment's events in the caller's transaction, with the payment as it stands now and its
 * booking: payment.succeeded (followed by the booking.confirmed it brings), or payment.failed.
 */
export async function recordPaymentEvents(
  trx: Db,
  types: readonly Extract<EventType, 'payment.succeeded' | 'payment.failed' | 'booking.confirmed'>[],
  paymentId: number,
  now: number,
): Promise<void> {
  const payment = await paymentObject(trx, paymentId);
  await recordBookingEvent(trx, payment.booking_id, types, now, { payment });
}

/** Records payment.refunded for a refund that has just succeeded, in the caller's transaction. */
export async function recordRefundEvent(trx: Db, refundId: number, now: number): Promise<void> {
  const { payment, refund } = await describeRefund(trx, refundId);
  await recordBookingEvent(trx, payment.booking_id, ['payment.refunded'], now, { payment, refund });
}
