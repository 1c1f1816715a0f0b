import { useRoute } from 'preact-iso';
import { StorefrontListings, StorefrontStatus, useStorefront } from '../components/storefront.tsx';
import { Page } from '../ui.tsx';

/** A vendor's page on the site (`/v/{slug}`): its profile and its listings of both kinds. */
export function StorefrontPage() {
  const { params } = useRoute();
  const { data, error } = useStorefront(params.slug ?? '');
  if (!data) return <StorefrontStatus error={error} />;
  const { vendor } = data;
  const place = [vendor.city, vendor.country].filter(Boolean).join(', ');
  return (
    <Page title={vendor.business_name}>
      {place && <p class="muted">{place}</p>}
      {vendor.description && <p class="description">{vendor.description}</p>}
      {(vendor.contact_email || vendor.contact_phone) && (
        <p>
          Contact:{' '}
          {vendor.contact_email && <a href={`mailto:${vendor.contact_email}`}>{vendor.contact_email}</a>}
          {vendor.contact_email && vendor.contact_phone && ' · '}
          {vendor.contact_phone}
        </p>
      )}
      <StorefrontListings data={data} />
    </Page>
  );
}
