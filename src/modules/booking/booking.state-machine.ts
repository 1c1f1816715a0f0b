import type { BookingStatus } from '../../db/database.ts';
import type { AuthUser } from '../../http/auth.ts';
import { MINUTE_MS } from '../../lib/datetime.ts';
import type { EventType } from '../../outbox/events.ts';

// The booking lifecycle as data (decisions §6). Nothing here touches the database: the service reads
// this table, and the guarded UPDATE uses `from` as its `status IN (...)` list.

export const BOOKING_STATUSES = [
  'requested',
  'approved',
  'declined',
  'cancelled',
  'confirmed',
  'expired',
] as const;

/**
 * States that hold their time window: overlapping requests are refused while one of these holds it and,
 * for the ones with a deadline (EXPIRING_STATUSES), its `expires_at` has not passed.
 */
export const ACTIVE_STATUSES = ['requested', 'approved', 'confirmed'] as const;

/** States whose hold lapses at the booking's `expires_at` (decisions §11); null in every other state. */
export const EXPIRING_STATUSES = ['requested', 'approved'] as const;

export type BookingAction =
  | 'approve'
  | 'decline'
  | 'cancel'
  | 'vendor_cancel'
  | 'confirm_payment'
  | 'expire'
  | 'channel_confirm';

/** A party to a booking: its customer, or the vendor of its listing. */
export type BookingParty = 'customer' | 'vendor';

/** Who may trigger an action: one of the booking's parties, or the service (payment webhook, deadlines). */
export type BookingActor = BookingParty | 'system';

export interface Transition {
  actor: BookingActor;
  from: readonly BookingStatus[];
  to: BookingStatus;
}

/** Each action with its one actor: access checks and refusal messages are derived from it. */
export const TRANSITIONS = {
  approve: { actor: 'vendor', from: ['requested'], to: 'approved' },
  decline: { actor: 'vendor', from: ['requested', 'approved'], to: 'declined' },
  cancel: { actor: 'customer', from: ['requested', 'approved', 'confirmed'], to: 'cancelled' },
  vendor_cancel: { actor: 'vendor', from: ['requested', 'approved', 'confirmed'], to: 'cancelled' },
  confirm_payment: { actor: 'system', from: ['approved'], to: 'confirmed' },
  expire: { actor: 'system', from: EXPIRING_STATUSES, to: 'expired' },
  // a channel's confirm of its hold (decisions §24): the reseller took the money, so no approval and no
  // payment. The channel's account is the booking's customer; only channel bookings may take this move
  // (channelMoveRefusal).
  channel_confirm: { actor: 'customer', from: ['requested'], to: 'confirmed' },
} as const satisfies Readonly<Record<BookingAction, Transition>>;

/** The event that reports a booking's arrival in each status (decisions §14). */
export const STATUS_EVENTS = {
  requested: 'booking.requested',
  approved: 'booking.approved',
  declined: 'booking.declined',
  cancelled: 'booking.cancelled',
  confirmed: 'booking.confirmed',
  expired: 'booking.expired',
} as const satisfies Record<BookingStatus, EventType>;

/** The actions a party triggers (the others are the payment webhook's). */
export type PartyAction = {
  [A in BookingAction]: (typeof TRANSITIONS)[A]['actor'] extends BookingParty ? A : never;
}[BookingAction];

const ACTOR_NAMES: Record<BookingActor, string> = {
  vendor: "the listing's vendor",
  customer: "the booking's customer",
  system: 'the service itself',
};

/** Why a caller who is not the action's actor is refused, stated from the transition's actor. */
export function deniedMessage(action: BookingAction): string {
  // the action as its path names it (vendor_cancel → vendor-cancel)
  return `Only ${ACTOR_NAMES[TRANSITIONS[action].actor]} can ${action.replaceAll('_', '-')} a booking.`;
}

/**
 * The caller's party to a booking, or null when they are neither its customer nor the vendor of its
 * listing (they may not see it). A caller who is both counts as its customer.
 */
export function partyOf(
  booking: { customerId: number; vendorId: number },
  caller: Pick<AuthUser, 'id' | 'vendorId'>,
): BookingParty | null {
  if (booking.customerId === caller.id) return 'customer';
  if (caller.vendorId !== null && booking.vendorId === caller.vendorId) return 'vendor';
  return null;
}

/** The state `action` leads to from `from`, or null when the action is not allowed from there. */
export function nextStatus(from: BookingStatus, action: BookingAction): BookingStatus | null {
  const transition: Transition = TRANSITIONS[action];
  return transition.from.includes(from) ? transition.to : null;
}

export function isActiveStatus(status: BookingStatus): boolean {
  return (ACTIVE_STATUSES as readonly BookingStatus[]).includes(status);
}

/**
 * The status a booking has at `now`: a requested or approved booking whose `expires_at` has passed is
 * `expired` from that instant on, whether or not the sweeper has recorded it yet.
 */
export function statusAt(
  booking: { status: BookingStatus; expires_at: number | null },
  now: number,
): BookingStatus {
  const expiring = (EXPIRING_STATUSES as readonly BookingStatus[]).includes(booking.status);
  return expiring && booking.expires_at !== null && booking.expires_at <= now ? 'expired' : booking.status;
}

/**
 * When a hold taken at `from` lapses: `ttlMinutes` later (the vendor's request or payment TTL), never later
 * than the booking's start (decisions §11).
 */
export function holdDeadline(from: number, ttlMinutes: number, startsAt: number): number {
  return Math.min(from + ttlMinutes * MINUTE_MS, startsAt);
}

/**
 * Why a move the state machine allows is refused for a booking's channel (decisions §24), or undefined:
 * a channel's hold is the channel's to confirm, so its vendor can neither approve nor decline it while it
 * is on hold (vendor-cancel stays open), and only a channel booking is confirmed by its channel.
 */
export function channelMoveRefusal(
  action: BookingAction,
  status: BookingStatus,
  channelId: number | null,
): string | undefined {
  if (action === 'channel_confirm' && channelId === null)
    return 'Only a booking made through a channel is confirmed by its channel.';
  if (channelId !== null && status === 'requested' && (action === 'approve' || action === 'decline'))
    return `A channel's hold is confirmed or cancelled by the channel; its vendor cannot ${action} it, only vendor-cancel it.`;
  return undefined;
}
