import type { Kysely } from 'kysely';
import type {
  BookingStatus,
  Database,
  Db,
  RefundReason,
  RefundStatus,
  TrafficType,
} from '../../db/database.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound, permissionDenied } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime, MINUTE_MS } from '../../lib/datetime.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { formatMoney, MAX_MONEY_CENTS } from '../../lib/money.ts';
import { isScheduled } from '../../lib/schedule.ts';
import { type EventType, recordEvent } from '../../outbox/events.ts';
import {
  findVisibleListing,
  KINDS,
  type LimitEdit,
  type ListingLookups,
  type ListingRef,
} from '../catalog/index.ts';
import { isValidAttribution } from './attribution.ts';
import { availabilityFacts, holdsEndingAfter } from './availability.repository.ts';
import {
  type AvailabilityVerdict,
  bookingClosed,
  cutoffAt,
  evaluateAvailability,
  heldWindow,
  overlaps,
  peakUnits,
  type TimeWindow,
  type UnitLimit,
  unitLimitOf,
} from './availability.ts';
import {
  type AskedWindow,
  type ListingIdInput,
  type ListingTarget,
  listingTarget,
  parseAskedWindow,
  parseInstant,
  windowOfListing,
} from './booking.input.ts';
import * as repo from './booking.repository.ts';
import {
  deniedMessage,
  nextStatus,
  type PartyAction,
  partyOf,
  STATUS_EVENTS,
  statusAt,
  TRANSITIONS,
} from './booking.state-machine.ts';
import { type CancellationPolicy, customerRefundCents, inFreeCancellation } from './cancellation.ts';
import {
  askedDeparture,
  checkDepartureLimits,
  closedDetail,
  departureConflict,
  isScheduledOffering,
  verdictOf,
} from './departures.service.ts';
import { type ChoiceInput, priceChoicesOf, pricedByCategory } from './price-choices.ts';
import {
  legacyPriceLines,
  type PricedBooking,
  type PriceLine,
  priceBooking,
  priceLinesOut,
} from './pricing.ts';
import { type Redemption, redeemablePromo } from './promo-codes.service.ts';
import { rentalWindowErrors } from './rental-window.ts';
import {
  bookingResourceRows,
  checkResources,
  type ResourceCheck,
  resourceConflict,
} from './resource-check.ts';
import { insertBookingResources } from './resources.repository.ts';
import { asSeenBy, checkTripTerms, type TripInput, type TripTerms, tripFieldsOut } from './trip-terms.ts';
import { acceptedWaiver, type RequestClient } from './waiver.ts';

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

// --- the API object, mapped from rows in one place ---------------------------------------------------------

/** The API object of a booking as it stands at `now` (a lapsed hold shows as expired: statusAt). */
export function toBooking(row: repo.BookingViewRow, history: repo.HistoryRow[], now: number) {
  return {
    id: row.id,
    status: statusAt(row, now),
    equipment_item_id: row.listing_kind === 'equipment' ? row.listing_id : null,
    adventure_offering_id: row.listing_kind === 'adventure' ? row.listing_id : null,
    starts_at: formatDateTime(row.starts_at),
    ends_at: formatDateTime(row.ends_at),
    participants_count: row.participants_count,
    quantity: row.quantity,
    customer_notes: row.customer_notes,
    vendor_notes: row.vendor_notes,
    total_price: formatMoney(row.total_price_cents),
    price_lines: priceLinesOut(linesOf(row)),
    promo_code: row.promo_code,
    ...tripFieldsOut(row),
    listing_click: row.listing_click_id,
    customer_id: row.customer_id,
    vendor_slug: row.vendor_slug,
    listing_title: row.listing_title,
    currency: row.currency,
    customer: {
      id: row.customer_id,
      first_name: row.customer_first_name,
      last_name: row.customer_last_name,
      email: row.customer_email,
      phone_number: row.customer_phone_number,
    },
    vendor: {
      business_name: row.vendor_business_name,
      slug: row.vendor_slug,
      contact_email: row.vendor_contact_email,
      contact_phone: row.vendor_contact_phone,
      time_zone: row.vendor_time_zone,
    },
    expires_at: row.expires_at === null ? null : formatDateTime(row.expires_at),
    status_history: history.map((h) => ({
      from_status: h.from_status,
      to_status: h.to_status,
      note: h.note,
      actor_id: h.actor_id,
      created_at: formatDateTime(h.created_at),
    })),
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}
export type Booking = ReturnType<typeof toBooking>;

/** A booking's lines as stored when it was requested; a booking of before has its total as one line. */
function linesOf(row: repo.BookingViewRow): PriceLine[] {
  if (row.price_lines !== null) return JSON.parse(row.price_lines);
  const window = { startsAt: row.starts_at, endsAt: row.ends_at };
  const listing = { kind: row.listing_kind, title: row.listing_title };
  return legacyPriceLines(listing, window, row.total_price_cents, {
    participants: row.participants_count,
    quantity: row.quantity,
  });
}

export async function withHistory(db: Db, rows: repo.BookingViewRow[], now: number): Promise<Booking[]> {
  const history = await repo.historyOf(
    db,
    rows.map((r) => r.id),
  );
  const byBooking = new Map<number, repo.HistoryRow[]>();
  for (const h of history) {
    const list = byBooking.get(h.booking_id) ?? [];
    list.push(h);
    byBooking.set(h.booking_id, list);
  }
  return rows.map((r) => toBooking(r, byBooking.get(r.id) ?? [], now));
}

/**
 * Records the events `types` about booking `id` in the outbox, in order, in the transaction `trx` of the
 * change they report (decisions §14; one change may report two: a payment's success confirms the booking).
 * Each carries the booking as the API shows it after the change, read once, with the payment and refund
 * the change involved. Returns that booking.
 */
export async function recordBookingEvent(
  trx: Db,
  id: number,
  types: readonly EventType[],
  now: number,
  involved: { payment?: object; refund?: Refund } = {},
): Promise<Booking> {
  const row = await repo.findBookingView(trx, id);
  if (!row) throw new Error(`booking ${id} not found in the transaction that changed it`);
  const [booking] = await withHistory(trx, [row], now);
  const data = { booking, payment: involved.payment ?? null, refund: involved.refund ?? null };
  for (const type of types)
    await recordEvent(trx, { type, vendorId: row.vendor_id, bookingId: id, data, now });
  return booking;
}

const bookingNotFound = () => notFound('Booking not found.');
const listingNotFound = (target: ListingTarget) => notFound(`${KINDS[target.kind].noun} not found.`);

/** The caller's party to a booking row (see partyOf). */
const partyToRow = (row: { customer_id: number; vendor_id: number }, caller: AuthUser) =>
  partyOf({ customerId: row.customer_id, vendorId: row.vendor_id }, caller);

// --- availability --------------------------------------------------------------------------------------------

/** What a booking of the listing asks for: its participants (adventures) or units (equipment). */
interface Demand {
  participants: number | null;
  quantity: number | null;
  /** the units the request holds under the listing's limit (see unitLimitOf) */
  units: number;
  limit: UnitLimit;
}

function participantsFor(
  listing: ListingRef,
  requested: number | null | undefined,
  capacity: number | null,
): number | null {
  if (listing.kind === 'equipment') return null;
  const participants = requested ?? 1;
  // by category, the participants are the sum of the categories (price-choices.ts)
  const field = pricedByCategory(listing) ? 'participants' : 'participants_count';
  if (participants < 1 || (capacity !== null && participants > capacity))
    throw invalidFields({
      [field]: `Ensure ${field} is between 1 and the capacity (${capacity}).`,
    });
  return participants;
}

function quantityFor(listing: ListingRef, requested: number | null | undefined): number | null {
  if (listing.kind === 'adventure') {
    if (requested === null || requested === undefined) return null;
    throw invalidFields({
      quantity: 'Adventures are booked by participants_count; quantity is for equipment items.',
    });
  }
  const quantity = requested ?? 1;
  if (quantity < 1 || quantity > listing.quantity)
    throw invalidFields({
      quantity: `Ensure quantity is between 1 and the item's quantity (${listing.quantity}).`,
    });
  return quantity;
}

/**
 * The request's participants or units, checked against the listing (400 naming the field); for a
 * departure of a scheduled offering, against that departure's capacity (decisions §19).
 */
function demandFor(
  listing: ListingRef,
  asked: { participants_count?: number | null; quantity?: number | null },
  departureCapacity?: number,
): Demand {
  const participants = participantsFor(
    listing,
    asked.participants_count,
    departureCapacity ?? listing.capacity,
  );
  const quantity = quantityFor(listing, asked.quantity);
  const limit =
    departureCapacity === undefined
      ? unitLimitOf(listing)
      : { limit: departureCapacity, countUnits: listing.bookingMode === 'shared' };
  return { participants, quantity, units: quantity ?? participants ?? 1, limit };
}

async function evaluate(
  db: Db,
  listingId: number,
  window: TimeWindow,
  demand: Demand,
  now: number,
  resources?: ResourceCheck,
) {
  const facts = await availabilityFacts(db, listingId, window, now, demand.limit.bufferMs);
  return evaluateAvailability(
    window,
    { ...facts, resourceRoom: resources?.verdict.maxUnits },
    demand.limit,
    demand.units,
  );
}

/** An equipment window's breaches of its rental terms (duration limits, opening hours); none for adventures. */
const termsErrors = (listing: ListingRef, window: TimeWindow) =>
  listing.kind === 'equipment' ? rentalWindowErrors(listing, window) : {};

export interface AvailabilityQuery extends ListingIdInput {
  starts_at: string;
  /** left out for an adventure: starts_at + its duration */
  ends_at?: string;
  quantity?: number | null;
  participants_count?: number | null;
}

/**
 * Whether the window could be booked now, for the units or participants asked (default 1). `conflicts`
 * counts what holds the window: overlapping active bookings plus overlapping blocking slots (a window
 * only lacking slot coverage has 0 conflicts and is still unavailable). `remaining` is what is free at
 * every instant of the window: units, seats, or for a private adventure or single item 1 or 0. A window
 * starting in the past is never available (a request for it is refused): 0 remain.
 */
export async function checkAvailability(deps: BookingDeps, query: AvailabilityQuery) {
  const target = listingTarget(query);
  const asked = parseAskedWindow(target.kind, query.starts_at, query.ends_at);
  const listing = await deps.listings.byId(deps.db, target.kind, target.id);
  if (!listing) throw listingNotFound(target);
  const window = windowOfListing(asked, listing.durationMinutes);
  const now = deps.clock.now().getTime();
  const answer = (isAvailable: boolean, conflicts: number, remaining: number) => ({
    equipment_item_id: target.kind === 'equipment' ? target.id : null,
    adventure_offering_id: target.kind === 'adventure' ? target.id : null,
    starts_at: formatDateTime(window.startsAt),
    ends_at: formatDateTime(window.endsAt),
    is_available: isAvailable,
    conflicts,
    remaining,
  });
  if (isScheduledOffering(listing)) {
    // a window that is not an open departure is not available (decisions §19)
    const { departure, facts } = await askedDeparture(deps.db, listing, asked, now);
    if (!departure) return answer(false, 0, 0);
    const capacity = verdictOf(listing, departure, facts, now).capacity;
    const demand = demandFor(listing, query, capacity);
    const resources = await checkResources(deps.db, listing, departure, { units: demand.units }, now, false);
    const verdict = verdictOf(listing, departure, facts, now, demand.units, resources?.verdict.maxUnits);
    const blocking = facts.slots.filter((s) => overlaps(s, window));
    return answer(verdict.isAvailable, verdict.holdingBookings + blocking.length, verdict.remaining);
  }
  const demand = demandFor(listing, query);
  const resources = await checkResources(deps.db, listing, window, { units: demand.units }, now, false);
  const verdict = await evaluate(deps.db, listing.id, window, demand, now, resources);
  // a window outside the item's duration limits or its vendor's hours cannot be requested (decisions §20)
  const bookable =
    window.startsAt >= now &&
    !bookingClosed(window.startsAt, listing.bookingCutoffMinutes, now) &&
    Object.keys(termsErrors(listing, window)).length === 0;
  return answer(verdict.isAvailable && bookable, verdict.conflicts, bookable ? verdict.remaining : 0);
}

// --- booking requests -------------------------------------------------------------------------------------------

export interface BookingRequestInput extends ListingIdInput, ChoiceInput, TripInput {
  starts_at: string;
  /** left out for an adventure: starts_at + its duration */
  ends_at?: string;
  customer_notes?: string;
  quantity?: number | null;
  marketing_click_id?: number | null;
  promo_code?: string | null;
}

/** The 409 of a refused window, saying what is short. */
function conflict(verdict: AvailabilityVerdict, kind: ListingRef['kind'], demand: Demand): AppError {
  const { limit } = demand;
  let detail = 'The requested window is not available.';
  if (verdict.freeUnits < (limit.countUnits ? demand.units : 1)) {
    const noun = kind === 'equipment' ? 'units' : 'seats';
    if (!limit.countUnits || limit.limit === 1) detail = 'The requested window overlaps another booking.';
    else if (verdict.freeUnits === 0) detail = `All ${limit.limit} ${noun} are taken for that window.`;
    else detail = `Only ${verdict.freeUnits} of ${limit.limit} ${noun} are free for that window.`;
  } else if (verdict.blockingSlots > 0) detail = 'The requested window is blocked by an unavailable slot.';
  else if (verdict.coverageRequired && !verdict.covered)
    detail = 'No available slot covers the requested window.';
  return new AppError('booking_conflict', detail);
}

/** A request as judged: its window and demand, what remains, and why it is refused, if it is. */
export interface JudgedRequest {
  window: TimeWindow;
  demand: Demand;
  remaining: number;
  /** what it asks of shared resources (rule 7), when its listing or extras use any */
  resources?: ResourceCheck;
  /** the 409 a request gets; undefined when it can be booked */
  refusal?: AppError;
}

/**
 * The window and demand of a request, and whether it can be booked; a request checks it under the
 * listing's lock, a quote without. A scheduled offering's request must start at a departure (400 on
 * starts_at) and end at its end (400 on ends_at), its participants fit the departure's capacity (400), and
 * the departure take them (rule 5 of availability.ts; refused 409). An equipment window must keep its
 * item's duration limits and its vendor's opening hours (400). Any other listing's window must not be past
 * its booking cutoff, and have the units or seats (rules 1-4, 6; refused 409).
 */
export async function judgeRequest(
  db: Db,
  listing: ListingRef,
  asked: AskedWindow,
  input: {
    participants_count?: number | null;
    quantity?: number | null;
    extras?: Readonly<Record<string, number>> | null;
  },
  now: number,
  lock = false,
): Promise<JudgedRequest> {
  if (isScheduledOffering(listing)) {
    const { departure, facts, error } = await askedDeparture(db, listing, asked, now);
    if (error) throw invalidFields(error);
    const demand = demandFor(listing, input, verdictOf(listing, departure, facts, now).capacity);
    const window = { startsAt: departure.startsAt, endsAt: departure.endsAt };
    const ask = { extras: input.extras, units: demand.units };
    const resources = await checkResources(db, listing, window, ask, now, lock);
    const verdict = verdictOf(listing, departure, facts, now, demand.units, resources?.verdict.maxUnits);
    const refusal = verdict.isAvailable
      ? undefined
      : ((verdict.closedBy ? undefined : resources && resourceConflict(resources)) ??
        departureConflict(verdict, demand.units));
    return { window, demand, remaining: verdict.remaining, refusal, resources };
  }
  const window = windowOfListing(asked, listing.durationMinutes);
  const outside = termsErrors(listing, window);
  if (Object.keys(outside).length) throw invalidFields(outside);
  const demand = demandFor(listing, input);
  const { bookingCutoffMinutes } = listing;
  if (bookingClosed(window.startsAt, bookingCutoffMinutes, now)) {
    const closed = new AppError(
      'booking_conflict',
      closedDetail(cutoffAt(window.startsAt, bookingCutoffMinutes)),
    );
    return { window, demand, remaining: 0, refusal: closed };
  }
  const resources = await checkResources(
    db,
    listing,
    window,
    { extras: input.extras, units: demand.units },
    now,
    lock,
  );
  const verdict = await evaluate(db, listing.id, window, demand, now, resources);
  const refusal = verdict.isAvailable
    ? undefined
    : ((resources && resourceConflict(resources)) ?? conflict(verdict, listing.kind, demand));
  return { window, demand, remaining: verdict.remaining, refusal, resources };
}

/**
 * A request's (or a quote's) assessment: as judged, with its price, the promo code it redeems, and its
 * answers and the waiver text it accepts (decisions §23).
 */
export interface RequestAssessment extends JudgedRequest {
  priced: PricedBooking;
  redemption: Redemption | null;
  trip: TripTerms;
}

/**
 * Everything a request checks and prices, in `db` (the request's transaction after the listing's lock,
 * or the quote's reads): its price choices (400 naming the member), its window and demand (judgeRequest:
 * 400, or the 409 as `refusal`), its promo code (400 on promo_code; with `lock` the code's row is locked
 * and its redemptions counted under the lock), its price lines and total (priceBooking, the one
 * engine; a total at or over the money limit is a 400), and its answers and waiver acceptance
 * (checkTripTerms: 400 on answers.<code> or waiver_acceptance; the waiver text read in `db`).
 */
export async function assessRequest(
  db: Db,
  listing: ListingRef,
  asked: AskedWindow,
  input: BookingRequestInput,
  now: number,
  lock: boolean,
): Promise<RequestAssessment> {
  const { choices, participantsCount } = priceChoicesOf(listing, input);
  const judged = await judgeRequest(
    db,
    listing,
    asked,
    { participants_count: participantsCount, quantity: input.quantity, extras: choices.extras },
    now,
    lock,
  );
  const redemption = await redeemablePromo(db, listing, input.promo_code, now, lock);
  const { demand } = judged;
  const priced = priceBooking(
    judged.window,
    listing,
    { ...choices, participants: demand.participants, quantity: demand.quantity },
    redemption?.discount ?? null,
  );
  if (priced.subtotalCents >= MAX_MONEY_CENTS)
    throw invalidFields({ [totalField(listing, priced)]: 'The total price would exceed 99999999.99.' });
  const count = demand.participants ?? demand.quantity ?? 1;
  const trip = await checkTripTerms(db, listing, input, count);
  return { ...judged, priced, redemption, trip };
}

/** The listing and window a request or quote names, and now; a start in the past is a 400. */
export function askedOf(deps: Pick<BookingDeps, 'clock'>, input: BookingRequestInput) {
  const target = listingTarget(input);
  const asked = parseAskedWindow(target.kind, input.starts_at, input.ends_at);
  const now = deps.clock.now().getTime();
  if (asked.startsAt < now) throw invalidFields({ starts_at: 'starts_at must not be in the past.' });
  return { target, asked, now };
}

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
 * When a hold taken at `from` lapses: `ttlMinutes` later (the vendor's request or payment TTL), never later
 * than the booking's start (decisions §11).
 */
export function holdDeadline(from: number, ttlMinutes: number, startsAt: number): number {
  return Math.min(from + ttlMinutes * MINUTE_MS, startsAt);
}

/** The field a total over the money limit is blamed on: what made the total grow. */
function totalField(listing: ListingRef, priced: PricedBooking): string {
  const [first] = priced.lines;
  if (priced.lines.some((l) => l.kind === 'extra') && first.amountCents < MAX_MONEY_CENTS) return 'extras';
  if (listing.kind === 'adventure') return pricedByCategory(listing) ? 'participants' : 'participants_count';
  return first.quantity > 1 ? 'quantity' : 'ends_at';
}

/**
 * Requests a booking. The listing lookup, the unit or seat check and the insert run in one transaction
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
  const { target, asked, now } = askedOf(deps, input);
  const clickId = await attributedClick(deps, input.marketing_click_id, target.id, now);

  return inTransaction(
    deps.db,
    async (trx) => {
      const listing = await findVisibleListing(trx, target.kind, target.id, { forUpdate: true });
      if (!listing) throw listingNotFound(target);
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
          expires_at: holdDeadline(now, listing.requestTtlMinutes, window.startsAt),
          promo_code_id: redemption?.id ?? null,
          promo_code: redemption?.code ?? null,
          price_lines: JSON.stringify(priced.lines),
          answers: JSON.stringify(trip.answers),
          waiver_name: waiver?.name ?? null,
          waiver_accepted_at: waiver?.acceptedAt ?? null,
          waiver_text_sha256: waiver?.textSha256 ?? null,
          waiver_client_ip: waiver?.clientIp ?? null,
          waiver_user_agent: waiver?.userAgent ?? null,
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
      return asSeenBy(booking, 'customer');
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

// --- transitions ----------------------------------------------------------------------------------------------------

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
async function moveBooking(
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
  const { found, to } = await moveBooking(trx, caller, id, action, input, now, (status, row) =>
    cancelRefusal(action, status, row.starts_at, now),
  );
  const refundId =
    action === 'vendor_cancel'
      ? await deps.refunds.reserve(trx, id, vendorCancelRefund, 'cancelled_by_vendor', now, caller.id)
      : await deps.refunds.reserve(
          trx,
          id,
          customerCancelRefund(await cancellationPolicyOf(trx, id), found.starts_at, now),
          'requested_by_customer',
          now,
          caller.id,
        );
  const involved = refundId === undefined ? {} : await deps.refunds.describe(trx, refundId);
  return { booking: await recordBookingEvent(trx, id, [STATUS_EVENTS[to]], now, involved), refundId };
}

/** Why a cancel the state machine allows is refused: a customer's, of a confirmed booking already begun. */
function cancelRefusal(
  action: 'cancel' | 'vendor_cancel',
  status: BookingStatus,
  startsAt: number,
  now: number,
): AppError | undefined {
  return action === 'cancel' && status === 'confirmed' && now >= startsAt
    ? new AppError('invalid_state', 'A confirmed booking can be cancelled only before it starts.')
    : undefined;
}

async function cancellationPolicyOf(db: Db, bookingId: number): Promise<CancellationPolicy> {
  const terms = await repo.findCancellationPolicy(db, bookingId);
  return {
    freeCancellationHours: terms.free_cancellation_hours,
    lateRefundPercent: terms.late_refund_percent,
  };
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
    const refusal = nextStatus(status, action)
      ? cancelRefusal(action, status, booking.starts_at, now)
      : invalidState(status, action);
    const policy = await cancellationPolicyOf(db, id);
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

function invalidState(status: BookingStatus, action: string): AppError {
  return new AppError('invalid_state', `Cannot ${action} a booking that is ${status}.`);
}

// --- reading --------------------------------------------------------------------------------------------------------

/** A booking with its history, read on one snapshot (a move between the two reads would tear them). */
export async function getBooking(deps: BookingDeps, caller: AuthUser, id: number): Promise<Booking> {
  return inReadSnapshot(deps.db, async (db) => {
    const row = await repo.findBookingView(db, id);
    const party = row && partyToRow(row, caller);
    if (!row || !party) throw bookingNotFound();
    return asSeenBy((await withHistory(db, [row], deps.clock.now().getTime()))[0], party);
  });
}

/**
 * A vendor's bookings (of their vendor profile) or else the caller's own as customer; newest first, or
 * soonest start first, optionally only those starting at or after `starts_from`.
 */
export async function listBookings(
  deps: BookingDeps,
  caller: AuthUser,
  query: { status?: BookingStatus; starts_from?: string; ordering?: repo.BookingOrdering },
  page: Page,
) {
  const now = deps.clock.now().getTime();
  const common = {
    status: query.status,
    startsFrom: query.starts_from === undefined ? undefined : parseInstant('starts_from', query.starts_from),
    now,
  };
  const filter: repo.BookingListFilter = caller.isVendor
    ? { vendorId: caller.vendorId ?? -1, ...common }
    : { customerId: caller.id, ...common };
  // the count, the page and its histories on one snapshot
  return inReadSnapshot(deps.db, async (db) => {
    const { rows, count } = await repo.listBookingViews(db, filter, page, query.ordering ?? '-created_at');
    const viewer = caller.isVendor ? 'vendor' : 'customer';
    return { count, results: (await withHistory(db, rows, now)).map((b) => asSeenBy(b, viewer)) };
  });
}

// --- for the payments module ------------------------------------------------------------------------------------------

export interface BookingForPayment {
  id: number;
  customerId: number;
  vendorId: number;
  /** the status at the `now` asked about: a lapsed hold is expired (statusAt) */
  status: BookingStatus;
  totalPriceCents: number;
  currency: string;
}

export async function findBookingForPayment(
  db: Db,
  bookingId: number,
  now: number,
): Promise<BookingForPayment | undefined> {
  if (!Number.isInteger(bookingId) || bookingId < 1 || bookingId > MAX_ID) return undefined;
  const row = await repo.findPaymentFacts(db, bookingId);
  return (
    row && {
      id: row.id,
      customerId: row.customer_id,
      vendorId: row.vendor_id,
      status: statusAt(row, now),
      totalPriceCents: row.total_price_cents,
      currency: row.currency,
    }
  );
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
