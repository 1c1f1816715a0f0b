import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { BookingStatus, Database, Db } from '../../db/database.ts';
import { dialectOf } from '../../db/dialect.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { batchPerTurn } from '../../db/turn-batch.ts';
import type { AvailabilityFacts, BookingFact, SlotFact, TimeWindow } from './availability.ts';
import { holdsAt } from './booking.repository.ts';
import { ACTIVE_STATUSES } from './booking.state-machine.ts';
import { plusLongestSpan } from './vendor-window.ts';

// The facts availability.ts decides on, read with indexed range queries (listing_id, starts_at), and the
// same rules as one SQL predicate for filtering listing lists. The fact queries run on every availability
// check and booking request: they are prepared once (preparedQuery).

// Constants stay literals in the SQL: SQLite re-plans a statement whenever a bound value it could plan
// on changes, and these never change.
const ACTIVE = sql<SqlBool>`status in (${sql.join(ACTIVE_STATUSES.map((s) => sql.lit(s)))})`;

/**
 * The latest a booking of the listing overlapping a window ending at `windowEnd` can end: windowEnd plus
 * the listing's longest booking (migration 2026112213). With it an overlap check reads the index range
 * (start, end + longest) of ends_at instead of every booking ending after start. A listing without a
 * record has no bookings; the bound is then left open rather than trusted.
 */
// biome-ignore lint/suspicious/noExplicitAny: a subquery, wherever the query around it reads from
function overlappingEndBound(eb: ExpressionBuilder<Database, any>, listingId: Value, windowEnd: Value) {
  const longest = eb
    .selectFrom('listing_booking_spans')
    .select('longest_ms')
    .where('listing_id', '=', listingId);
  return plusLongestSpan(eb, windowEnd, longest);
}

/** A number in a query: a bound value, or a column of the query around it (see factsOfWindowsPg). */
type Value = number | Expression<number>;

/**
 * A window of a listing, the instant whose holds count (the app clock's now), and the listing's buffer
 * (rule 6 of availability.ts): bookings whose hold [starts_at, ends_at + buffer) meets the window's
 * [startsAt, endsAt + buffer) are read.
 */
type WindowArgs = { listingId: number; startsAt: number; endsAt: number; now: number; bufferMs: number };
const WINDOW_ARGS = ['listingId', 'startsAt', 'endsAt', 'now', 'bufferMs'] as const;
type Window = { [K in keyof WindowArgs]: Value };

/**
 * A value in arithmetic: a bound one (a number, or a prepared query's stand-in for one) is a bigint, which
 * PostgreSQL cannot tell by itself beside another parameter or an integer column.
 */
const operand = (v: Value) => (typeof v === 'object' ? v : sql<number>`cast(${v} as bigint)`);

/** a + b or a - b in a query; bound values are added up before they are bound. */
const plus = (a: Value, b: Value, sign: 1 | -1 = 1): Value =>
  typeof a === 'number' && typeof b === 'number'
    ? a + sign * b
    : sql<number>`${operand(a)} ${sql.raw(sign === 1 ? '+' : '-')} ${operand(b)}`;

const overlappingBookings = (db: Db, a: Window) =>
  db
    .selectFrom('bookings')
    .where('listing_id', '=', a.listingId)
    .where('ends_at', '>', plus(a.startsAt, a.bufferMs, -1))
    .where((eb) => eb('ends_at', '<', overlappingEndBound(eb, a.listingId, plus(a.endsAt, a.bufferMs))))
    .where('starts_at', '<', plus(a.endsAt, a.bufferMs))
    .where(ACTIVE)
    .where(holdsAt(a.now));

const overlappingSlots = (db: Db, a: Window) =>
  db
    .selectFrom('availability_slots')
    .where('listing_id', '=', a.listingId)
    .where('starts_at', '<', a.endsAt)
    .where('ends_at', '>', a.startsAt);

const anyAvailableSlot = (db: Db, a: Pick<Window, 'listingId'>) =>
  db
    .selectFrom('availability_slots')
    .select('id')
    .where('listing_id', '=', a.listingId)
    .where(sql<SqlBool>`is_available = 1`);

/** The units a booking holds under a counting limit: its quantity (equipment) or participants. */
const UNITS = sql<number>`coalesce(quantity, participants_count, 1)`;

// The three facts as rows of one statement, told apart by `fact`: one round trip on PostgreSQL, one read
// lock on SQLite (three separate lookups cost twice as much there, and its JSON functions more still).
type FactRow = {
  fact: 'booking' | 'slot' | 'any_available';
  starts_at: number;
  ends_at: number;
  /** a booking's status, a slot's is_available ('1' or '0') */
  detail: string;
  /** a booking's units (see UNITS); 0 for the other facts */
  units: number;
};
const allFacts = (db: Db, a: Window) =>
  overlappingBookings(db, a)
    .select([
      sql.lit('booking').as('fact'),
      'starts_at',
      'ends_at',
      sql<string>`status`.as('detail'),
      UNITS.as('units'),
    ])
    .unionAll(
      overlappingSlots(db, a).select([
        sql.lit('slot').as('fact'),
        'starts_at',
        'ends_at',
        sql<string>`cast(is_available as text)`.as('detail'),
        sql.lit(0).as('units'),
      ]),
    )
    .unionAll(
      db
        .selectNoFrom([
          sql.lit('any_available').as('fact'),
          sql.lit(0).as('starts_at'),
          sql.lit(0).as('ends_at'),
          sql.lit('').as('detail'),
          sql.lit(0).as('units'),
        ])
        .where((eb) => eb.exists(anyAvailableSlot(db, a))),
    )
    .$castTo<FactRow>();

const allFactsQuery = preparedQuery((db, a: WindowArgs) => allFacts(db, a), WINDOW_ARGS);

/** The windows of several checks, one array per argument (PostgreSQL's lateral fact query). */
type WindowArrays = { [K in keyof WindowArgs]: WindowArgs[K][] };

/**
 * PostgreSQL: the facts of several windows in one statement, allFacts for each row of the arrays given
 * (a lateral subquery over the same builders, the window's columns in place of values), tagged with the
 * row's position.
 */
const factsOfWindowsPg = preparedQuery((db, asked: WindowArrays) => {
  const column = (name: string) => sql.ref<number>(`asked.${name}`);
  const facts = allFacts(db, {
    listingId: column('listing_id'),
    startsAt: column('starts_at'),
    endsAt: column('ends_at'),
    now: column('now'),
    bufferMs: column('buffer_ms'),
  });
  const windows = sql<{ ord: number }>`unnest(${asked.listingId}::integer[], ${asked.startsAt}::bigint[],
    ${asked.endsAt}::bigint[], ${asked.now}::bigint[], ${asked.bufferMs}::bigint[]) with ordinality`;
  return db
    .selectFrom(windows.as<'asked'>(sql`asked(listing_id, starts_at, ends_at, now, buffer_ms, ord)`))
    .crossJoinLateral(facts.as('fact'))
    .select('asked.ord')
    .selectAll('fact');
}, WINDOW_ARGS);

async function factsOfWindows(db: Db, windows: WindowArgs[]): Promise<FactRow[][]> {
  const asked = Object.fromEntries(
    WINDOW_ARGS.map((name) => [name, windows.map((w) => w[name])]),
  ) as WindowArrays;
  const rows = await factsOfWindowsPg(db, asked);
  const facts = windows.map((): FactRow[] => []);
  for (const { ord, ...row } of rows) facts[ord - 1].push(row);
  return facts;
}

// The availability checks of one turn read their facts together on PostgreSQL: a round trip per turn,
// not per check. Each check still reads after it was asked (see batchPerTurn).
const factsBatchedPg = batchPerTurn(factsOfWindows, allFactsQuery);

/**
 * Everything availability.ts decides on for one listing and window: its bookings holding at `now` (active,
 * deadline not passed) whose hold lengthened by `bufferMs` meets the window's, with their units and their
 * own windows; its overlapping slots; and whether it has any available slot at all.
 */
export async function availabilityFacts(
  db: Db,
  listingId: number,
  window: TimeWindow,
  now: number,
  bufferMs = 0,
): Promise<Required<Omit<AvailabilityFacts, 'resourceRoom'>>> {
  const bookings: BookingFact[] = [];
  const slots: SlotFact[] = [];
  let hasAvailableSlots = false;
  const args: WindowArgs = { listingId, startsAt: window.startsAt, endsAt: window.endsAt, now, bufferMs };
  const rows = dialectOf(db) === 'postgres' ? await factsBatchedPg(db, args) : await allFactsQuery(db, args);
  for (const row of rows) {
    const { starts_at: startsAt, ends_at: endsAt, detail } = row;
    if (row.fact === 'booking')
      bookings.push({ startsAt, endsAt, status: detail as BookingStatus, units: Number(row.units) });
    else if (row.fact === 'slot') slots.push({ startsAt, endsAt, isAvailable: Number(detail) === 1 });
    else hasAvailableSlots = true;
  }
  return { bookings, slots, hasAvailableSlots };
}

/** The listing's limit under rule 4 of availability.ts (unitLimitOf), over the `listings` row. */
const LISTING_LIMIT = sql<number>`case
  when listings.kind = 'equipment' then listings.quantity
  when listings.booking_mode = 'shared' and listings.capacity is not null then listings.capacity
  else 1 end`;

/**
 * A where-callback over `listings` keeping the listings bookable for the whole window [from, to) under
 * the rules of availability.ts: at least one unit or seat free at every instant of the window, no
 * overlapping blocking slot, and, when the listing has any available slot, one available slot covering
 * the window. Correlated subqueries on the (listing_id, ends_at) indexes: no per-listing work in
 * JavaScript.
 *
 * A listing with a limit of 1 (a single item, a private adventure) is free when no active booking
 * overlaps the window: one EXISTS. Above 1 the units held must stay below the limit at every instant; the
 * sum only grows at a booking's start, so it peaks at the window's start or at the start of an active
 * booking inside the window, and those instants are the ones checked (peakUnits in availability.ts).
 * Rule 6: with the listing's buffer (its column, 0 for adventures) each hold and the window itself end
 * that much later.
 */
export function listingAvailableIn(
  from: number,
  to: number,
  now: number,
): (eb: ExpressionBuilder<Database, 'listings'>) => Expression<SqlBool> {
  return (eb) => {
    const listingId = sql.ref<number>('listings.id');
    const buffer = sql<number>`(listings.buffer_minutes * 60000)`;
    // the window as the listing holds it, and the earliest end of a hold reaching a given instant
    const heldTo = plus(to, buffer);
    const endAfter = (instant: Value) => plus(instant, buffer, -1);
    const slotsOfListing = () =>
      eb
        .selectFrom('availability_slots as s')
        .select(eb.lit(1).as('one'))
        .whereRef('s.listing_id', '=', 'listings.id');
    const activeBookings = () =>
      eb
        .selectFrom('bookings as b')
        .whereRef('b.listing_id', '=', 'listings.id')
        .where('b.status', 'in', ACTIVE_STATUSES)
        .where(holdsAt(now, 'b'));
    const activeOverlap = activeBookings()
      .select(eb.lit(1).as('one'))
      .where('b.starts_at', '<', heldTo)
      .where('b.ends_at', '>', endAfter(from))
      .where('b.ends_at', '<', overlappingEndBound(eb, listingId, heldTo));
    // units held at one instant: the active bookings containing it (those overlapping [instant, instant + 1))
    const heldAt = (instant: Value) =>
      eb
        .selectFrom('bookings as h')
        .select(sql<number>`coalesce(sum(coalesce(h.quantity, h.participants_count, 1)), 0)`.as('held'))
        .whereRef('h.listing_id', '=', 'listings.id')
        .where('h.status', 'in', ACTIVE_STATUSES)
        .where(holdsAt(now, 'h'))
        .where('h.ends_at', '>', endAfter(instant))
        .where('h.ends_at', '<', overlappingEndBound(eb, listingId, plus(instant, 1)))
        .where('h.starts_at', '<=', instant);
    const fullInside = activeBookings()
      .select(eb.lit(1).as('one'))
      .where('b.starts_at', '>', from)
      .where('b.starts_at', '<', heldTo)
      .where('b.ends_at', '<', overlappingEndBound(eb, listingId, heldTo))
      .where(sql<SqlBool>`(${heldAt(sql.ref<number>('b.starts_at'))}) >= ${LISTING_LIMIT}`);
    const unitFree = eb.or([
      eb.and([eb(LISTING_LIMIT, '=', 1), eb.not(eb.exists(activeOverlap))]),
      eb.and([
        eb(LISTING_LIMIT, '>', 1),
        sql<SqlBool>`(${heldAt(from)}) < ${LISTING_LIMIT}`,
        eb.not(eb.exists(fullInside)),
      ]),
    ]);
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
      unitFree,
      eb.not(eb.exists(blockingOverlap)),
      eb.or([eb.not(eb.exists(anyAvailable)), eb.exists(covering)]),
    ]);
  };
}

/**
 * The bookings of a listing holding at `from` (active, deadline not passed) whose hold, lengthened by
 * `bufferMs`, ends after it, with their units and their own windows: what a vendor's edit of the listing's
 * limit or buffer must still fit (checkLimitEdit in booking.service.ts).
 */
export async function holdsEndingAfter(
  db: Db,
  listingId: number,
  from: number,
  bufferMs = 0,
): Promise<(TimeWindow & { units: number })[]> {
  const rows = await db
    .selectFrom('bookings')
    .select(['starts_at', 'ends_at', UNITS.as('units')])
    .where('listing_id', '=', listingId)
    .where('ends_at', '>', from - bufferMs)
    .where(ACTIVE)
    .where(holdsAt(from))
    .execute();
  return rows.map((r) => ({ startsAt: r.starts_at, endsAt: r.ends_at, units: Number(r.units) }));
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
  return from < now ? (eb) => eb.lit(false) : listingAvailableIn(from, to, now);
}
