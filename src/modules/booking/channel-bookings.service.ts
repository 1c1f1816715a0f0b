// A channel's moves of its own bookings (decisions §24): confirm (no approval, no payment: the reseller took
// the money), extend the hold, cancel. The reserve is the booking request itself (requestBooking with a
// ChannelHold); reads are channelBookingViews.

import type { Db, ListingKind } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { lockOwnListing } from '../catalog/index.ts';
import type { BookingDeps } from './booking.deps.ts';
import * as repo from './booking.repository.ts';
import { holdDeadline, STATUS_EVENTS, statusAt } from './booking.state-machine.ts';
import { invalidState, moveBooking } from './booking.transitions.ts';
import { type Booking, bookingNotFound, recordBookingEvent } from './booking.view.ts';
import { cancelInTransaction } from './cancellation.service.ts';
import { moveHoldDeadline, recordChannelConfirmation } from './channel-bookings.repository.ts';

/** A channel as the booking module needs it: its vendor and the account its bookings are made by. */
export interface ChannelActor {
  channelId: number;
  vendorId: number;
  accountId: number;
}

/** The account a channel acts as: its bookings' customer, which can never sign in (channel-account.ts). */
export const channelCaller = (actor: ChannelActor): AuthUser => ({
  id: actor.accountId,
  email: '',
  isVendor: false,
  isStaff: false,
  vendorId: null,
  vendorRole: null,
});

/** A channel booking as its moves need it (found by the channel's uuid, so it is the channel's). */
export interface ChannelBookingRef {
  id: number;
  listingKind: ListingKind;
  listingId: number;
}

export interface ChannelContact {
  fullName: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * Takes the booking's listing lock, the one booking requests take, then reads the clock and the booking
 * (locked): a move that must find the hold still holding (confirm, extend) is then judged at an instant no
 * request for the listing can come between. Without it a confirm read at the last instant of the hold could
 * commit after a request that found the hold lapsed had taken its seats.
 */
async function lockedBooking(deps: BookingDeps, trx: Db, actor: ChannelActor, booking: ChannelBookingRef) {
  await lockOwnListing(trx, booking.listingKind, actor.vendorId, booking.listingId);
  const now = deps.clock.now().getTime();
  const found = await repo.findBookingParties(trx, booking.id, { forUpdate: true });
  if (!found) throw bookingNotFound();
  return { now, found, status: statusAt(found, now) };
}

/**
 * Confirms the channel's hold with the contact it sends (requested → confirmed, no vendor approval and no
 * payment record), or, on a booking it already confirmed, records the contact again. A hold that has lapsed
 * is refused (409 invalid_state): it holds no seats any more.
 */
export async function confirmChannelBooking(
  deps: BookingDeps,
  actor: ChannelActor,
  booking: ChannelBookingRef,
  contact: ChannelContact,
  resellerReference: string | undefined,
): Promise<Booking> {
  return inTransaction(deps.db, async (trx) => {
    const { now, status } = await lockedBooking(deps, trx, actor, booking);
    const confirming = status !== 'confirmed';
    if (confirming)
      await moveBooking(
        trx,
        channelCaller(actor),
        booking.id,
        'channel_confirm',
        { note: 'confirmed by the channel' },
        now,
      );
    await recordChannelConfirmation(trx, booking.id, {
      contact_full_name: contact.fullName,
      contact_email: contact.email,
      contact_phone: contact.phone,
      ...(resellerReference === undefined ? {} : { reseller_reference: resellerReference }),
      ...(confirming ? { confirmed_at: now } : {}),
      updated_at: now,
    });
    return recordBookingEvent(trx, booking.id, confirming ? [STATUS_EVENTS.confirmed] : [], now);
  });
}

/**
 * Moves the hold's deadline to `minutes` from now (at most the vendor's request TTL, never past the start),
 * with a history entry saying so; a hold no longer on hold (lapsed, confirmed, cancelled) → 409
 * invalid_state.
 */
export async function extendChannelHold(
  deps: BookingDeps,
  actor: ChannelActor,
  booking: ChannelBookingRef,
  minutes: number,
  requestTtlMinutes: number,
): Promise<Booking> {
  return inTransaction(deps.db, async (trx) => {
    const { now, found, status } = await lockedBooking(deps, trx, actor, booking);
    const expiresAt = holdDeadline(now, Math.min(minutes, requestTtlMinutes), found.starts_at);
    if (status !== 'requested' || !(await moveHoldDeadline(trx, booking.id, expiresAt, now)))
      throw invalidState(status, 'extend');
    await repo.insertHistory(trx, {
      booking_id: booking.id,
      from_status: status,
      to_status: status,
      note: `hold extended to ${formatDateTime(expiresAt)}`,
      actor_id: actor.accountId,
      created_at: now,
    });
    return recordBookingEvent(trx, booking.id, [], now);
  });
}

/**
 * The channel's cancel: the customer's cancel (cancelInTransaction) by the channel's account, which the
 * cancel's own rule limits to the free cancellation period once confirmed (channelMayCancel). No payment
 * was taken here, so no refund is made.
 */
export async function cancelChannelBooking(
  deps: BookingDeps,
  actor: ChannelActor,
  booking: ChannelBookingRef,
  reason: string | undefined,
): Promise<Booking> {
  const now = deps.clock.now().getTime();
  const { booking: cancelled } = await inTransaction(deps.db, (trx) =>
    cancelInTransaction(deps, trx, channelCaller(actor), booking.id, 'cancel', { note: reason ?? '' }, now),
  );
  return cancelled;
}
