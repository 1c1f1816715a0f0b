// Making a booking: the request (judged by request-judgement.ts, written under the listing's lock), and a
// vendor's edit of a listing's limit checked against what is already held.

import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { isScheduled } from '../../lib/schedule.ts';
import { recordEvent } from '../../outbox/events.ts';
import { findVisibleListing, type LimitEdit } from '../catalog/index.ts';
import { isValidAttribution } from './attribution.ts';
import { holdsEndingAfter } from './availability.repository.ts';
import { heldWindow, peakUnits, unitLimitOf } from './availability.ts';
import type { BookingDeps } from './booking.deps.ts';
import * as repo from './booking.repository.ts';
import { holdDeadline, STATUS_EVENTS } from './booking.state-machine.ts';
import { type Booking, toBooking } from './booking.view.ts';
import { checkDepartureLimits } from './departures.service.ts';
import { askedOf, assessRequest, type BookingRequestInput, listingNotFound } from './request-judgement.ts';
import { bookingResourceRows } from './resource-check.ts';
import { insertBookingResources } from './resources.repository.ts';
import { asSeenBy } from './trip-terms.ts';
import { acceptedWaiver, type RequestClient } from './waiver.ts';

/** The click to attribute the booking to, or null: an invalid click never fails the request. */
async function attributedClick(
  deps: BookingDeps,
  clickId: number | null | undefined,
  listingId: number,
  now: number,
): Promise<number | null> {
  if (clickId === null || clickId === undefined || clickId < 1 || clickId > MAX_ID) return null;
  const click = await deps.findClick(deps.db, clickId);
  return click && isValidAttribution(click, listingId, now) ? click.id : null;
}

/**
 * A reservation through a channel (decisions §24): the channel, the reseller's uuid and reference, and how
 * long the reseller asks the hold to last.
 */
export interface ChannelHold {
  channelId: number;
  vendorId: number;
  uuid: string;
  resellerReference: string | null;
  expirationMinutes: number;
}

/** How long a request holds its window: the vendor's TTL, or a channel's shorter ask within it. */
const holdMinutes = (requestTtlMinutes: number, channel: ChannelHold | undefined) =>
  channel ? Math.min(channel.expirationMinutes, requestTtlMinutes) : requestTtlMinutes;

/**
 * Requests a booking, for a customer or, with `channel`, for a channel whose account is the caller. The listing lookup, the unit or seat check and the insert run in one transaction
 * that holds the listing's lock (PostgreSQL: the listing row FOR UPDATE; SQLite: the write lock, taken by
 * BEGIN IMMEDIATE, with the requests of one moment sharing the commit: `groupCommit`), so simultaneous
 * requests for one listing are checked one after another, each against the bookings of those before it:
 * no instant ever holds more units than the listing has. The lock is the only guard: a database
 * constraint cannot sum units over time (migration 2026112502).
 */
export async function requestBooking(
  deps: BookingDeps,
  caller: AuthUser,
  input: BookingRequestInput,
  client: RequestClient,
): Promise<Booking> {
  return (await makeRequest(deps, caller, input, client)).booking;
}

/**
 * A channel's reservation (decisions §24): the request above made by the channel's account, answering
 * the new booking's row as its view reads it (the OCTO answer is made from it, with no second read).
 */
export async function requestChannelBooking(
  deps: BookingDeps,
  caller: AuthUser,
  input: BookingRequestInput,
  client: RequestClient,
  channel: ChannelHold,
): Promise<repo.BookingViewRow> {
  return (await makeRequest(deps, caller, input, client, channel)).view;
}

async function makeRequest(
  deps: BookingDeps,
  caller: AuthUser,
  input: BookingRequestInput,
  client: RequestClient,
  channel?: ChannelHold,
): Promise<{ booking: Booking; view: repo.BookingViewRow }> {
  const { target, asked, now } = askedOf(deps, input);
  const clickId = await attributedClick(deps, input.marketing_click_id, target.id, now);

  return inTransaction(
    deps.db,
    async (trx) => {
      const listing = await findVisibleListing(trx, target.kind, target.id, { forUpdate: true });
      // a channel books its own vendor's listings only (decisions §24)
      if (!listing || (channel && listing.vendorId !== channel.vendorId)) throw listingNotFound(target);
      const { window, demand, refusal, priced, redemption, trip, resources } = await assessRequest(
        trx,
        listing,
        asked,
        input,
        now,
        true,
      );
      if (refusal) throw refusal;
      const waiver = acceptedWaiver(trip.waiverText, input.waiver_acceptance, client, now);
      const { view, history } = await repo.insertBookingWithHistory(
        trx,
        {
          listing_id: listing.id,
          listing_kind: listing.kind,
          vendor_id: listing.vendorId,
          customer_id: caller.id,
          status: 'requested',
          starts_at: window.startsAt,
          ends_at: window.endsAt,
          participants_count: demand.participants,
          quantity: demand.quantity,
          customer_notes: input.customer_notes ?? '',
          vendor_notes: '',
          total_price_cents: priced.totalCents,
          currency: listing.currency,
          listing_click_id: clickId,
          expires_at: holdDeadline(now, holdMinutes(listing.requestTtlMinutes, channel), window.startsAt),
          promo_code_id: redemption?.id ?? null,
          promo_code: redemption?.code ?? null,
          price_lines: JSON.stringify(priced.lines),
          answers: JSON.stringify(trip.answers),
          waiver_name: waiver?.name ?? null,
          waiver_accepted_at: waiver?.acceptedAt ?? null,
          waiver_text_sha256: waiver?.textSha256 ?? null,
          waiver_client_ip: waiver?.clientIp ?? null,
          waiver_user_agent: waiver?.userAgent ?? null,
          channel_id: channel?.channelId ?? null,
          reseller_reference: channel?.resellerReference ?? null,
          octo_uuid: channel?.uuid ?? null,
          contact_full_name: null,
          contact_email: null,
          contact_phone: null,
          created_at: now,
          updated_at: now,
        },
        { from_status: null, to_status: 'requested', note: '', actor_id: caller.id, created_at: now },
      );
      if (resources)
        await insertBookingResources(
          trx,
          bookingResourceRows(resources, view.id, listing.id, window, demand.units),
        );
      // The booking as created, read in its own transaction; its history is the one entry just written.
      const booking = toBooking(view, [history], now);
      await recordEvent(trx, {
        type: STATUS_EVENTS.requested,
        vendorId: listing.vendorId,
        bookingId: booking.id,
        data: { booking, payment: null, refund: null },
        now,
      });
      return { booking: asSeenBy(booking, 'customer'), view };
    },
    { groupCommit: true },
  );
}

// --- a vendor's edit of a listing's limit -------------------------------------------------------------------------

/**
 * Refuses (409 booking_conflict, naming the field) an edit that would leave the listing's current and
 * future holds over its limit: a quantity or a shared adventure's capacity below the peak of their units,
 * or a shared adventure made private while two of them overlap. Called in the edit's transaction, which
 * holds the listing's lock, so no booking request slips in between the check and the write. A private
 * adventure's capacity bounds each booking's participants, not a sum, and stays freely editable (the
 * spec's rule).
 */
export async function checkLimitEdit(trx: Db, edit: LimitEdit, now: number): Promise<void> {
  const limit = unitLimitOf(edit);
  const relevant =
    edit.kind === 'equipment'
      ? edit.fields.has('quantity') || edit.fields.has('buffer_minutes')
      : edit.fields.has('booking_mode') || (edit.bookingMode === 'shared' && edit.fields.has('capacity'));
  if (!relevant) return;
  const holds = await holdsEndingAfter(trx, edit.id, now, limit.bufferMs);
  if (edit.kind === 'adventure' && isScheduled(edit.schedule))
    return checkDepartureLimits(trx, edit, holds, now);
  // rule 6: each hold as the edited buffer lengthens it
  const held = holds.map((h) => heldWindow(h, limit.bufferMs));
  const peak = peakUnits({ startsAt: now, endsAt: Number.MAX_SAFE_INTEGER }, held, limit.countUnits);
  if (peak <= limit.limit) return;
  if (edit.kind === 'equipment')
    throw new AppError(
      'booking_conflict',
      edit.fields.has('quantity')
        ? `quantity cannot be ${edit.quantity}: current and future bookings hold ${peak} units at once.`
        : `buffer_minutes cannot be ${edit.bufferMinutes}: current and future bookings would then hold ${peak} units at once.`,
    );
  if (limit.countUnits && edit.fields.has('capacity'))
    throw new AppError(
      'booking_conflict',
      `capacity cannot be ${edit.capacity}: current and future bookings hold ${peak} seats at once.`,
    );
  throw new AppError(
    'booking_conflict',
    limit.countUnits
      ? `booking_mode cannot be shared with capacity ${edit.capacity}: current and future bookings hold ${peak} seats at once.`
      : `booking_mode cannot be private: ${peak} current or future bookings overlap.`,
  );
}
