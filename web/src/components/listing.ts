// The two kinds of listing (equipment items, adventure offerings) as the customer pages use them: one
// place that knows their paths, price fields and API endpoints, so every page treats them alike.
import { api, call, type Schemas } from '../api.ts';
import { money } from '../format.ts';

export type Equipment = Schemas['EquipmentItem'];
export type Adventure = Schemas['AdventureOffering'];
export type Listing = Equipment | Adventure;
export type ListingKind = 'equipment' | 'adventure';
export type VendorProfile = Schemas['VendorProfile'];

/** A listing photo (decisions §16), as the photos API adds it to listing objects. */
export interface Photo {
  id: number;
  url: string;
  thumbnail_url: string;
  width: number;
  height: number;
  alt: string;
  position: number;
}

/** The listing's photos by position; none until the photos API gives listings a `photos` field. */
export const photosOf = (listing: Listing): Photo[] =>
  [...((listing as { photos?: Photo[] }).photos ?? [])].sort((a, b) => a.position - b.position);

export const isEquipment = (listing: Listing): listing is Equipment => 'price_per_day' in listing;

/** An adventure on a schedule (decisions §19): it is booked by departure, never by a free start time. */
export const isScheduled = (listing: Listing): listing is Adventure =>
  !isEquipment(listing) && listing.schedule.length > 0;
export const kindOf = (listing: Listing): ListingKind => (isEquipment(listing) ? 'equipment' : 'adventure');

/** The path segment of a kind's pages: /equipment/{id}, /adventures/{id}. */
export const KIND_SEGMENT: Record<ListingKind, string> = { equipment: 'equipment', adventure: 'adventures' };

/** The page of a listing, on the site (base '') or inside the embed (base '/embed/{slug}'). */
export const listingPath = (listing: Listing, base = '') =>
  `${base}/${KIND_SEGMENT[kindOf(listing)]}/${encodeURIComponent(listing.public_id)}`;

export const unitPrice = (listing: Listing) =>
  isEquipment(listing) ? listing.price_per_day : listing.price_per_person;

export const priceLabel = (listing: Listing) =>
  `${money(unitPrice(listing), listing.currency)} ${isEquipment(listing) ? 'per day' : 'per person'}`;

export const placeOf = (listing: Listing) =>
  isEquipment(listing) ? listing.location : listing.meeting_point;

/** The listing's cancellation policy in words (decisions §12). */
export function policyWords(policy: Schemas['CancellationPolicy']): string {
  const free =
    policy.free_cancellation_hours === 0
      ? 'Free cancellation until the start.'
      : `Free cancellation up to ${policy.free_cancellation_hours} hours before the start.`;
  if (policy.free_cancellation_hours === 0) return free;
  const late =
    policy.late_refund_percent === 0
      ? 'After that, no refund.'
      : `After that, ${policy.late_refund_percent}% of the price is refunded.`;
  return `${free} ${late}`;
}

/** The page query parameters a campaign link carries, passed on to the detail view (decisions §18). */
export const TRACKING_PARAMS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
  'fbclid',
] as const;

/** The tracking parameters of a page's query, and nothing else. */
export function trackingOf(query: Record<string, string>): Record<string, string> {
  const tracking: Record<string, string> = {};
  for (const name of TRACKING_PARAMS) if (query[name]) tracking[name] = query[name];
  return tracking;
}

/** `?a=1&b=2` of the non-empty values, or '' when there are none. */
export function queryString(values: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

const clickKey = (kind: ListingKind, publicId: string) => `waterbook:click:${kind}:${publicId}`;

/**
 * The detail view's marketing_click_id is kept for the tab (sessionStorage), so a log-in between viewing
 * and booking keeps the booking attributed to the click. A frame whose storage is blocked keeps none.
 */
export function rememberClick(kind: ListingKind, publicId: string, clickId: number): void {
  try {
    sessionStorage.setItem(clickKey(kind, publicId), String(clickId));
  } catch {
    // storage refused (a third-party frame): the booking made now still carries the click from memory
  }
}

export function rememberedClick(kind: ListingKind, publicId: string): number | null {
  try {
    const stored = Number(sessionStorage.getItem(clickKey(kind, publicId)));
    return Number.isInteger(stored) && stored > 0 ? stored : null;
  } catch {
    return null;
  }
}

/** The listing's detail view; `tracking` carries the page's campaign parameters and referrer. */
export function fetchListing(kind: ListingKind, publicId: string, tracking: Record<string, string>) {
  const path = { public_id: publicId };
  return kind === 'equipment'
    ? call(() => api.GET('/api/v1/equipment/items/{public_id}/', { params: { path, query: tracking } }))
    : call(() => api.GET('/api/v1/adventrues/offerings/{public_id}/', { params: { path, query: tracking } }));
}

/**
 * A scheduled offering's departures starting in [from, to) (the API's default: the coming 14 days), each
 * with its local date and time in the vendor's zone, seats left and status, as the API computes them.
 */
export function fetchDepartures(publicId: string, range: { from?: string; to?: string } = {}) {
  return call(() =>
    api.GET('/api/v1/adventrues/offerings/{public_id}/departures/', {
      params: { path: { public_id: publicId }, query: range },
    }),
  );
}
export type DepartureList = Awaited<ReturnType<typeof fetchDepartures>>;
export type Departure = DepartureList['departures'][number];

/** The list query of both kinds (listings.schemas.ts listQuery). */
export interface ListingSearch {
  search?: string;
  category?: string;
  location?: string;
  min_price?: string;
  max_price?: string;
  available_from?: string;
  available_to?: string;
  vendor_slug?: string;
  page?: number;
  page_size?: number;
}

export function searchListings(kind: ListingKind, query: ListingSearch) {
  return kind === 'equipment'
    ? call(() => api.GET('/api/v1/equipment/items/', { params: { query } }))
    : call(() => api.GET('/api/v1/adventrues/offerings/', { params: { query } }));
}

/** A vendor's profile and one page of its active listings of a kind. */
export function fetchStorefront(kind: ListingKind, slug: string, page_size = 100) {
  const params = { path: { slug }, query: { page_size } };
  return kind === 'equipment'
    ? call(() => api.GET('/api/v1/equipment/storefront/{slug}/', { params }))
    : call(() => api.GET('/api/v1/adventrues/storefront/{slug}/', { params }));
}
