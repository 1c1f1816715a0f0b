import type { ClickSource, Db, ListingKind, TrafficType } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { type CatalogDeps, findPublicListing, KINDS, type ListingRef } from '../catalog/index.ts';
import { findClickById, insertClick } from './clicks.repository.ts';
import {
  classifyTraffic,
  isBotAgent,
  TRACKING_PARAMS,
  type TrackingParam,
  type TrackingParams,
} from './traffic.ts';

export interface RecordClickInput {
  listing: Pick<ListingRef, 'id' | 'kind' | 'vendorId'>;
  source: ClickSource;
  params: TrackingParams;
  referrer?: string;
  userId?: number | null;
  /** the request's User-Agent header: a known crawler's click is stored as a bot's */
  userAgent?: string;
}

export interface RecordedClick {
  marketing_click_id: number;
  traffic_type: TrafficType;
}

/** Stores one listing click (a detail view or an explicit track) and returns its id and traffic type. */
export async function recordListingClick(
  db: Db,
  clock: Clock,
  input: RecordClickInput,
): Promise<RecordedClick> {
  // one loop and one object: the click of every detail view and track passes here
  const tracking = {} as Record<TrackingParam, string>;
  for (const name of TRACKING_PARAMS) tracking[name] = (input.params[name] ?? '').trim();
  const traffic_type = classifyTraffic(tracking);
  const id = await insertClick(db, {
    ...tracking,
    listing_id: input.listing.id,
    listing_kind: input.listing.kind,
    vendor_id: input.listing.vendorId,
    traffic_type,
    source: input.source,
    referrer: input.referrer ?? '',
    user_id: input.userId ?? null,
    is_bot: isBotAgent(input.userAgent) ? 1 : 0,
    created_at: clock.now().getTime(),
  });
  return { marketing_click_id: id, traffic_type };
}

export interface ClickForAttribution {
  id: number;
  listingId: number;
  trafficType: TrafficType;
  createdAt: number;
}

/** A click as booking attribution needs it; the caller decides whether it is valid for its listing. */
export async function findClickForAttribution(
  db: Db,
  clickId: number,
): Promise<ClickForAttribution | undefined> {
  const row = await findClickById(db, clickId);
  return (
    row && { id: row.id, listingId: row.listing_id, trafficType: row.traffic_type, createdAt: row.created_at }
  );
}

export interface TrackClickInput extends Partial<Record<(typeof TRACKING_PARAMS)[number], string | null>> {
  listing_type: ListingKind;
  public_id: string;
  referrer?: string | null;
}

export interface ClickTrackingDeps {
  db: Db;
  clock: Clock;
  /** the catalog's lookups (with its caches) */
  catalog: Pick<CatalogDeps, 'db' | 'lookups'>;
}

/**
 * An explicit click track (POST track/click/): the listing must be publicly visible and of the given
 * type; classified and stored like a detail view's click, with source 'track'. `userId` is the caller
 * when a valid token came with the request.
 */
export async function trackListingClick(
  deps: ClickTrackingDeps,
  input: TrackClickInput,
  userId: number | null,
  userAgent?: string,
): Promise<RecordedClick> {
  const { db, clock } = deps;
  const listing = await findPublicListing(deps.catalog, input.listing_type, input.public_id);
  if (!listing) throw notFound(`${KINDS[input.listing_type].noun} not found.`);
  return recordListingClick(db, clock, {
    listing,
    source: 'track',
    params: input,
    referrer: input.referrer ?? '',
    userId,
    userAgent,
  });
}
