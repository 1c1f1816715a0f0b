// What the booking module is handed by the app (clicks, the catalog's lookups, refunds), and its shapes.

import type { Kysely } from 'kysely';
import type { Database, Db, RefundReason, RefundStatus, TrafficType } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ListingLookups } from '../catalog/index.ts';

/** A click as attribution needs it; the marketing module provides it (booking never imports marketing). */
export interface ClickForBooking {
  id: number;
  listingId: number;
  trafficType: TrafficType;
  createdAt: number;
}
export type FindClick = (db: Db, id: number) => Promise<ClickForBooking | undefined>;

/** A refund as the API shows it (the payments module makes them; RefundSchema in booking.schemas.ts). */
export interface Refund {
  id: number;
  payment_id: number;
  amount: string;
  currency: string;
  reason: RefundReason;
  status: RefundStatus;
  /** the account whose request made it (a team member, or the customer); null when nobody asked */
  actor_id: number | null;
  created_at: string;
  updated_at: string;
}

/** Why a cancel refunds: the customer's cancel, or the vendor's. */
export type CancelRefundReason = 'requested_by_customer' | 'cancelled_by_vendor';

/** A paid payment of a booking: its amount and what of it no refund has taken or reserved yet. */
export interface PaidAmount {
  amountCents: number;
  remainingCents: number;
}

/**
 * What a cancel needs of the payments module; `buildApp` hands it in (booking never imports payments).
 * The refund is reserved in the cancel's own transaction, so a cancelled paid booking always has its
 * refund recorded, and sent to the gateway only after the commit.
 */
export interface CancellationRefunds {
  /** Locks the booking's payments; called before the booking's own lock, in the webhook's lock order. */
  lockPayments(trx: Db, bookingId: number): Promise<void>;
  /**
   * Reserves a pending refund of the booking's paid payment, of the cents `amountOf` gives (capped at
   * what remains); the refund's id, or undefined when nothing is paid or the amount is zero.
   */
  reserve(
    trx: Db,
    bookingId: number,
    amountOf: (paid: PaidAmount) => number,
    reason: CancelRefundReason,
    now: number,
    /** the account whose cancel makes the refund (recorded on it) */
    actorId: number,
  ): Promise<number | undefined>;
  /** After the commit: the gateway's refund and its recorded outcome. */
  complete(refundId: number): Promise<Refund>;
  /** The booking's paid payment as `reserve` would find it now, without locking; undefined when unpaid. */
  paid(db: Db, bookingId: number): Promise<PaidAmount | undefined>;
  /** A reserved refund and its payment as the API shows them, for the cancel's event. */
  describe(db: Db, refundId: number): Promise<{ payment: object; refund: Refund }>;
}

/** The cents a refund of `amountOf` a paid payment takes: never more than remains of it. */
export const cappedRefundCents = (paid: PaidAmount, amountOf: (paid: PaidAmount) => number) =>
  Math.min(amountOf(paid), paid.remainingCents);

export interface BookingDeps {
  db: Kysely<Database>;
  clock: Clock;
  findClick: FindClick;
  /** the catalog's cached lookups (availability checks and departures find the listing there) */
  listings: Pick<ListingLookups, 'byId' | 'byPublicId'>;
  refunds: CancellationRefunds;
}
