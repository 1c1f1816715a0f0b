import { type SqlBool, sql } from 'kysely';
import type { BookingStatus, Db } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import type { BookingFact, DepartureOverride, SlotFact } from './availability.ts';
import { holdsAt } from './booking.repository.ts';
import { ACTIVE_STATUSES } from './booking.state-machine.ts';

// Constants stay literals in the SQL (see availability.repository.ts).
const ACTIVE = sql<SqlBool>`status in (${sql.join(ACTIVE_STATUSES.map((st) => sql.lit(st)))})`;

// The facts rule 5 of availability.ts (evaluateDeparture) decides on, for the departures of scheduled
// offerings starting in a range, and the vendor's changes to single departures (departure_overrides).

export interface StoredOverride extends DepartureOverride {
  cancelledAt: number | null;
  note: string;
}

export interface DepartureRangeFacts {
  bookings: BookingFact[];
  slots: SlotFact[];
  overrides: Map<number, StoredOverride>;
}

export interface DepartureRange {
  listingIds: readonly number[];
  /** departures starting in [from, to) */
  from: number;
  to: number;
  /** the longest departure: a closing slot may overlap one that starts before `to` */
  durationMs: number;
}

/**
 * The facts of the departures starting in [from, to) of the listings given, by listing: their bookings
 * holding at `now` that start in the range (a booking belongs to the departure starting at its
 * starts_at), their blocking slots that overlap a departure of the range, and their overrides.
 */
export async function departureFacts(
  db: Db,
  range: DepartureRange,
  now: number,
): Promise<Map<number, DepartureRangeFacts>> {
  const byListing = new Map<number, DepartureRangeFacts>();
  if (range.listingIds.length === 0) return byListing;
  const { listingIds, from, to } = range;
  for (const id of listingIds) byListing.set(id, { bookings: [], slots: [], overrides: new Map() });
  const [bookings, slots, overrides] = await Promise.all([
    db
      .selectFrom('bookings')
      .select(['listing_id', 'starts_at', 'ends_at', 'status'])
      .select(sql<number>`coalesce(participants_count, 1)`.as('units'))
      .where('listing_id', 'in', listingIds)
      // ends_at > starts_at: this bound lets the (listing_id, ends_at, ...) index narrow the read
      .where('ends_at', '>', from)
      .where('starts_at', '>=', from)
      .where('starts_at', '<', to)
      .where('status', 'in', ACTIVE_STATUSES)
      .where(holdsAt(now))
      .execute(),
    db
      .selectFrom('availability_slots')
      .select(['listing_id', 'starts_at', 'ends_at'])
      .where('listing_id', 'in', listingIds)
      .where(sql<SqlBool>`is_available = 0`)
      .where('ends_at', '>', from)
      .where('starts_at', '<', to + range.durationMs)
      .execute(),
    db
      .selectFrom('departure_overrides')
      .select(['listing_id', 'starts_at', 'capacity', 'is_closed', 'cancelled_at', 'note'])
      .where('listing_id', 'in', listingIds)
      .where('starts_at', '>=', from)
      .where('starts_at', '<', to)
      .execute(),
  ]);
  for (const b of bookings)
    byListing.get(b.listing_id)?.bookings.push({
      startsAt: Number(b.starts_at),
      endsAt: Number(b.ends_at),
      status: b.status as BookingStatus,
      units: Number(b.units),
    });
  for (const s of slots)
    byListing
      .get(s.listing_id)
      ?.slots.push({ startsAt: Number(s.starts_at), endsAt: Number(s.ends_at), isAvailable: false });
  for (const o of overrides)
    byListing.get(o.listing_id)?.overrides.set(Number(o.starts_at), {
      capacity: o.capacity,
      isClosed: o.is_closed === 1,
      cancelledAt: o.cancelled_at === null ? null : Number(o.cancelled_at),
      note: o.note,
    });
  return byListing;
}

// One listing's facts as rows of one statement, told apart by `fact` (as availability.repository.ts reads
// a window's): one round trip on PostgreSQL, one read on SQLite; prepared once, since every departures
// read and every request for a departure runs it.
type FactRow = {
  fact: 'booking' | 'slot' | 'override';
  starts_at: number;
  ends_at: number;
  /** a booking's status; '' for the other facts */
  status: string;
  /** a booking's participants; an override's capacity (null: none) */
  units: number | null;
  /** an override's is_closed (0 or 1) */
  closed: number;
  /** an override's cancelled_at */
  cancelled_at: number | null;
  note: string;
};
/** The override columns of a booking's or a slot's row (typed nulls: PostgreSQL unites by type). */
const NOT_AN_OVERRIDE = [
  sql.lit(0).as('closed'),
  sql<number | null>`cast(null as bigint)`.as('cancelled_at'),
  sql.lit('').as('note'),
] as const;
type OneListingArgs = { listingId: number; from: number; to: number; slotsTo: number; now: number };

const oneListingFacts = preparedQuery(
  (db, a: OneListingArgs) =>
    db
      .selectFrom('bookings')
      .select([
        sql.lit('booking').as('fact'),
        'starts_at',
        'ends_at',
        sql<string>`status`.as('status'),
        sql<number | null>`coalesce(participants_count, 1)`.as('units'),
        ...NOT_AN_OVERRIDE,
      ])
      .where('listing_id', '=', a.listingId)
      .where('ends_at', '>', a.from)
      .where('starts_at', '>=', a.from)
      .where('starts_at', '<', a.to)
      .where(ACTIVE)
      .where(holdsAt(a.now))
      .unionAll(
        db
          .selectFrom('availability_slots')
          .select([
            sql.lit('slot').as('fact'),
            'starts_at',
            'ends_at',
            sql.lit('').as('status'),
            sql<number | null>`cast(null as integer)`.as('units'),
            ...NOT_AN_OVERRIDE,
          ])
          .where('listing_id', '=', a.listingId)
          .where(sql<SqlBool>`is_available = 0`)
          .where('ends_at', '>', a.from)
          .where('starts_at', '<', a.slotsTo),
      )
      .unionAll(
        db
          .selectFrom('departure_overrides')
          .select([
            sql.lit('override').as('fact'),
            'starts_at',
            'starts_at as ends_at',
            sql.lit('').as('status'),
            'capacity as units',
            sql<number>`is_closed`.as('closed'),
            'cancelled_at',
            'note',
          ])
          .where('listing_id', '=', a.listingId)
          .where('starts_at', '>=', a.from)
          .where('starts_at', '<', a.to),
      )
      .$castTo<FactRow>(),
  ['listingId', 'from', 'to', 'slotsTo', 'now'],
);

/** One listing's departure facts (departureFacts), in one statement. */
export async function departureFactsOf(
  db: Db,
  listingId: number,
  range: Omit<DepartureRange, 'listingIds'>,
  now: number,
): Promise<DepartureRangeFacts> {
  const facts: DepartureRangeFacts = { bookings: [], slots: [], overrides: new Map() };
  const rows = await oneListingFacts(db, {
    listingId,
    from: range.from,
    to: range.to,
    slotsTo: range.to + range.durationMs,
    now,
  });
  for (const row of rows) {
    const startsAt = Number(row.starts_at);
    if (row.fact === 'booking')
      facts.bookings.push({
        startsAt,
        endsAt: Number(row.ends_at),
        status: row.status as BookingStatus,
        units: Number(row.units),
      });
    else if (row.fact === 'slot')
      facts.slots.push({ startsAt, endsAt: Number(row.ends_at), isAvailable: false });
    else
      facts.overrides.set(startsAt, {
        capacity: row.units === null ? null : Number(row.units),
        isClosed: Number(row.closed) === 1,
        cancelledAt: row.cancelled_at === null ? null : Number(row.cancelled_at),
        note: row.note,
      });
  }
  return facts;
}

/** Writes the vendor's change to one departure (creating its override row or updating it). */
export async function upsertOverride(
  db: Db,
  listingId: number,
  startsAt: number,
  change: { capacity?: number | null; is_closed?: 0 | 1; cancelled_at?: number; note?: string },
  now: number,
): Promise<void> {
  const updated = await db
    .updateTable('departure_overrides')
    .set({ ...change, updated_at: now })
    .where('listing_id', '=', listingId)
    .where('starts_at', '=', startsAt)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('departure_overrides')
    .values({ listing_id: listingId, starts_at: startsAt, ...change, created_at: now, updated_at: now })
    .execute();
}

/** The ids of the bookings holding the departure at `now` (active, hold not lapsed), oldest first. */
export async function bookingsHoldingDeparture(
  db: Db,
  listingId: number,
  startsAt: number,
  now: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('bookings')
    .select('id')
    .where('listing_id', '=', listingId)
    .where('ends_at', '>', startsAt)
    .where('starts_at', '=', startsAt)
    .where('status', 'in', ACTIVE_STATUSES)
    .where(holdsAt(now))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** What the list filter needs of every active scheduled offering (departuresWithFreeSeat). */
export async function activeScheduledOfferings(db: Db) {
  const rows = await db
    .selectFrom('listings')
    .innerJoin('vendor_profiles', 'vendor_profiles.id', 'listings.vendor_id')
    .select([
      'listings.id',
      'listings.schedule',
      'listings.duration_minutes',
      'listings.capacity',
      'listings.booking_mode',
      'listings.booking_cutoff_minutes',
      'listings.resources',
      'vendor_profiles.time_zone',
    ])
    .where('listings.kind', '=', 'adventure')
    .where('listings.is_active', '=', 1)
    .where('listings.archived_at', 'is', null)
    .where('listings.schedule', '<>', '[]')
    .execute();
  return rows;
}
