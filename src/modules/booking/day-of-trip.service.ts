import type { Attendance, Db, PaymentStatus } from '../../db/database.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound, permissionDenied } from '../../http/errors.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { type LocalDay, localDateAt, localDay } from '../../lib/local-days.ts';
import { departureAt } from '../../lib/schedule.ts';
import type { ListingRef } from '../catalog/index.ts';
import { attendanceNote, attendanceVerdict } from './attendance.ts';
import type { BookingDeps } from './booking.deps.ts';
import * as repo from './booking.repository.ts';
import { ACTIVE_STATUSES, partyOf, statusAt } from './booking.state-machine.ts';
import { type Booking, withHistory } from './booking.view.ts';
import { departureFacts } from './departures.repository.ts';
import { isScheduledOffering, verdictOf } from './departures.service.ts';
import { groupManifest } from './manifest.ts';

// The day of the trip (decisions §23): who came (attendance) and the day's manifest.

/** The status of each booking's latest payment; the payments module provides it (booking never imports it). */
export type PaymentStatuses = (db: Db, bookingIds: readonly number[]) => Promise<Map<number, PaymentStatus>>;

const bookingNotFound = () => notFound('Booking not found.');

/**
 * Records who came (POST bookings/{id}/attendance/), by the listing's vendor, under the booking's lock so
 * two taps at once record one change: the rule is attendanceVerdict (400 on status, 409 invalid_state),
 * each change is appended to the history with the status unchanged and a note naming the attendance, and
 * the same attendance again changes nothing. Answers the booking as the vendor sees it.
 */
export async function setAttendance(
  deps: Pick<BookingDeps, 'db' | 'clock'>,
  caller: AuthUser,
  id: number,
  to: Attendance,
): Promise<Booking> {
  const now = deps.clock.now().getTime();
  return inTransaction(deps.db, async (trx) => {
    const booking = await repo.findBookingParties(trx, id, { forUpdate: true });
    const party =
      booking && partyOf({ customerId: booking.customer_id, vendorId: booking.vendor_id }, caller);
    if (!booking || !party) throw bookingNotFound();
    if (party !== 'vendor') throw permissionDenied("Only the listing's vendor records attendance.");
    const facts = await repo.findAttendanceFacts(trx, id);
    const status = statusAt(booking, now);
    const verdict = attendanceVerdict(
      { status, kind: facts.listing_kind, attendance: facts.attendance, startsAt: booking.starts_at },
      to,
      now,
    );
    if (!verdict.ok)
      throw verdict.code === 'invalid'
        ? invalidFields({ status: verdict.message })
        : new AppError('invalid_state', verdict.message);
    if (verdict.changed) {
      await repo.updateAttendance(trx, id, to, now);
      await repo.insertHistory(trx, {
        booking_id: id,
        from_status: status,
        to_status: status,
        note: attendanceNote(facts.attendance, to),
        actor_id: caller.id,
        created_at: now,
      });
    }
    const row = await repo.findBookingView(trx, id);
    if (!row) throw bookingNotFound();
    return (await withHistory(trx, [row], now))[0];
  });
}

export interface ManifestDeps extends Pick<BookingDeps, 'db' | 'clock' | 'listings'> {
  paymentStatuses: PaymentStatuses;
}

/** A booking of the manifest: the booking object and its latest payment's status (null: none). */
export type ManifestBooking = Booking & { payment_status: PaymentStatus | null };

/** The local day a manifest asks for: `date` in the vendor's zone, today there by default (400 on date). */
function manifestDay(date: string | undefined, timeZone: string, now: number): LocalDay {
  const day = localDay(date ?? localDateAt(now, timeZone), timeZone);
  if (!day) throw invalidFields({ date: 'Enter a date as YYYY-MM-DD.' });
  return day;
}

/**
 * A vendor's manifest of a local date (GET vendor/manifest/): its departures, pick-ups and returns
 * (groupManifest), each booking with its answers, waiver, attendance and payment status. Every read is on
 * one snapshot, so a check-in or a payment between two of them cannot tear the answer.
 */
export async function vendorManifest(deps: ManifestDeps, caller: AuthUser, date: string | undefined) {
  const now = deps.clock.now().getTime();
  const vendorId = caller.vendorId ?? -1;
  return inReadSnapshot(deps.db, async (db) => {
    const timeZone = await repo.vendorTimeZone(db, vendorId);
    if (timeZone === undefined) throw notFound('Vendor profile not found.');
    const day = manifestDay(date, timeZone, now);
    const rows = await repo.manifestViews(db, vendorId, day, ACTIVE_STATUSES, now);
    const ids = rows.map((r) => r.id);
    const [bookings, payments] = await Promise.all([
      withHistory(db, rows, now),
      deps.paymentStatuses(db, ids),
    ]);
    const entries = rows.map((row, i) => ({
      kind: row.listing_kind,
      listingId: row.listing_id,
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      participants: row.participants_count,
      booking: { ...bookings[i], payment_status: payments.get(row.id) ?? null } as ManifestBooking,
    }));
    const groups = groupManifest(entries, day);
    const listings = await listingsOf(
      deps,
      db,
      groups.departures.map((d) => d.listingId),
    );
    const capacities = await departureCapacities(db, listings, groups.departures, day, now);
    return {
      date: day.date,
      time_zone: timeZone,
      departures: groups.departures.map((group, i) => {
        const listing = listings.get(group.listingId);
        return {
          listing: {
            kind: 'adventure' as const,
            id: group.listingId,
            public_id: listing?.publicId ?? '',
            title: group.entries[0].booking.listing_title,
          },
          starts_at: formatDateTime(group.startsAt),
          ends_at: formatDateTime(group.endsAt),
          capacity: capacities[i],
          participants: group.participants,
          bookings: group.entries.map((e) => e.booking),
        };
      }),
      pickups: groups.pickups.map((e) => e.booking),
      returns: groups.returns.map((e) => e.booking),
    };
  });
}
export type Manifest = Awaited<ReturnType<typeof vendorManifest>>;

async function listingsOf(deps: ManifestDeps, db: Db, ids: readonly number[]) {
  const listings = new Map<number, ListingRef>();
  for (const id of new Set(ids)) {
    const listing = await deps.listings.byId(db, 'adventure', id);
    if (listing) listings.set(id, listing);
  }
  return listings;
}

/**
 * Each departure's capacity: a scheduled offering's as its departure has it (the rule's, or the vendor's
 * change of that one departure), read for all of the day's offerings at once; else the offering's.
 */
async function departureCapacities(
  db: Db,
  listings: Map<number, ListingRef>,
  departures: readonly { listingId: number; startsAt: number }[],
  day: LocalDay,
  now: number,
): Promise<(number | null)[]> {
  const scheduled = [...listings.values()].filter(isScheduledOffering);
  const durationMs = Math.max(0, ...scheduled.map((l) => (l.durationMinutes ?? 0) * 60_000));
  const facts = await departureFacts(
    db,
    { listingIds: scheduled.map((l) => l.id), from: day.from, to: day.to, durationMs },
    now,
  );
  return departures.map(({ listingId, startsAt }) => {
    const listing = listings.get(listingId);
    if (!listing) return null;
    const listingFacts = facts.get(listingId);
    const departure =
      listingFacts && departureAt(listing.schedule, listing.durationMinutes ?? 0, listing.timeZone, startsAt);
    return departure && listingFacts
      ? verdictOf(listing, departure, listingFacts, now).capacity
      : listing.capacity;
  });
}
