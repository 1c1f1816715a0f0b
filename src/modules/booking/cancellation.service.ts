// The customer's and the vendor's cancel with its refund (decisions §12), and what a cancel would do now.

import type { BookingStatus, Db } from '../../db/database.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { formatMoney } from '../../lib/money.ts';
import { type BookingDeps, cappedRefundCents, type PaidAmount, type Refund } from './booking.deps.ts';
import * as repo from './booking.repository.ts';
import { nextStatus, STATUS_EVENTS, statusAt } from './booking.state-machine.ts';
import { invalidState, moveBooking } from './booking.transitions.ts';
import { type Booking, bookingNotFound, partyToRow, recordBookingEvent } from './booking.view.ts';
import {
  type CancellationPolicy,
  channelMayCancel,
  customerRefundCents,
  inFreeCancellation,
} from './cancellation.ts';
import { asSeenBy } from './trip-terms.ts';

/** A booking after a cancel, with the refund the cancel made (null when none). */
export type CancelledBooking = Booking & { refund: Refund | null };

/**
 * The customer's cancel or the vendor's (decisions §12). The customer may cancel a confirmed booking only
 * before it starts, and gets back what the listing's cancellation policy says (customerRefundCents); the
 * vendor's cancel refunds in full. The move and the refund's reservation share one transaction, which
 * takes the booking's payment locks before the booking's (the webhook's order); the gateway is called
 * after the commit, never inside it.
 */
export async function cancelBooking(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
  action: 'cancel' | 'vendor_cancel',
  input: { note?: string } = {},
): Promise<CancelledBooking> {
  const now = deps.clock.now().getTime();
  const { booking, refundId } = await inTransaction(deps.db, (trx) =>
    cancelInTransaction(deps, trx, caller, id, action, input, now),
  );
  const refund = refundId === undefined ? null : await deps.refunds.complete(refundId);
  return { ...asSeenBy(booking, action === 'cancel' ? 'customer' : 'vendor'), refund };
}

/**
 * A cancel's work in the caller's transaction (cancelBooking; a departure's cancel runs several in one):
 * the move, its history entry and event, and the refund reserved. The caller completes the refund at the
 * gateway after the commit (refunds.complete).
 */
export async function cancelInTransaction(
  deps: Pick<BookingDeps, 'refunds'>,
  trx: Db,
  caller: AuthUser,
  id: number,
  action: 'cancel' | 'vendor_cancel',
  input: { note?: string },
  now: number,
): Promise<{ booking: Booking; refundId: number | undefined }> {
  await deps.refunds.lockPayments(trx, id);
  // undefined when there is no such booking: moveBooking then answers 404
  const policy = await cancellationPolicyOf(trx, id);
  const { found, to } = await moveBooking(trx, caller, id, action, input, now, (status, row) =>
    cancelRefusal(action, status, row, policy, now),
  );
  const refundId =
    action === 'vendor_cancel'
      ? await deps.refunds.reserve(trx, id, vendorCancelRefund, 'cancelled_by_vendor', now, caller.id)
      : await deps.refunds.reserve(
          trx,
          id,
          customerCancelRefund(policy as CancellationPolicy, found.starts_at, now),
          'requested_by_customer',
          now,
          caller.id,
        );
  const involved = refundId === undefined ? {} : await deps.refunds.describe(trx, refundId);
  return { booking: await recordBookingEvent(trx, id, [STATUS_EVENTS[to]], now, involved), refundId };
}

/**
 * Why a cancel the state machine allows is refused: a customer's, of a confirmed booking already begun; a
 * channel's, of a confirmed booking past its free cancellation (channelMayCancel: 400, the booking
 * unchanged, decisions §24).
 */
function cancelRefusal(
  action: 'cancel' | 'vendor_cancel',
  status: BookingStatus,
  booking: { starts_at: number; channel_id: number | null },
  policy: CancellationPolicy | undefined,
  now: number,
): AppError | undefined {
  if (action !== 'cancel') return undefined;
  const confirmed = status === 'confirmed';
  if (booking.channel_id !== null && policy && !channelMayCancel(policy, confirmed, booking.starts_at, now))
    return new AppError(
      'invalid',
      `The free cancellation ended ${policy.freeCancellationHours} hours before the start: the booking stays confirmed.`,
    );
  return confirmed && now >= booking.starts_at
    ? new AppError('invalid_state', 'A confirmed booking can be cancelled only before it starts.')
    : undefined;
}

async function cancellationPolicyOf(db: Db, bookingId: number): Promise<CancellationPolicy | undefined> {
  const terms = await repo.findCancellationPolicy(db, bookingId);
  return (
    terms && {
      freeCancellationHours: terms.free_cancellation_hours,
      lateRefundPercent: terms.late_refund_percent,
    }
  );
}

/** A vendor's cancel refunds all that remains of the paid payment (decisions §12). */
export const vendorCancelRefund = (paid: PaidAmount) => paid.remainingCents;

/** A customer's cancel at `now` refunds what the listing's policy gives (customerRefundCents). */
const customerCancelRefund =
  (policy: CancellationPolicy, startsAt: number, now: number) => (paid: PaidAmount) =>
    customerRefundCents(policy, startsAt, now, paid.amountCents);

/** What a cancel by the caller would do now (GET /bookings/{id}/cancellation/). */
export interface CancellationPreview {
  can_cancel: boolean;
  reason: string;
  paid_amount: string;
  refund_amount: string;
  currency: string;
  policy: { free_cancellation_hours: number; late_refund_percent: number };
}

/**
 * What a cancel by the caller (the customer's cancel, or the vendor's) would refund if made now, decided by
 * the functions the cancel itself runs (nextStatus, cancelRefusal, vendorCancelRefund, customerCancelRefund), so
 * the preview and the cancel cannot disagree. Nothing is locked or written; a payment or a move between
 * the preview and the cancel is the cancel's to see.
 */
export async function previewCancellation(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
): Promise<CancellationPreview> {
  const now = deps.clock.now().getTime();
  // the booking, its policy and its payment on one snapshot
  return inReadSnapshot(deps.db, async (db) => {
    const booking = await repo.findBookingView(db, id);
    const party = booking && partyToRow(booking, caller);
    if (!booking || !party) throw bookingNotFound();
    const action = party === 'customer' ? 'cancel' : 'vendor_cancel';
    const status = statusAt(booking, now);
    const policy = (await cancellationPolicyOf(db, id)) as CancellationPolicy;
    const refusal = nextStatus(status, action)
      ? cancelRefusal(action, status, booking, policy, now)
      : invalidState(status, action);
    const paid = await deps.refunds.paid(db, id);
    const refundOf =
      action === 'cancel' ? customerCancelRefund(policy, booking.starts_at, now) : vendorCancelRefund;
    const refundCents = refusal || !paid ? 0 : cappedRefundCents(paid, refundOf);
    return {
      can_cancel: refusal === undefined,
      reason: refusal?.message ?? refundReason(action, policy, booking.starts_at, now, paid),
      paid_amount: formatMoney(paid?.amountCents ?? 0),
      refund_amount: formatMoney(refundCents),
      currency: booking.currency,
      policy: {
        free_cancellation_hours: policy.freeCancellationHours,
        late_refund_percent: policy.lateRefundPercent,
      },
    };
  });
}

/** The rule that gives a possible cancel's refund, in words. */
function refundReason(
  action: 'cancel' | 'vendor_cancel',
  policy: CancellationPolicy,
  startsAt: number,
  now: number,
  paid: PaidAmount | undefined,
): string {
  if (!paid) return 'Nothing has been paid, so nothing is refunded.';
  if (action === 'vendor_cancel') return "A vendor's cancel refunds the payment in full.";
  const hours = policy.freeCancellationHours;
  if (inFreeCancellation(policy, startsAt, now))
    return `Cancelled at least ${hours} hours before the start: refunded in full.`;
  return `Less than ${hours} hours before the start: ${policy.lateRefundPercent}% of the payment is refunded.`;
}
