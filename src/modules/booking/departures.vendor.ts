import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { formatMoney } from '../../lib/money.ts';
import { departureAt } from '../../lib/schedule.ts';
import { findListingById, type ListingRef, lockOwnListing } from '../catalog/index.ts';
import { type BookingDeps, cappedRefundCents } from './booking.deps.ts';
import { parseInstant } from './booking.input.ts';
import { cancelInTransaction, vendorCancelRefund } from './cancellation.service.ts';
import { bookingsHoldingDeparture, departureFactsOf, upsertOverride } from './departures.repository.ts';
import {
  departureRange,
  departuresWithVerdicts,
  departureView,
  isScheduledOffering,
  rangeView,
  verdictOf,
} from './departures.service.ts';

// A vendor's departures (decisions §19): the coming ones with their seats sold, a change to one (its
// capacity, closing or reopening it), and cancelling one with every booking holding it. Each change runs
// under the offering's lock, as booking requests do, so no request slips in between a check and a write.

const offeringNotFound = () => notFound('Adventure offering not found.');
const departureNotFound = () => notFound('The offering has no departure at that instant.');

/** The caller's own offering (not archived; inactive ones included), or 404. */
async function ownOffering(db: Db, caller: AuthUser, id: number): Promise<ListingRef> {
  const listing = await findListingById(db, 'adventure', id);
  if (!listing || listing.archived || listing.vendorId !== caller.vendorId) throw offeringNotFound();
  return listing;
}

/** GET /adventrues/vendor/offerings/{id}/departures/: the public objects plus what the vendor sees. */
export async function listVendorDepartures(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
  query: { from?: string; to?: string },
) {
  const now = deps.clock.now().getTime();
  const range = departureRange(query, now);
  const listing = await ownOffering(deps.db, caller, id);
  const { facts, departures } = await departuresWithVerdicts(deps.db, listing, range, now);
  return {
    ...rangeView(listing, range),
    departures: departures.map(({ departure, verdict }) => {
      const override = facts?.overrides.get(departure.startsAt);
      return {
        ...departureView(departure, verdict),
        booked: verdict.heldSeats,
        bookings: verdict.holdingBookings,
        closed_by: verdict.closedBy,
        capacity_override: override?.capacity ?? null,
        cancelled_at: override?.cancelledAt == null ? null : formatDateTime(override.cancelledAt),
        note: override?.note ?? '',
      };
    }),
  };
}

/**
 * The departure at the path's instant of the caller's offering, read with its facts; with `lock`, in the
 * caller's transaction after the offering's lock. 404 for another vendor's offering or an instant that is
 * not a departure.
 */
async function ownDeparture(
  db: Db,
  caller: AuthUser,
  id: number,
  startsAtText: string,
  now: number,
  lock: boolean,
) {
  const startsAt = parseInstant('starts_at', startsAtText);
  if (lock && !(await lockOwnListing(db, 'adventure', caller.vendorId ?? -1, id))) throw offeringNotFound();
  const listing = await ownOffering(db, caller, id);
  const departure = isScheduledOffering(listing)
    ? departureAt(listing.schedule, listing.durationMinutes ?? 0, listing.timeZone, startsAt)
    : undefined;
  if (!departure) throw departureNotFound();
  const range = { from: startsAt, to: startsAt + 1, durationMs: departure.endsAt - departure.startsAt };
  const facts = await departureFactsOf(db, listing.id, range, now);
  return { listing, departure, facts };
}

const lockedDeparture = (trx: Db, caller: AuthUser, id: number, startsAtText: string, now: number) =>
  ownDeparture(trx, caller, id, startsAtText, now, true);

/**
 * GET .../departures/{starts_at}/cancellation/: what a cancel of the departure would do now, for the
 * vendor's confirmation: the bookings it would cancel and the refunds it would make (each paid booking's
 * remainder, as a vendor's cancel refunds: vendorCancelRefund). Reads only; the cancel itself decides
 * again under the lock.
 */
export async function previewDepartureCancel(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
  startsAtText: string,
) {
  const now = deps.clock.now().getTime();
  const { listing, departure } = await ownDeparture(deps.db, caller, id, startsAtText, now, false);
  const ids = await bookingsHoldingDeparture(deps.db, listing.id, departure.startsAt, now);
  let paidBookings = 0;
  let refundCents = 0;
  for (const bookingId of ids) {
    const paid = await deps.refunds.paid(deps.db, bookingId);
    if (!paid) continue;
    paidBookings++;
    refundCents += cappedRefundCents(paid, vendorCancelRefund);
  }
  return {
    starts_at: formatDateTime(departure.startsAt),
    booking_ids: ids,
    paid_bookings: paidBookings,
    refund_amount: formatMoney(refundCents),
    currency: listing.currency,
  };
}

export interface DepartureChange {
  /** null: the schedule's capacity again */
  capacity?: number | null;
  is_closed?: boolean;
}

/**
 * PATCH .../departures/{starts_at}/: a capacity below the seats its bookings hold is 409
 * booking_conflict. Answers the departure as the public endpoint shows it.
 */
export async function changeDeparture(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
  startsAtText: string,
  change: DepartureChange,
) {
  const now = deps.clock.now().getTime();
  return inTransaction(deps.db, async (trx) => {
    const { listing, departure, facts } = await lockedDeparture(trx, caller, id, startsAtText, now);
    if (change.capacity !== undefined) {
      const held = verdictOf(listing, departure, facts, now).heldSeats;
      const capacity =
        change.capacity ?? verdictOf(listing, departure, { ...facts, overrides: new Map() }, now).capacity;
      if (capacity < held)
        throw new AppError(
          'booking_conflict',
          `capacity cannot be ${capacity}: the departure's bookings hold ${held} seats.`,
        );
    }
    const values = {
      ...(change.capacity === undefined ? {} : { capacity: change.capacity }),
      ...(change.is_closed === undefined
        ? {}
        : { is_closed: change.is_closed ? (1 as const) : (0 as const) }),
    };
    await upsertOverride(trx, listing.id, departure.startsAt, values, now);
    const after = await departureFactsOf(
      trx,
      listing.id,
      {
        from: departure.startsAt,
        to: departure.startsAt + 1,
        durationMs: departure.endsAt - departure.startsAt,
      },
      now,
    );
    return departureView(departure, verdictOf(listing, departure, after, now));
  });
}

/**
 * POST .../departures/{starts_at}/cancel/: closes the departure and vendor-cancels every booking holding
 * it, each as the vendor's own cancel would (its history carries the note, a paid one's full refund
 * reserved), all in one transaction: a crash leaves all of it or none. The refunds are completed at the
 * gateway after the commit, as a single cancel's are; one the gateway has not answered stays pending for
 * the start-up reconciliation.
 */
export async function cancelDeparture(
  deps: BookingDeps,
  caller: AuthUser,
  id: number,
  startsAtText: string,
  input: { note?: string },
) {
  const now = deps.clock.now().getTime();
  const note = input.note ?? '';
  const { startsAt, cancelled } = await inTransaction(deps.db, async (trx) => {
    const { listing, departure } = await lockedDeparture(trx, caller, id, startsAtText, now);
    await upsertOverride(trx, listing.id, departure.startsAt, { is_closed: 1, cancelled_at: now, note }, now);
    const cancelled: { id: number; refundId: number | undefined }[] = [];
    for (const bookingId of await bookingsHoldingDeparture(trx, listing.id, departure.startsAt, now)) {
      const moved = await cancelInTransaction(
        deps,
        trx,
        caller,
        bookingId,
        'vendor_cancel',
        { note },
        now,
      ).catch(
        // cancelled or declined by its party between the read and the booking's lock: nothing left to do
        // (refused before any write, so the transaction goes on)
        (error: unknown) => {
          if (error instanceof AppError && error.code === 'invalid_state') return undefined;
          throw error;
        },
      );
      if (moved) cancelled.push({ id: bookingId, refundId: moved.refundId });
    }
    return { startsAt: departure.startsAt, cancelled };
  });
  for (const { refundId } of cancelled) if (refundId !== undefined) await deps.refunds.complete(refundId);
  return { starts_at: formatDateTime(startsAt), cancelled_booking_ids: cancelled.map((c) => c.id) };
}
