import { type SqlBool, sql } from 'kysely';
import type { Db, ListingKind } from '../../db/database.ts';
import { MINUTE_MS } from '../../lib/datetime.ts';
import { findDeparture, parseSchedule } from '../../lib/schedule.ts';
import type { ListingsWhere } from '../catalog/index.ts';
import { listingBookableIn } from './availability.repository.ts';
import { activeScheduledOfferings, departureFacts } from './departures.repository.ts';
import { verdictOf } from './departures.service.ts';

/**
 * The public lists' available_from/available_to condition (decisions §4, §10, §19): an unscheduled
 * listing bookable for the whole window (listingBookableIn, rules 1-4) whose booking cutoff has not passed
 * for its start; a scheduled offering with an open departure with a free seat starting in it (rule 5,
 * decided in JavaScript by offeringsWithOpenDeparture: departures come from time-zone rules SQL cannot
 * apply).
 */
export async function listingAvailableFilter(
  db: Db,
  from: number,
  to: number,
  now: number,
  kind: ListingKind,
): Promise<ListingsWhere> {
  const bookable = listingBookableIn(from, to, now);
  // bookingClosed (availability.ts) over the listings row: open while the cutoff is before the start
  // (in bigint: the milliseconds to a start months ahead do not fit PostgreSQL's integer)
  const beforeCutoff = sql<SqlBool>`(listings.booking_cutoff_minutes = 0
    or cast(listings.booking_cutoff_minutes as bigint) * 60000 < cast(${from - now} as bigint))`;
  if (kind === 'equipment') return (eb) => eb.and([bookable(eb), beforeCutoff]);
  const scheduled = await offeringsWithOpenDeparture(db, from, to, now);
  return (eb) =>
    eb.or([
      eb.and([eb('listings.schedule', '=', '[]'), bookable(eb), beforeCutoff]),
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
  const kept: number[] = [];
  for (const o of offerings) {
    const terms = {
      capacity: o.capacity,
      bookingMode: o.booking_mode,
      bookingCutoffMinutes: o.booking_cutoff_minutes,
    };
    const ofListing = facts.get(o.id);
    if (!ofListing) continue;
    const open = await findDeparture(
      parseSchedule(o.schedule),
      o.duration_minutes ?? 0,
      o.time_zone,
      start,
      to,
      (chunk) => chunk.find((d) => verdictOf(terms, d, ofListing, now).isAvailable),
    );
    if (open) kept.push(o.id);
  }
  return kept;
}
