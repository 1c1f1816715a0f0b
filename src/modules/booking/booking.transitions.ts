// A booking's moves between states: the parties' approve and decline (moveBooking, which the cancels use too),
// the expiry of lapsed holds, and the payment's confirm.

import type { BookingStatus, Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, permissionDenied } from '../../http/errors.ts';
import type { BookingDeps } from './booking.deps.ts';
import * as repo from './booking.repository.ts';
import {
  channelMoveRefusal,
  deniedMessage,
  holdDeadline,
  nextStatus,
  type PartyAction,
  STATUS_EVENTS,
  statusAt,
  TRANSITIONS,
} from './booking.state-machine.ts';
import { type Booking, bookingNotFound, partyToRow, recordBookingEvent } from './booking.view.ts';

export interface TransitionInput {
  vendor_notes?: string;
  note?: string;
}

/**
 * Moves the booking the caller is a party to by `action`, in the caller's transaction: the booking row is
 * read under lock and moved by an UPDATE guarded by `status IN (allowed)`, so two simultaneous transitions
 * run one after the other, and the second sees the first's result (409 invalid_state when it no longer
 * applies). `refuse` may refuse the move from the status found (under the lock). Returns the booking as
 * it was found and the status it moved to.
 */
export async function moveBooking(
  trx: Db,
  caller: AuthUser,
  id: number,
  action: PartyAction,
  input: TransitionInput,
  now: number,
  refuse?: (status: BookingStatus, booking: repo.BookingParties) => AppError | undefined,
): Promise<{ found: repo.BookingParties; to: BookingStatus }> {
  const transition = TRANSITIONS[action];
  const booking = await repo.findBookingParties(trx, id, { forUpdate: true });
  const party = booking && partyToRow(booking, caller);
  if (!booking || !party) throw bookingNotFound();
  if (party !== transition.actor) throw permissionDenied(deniedMessage(action));
  const status = statusAt(booking, now);
  const next = nextStatus(status, action);
  if (!next) throw invalidState(status, action);
  const channelRefusal = channelMoveRefusal(action, status, booking.channel_id);
  if (channelRefusal) throw new AppError('invalid_state', channelRefusal);
  const refused = refuse?.(status, booking);
  if (refused) throw refused;
  const vendorNotes = transition.to === 'cancelled' ? undefined : input.vendor_notes;
  const moved = await repo.updateStatusIfIn(trx, id, transition.from, next, now, {
    updated_at: now,
    expires_at: deadlineAfter(next, booking, now),
    ...(vendorNotes === undefined ? {} : { vendor_notes: vendorNotes }),
  });
  if (!moved) throw invalidState(status, action);
  await repo.insertHistory(trx, {
    booking_id: id,
    from_status: status,
    to_status: next,
    note: input.note ?? '',
    actor_id: caller.id,
    created_at: now,
  });
  return { found: booking, to: next };
}

/**
 * approve / decline (see moveBooking).
 *
 * No transition re-checks units or seats, because none can add to what a listing holds: a booking holds
 * its units from `requested` on (checked under the listing's lock when it was requested), approve and the
 * payment's confirm move it between holding states, and decline and cancel only free units.
 */
export async function transitionBooking(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
  action: 'approve' | 'decline',
  input: TransitionInput = {},
): Promise<Booking> {
  const now = deps.clock.now().getTime();
  return inTransaction(deps.db, async (trx) => {
    const { to } = await moveBooking(trx, caller, id, action, input, now);
    return recordBookingEvent(trx, id, [STATUS_EVENTS[to]], now);
  });
}

/** A booking's expires_at once it moves to `next`: an approval's payment deadline, else none. */
function deadlineAfter(next: BookingStatus, booking: repo.BookingParties, now: number): number | null {
  return next === 'approved' ? holdDeadline(now, booking.payment_ttl_minutes, booking.starts_at) : null;
}

/** How many lapsed holds one transaction of the sweep records, so no transaction grows without bound. */
const EXPIRY_BATCH = 200;

/**
 * Records every hold whose deadline has passed as `expired`, each with one history entry (no actor, note
 * "expired"), and returns how many this call recorded. Reads already show them expired (statusAt); this
 * writes down the transition. Safe with several sweepers at once: each row is claimed and moved by a
 * guarded update (expireLapsedHolds), so one of them records it and the others skip it.
 */
export async function expireLapsedBookings(deps: Pick<BookingDeps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now().getTime();
  let recorded = 0;
  for (;;) {
    const { claimed, moved } = await inTransaction(deps.db, async (trx) => {
      const lapsed = await repo.expireLapsedHolds(trx, TRANSITIONS.expire.from, now, EXPIRY_BATCH);
      for (const id of lapsed.moved) await recordBookingEvent(trx, id, [STATUS_EVENTS.expired], now);
      return lapsed;
    });
    recorded += moved.length;
    if (claimed < EXPIRY_BATCH) return recorded;
  }
}

export function invalidState(status: BookingStatus, action: string): AppError {
  return new AppError('invalid_state', `Cannot ${action} a booking that is ${status}.`);
}

/**
 * approved → confirmed after a successful payment, in the caller's transaction, with a history entry
 * (no actor: the payment gateway); the caller records the event (recordBookingEvent) with the payment. False when the booking was not approved (declined, cancelled or
 * expired meanwhile, the last whether or not the sweeper has recorded it): it is left as it is, and the
 * caller decides what becomes of the money (an expired booking's payment is refunded, decisions §11).
 */
export async function confirmApprovedBooking(trx: Db, bookingId: number, now: number): Promise<boolean> {
  const { from, to } = TRANSITIONS.confirm_payment;
  const moved = await repo.updateStatusIfIn(trx, bookingId, from, to, now, {
    updated_at: now,
    expires_at: null,
    // kept whatever comes later: analytics count what reached confirmed (decisions §17)
    confirmed_at: now,
  });
  if (!moved) return false;
  await repo.insertHistory(trx, {
    booking_id: bookingId,
    from_status: 'approved',
    to_status: to,
    note: 'payment succeeded',
    actor_id: null,
    created_at: now,
  });
  return true;
}
