// The vendor dashboard (decisions §18): its own frame and navigation, loaded only when a vendor visits
// /vendor/, so customers never download it. Every page is a client of the public API like any other.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import { lazy, Route, Router, useLocation } from 'preact-iso';
import { useSession } from '../session.tsx';
import { Loading, Notice, Page } from '../ui.tsx';
import { BookingsPage } from './bookings.tsx';
import { ListingEditPage, ListingsPage, NewListingPage } from './listings.tsx';
import { OverviewPage } from './overview.tsx';
import { PromoCodesPage } from './promo-codes.tsx';
import { ResourcesPage } from './resources.tsx';
import { SettingsPage } from './settings.tsx';

// the chart library comes with the analytics page only
const AnalyticsPage = lazy(() => import('./analytics.tsx').then((m) => m.AnalyticsPage));

const SECTIONS = [
  ['/vendor/', 'Overview'],
  ['/vendor/bookings', 'Bookings'],
  ['/vendor/listings', 'Listings'],
  ['/vendor/resources', 'Resources'],
  ['/vendor/promo-codes', 'Promo codes'],
  ['/vendor/analytics', 'Analytics'],
  ['/vendor/settings', 'Settings'],
] as const;

/** The section a dashboard path belongs to: the longest nav path it starts with. */
function currentSection(path: string): string {
  const normalised = path.endsWith('/') ? path : `${path}/`;
  const match = SECTIONS.filter(([href]) => normalised.startsWith(href.endsWith('/') ? href : `${href}/`));
  return match.at(-1)?.[0] ?? '/vendor/';
}

function Frame({ children }: { children: ComponentChildren }) {
  const { user, logOut } = useSession();
  const { path, route } = useLocation();
  const section = currentSection(path);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header vendor-header">
        <a class="brand" href="/vendor/">
          {user?.vendor_profile?.business_name ?? 'Waterbook'}
        </a>
        <nav aria-label="Dashboard">
          <ul>
            {SECTIONS.map(([href, name]) => (
              <li key={href}>
                <a href={href} aria-current={section === href ? 'page' : undefined}>
                  {name}
                </a>
              </li>
            ))}
            {user && (
              <li>
                <a href="/account">Account</a>
              </li>
            )}
            {user && (
              <li>
                <button type="button" class="link-button" onClick={() => logOut().then(() => route('/'))}>
                  Log out
                </button>
              </li>
            )}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        This dashboard page does not exist. <a href="/vendor/">Back to the overview</a>
      </p>
    </Page>
  );
}

/** Only vendors get the dashboard: others are sent to log in, or told it is for vendors. */
export function VendorApp() {
  const { user } = useSession();
  const { url, route } = useLocation();
  useEffect(() => {
    if (user === null) route(`/login?next=${encodeURIComponent(url)}`, true);
  }, [user, url, route]);
  if (!user)
    return (
      <Frame>
        <Loading />
      </Frame>
    );
  if (!user.is_vendor || !user.vendor_profile)
    return (
      <Frame>
        <Page title="Vendor dashboard">
          <Notice>
            The dashboard is for vendors. You are logged in as a customer:{' '}
            <a href="/bookings">see your bookings</a>.
          </Notice>
        </Page>
      </Frame>
    );
  return (
    <Frame>
      <Router>
        <Route path="/" component={OverviewPage} />
        <Route path="/bookings" component={BookingsPage} />
        <Route path="/bookings/:id" component={BookingsPage} />
        <Route path="/listings" component={ListingsPage} />
        <Route path="/listings/new/:kind" component={NewListingPage} />
        <Route path="/listings/:kind/:id" component={ListingEditPage} />
        <Route path="/resources" component={ResourcesPage} />
        <Route path="/promo-codes" component={PromoCodesPage} />
        <Route path="/analytics" component={AnalyticsPage} />
        <Route path="/settings" component={SettingsPage} />
        <Route default component={NotFound} />
      </Router>
    </Frame>
  );
}
