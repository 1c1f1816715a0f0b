import { VersionedCache } from '../../lib/versioned-cache.ts';

/**
 * Public list pages as encoded response bodies, kept per request (requests differing only in ignored
 * query parameters are separate entries) and tagged with the catalog version they were read at; the
 * cache of ListingResponses (listings.responses.ts). Bounded by the bytes it holds; a body larger than
 * the whole budget is not kept.
 */
export class ListCache extends VersionedCache<Buffer> {
  constructor(maxBytes = 8 * 1024 * 1024) {
    // an empty body counts as one byte: the bound needs a positive size
    super({ maxSize: maxBytes, sizeCalculation: (entry) => entry.value.length || 1 });
  }

  get bytes(): number {
    return this.calculatedSize;
  }
}
