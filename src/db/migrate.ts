import type { Kysely } from 'kysely';
import { type Migration, type MigrationResultSet, Migrator, NO_MIGRATIONS } from 'kysely/migration';
import type { Database } from './database.ts';
import * as accounts from './migrations/2026112101-accounts.ts';
import * as catalog from './migrations/2026112102-catalog.ts';
import * as booking from './migrations/2026112103-booking.ts';
import * as payments from './migrations/2026112104-payments.ts';
import * as marketing from './migrations/2026112105-marketing.ts';
import * as catalogSearch from './migrations/2026112201-catalog-search.ts';
import * as marketingAnalytics from './migrations/2026112203-marketing-analytics.ts';
import * as paymentsOpenUnique from './migrations/2026112204-payments-open-unique.ts';
import * as listingsPublicScan from './migrations/2026112207-listings-public-scan.ts';
import * as catalogVersion from './migrations/2026112208-catalog-version.ts';
import * as bookingAttribution from './migrations/2026112209-booking-attribution.ts';
import * as windowIndexes from './migrations/2026112210-window-indexes.ts';
import * as bookingDaily from './migrations/2026112211-booking-daily.ts';
import * as clickListingIndex from './migrations/2026112212-click-listing-index.ts';
import * as bookingSpans from './migrations/2026112213-booking-spans.ts';
import * as bookingIndexTrim from './migrations/2026112214-booking-index-trim.ts';
import * as clickCampaignNameIndex from './migrations/2026112215-click-campaign-name-index.ts';
import * as accountsVersion from './migrations/2026112216-accounts-version.ts';
import * as postgresSummaryRollups from './migrations/2026112217-postgres-summary-rollups.ts';
import * as postgresClickRollupPerStatement from './migrations/2026112218-postgres-click-rollup-per-statement.ts';
import * as vendorMoney from './migrations/2026112501-vendor-money.ts';
import * as unitsAndSeats from './migrations/2026112502-units-and-seats.ts';
import * as listingSearch from './migrations/2026112503-listing-search.ts';
import * as bookingExpiry from './migrations/2026112504-booking-expiry.ts';
import * as refunds from './migrations/2026112505-refunds.ts';
import * as idempotencyKeys from './migrations/2026112506-idempotency-keys.ts';
import * as listingPhotos from './migrations/2026112507-listing-photos.ts';
import * as notifications from './migrations/2026112508-notifications.ts';
import * as rateLimitHits from './migrations/2026112601-rate-limit-hits.ts';
import * as analyticsRevenueBots from './migrations/2026112701-analytics-revenue-bots.ts';
import * as idempotencyClaimOwner from './migrations/2026112735-idempotency-claim-owner.ts';
import * as departures from './migrations/2026112801-departures.ts';
import * as prices from './migrations/2026112803-prices.ts';
import * as rentalTerms from './migrations/2026112901-rental-terms.ts';
import * as teams from './migrations/2026112905-teams.ts';
import * as dayOfTrip from './migrations/2026113001-day-of-trip.ts';
import * as resources from './migrations/2026113001-resources.ts';
import * as channels from './migrations/2026120101-channels.ts';
import * as calendarFeed from './migrations/2026120102-calendar-feed.ts';
import * as channelBookingsIndex from './migrations/2026120103-channel-bookings-index.ts';
import * as bookingVendorWindowIndexes from './migrations/2026120201-booking-vendor-window-indexes.ts';
import * as bookingClickCopyOnInsert from './migrations/2026120202-booking-click-copy-on-insert.ts';

// Listed here rather than read from the directory, so the set is fixed by the code that runs it.
const migrations: Record<string, Migration> = {
  '2026112101-accounts': accounts,
  '2026112102-catalog': catalog,
  '2026112103-booking': booking,
  '2026112104-payments': payments,
  '2026112105-marketing': marketing,
  '2026112201-catalog-search': catalogSearch,
  '2026112203-marketing-analytics': marketingAnalytics,
  '2026112204-payments-open-unique': paymentsOpenUnique,
  '2026112207-listings-public-scan': listingsPublicScan,
  '2026112208-catalog-version': catalogVersion,
  '2026112209-booking-attribution': bookingAttribution,
  '2026112210-window-indexes': windowIndexes,
  '2026112211-booking-daily': bookingDaily,
  '2026112212-click-listing-index': clickListingIndex,
  '2026112213-booking-spans': bookingSpans,
  '2026112214-booking-index-trim': bookingIndexTrim,
  '2026112215-click-campaign-name-index': clickCampaignNameIndex,
  '2026112216-accounts-version': accountsVersion,
  '2026112217-postgres-summary-rollups': postgresSummaryRollups,
  '2026112218-postgres-click-rollup-per-statement': postgresClickRollupPerStatement,
  '2026112501-vendor-money': vendorMoney,
  '2026112502-units-and-seats': unitsAndSeats,
  '2026112503-listing-search': listingSearch,
  '2026112504-booking-expiry': bookingExpiry,
  '2026112505-refunds': refunds,
  '2026112506-idempotency-keys': idempotencyKeys,
  '2026112507-listing-photos': listingPhotos,
  '2026112508-notifications': notifications,
  '2026112601-rate-limit-hits': rateLimitHits,
  '2026112701-analytics-revenue-bots': analyticsRevenueBots,
  '2026112735-idempotency-claim-owner': idempotencyClaimOwner,
  '2026112801-departures': departures,
  '2026112803-prices': prices,
  '2026112901-rental-terms': rentalTerms,
  '2026112905-teams': teams,
  '2026113001-day-of-trip': dayOfTrip,
  '2026113001-resources': resources,
  '2026120101-channels': channels,
  '2026120102-calendar-feed': calendarFeed,
  '2026120103-channel-bookings-index': channelBookingsIndex,
  '2026120201-booking-vendor-window-indexes': bookingVendorWindowIndexes,
  '2026120202-booking-click-copy-on-insert': bookingClickCopyOnInsert,
};

/** `schema`: PostgreSQL schema holding the migration bookkeeping (when not the default one). */
function migrator(db: Kysely<Database>, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
}

function unwrap({ error, results }: MigrationResultSet): string[] {
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).map((r) => `${r.direction} ${r.migrationName}: ${r.status}`);
}

export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return unwrap(await migrator(db, schema).migrateToLatest());
}

export async function migrateDown(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return unwrap(await migrator(db, schema).migrateDown());
}

/**
 * Reverts `name` and every migration after it (the schema as it was before `name`): how a test puts a
 * database back to the state a migration finds on an existing installation, whatever came after it.
 */
export async function migrateDownThrough(
  db: Kysely<Database>,
  name: string,
  schema?: string,
): Promise<string[]> {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf(name);
  if (at < 0) throw new Error(`unknown migration ${name}`);
  return unwrap(await migrator(db, schema).migrateTo(at === 0 ? NO_MIGRATIONS : names[at - 1]));
}
