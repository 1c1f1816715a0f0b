import { Route, Router, useRoute } from 'preact-iso';
import { queryString, trackingOf } from '../components/listing.ts';
import { StorefrontListings, StorefrontStatus, useStorefront } from '../components/storefront.tsx';
import { ListingPage } from '../pages/listing.tsx';
import { NotFound } from '../pages/not-found.tsx';
import { Page } from '../ui.tsx';

/**
 * The embeddable storefront (`/embed/{vendor_slug}/`), for an iframe on the vendor's own site: a compact
 * frame without the site's header, whose links stay inside the frame. The site's session cookie is
 * SameSite=Strict, so a frame on another site is never logged in: booking there opens the site's login in
 * a new tab, with the listing page and its campaign as `next` (decisions §18 attribution survives).
 */
export function EmbedApp() {
  const { params } = useRoute();
  const slug = params.slug ?? '';
  const base = `/embed/${encodeURIComponent(slug)}`;
  return (
    <div class="embed">
      <main id="main">
        <Router>
          <Route path="/" component={() => <EmbedStorefront slug={slug} base={base} />} />
          <Route path="/equipment/:public_id" component={() => <ListingPage base={base} />} />
          <Route path="/adventures/:public_id" component={() => <ListingPage base={base} />} />
          <Route default component={NotFound} />
        </Router>
      </main>
      <footer class="embed-footer">
        <a href="/" target="_blank" rel="noopener">
          Booking by Waterbook
        </a>
      </footer>
    </div>
  );
}

function EmbedStorefront({ slug, base }: { slug: string; base: string }) {
  const { query } = useRoute();
  const { data, error } = useStorefront(slug);
  if (!data) return <StorefrontStatus error={error} />;
  return (
    <Page title={data.vendor.business_name}>
      <StorefrontListings data={data} base={base} query={queryString(trackingOf(query))} />
    </Page>
  );
}
