import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Loading } from '../ui.tsx';
import { fetchStorefront, type Listing, type VendorProfile } from './listing.ts';
import { ListingCard } from './listing-card.tsx';

export interface StorefrontData {
  vendor: VendorProfile;
  equipment: Listing[];
  adventures: Listing[];
}

/** A vendor's profile and its active listings of both kinds; undefined while loading. */
export function useStorefront(slug: string): { data?: StorefrontData; error: unknown } {
  const [data, setData] = useState<StorefrontData | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setData(undefined);
    setError(null);
    Promise.all([fetchStorefront('equipment', slug), fetchStorefront('adventure', slug)]).then(
      ([equipment, adventures]) =>
        setData({ vendor: equipment.vendor, equipment: equipment.results, adventures: adventures.results }),
      setError,
    );
  }, [slug]);
  return { data, error };
}

/** The vendor's listings, by kind, as cards whose links stay under `base` (the site, or the embed). */
export function StorefrontListings({
  data,
  base = '',
  query = '',
}: {
  data: StorefrontData;
  base?: string;
  query?: string;
}) {
  const sections = [
    ['Equipment', data.equipment],
    ['Adventures', data.adventures],
  ] as const;
  if (data.equipment.length + data.adventures.length === 0) return <p>No listings yet.</p>;
  return (
    <>
      {sections.map(([title, listings]) =>
        listings.length === 0 ? null : (
          <section key={title} aria-labelledby={`storefront-${title}`} class="stack">
            <h2 id={`storefront-${title}`}>{title}</h2>
            <div class="grid">
              {listings.map((listing) => (
                <ListingCard
                  key={listing.public_id}
                  listing={listing}
                  base={base}
                  showVendor={false}
                  query={query}
                />
              ))}
            </div>
          </section>
        ),
      )}
    </>
  );
}

export function StorefrontStatus({ error }: { error: unknown }) {
  return error ? <ErrorMessage error={error} /> : <Loading what="Loading the storefront" />;
}
