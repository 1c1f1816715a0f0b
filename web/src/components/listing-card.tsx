import { type Listing, listingPath, photosOf, placeOf, priceLabel } from './listing.ts';

/**
 * One listing in a grid: photo (or a neutral placeholder), title linking to its page, price, place and the
 * vendor. `base` keeps links inside the embed; `showVendor` is off where every card is the same vendor's.
 */
export function ListingCard({
  listing,
  base = '',
  showVendor = true,
  query = '',
}: {
  listing: Listing;
  base?: string;
  showVendor?: boolean;
  /** appended to the listing's link (the embed passes its campaign parameters on) */
  query?: string;
}) {
  const [photo] = photosOf(listing);
  return (
    <article class="card listing-card">
      {photo ? (
        <img class="listing-photo" src={photo.thumbnail_url} alt={photo.alt} width={400} loading="lazy" />
      ) : (
        <div class="listing-photo photo-placeholder" aria-hidden="true" />
      )}
      <h3>
        <a href={listingPath(listing, base) + query}>{listing.title}</a>
      </h3>
      <p class="price">{priceLabel(listing)}</p>
      {placeOf(listing) && <p class="muted">{placeOf(listing)}</p>}
      {showVendor && (
        <p class="muted">
          by <a href={`/v/${encodeURIComponent(listing.vendor.slug)}`}>{listing.vendor.business_name}</a>
        </p>
      )}
    </article>
  );
}

/** The listing's photos as thumbnails, each opening its full size; nothing when it has none. */
export function PhotoGallery({ listing }: { listing: Listing }) {
  const photos = photosOf(listing);
  if (photos.length === 0) return <div class="photo-placeholder gallery-placeholder" aria-hidden="true" />;
  return (
    <ul class="gallery" aria-label="Photos">
      {photos.map((photo) => (
        <li key={photo.id}>
          <a href={photo.url} target="_blank" rel="noopener">
            <img src={photo.thumbnail_url} alt={photo.alt || listing.title} width={400} loading="lazy" />
          </a>
        </li>
      ))}
    </ul>
  );
}
