import { type Expression, type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../../db/database.ts';

// A vendor's bookings over a stretch of time (the day's manifest, the calendar feed) are read through the
// listings' window index (listing_id, ends_at, ...), one range per listing of the vendor, not through
// indexes of their own by vendor and start or end: those gave every booking insert, the hottest write
// there is, two more index entries to place. A bound on the start becomes a bound on the end through
// the longest span any of the vendor's listings has held (listing_booking_spans, kept by a trigger on
// every write of a window), as availability.repository.ts bounds one listing's overlaps.

type Bookings = ExpressionBuilder<Database, 'bookings'>;

/** The booking is of one of the vendor's listings (a booking's vendor is its listing's). */
export function ofVendorListings(eb: Bookings, vendorId: number) {
  return eb(
    'bookings.listing_id',
    'in',
    eb.selectFrom('listings as own').select('own.id').where('own.vendor_id', '=', vendorId),
  );
}

/**
 * The booking ends no later than a booking of the vendor's that starts by `startsBy` can: `startsBy` plus
 * the longest span of the vendor's listings (no bound when none has had a booking).
 */
export function endsByLatestOf(eb: Bookings, vendorId: number, startsBy: number) {
  const longest = eb
    .selectFrom('listing_booking_spans as span')
    .innerJoin('listings as spanned', 'spanned.id', 'span.listing_id')
    .select((s) => s.fn.max('span.longest_ms').as('longest'))
    .where('spanned.vendor_id', '=', vendorId);
  return eb('bookings.ends_at', '<=', plusLongestSpan(eb, startsBy, longest));
}

/**
 * `bound` plus a longest span read from listing_booking_spans: the latest a booking starting by `bound`
 * can end. No row means no booking yet; the bound is then left open rather than trusted.
 */
export function plusLongestSpan<Bound>(
  // biome-ignore lint/suspicious/noExplicitAny: a subquery, wherever the query around it reads from
  eb: ExpressionBuilder<Database, any>,
  bound: Bound,
  // a one-column, one-row subquery of listing_booking_spans.longest_ms
  longest: Expression<unknown>,
) {
  return sql<number>`${bound} + ${eb.fn.coalesce(longest, sql.lit(Number.MAX_SAFE_INTEGER))}`;
}
