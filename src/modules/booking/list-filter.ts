import { type SqlBool, sql } from 'kysely';
import type { Db, ListingKind } from '../../db/database.ts';
import type { ListingsWhere } from '../catalog/index.ts';
import { listingBookableIn } from './availability.repository.ts';
import { offeringsWithOpenDeparture } from './departures.service.ts';

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
