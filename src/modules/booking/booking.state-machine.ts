import type { BookingStatus } from '../../db/database.ts';

// The booking lifecycle as data (decisions §6). Nothing here touches the database: the service reads
// this table, and the guarded UPDATE uses `from` as its `status IN (...)` list.

export const BOOKING_STATUSES = ['requested', 'approved', 'declined', 'cancelled', 'confirmed'] as const;

/** States that hold their time window: overlapping requests are refused while one of these holds it. */
export const ACTIVE_STATUSES = ['requested', 'approved', 'confirmed'] as const;

export type BookingAction = 'approve' | 'decline' | 'cancel' | 'confirm_payment';

/** Who may trigger an action: the listing's vendor, the booking's customer, or the payment webhook. */
export type BookingActor = 'vendor' | 'customer' | 'system';

export interface Transition {
  actor: BookingActor;
  from: readonly BookingStatus[];
  to: BookingStatus;
}

export const TRANSITIONS: Readonly<Record<BookingAction, Transition>> = {
  approve: { actor: 'vendor', from: ['requested'], to: 'approved' },
  decline: { actor: 'vendor', from: ['requested', 'approved'], to: 'declined' },
  cancel: { actor: 'customer', from: ['requested', 'approved', 'confirmed'], to: 'cancelled' },
  confirm_payment: { actor: 'system', from: ['approved'], to: 'confirmed' },
};

/** The state `action` leads to from `from`, or null when the action is not allowed from there. */
export function nextStatus(from: BookingStatus, action: BookingAction): BookingStatus | null {
  const transition = TRANSITIONS[action];
  return transition.from.includes(from) ? transition.to : null;
}

export function isActiveStatus(status: BookingStatus): boolean {
  return (ACTIVE_STATUSES as readonly BookingStatus[]).includes(status);
}
