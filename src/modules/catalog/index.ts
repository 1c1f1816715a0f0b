// The catalog module's interface for the rest of the service.
export { ADVENTURE, EQUIPMENT, KINDS, type KindDescriptor } from './kinds.ts';
export {
  findListingById,
  findVisibleListing,
  findVisibleListingByPublicId,
  type ListingRef,
} from './listing-lookup.repository.ts';
