// The catalog module's interface for the rest of the service.
export { catalogRoutes } from './catalog.routes.ts';
export { ADVENTURE, EQUIPMENT, KINDS, type KindDescriptor, type ListingAttribute } from './kinds.ts';
export { ListCache } from './list-cache.ts';
export {
  findListingById,
  findVendorVisibleListings,
  findVendorVisibleListingsByPublicId,
  findVisibleListing,
  type ListingRef,
} from './listing-lookup.repository.ts';
export { type ListingsWhere, lockOwnListing } from './listings.repository.ts';
export { vendorIdOf } from './listings.routes.ts';
export { CancellationPolicySchema, TRACKING_PARAMS, type TrackingParam } from './listings.schemas.ts';
export {
  type AvailabilityFilter,
  type CatalogDeps,
  type CheckLimitEdit,
  createCatalogDeps,
  type DetailViewClick,
  findPublicListing,
  type LimitEdit,
  type ListingLookups,
  type RecordClick,
} from './listings.service.ts';
