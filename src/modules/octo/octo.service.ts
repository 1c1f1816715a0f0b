import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { findVendorById } from '../accounts/index.ts';
import type { BookingDeps } from '../booking/index.ts';
import {
  findVendorVisibleListings,
  findVendorVisibleListingsByPublicId,
  type ListingRef,
} from '../catalog/index.ts';
import type { ChannelIdentity } from '../channels/index.ts';
import { invalidProductId, OctoError } from './octo.errors.ts';
import { parseProductId, productIdOf, toOctoSupplier } from './octo.mapping.ts';
import { toOctoProduct } from './octo.products.ts';

// The OCTO supplier API's reads (decisions §24). Every function takes the authenticated channel and reads
// its vendor's data only: a product of another vendor is an unknown product.

export interface OctoDeps {
  db: Kysely<Database>;
  /** the platform's booking path, which a reserve and a channel's moves go through */
  booking: BookingDeps;
  clock: Clock;
  /** the OCTO API's base URL as resellers reach it ({PUBLIC_URL}/octo/v1) */
  endpoint: string;
}

/** GET supplier. */
export async function getSupplier(deps: OctoDeps, channel: ChannelIdentity) {
  const vendor = await findVendorById(deps.db, channel.vendorId);
  // a channel always has its vendor (a foreign key); missing means a broken database, not a caller's error
  if (!vendor)
    throw new OctoError({ error: 'INTERNAL_SERVER_ERROR', errorMessage: 'The supplier is missing' });
  return toOctoSupplier({ id: vendor.id, ...vendor.profile }, deps.endpoint);
}

/** Listings with their product ids: a public id both an item and an offering have is ambiguous. */
function withProductIds(listings: ListingRef[]): { listing: ListingRef; productId: string }[] {
  const kindsOf = new Map<string, number>();
  for (const l of listings) kindsOf.set(l.publicId, (kindsOf.get(l.publicId) ?? 0) + 1);
  return listings.map((listing) => ({
    listing,
    productId: productIdOf(listing, (kindsOf.get(listing.publicId) ?? 0) > 1),
  }));
}

/** The channel's vendor's visible listing a product id names, or INVALID_PRODUCT_ID. */
export async function productOf(deps: OctoDeps, channel: ChannelIdentity, productId: string) {
  const key = parseProductId(productId);
  if (!key) throw invalidProductId(productId);
  const candidates = withProductIds(
    await findVendorVisibleListingsByPublicId(deps.db, channel.vendorId, key.publicId),
  );
  const found = candidates.find((c) => c.productId === productId);
  if (!found) throw invalidProductId(productId);
  return found;
}

/** GET products: every visible listing of the vendor, oldest first. */
export async function listProducts(deps: OctoDeps, channel: ChannelIdentity) {
  const listings = await findVendorVisibleListings(deps.db, channel.vendorId);
  return withProductIds(listings).map(({ listing, productId }) => toOctoProduct(listing, productId));
}

/** GET products/{id}. */
export async function getProduct(deps: OctoDeps, channel: ChannelIdentity, productId: string) {
  const { listing } = await productOf(deps, channel, productId);
  return toOctoProduct(listing, productId);
}
