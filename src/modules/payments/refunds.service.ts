import type { BookingStatus, Db, RefundReason } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound, permissionDenied } from '../../http/errors.ts';
import { formatMoney, parseMoney } from '../../lib/money.ts';
import {
  type CancellationRefunds,
  type CancelRefundReason,
  cappedRefundCents,
  findBookingForPayment,
  type PaidAmount,
  partyOf,
  type Refund,
} from '../booking/index.ts';
import { describeRefund, recordRefundEvent, refundedCents, toRefund } from './payment-events.ts';
import { canMovePayment, REFUNDABLE_STATUSES, statusAfterRefunds } from './payment-status.ts';
import type { PaymentsDeps } from './payments.deps.ts';
import * as payments from './payments.repository.ts';
import * as repo from './refunds.repository.ts';

// Refunds (decisions §12). Each goes through three steps so that no gateway call runs inside a
// transaction and no crash can refund twice or lose a refund:
//   1. reserve: with the payment locked, a pending refund row is written; pending and succeeded refunds
//      together never exceed the payment's amount, so simultaneous refunds cannot over-refund;
//   2. the gateway is asked, after that commit, with the refund's id as its idempotency key;
//   3. its outcome is recorded by an update guarded by `status = 'pending'` (once, whoever comes first).
// A crash between 2 and 3 leaves a pending row: reconcilePendingRefunds (at start-up) asks the gateway
// again with the same key, which answers the refund it already made, and a charge.refunded webhook settles
// it too.

/** What of a payment no refund has taken or reserved (pending ones hold their amount). */
function remainingCents(payment: payments.PaymentRow, refunds: readonly repo.RefundRow[]): number {
  const held = refunds.reduce((sum, r) => (r.status === 'failed' ? sum : sum + r.amount_cents), 0);
  return payment.amount_cents - held;
}

function paidAmount(payment: payments.PaymentRow, refunds: readonly repo.RefundRow[]): PaidAmount {
  return { amountCents: payment.amount_cents, remainingCents: remainingCents(payment, refunds) };
}

/**
 * Step 1: a pending refund of `amountCents` of a payment the caller's transaction has locked, at most what
 * remains of it (else 400 on amount); its id.
 */
async function reserveRefund(
  trx: Db,
  payment: payments.PaymentRow,
  amountCents: number,
  reason: RefundReason,
  note: string,
  now: number,
  actorId: number | null,
): Promise<number> {
  const remaining = remainingCents(payment, await repo.refundsOf(trx, [payment.id]));
  if (amountCents > remaining)
    throw invalidFields({
      amount: `At most ${formatMoney(Math.max(remaining, 0))} of this payment remains to refund.`,
    });
  return repo.insertRefund(trx, {
    payment_id: payment.id,
    amount_cents: amountCents,
    currency: payment.currency,
    reason,
    status: 'pending',
    note,
    actor_id: actorId,
    created_at: now,
    updated_at: now,
  });
}

/** The payment's status once its refunds so far are counted (never backwards: canMovePayment). */
async function updateRefundedStatus(trx: Db, paymentId: number, now: number): Promise<void> {
  const payment = await repo.findPaymentForUpdate(trx, paymentId);
  if (!payment) return;
  const next = statusAfterRefunds(
    payment.amount_cents,
    refundedCents(await repo.refundsOf(trx, [paymentId])),
  );
  if (next !== payment.status && canMovePayment(payment.status, next))
    await payments.updatePayment(trx, paymentId, { status: next, updated_at: now });
}

/**
 * Steps 2 and 3 for a reserved refund: asks the gateway (outside any transaction) and records the
 * outcome. When the gateway's answer is unknown (it threw), the refund stays pending for
 * reconcilePendingRefunds or a charge.refunded; it is answered as pending, not as an error, because
 * whatever asked for it (a cancel, a vendor's refund) has already been committed.
 */
export async function completeRefund(deps: PaymentsDeps, refundId: number): Promise<Refund> {
  const refund = await repo.findRefund(deps.db, refundId);
  if (!refund) throw new Error(`refund ${refundId} not found`);
  if (refund.status !== 'pending') return toRefund(refund);
  const payment = await payments.findPaymentById(deps.db, refund.payment_id);
  if (!payment) throw new Error(`payment ${refund.payment_id} of refund ${refundId} not found`);
  let outcome: Awaited<ReturnType<PaymentsDeps['gateway']['refund']>>;
  try {
    outcome = await deps.gateway.refund({
      chargeId: payment.gateway_charge_id,
      amountCents: refund.amount_cents,
      currency: refund.currency,
      idempotencyKey: `refund_${refund.id}`,
    });
  } catch {
    return toRefund(refund);
  }
  const now = deps.clock.now().getTime();
  await inTransaction(deps.db, async (trx) => {
    // The payment first, as the webhook and a cancel take it: a refund that succeeds also updates its
    // booking (refunded_cents, by trigger), and booking-then-payment against the webhook's payment-then-
    // booking would deadlock on PostgreSQL.
    await repo.findPaymentForUpdate(trx, payment.id);
    const settled = await repo.settlePendingRefund(trx, refund.id, {
      status: outcome.status,
      gateway_refund_id: outcome.refundId,
      updated_at: now,
    });
    if (!settled || outcome.status !== 'succeeded') return;
    await updateRefundedStatus(trx, payment.id, now);
    await recordRefundEvent(trx, refund.id, now);
  });
  const stored = await repo.findRefund(deps.db, refundId);
  if (!stored) throw new Error(`refund ${refundId} not found`);
  return toRefund(stored);
}

/**
 * Completes every pending refund: those a crash left between the gateway and the record of its outcome.
 * Run at start-up (server.ts); several processes may run it at once, since the gateway makes one refund
 * per key and the outcome is recorded once.
 */
export async function reconcilePendingRefunds(deps: PaymentsDeps): Promise<number> {
  const pending = await repo.pendingRefundIds(deps.db);
  for (const id of pending) await completeRefund(deps, id);
  return pending.length;
}

/** The booking module's view of refunds for its cancels (wired by buildApp). */
export function cancellationRefunds(deps: PaymentsDeps): CancellationRefunds {
  return {
    lockPayments: async (trx, bookingId) => {
      await repo.lockPaymentsOfBooking(trx, bookingId);
    },
    reserve: (trx, bookingId, amountOf, reason, now, actorId) =>
      reservePaidBookingRefund(trx, bookingId, amountOf, reason, now, actorId),
    paid: async (db, bookingId) => {
      const paid = (await repo.paymentsOfBooking(db, bookingId)).find((p) =>
        REFUNDABLE_STATUSES.includes(p.status),
      );
      return paid && paidAmount(paid, await repo.refundsOf(db, [paid.id]));
    },
    complete: (refundId) => completeRefund(deps, refundId),
    describe: describeRefund,
  };
}

/**
 * A pending refund of the booking's paid payment (the oldest, should a second success have paid it
 * twice), of `amountOf` its amount, capped at what remains; undefined when nothing is paid or the refund
 * comes to zero.
 */
async function reservePaidBookingRefund(
  trx: Db,
  bookingId: number,
  amountOf: (paid: PaidAmount) => number,
  reason: CancelRefundReason | 'expired',
  now: number,
  actorId: number | null,
): Promise<number | undefined> {
  const paid = (await repo.lockPaymentsOfBooking(trx, bookingId)).find((p) =>
    REFUNDABLE_STATUSES.includes(p.status),
  );
  if (!paid) return undefined;
  const amount = cappedRefundCents(paidAmount(paid, await repo.refundsOf(trx, [paid.id])), amountOf);
  if (amount <= 0) return undefined;
  return reserveRefund(trx, paid, amount, reason, '', now, actorId);
}

/**
 * Why a payment that succeeds for a booking no longer holding its window is refunded, by the booking's
 * status; a status missing here keeps the money (confirmed: a second payment, for the vendor to refund).
 */
export const LATE_PAYMENT_REFUND_REASON: Partial<Record<BookingStatus, RefundReason>> = {
  declined: 'cancelled_by_vendor',
  cancelled: 'requested_by_customer',
  expired: 'expired',
};

/**
 * A payment that succeeded for a booking declined, cancelled or expired meanwhile is refunded in full: reserved in
 * the webhook's transaction (with the success it answers, so no crash can lose it) and completed by
 * completeRefund after the commit. The refund's id, or undefined when the booking keeps the money.
 */
export async function refundLatePayment(
  trx: Db,
  payment: payments.PaymentRow,
  bookingStatus: BookingStatus,
  now: number,
): Promise<number | undefined> {
  const reason = LATE_PAYMENT_REFUND_REASON[bookingStatus];
  if (!reason) return undefined;
  const remaining = remainingCents(payment, await repo.refundsOf(trx, [payment.id]));
  if (remaining <= 0) return undefined;
  return reserveRefund(trx, payment, remaining, reason, '', now, null);
}

/**
 * charge.refunded: the gateway says the whole charge is refunded. Pending refunds are recorded as
 * succeeded (the gateway made them), and what still remains becomes one refund with reason gateway. The
 * ids of the refunds that succeeded here.
 */
export async function recordGatewayRefund(
  trx: Db,
  payment: payments.PaymentRow,
  now: number,
): Promise<number[]> {
  const succeeded: number[] = [];
  const refunds = await repo.refundsOf(trx, [payment.id]);
  for (const r of refunds)
    if (
      r.status === 'pending' &&
      (await repo.settlePendingRefund(trx, r.id, { status: 'succeeded', updated_at: now }))
    )
      succeeded.push(r.id);
  const left = payment.amount_cents - refundedCents(await repo.refundsOf(trx, [payment.id]));
  if (left <= 0) return succeeded;
  const gatewayRefund = await repo.insertRefund(trx, {
    payment_id: payment.id,
    amount_cents: left,
    currency: payment.currency,
    reason: 'gateway',
    status: 'succeeded',
    note: '',
    created_at: now,
    updated_at: now,
  });
  return [...succeeded, gatewayRefund];
}

export interface VendorRefundInput {
  amount?: string | number;
  note?: string;
}

/**
 * The vendor's refund of (part of) a payment: 409 unless the payment holds money (checked first), 400 for
 * more than remains; the booking's customer is refused (403), anyone else does not see it (404).
 */
export async function refundPayment(
  deps: PaymentsDeps,
  caller: AuthUser,
  paymentId: number,
  input: VendorRefundInput,
): Promise<Refund> {
  let amountCents: number | undefined;
  if (input.amount !== undefined) {
    const parsed = parseMoney(input.amount);
    if (parsed === null || parsed === 0)
      throw invalidFields({ amount: 'Enter an amount > 0 with at most two decimal places.' });
    amountCents = parsed;
  }
  const now = deps.clock.now().getTime();
  const refundId = await inTransaction(deps.db, async (trx) => {
    const payment = await repo.findPaymentForUpdate(trx, paymentId);
    const booking = payment && (await findBookingForPayment(trx, payment.booking_id, now));
    const party = booking && partyOf(booking, caller);
    if (!payment || !party) throw notFound('Payment not found.');
    if (party !== 'vendor') throw permissionDenied("Only the listing's vendor can refund a payment.");
    if (!REFUNDABLE_STATUSES.includes(payment.status))
      throw new AppError('invalid_state', `Cannot refund a payment that is ${payment.status}.`);
    const remaining = remainingCents(payment, await repo.refundsOf(trx, [payment.id]));
    const amount = amountCents ?? remaining;
    if (amount <= 0) throw invalidFields({ amount: 'Nothing of this payment remains to refund.' });
    // the team member who refunds is recorded on the refund (decisions §25)
    return reserveRefund(trx, payment, amount, 'vendor_initiated', input.note ?? '', now, caller.id);
  });
  return completeRefund(deps, refundId);
}
