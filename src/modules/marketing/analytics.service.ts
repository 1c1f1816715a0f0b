import type { Kysely } from 'kysely';
import type { Database, Db, ListingKind, TrafficType } from '../../db/database.ts';
import { inReadSnapshot } from '../../db/transactions.ts';
import { type FieldErrors, invalidFields, notFound } from '../../http/errors.ts';
import type { Page } from '../../http/pagination.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime, parseDateTime } from '../../lib/datetime.ts';
import { countLocalDays, localDays } from '../../lib/local-days.ts';
import { formatMoney } from '../../lib/money.ts';
import { findVendorLocale } from '../accounts/index.ts';
import { KINDS } from '../catalog/index.ts';
import * as repo from './analytics.repository.ts';
import { channelRows } from './analytics-channels.repository.ts';
import { bookingsPerDay, clicksPerDay } from './analytics-series.repository.ts';
import { MAX_TIMESERIES_POINTS } from './marketing.schemas.ts';

export interface MarketingDeps {
  db: Kysely<Database>;
  clock: Clock;
}

export interface RangeQuery {
  from: string;
  to: string;
  /** count bot clicks too (decisions §17); left out by default */
  include_bots?: boolean;
}

/** `from`/`to` as epoch milliseconds: both valid ISO 8601 and `to > from` (the range is [from, to)). */
export function parseRange(query: RangeQuery): { from: number; to: number } {
  const from = parseDateTime(query.from);
  const to = parseDateTime(query.to);
  const errors: FieldErrors = {};
  const notADate = 'Enter a valid ISO 8601 datetime.';
  if (from === null) errors.from = [notADate];
  if (to === null) errors.to = [notADate];
  else if (from !== null && to <= from) errors.to = ['Must be later than from.'];
  if (from === null || to === null || errors.to) throw invalidFields(errors);
  return { from, to };
}

function vendorOf(vendorId: number | null): number {
  // A vendor account always has a profile; without one there is nothing of theirs to show.
  if (vendorId === null) throw notFound('Vendor profile not found.');
  return vendorId;
}

// --- click list ------------------------------------------------------------------------------------------

export interface ClickListQuery extends RangeQuery {
  traffic_type?: TrafficType;
  listing_type?: ListingKind;
  utm_campaign?: string;
}

function toClick(row: repo.ClickListRow) {
  const ids = { equipment_item_id: null as number | null, adventure_offering_id: null as number | null };
  ids[KINDS[row.listing_kind].idField] = row.listing_id;
  return {
    marketing_click_id: row.id,
    listing_type: row.listing_kind,
    public_id: row.public_id,
    listing_title: row.title,
    ...ids,
    traffic_type: row.traffic_type,
    source: row.source,
    utm_source: row.utm_source,
    utm_medium: row.utm_medium,
    utm_campaign: row.utm_campaign,
    utm_term: row.utm_term,
    utm_content: row.utm_content,
    gclid: row.gclid,
    fbclid: row.fbclid,
    referrer: row.referrer,
    user_id: row.user_id,
    is_bot: row.is_bot === 1,
    created_at: formatDateTime(row.created_at),
  };
}
export type Click = ReturnType<typeof toClick>;

function clickFilter(vendorId: number | null, query: ClickListQuery): repo.ClickFilter {
  return {
    vendorId: vendorOf(vendorId),
    ...parseRange(query),
    includeBots: query.include_bots === true,
    trafficType: query.traffic_type,
    listingKind: query.listing_type,
    utmCampaign: query.utm_campaign?.trim() || undefined,
  };
}

/**
 * A vendor's clicks in [from, to), newest first, with the total count for pagination. `utm_campaign` is
 * compared with the stored value, which is trimmed when recorded: the filter is trimmed the same way, and
 * an empty one means no filter.
 */
export async function listVendorClicks(
  deps: MarketingDeps,
  vendorId: number | null,
  query: ClickListQuery,
  page: Page,
): Promise<{ count: number; results: Click[] }> {
  const filter = clickFilter(vendorId, query);
  return inReadSnapshot(deps.db, async (db) => {
    const count = await repo.countClicks(db, filter);
    const rows = page.offset < count ? await repo.listClicks(db, filter, page) : [];
    return { count, results: rows.map(toClick) };
  });
}

/**
 * The export of the click list (same filters), oldest first, as chunks of click objects: read one short
 * query at a time, so a million clicks never sit in memory together. Ranges are checked before the first
 * byte is sent, so a bad one is still a 400.
 */
export function exportVendorClicks(
  deps: MarketingDeps,
  vendorId: number | null,
  query: ClickListQuery,
): AsyncIterable<Click[]> {
  const filter = clickFilter(vendorId, query);
  return (async function* () {
    for await (const rows of repo.clicksInChunks(deps.db, filter)) yield rows.map(toClick);
  })();
}

// --- summary ---------------------------------------------------------------------------------------------

/**
 * bookings / clicks rounded half-up to 4 decimal places, computed on integers so that no binary
 * fraction decides a rounding; null when there were no clicks.
 */
export function conversionRate(bookings: number, clicks: number): number | null {
  if (clicks === 0) return null;
  return Math.floor((2 * bookings * 10_000 + clicks) / (2 * clicks)) / 10_000;
}

export interface CampaignSummary {
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  clicks: number;
  bookings: number;
  conversion_rate: number | null;
  bookings_confirmed: number;
  revenue: string;
}

export interface VendorSummary {
  from: string;
  to: string;
  currency: string;
  clicks: { organic: number; marketing: number; total: number };
  bookings_attributed: { organic: number; marketing: number; unattributed: number };
  conversion_rate_click_to_booking: { organic: number | null; marketing: number | null };
  bookings_confirmed: { organic: number; marketing: number };
  revenue: { organic: string; marketing: string };
  campaigns: CampaignSummary[];
  /** bookings in range made through a channel (decisions §24), which count as unattributed above */
  channels: ChannelSummary[];
}

export interface ChannelSummary {
  channel_id: number;
  name: string;
  bookings: number;
  bookings_confirmed: number;
  revenue: string;
}

/** What a summary or series of the vendor counts: their bots setting, and their currency for revenue. */
async function scopeOf(
  db: Db,
  vendorId: number | null,
  query: RangeQuery,
  now: number,
): Promise<repo.Scope & { timeZone: string }> {
  const id = vendorOf(vendorId);
  const locale = await findVendorLocale(db, id);
  if (!locale) throw notFound('Vendor profile not found.');
  return {
    vendorId: id,
    now,
    includeBots: query.include_bots === true,
    currency: locale.currency,
    timeZone: locale.time_zone,
  };
}

/**
 * The click-to-booking summary of a vendor over [from, to): two aggregate queries on one snapshot (after
 * choosing how to read the range's edge days), all counting done by the database; JavaScript only shapes
 * the at most 50 campaign rows.
 */
export async function summariseVendorClicks(
  deps: MarketingDeps,
  vendorId: number | null,
  query: RangeQuery,
  options: repo.SummaryOptions = {},
): Promise<VendorSummary> {
  const range = { vendorId: vendorOf(vendorId), ...parseRange(query) };
  options = { now: deps.clock.now().getTime(), ...options };
  const [scope, totals, campaigns, channels] = await inReadSnapshot(deps.db, async (db) => {
    const scope = await scopeOf(db, vendorId, query, options.now ?? deps.clock.now().getTime());
    const parts = await repo.summaryParts(db, range, options);
    return [
      scope,
      await repo.summaryTotals(db, scope, parts),
      await repo.campaignRows(db, scope, parts),
      await channelRows(db, scope, range),
    ] as const;
  });
  return {
    from: formatDateTime(range.from),
    to: formatDateTime(range.to),
    currency: scope.currency,
    clicks: {
      organic: totals.clicks_organic,
      marketing: totals.clicks_marketing,
      total: totals.clicks_organic + totals.clicks_marketing,
    },
    bookings_attributed: {
      organic: totals.bookings_organic,
      marketing: totals.bookings_marketing,
      unattributed: totals.bookings_unattributed,
    },
    conversion_rate_click_to_booking: {
      organic: conversionRate(totals.bookings_organic, totals.clicks_organic),
      marketing: conversionRate(totals.bookings_marketing, totals.clicks_marketing),
    },
    bookings_confirmed: { organic: totals.confirmed_organic, marketing: totals.confirmed_marketing },
    revenue: {
      organic: formatMoney(totals.revenue_organic),
      marketing: formatMoney(totals.revenue_marketing),
    },
    campaigns: campaigns.map(({ confirmed, revenue_cents, ...row }) => ({
      ...row,
      conversion_rate: conversionRate(row.bookings, row.clicks),
      bookings_confirmed: confirmed,
      revenue: formatMoney(revenue_cents),
    })),
    channels: channels.map(({ confirmed, revenue_cents, ...row }) => ({
      ...row,
      bookings_confirmed: confirmed,
      revenue: formatMoney(revenue_cents),
    })),
  };
}

// --- time series -----------------------------------------------------------------------------------------

export interface TimeseriesPoint {
  date: string;
  clicks: { organic: number; marketing: number };
  bookings: { organic: number; marketing: number; unattributed: number };
  revenue: string;
}

export interface VendorTimeseries {
  from: string;
  to: string;
  time_zone: string;
  currency: string;
  points: TimeseriesPoint[];
}

/**
 * A vendor's clicks, bookings and revenue per local date of their time zone over [from, to): one point per
 * date the range touches, zeros included, each counting only the part of the range inside its date. The
 * days are cut in JavaScript (Temporal), the counting is done by the database per day, on one snapshot
 * (the time zone and currency read on it too); JavaScript only places the rows in their points.
 */
export async function vendorTimeseries(
  deps: MarketingDeps,
  vendorId: number | null,
  query: RangeQuery,
): Promise<VendorTimeseries> {
  const range = parseRange(query);
  return inReadSnapshot(deps.db, async (db) => {
    const scope = await scopeOf(db, vendorId, query, deps.clock.now().getTime());
    const { timeZone: time_zone, currency } = scope;
    // counted before a day is built: a range of centuries would otherwise be cut into days first
    if (countLocalDays(range.from, range.to, time_zone) > MAX_TIMESERIES_POINTS)
      throw invalidFields({
        to: [`The range may touch at most ${MAX_TIMESERIES_POINTS} dates in the time zone ${time_zone}.`],
      });
    const days = localDays(range.from, range.to, time_zone);
    const counted = days.map((day) => ({
      date: day.date,
      clicks: { organic: 0, marketing: 0 },
      bookings: { organic: 0, marketing: 0, unattributed: 0 },
      revenueCents: 0,
    }));
    for (const row of await clicksPerDay(db, scope, days))
      counted[row.day].clicks[row.traffic_type as TrafficType] += row.count;
    for (const row of await bookingsPerDay(db, scope, days)) {
      counted[row.day].bookings[row.traffic_type || 'unattributed'] += row.count;
      counted[row.day].revenueCents += row.revenue_cents;
    }
    const points = counted.map(({ revenueCents, ...point }) => ({
      ...point,
      revenue: formatMoney(revenueCents),
    }));
    return { from: formatDateTime(range.from), to: formatDateTime(range.to), time_zone, currency, points };
  });
}
