import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { BookingStatus, Database, Db } from '../../db/database.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import type { AvailabilityFacts, BookingFact, SlotFact, TimeWindow } from './availability.ts';
import { ACTIVE_STATUSES } from './booking.state-machine.ts';

// The facts availability.ts decides on, read with indexed range queries (listing_id, starts_at), and the
// same rules as one SQL predicate for filtering listing lists. The facts query runs on every availability
// check and booking request: its SQL is compiled once (reusableQuery).

// Constants stay literals in the SQL: SQLite re-plans a statement whenever a bound value it could plan
// on changes, and these never change.
const ACTIVE = sql<SqlBool>`status in (${sql.join(ACTIVE_STATUSES.map((s) => sql.lit(s)))})`;

type WindowArgs = { listingId: number; startsAt: number; endsAt: number };
const WINDOW_ARGS = ['listingId', 'startsAt', 'endsAt'] as const;

// Everything availability.ts decides on, in one statement: the overlapping active bookings, the
// overlapping slots, and one row when the listing has any available slot at all. One round trip instead of
// three on PostgreSQL, one statement instead of three on SQLite.
const factsQuery = reusableQuery(
  (db, a: WindowArgs) =>
    db
      .selectFrom('bookings')
      .select([
        sql<Fact>`'booking'`.as('fact'),
        'starts_at',
        'ends_at',
        sql<BookingStatus | null>`status`.as('status'),
        sql<number | null>`cast(null as integer)`.as('is_available'),
      ])
      .where('listing_id', '=', a.listingId)
      .where('ends_at', '>', a.startsAt)
      .where('starts_at', '<', a.endsAt)
      .where(ACTIVE)
      .unionAll(
        db
          .selectFrom('availability_slots')
          .select([
            sql<Fact>`'slot'`.as('fact'),
            'starts_at',
            'ends_at',
            sql<BookingStatus | null>`cast(null as text)`.as('status'),
            sql<number | null>`is_available`.as('is_available'),
          ])
          .where('listing_id', '=', a.listingId)
          .where('starts_at', '<', a.endsAt)
          .where('ends_at', '>', a.startsAt),
      )
      .unionAll(
        db
          .selectNoFrom([
            sql<Fact>`'any_available_slot'`.as('fact'),
            sql<number>`cast(null as bigint)`.as('starts_at'),
            sql<number>`cast(null as bigint)`.as('ends_at'),
            sql<BookingStatus | null>`cast(null as text)`.as('status'),
            sql<number | null>`cast(null as integer)`.as('is_available'),
          ])
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('availability_slots')
                .select(sql.lit(1).as('one'))
                .where('listing_id', '=', a.listingId)
                .where(sql<SqlBool>`is_available = 1`),
            ),
          ),
      ),
  WINDOW_ARGS,
);

type Fact = 'booking' | 'slot' | 'any_available_slot';

/**
 * The facts of a window for availability.ts: the listing's active bookings and slots overlapping it, and
 * whether the listing has any available slot at all.
 */
export async function availabilityFacts(
  db: Db,
  listingId: number,
  window: TimeWindow,
): Promise<Required<AvailabilityFacts>> {
  const rows = await factsQuery(db, { listingId, startsAt: window.startsAt, endsAt: window.endsAt });
  const bookings: BookingFact[] = [];
  const slots: SlotFact[] = [];
  let hasAvailableSlots = false;
  for (const r of rows) {
    if (r.fact === 'booking') bookings.push({ startsAt: r.starts_at, endsAt: r.ends_at, status: r.status! });
    else if (r.fact === 'slot')
      slots.push({ startsAt: r.starts_at, endsAt: r.ends_at, isAvailable: r.is_available === 1 });
    else hasAvailableSlots = true;
  }
  return { bookings, slots, hasAvailableSlots };
}

/**
 * A where-callback over `listings` keeping the listings bookable for the whole window [from, to) under
 * the rules of availability.ts: no overlapping active booking, no overlapping blocking slot, and, when
 * the listing has any available slot, one available slot covering the window. Correlated EXISTS
 * subqueries on the (listing_id, starts_at) indexes: no per-listing work in JavaScript.
 */
export function listingAvailableIn(
  from: number,
  to: number,
): (eb: ExpressionBuilder<Database, 'listings'>) => Expression<SqlBool> {
  return (eb) => {
    const slotsOfListing = () =>
      eb
        .selectFrom('availability_slots as s')
        .select(eb.lit(1).as('one'))
        .whereRef('s.listing_id', '=', 'listings.id');
    const activeOverlap = eb
      .selectFrom('bookings as b')
      .select(eb.lit(1).as('one'))
      .whereRef('b.listing_id', '=', 'listings.id')
      .where('b.status', 'in', ACTIVE_STATUSES)
      .where('b.starts_at', '<', to)
      .where('b.ends_at', '>', from);
    const blockingOverlap = slotsOfListing()
      .where('s.is_available', '=', 0)
      .where('s.starts_at', '<', to)
      .where('s.ends_at', '>', from);
    const anyAvailable = slotsOfListing().where('s.is_available', '=', 1);
    const covering = slotsOfListing()
      .where('s.is_available', '=', 1)
      .where('s.starts_at', '<=', from)
      .where('s.ends_at', '>=', to);
    return eb.and([
      eb.not(eb.exists(activeOverlap)),
      eb.not(eb.exists(blockingOverlap)),
      eb.or([eb.not(eb.exists(anyAvailable)), eb.exists(covering)]),
    ]);
  };
}

/**
 * listingAvailableIn as the public listing filter applies it: a window that starts before `now` cannot be
 * booked (a request for it is a 400), so no listing is available in it.
 */
export function listingBookableIn(
  from: number,
  to: number,
  now: number,
): (eb: ExpressionBuilder<Database, 'listings'>) => Expression<SqlBool> {
  return from < now ? (eb) => eb.lit(false) : listingAvailableIn(from, to);
}
