import { type SqlBool, sql } from 'kysely';
import type { Db, ListingKind } from '../../db/database.ts';
import { MINUTE_MS } from '../../lib/datetime.ts';
import { parseOpeningHours, windowOutsideHours } from '../../lib/opening-hours.ts';
import { parseResourceUses } from '../../lib/resource-uses.ts';
import { findDeparture, parseSchedule } from '../../lib/schedule.ts';
import type { ListingsWhere } from '../catalog/index.ts';
import { listingBookableIn } from './availability.repository.ts';
import { activeScheduledOfferings, departureFacts } from './departures.repository.ts';
import { verdictOf } from './departures.service.ts';
import { resourceFactsIn, resourceRoomIn } from './resource-check.ts';

/**
 * The vendors whose opening hours refuse a pick-up at `from` or a return at `to` (decisions §20; the hours
 * part of rentalWindowErrors, decided in JavaScript: local times come from time-zone rules SQL cannot
 * apply). Vendors without hours are always open and are not read.
 */
async function vendorsClosedFor(db: Db, from: number, to: number): Promise<number[]> {
  const rows = await db
    .selectFrom('vendor_profiles')
    .select(['id', 'time_zone', 'opening_hours'])
    .where('opening_hours', 'is not', null)
    .execute();
  const window = { startsAt: from, endsAt: to };
  return rows
    .filter(
      (r) => Object.keys(windowOutsideHours(parseOpeningHours(r.opening_hours), r.time_zone, window)).length,
    )
    .map((r) => r.id);
}

/**
 * The unscheduled listings of the kind whose shared resources leave no room for one unit or participant
 * over [from, to) (rule 7, decided by resourceRoomIn on the resources' holds, read once for all of them).
 */
async function listingsShortOfResources(db: Db, from: number, to: number, now: number, kind: ListingKind) {
  const rows = await db
    .selectFrom('listings')
    .select(['id', 'kind', 'buffer_minutes', 'resources'])
    .where('kind', '=', kind)
    .where('resources', '<>', '[]')
    .where('schedule', '=', '[]')
    .where('is_active', '=', 1)
    .where('archived_at', 'is', null)
    .execute();
  if (rows.length === 0) return [];
  const listings = rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    bufferMinutes: r.buffer_minutes,
    resources: parseResourceUses(r.resources),
  }));
  const longestBuffer = Math.max(...listings.map((l) => l.bufferMinutes)) * MINUTE_MS;
  const ids = listings.flatMap((l) => l.resources.map((u) => u.resourceId));
  const facts = await resourceFactsIn(db, ids, from, to + longestBuffer, now);
  const window = { startsAt: from, endsAt: to };
  return listings.filter((l) => resourceRoomIn(l, window, facts) < 1).map((l) => l.id);
}

/**
 * The public lists' available_from/available_to condition (decisions §4, §10, §19): an unscheduled
 * listing bookable for the whole window (listingBookableIn, rules 1-4) whose booking cutoff has not passed
 * for its start; a scheduled offering with an open departure with a free seat starting in it (rule 5,
 * decided in JavaScript by offeringsWithOpenDeparture: departures come from time-zone rules SQL cannot
 * apply). Equipment must also keep its item's duration limits (in SQL: the limits of durationProblem) and
 * its vendor's opening hours (vendorsClosedFor). Either kind must leave room in its shared resources
 * (rule 7, decided in JavaScript: listingsShortOfResources, resourceRoomIn for departures).
 */
export async function listingAvailableFilter(
  db: Db,
  from: number,
  to: number,
  now: number,
  kind: ListingKind,
): Promise<ListingsWhere> {
  const bookable = listingBookableIn(from, to, now);
  const short = from < now ? [] : await listingsShortOfResources(db, from, to, now, kind);
  // bookingClosed (availability.ts) over the listings row: open while the cutoff is before the start
  // (in bigint: the milliseconds to a start months ahead do not fit PostgreSQL's integer)
  const beforeCutoff = sql<SqlBool>`(listings.booking_cutoff_minutes = 0
    or cast(listings.booking_cutoff_minutes as bigint) * 60000 < cast(${from - now} as bigint))`;
  if (kind === 'equipment') {
    // durationProblem (rental-terms.ts) over the listings row, in milliseconds
    const duration = sql`cast(${to - from} as bigint)`;
    const withinLimits = sql<SqlBool>`(listings.min_duration_minutes is null
      or cast(listings.min_duration_minutes as bigint) * 60000 <= ${duration})
      and (listings.max_duration_minutes is null or cast(listings.max_duration_minutes as bigint) * 60000 >= ${duration})`;
    const closed = await vendorsClosedFor(db, from, to);
    return (eb) =>
      eb.and([
        bookable(eb),
        beforeCutoff,
        withinLimits,
        closed.length ? eb('listings.vendor_id', 'not in', closed) : eb.lit(true),
        short.length ? eb('listings.id', 'not in', short) : eb.lit(true),
      ]);
  }
  const scheduled = await offeringsWithOpenDeparture(db, from, to, now);
  return (eb) =>
    eb.or([
      eb.and([
        eb('listings.schedule', '=', '[]'),
        bookable(eb),
        beforeCutoff,
        short.length ? eb('listings.id', 'not in', short) : eb.lit(true),
      ]),
      scheduled.length ? eb('listings.id', 'in', scheduled) : eb.lit(false),
    ]);
}

/**
 * The active scheduled offerings with at least one open departure with a free seat starting in
 * [from, to) (decisions §19: the available_from/available_to filter), each decided by rule 5 on the facts
 * of the whole range, read for all of them at once.
 */
async function offeringsWithOpenDeparture(db: Db, from: number, to: number, now: number): Promise<number[]> {
  // a departure starting before now is closed (its cutoff is at or before its start): none to look at
  const start = Math.max(from, now);
  if (start >= to) return [];
  const offerings = await activeScheduledOfferings(db);
  if (offerings.length === 0) return [];
  const longest = Math.max(...offerings.map((o) => o.duration_minutes ?? 0));
  const facts = await departureFacts(
    db,
    { listingIds: offerings.map((o) => o.id), from: start, to, durationMs: longest * MINUTE_MS },
    now,
  );
  // rule 7: the resources the offerings use, read once for the range
  const uses = new Map(offerings.map((o) => [o.id, parseResourceUses(o.resources)]));
  const resources = await resourceFactsIn(
    db,
    [...uses.values()].flatMap((list) => list.map((u) => u.resourceId)),
    start,
    to + longest * MINUTE_MS,
    now,
  );
  const kept: number[] = [];
  for (const o of offerings) {
    const terms = {
      capacity: o.capacity,
      bookingMode: o.booking_mode,
      bookingCutoffMinutes: o.booking_cutoff_minutes,
    };
    const asListing = {
      id: o.id,
      kind: 'adventure' as const,
      bufferMinutes: 0,
      resources: uses.get(o.id) ?? [],
    };
    const room = (d: { startsAt: number; endsAt: number }) => resourceRoomIn(asListing, d, resources);
    const ofListing = facts.get(o.id);
    if (!ofListing) continue;
    const open = await findDeparture(
      parseSchedule(o.schedule),
      o.duration_minutes ?? 0,
      o.time_zone,
      start,
      to,
      (chunk) => chunk.find((d) => verdictOf(terms, d, ofListing, now, 1, room(d)).isAvailable),
    );
    if (open) kept.push(o.id);
  }
  return kept;
}
