// The vendor dashboard (decisions §18): its own frame and navigation, loaded only when a vendor visits
// /vendor/, so customers never download it. Every page is a client of the public API like any other.
import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect } from 'preact/hooks';
import { lazy, Route, Router, useLocation } from 'preact-iso';
import { api, call } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Loading, Notice, Page } from '../ui.tsx';
import { BookingsPage } from './bookings.tsx';
import { ChannelsPage } from './channels.tsx';
import { useLoad } from './data.ts';
import { ListingEditPage, ListingsPage, NewListingPage } from './listings.tsx';
import { OverviewPage } from './overview.tsx';
import { type Operation, PermissionsProvider, useMay } from './permissions.tsx';
import { PromoCodesPage } from './promo-codes.tsx';
import { ResourcesPage } from './resources.tsx';
import { SettingsPage } from './settings.tsx';
import { TeamPage } from './team.tsx';
import { TodayPage } from './today.tsx';

// the chart library comes with the analytics page only
const AnalyticsPage = lazy(() => import('./analytics.tsx').then((m) => m.AnalyticsPage));

/**
 * The dashboard's sections, each with the API operation it is built on: a member whose role may not call
 * it (decisions §25) neither sees the section nor opens its page. Bookings needs no role (every member
 * reads the vendor's bookings).
 */
const SECTIONS: readonly (readonly [href: string, name: string, needs?: Operation])[] = [
  ['/vendor/', 'Overview', 'GET /api/v1/marketing/vendor/summary/'],
  ['/vendor/today', 'Today', 'GET /api/v1/booking/vendor/manifest/'],
  ['/vendor/bookings', 'Bookings'],
  ['/vendor/listings', 'Listings', 'POST /api/v1/equipment/vendor/items/'],
  ['/vendor/resources', 'Resources', 'POST /api/v1/booking/vendor/resources/'],
  ['/vendor/promo-codes', 'Promo codes', 'GET /api/v1/booking/vendor/promo-codes/'],
  ['/vendor/analytics', 'Analytics', 'GET /api/v1/marketing/vendor/summary/'],
  ['/vendor/team', 'Team', 'GET /api/v1/accounts/team/'],
  ['/vendor/channels', 'Channels', 'GET /api/v1/channels/'],
  ['/vendor/settings', 'Settings', 'PATCH /api/v1/accounts/vendor-profile/me/'],
];

/** The sections the member's role may open, in the navigation's order. */
function useSections() {
  const may = useMay();
  return SECTIONS.filter(([, , needs]) => may(needs));
}

/** A section's page, or, for a role that may not open it, where to go instead. */
function guarded(href: string, Component: ComponentType<Record<string, unknown>>) {
  const needs = SECTIONS.find(([h]) => h === href)?.[2];
  return function Guarded(props: Record<string, unknown>) {
    const may = useMay();
    const sections = useSections();
    const { route } = useLocation();
    const home = sections[0]?.[0] ?? '/vendor/bookings';
    const allowed = may(needs);
    // the overview is the dashboard's front door: a member who may not see it starts at their first section
    useEffect(() => {
      if (!allowed && href === '/vendor/') route(home, true);
    }, [allowed, home, route]);
    if (allowed) return <Component {...props} />;
    return (
      <Page title="Not part of your role">
        <p>
          Your role on this team does not include this page. <a href={home}>Go to your dashboard</a>
        </p>
      </Page>
    );
  };
}

const Overview = guarded('/vendor/', OverviewPage as ComponentType<Record<string, unknown>>);
const Today = guarded('/vendor/today', TodayPage as ComponentType<Record<string, unknown>>);
const Listings = guarded('/vendor/listings', ListingsPage as ComponentType<Record<string, unknown>>);
const NewListing = guarded('/vendor/listings', NewListingPage as ComponentType<Record<string, unknown>>);
const ListingEdit = guarded('/vendor/listings', ListingEditPage as ComponentType<Record<string, unknown>>);
const Resources = guarded('/vendor/resources', ResourcesPage as ComponentType<Record<string, unknown>>);
const PromoCodes = guarded('/vendor/promo-codes', PromoCodesPage as ComponentType<Record<string, unknown>>);
const Analytics = guarded('/vendor/analytics', AnalyticsPage as ComponentType<Record<string, unknown>>);
const Team = guarded('/vendor/team', TeamPage as ComponentType<Record<string, unknown>>);
const Channels = guarded('/vendor/channels', ChannelsPage as ComponentType<Record<string, unknown>>);
const Settings = guarded('/vendor/settings', SettingsPage as ComponentType<Record<string, unknown>>);

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
  const sections = useSections();
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
            {sections.map(([href, name]) => (
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
  return <Dashboard userId={user.id} role={user.vendor_role} />;
}

/** The dashboard of one member: what their role may do is loaded first (and again when the role changes). */
function Dashboard({ userId, role }: { userId: number; role: string | null }) {
  const permissions = useLoad(
    () => call(() => api.GET('/api/v1/accounts/team/permissions/')),
    [userId, role],
  );
  if (!permissions.data)
    return (
      // nothing the role may do is known yet: the frame shows only what every member may
      <PermissionsProvider operations={[]}>
        <Frame>
          <ErrorMessage error={permissions.error} />
          {!permissions.error && <Loading />}
        </Frame>
      </PermissionsProvider>
    );
  return (
    <PermissionsProvider operations={permissions.data.operations}>
      <Frame>
        <Router>
          <Route path="/" component={Overview} />
          <Route path="/today" component={Today} />
          <Route path="/bookings" component={BookingsPage} />
          <Route path="/bookings/:id" component={BookingsPage} />
          <Route path="/listings" component={Listings} />
          <Route path="/listings/new/:kind" component={NewListing} />
          <Route path="/listings/:kind/:id" component={ListingEdit} />
          <Route path="/resources" component={Resources} />
          <Route path="/promo-codes" component={PromoCodes} />
          <Route path="/analytics" component={Analytics} />
          <Route path="/team" component={Team} />
          <Route path="/channels" component={Channels} />
          <Route path="/settings" component={Settings} />
          <Route default component={NotFound} />
        </Router>
      </Frame>
    </PermissionsProvider>
  );
}
