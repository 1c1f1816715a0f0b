// A booking as the API shows it (mapped from rows in one place), its outbox events, and the reads of its parties
// and of the payments module.

import type { BookingStatus, Db } from '../../db/database.ts';
import { inReadSnapshot } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { formatMoney } from '../../lib/money.ts';
import { type EventType, recordEvent } from '../../outbox/events.ts';
import type { BookingDeps, Refund } from './booking.deps.ts';
import { parseInstant } from './booking.input.ts';
import * as repo from './booking.repository.ts';
import { partyOf, statusAt } from './booking.state-machine.ts';
import { legacyPriceLines, type PriceLine, priceLinesOut } from './pricing.ts';
import { asSeenBy, tripFieldsOut } from './trip-terms.ts';

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
    ...partiesOut(row),
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

/**
 * Who the booking is for: its customer's account; or, for a booking made through a channel (decisions
 * §24), no customer (the row names the channel's account, which is nobody) but the contact the reseller
 * sent, the channel and the reseller's reference.
 */
function partiesOut(row: repo.BookingViewRow) {
  const channel = row.channel_id === null ? null : { id: row.channel_id, name: row.channel_name ?? '' };
  return {
    customer: channel
      ? null
      : {
          id: row.customer_id,
          first_name: row.customer_first_name,
          last_name: row.customer_last_name,
          email: row.customer_email,
          phone_number: row.customer_phone_number,
        },
    contact: channel
      ? {
          full_name: row.contact_full_name,
          email: row.contact_email,
          phone_number: row.contact_phone,
        }
      : null,
    channel,
    reseller_reference: row.reseller_reference,
  };
}

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

export const bookingNotFound = () => notFound('Booking not found.');

/** The caller's party to a booking row (see partyOf). */
export const partyToRow = (row: { customer_id: number; vendor_id: number }, caller: AuthUser) =>
  partyOf({ customerId: row.customer_id, vendorId: row.vendor_id }, caller);

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
