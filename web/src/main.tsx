import type { ComponentType } from 'preact';
import { render } from 'preact';
import { ErrorBoundary, LocationProvider, lazy, Route, Router } from 'preact-iso';
import { Layout } from './layout.tsx';
import { LogInPage } from './pages/login.tsx';
import { NotFound } from './pages/not-found.tsx';
import { SessionProvider } from './session.tsx';
import './styles.css';

// Every page of the customer site; the vendor dashboard and the embeddable storefront are loaded only when
// visited, so a customer's phone never downloads them (nor the chart library).
const Home = lazy(() => import('./pages/home.tsx').then((m) => m.HomePage));
const Listing = lazy(() => import('./pages/listing.tsx').then((m) => m.ListingPage));
const Storefront = lazy(() => import('./pages/storefront.tsx').then((m) => m.StorefrontPage));
const SignUp = lazy(() => import('./pages/signup.tsx').then((m) => m.SignUpPage));
const Account = lazy(() => import('./pages/account.tsx').then((m) => m.AccountPage));
const ForgotPassword = lazy(() => import('./pages/password-reset.tsx').then((m) => m.ForgotPasswordPage));
const ResetPassword = lazy(() => import('./pages/password-reset.tsx').then((m) => m.ResetPasswordPage));
const Join = lazy(() => import('./pages/join.tsx').then((m) => m.JoinPage));
const MyBookings = lazy(() => import('./pages/bookings.tsx').then((m) => m.MyBookingsPage));
const Vendor = lazy(() => import('./vendor/index.tsx').then((m) => m.VendorApp));
const Embed = lazy(() => import('./embed/index.tsx').then((m) => m.EmbedApp));

/** A customer-site page inside the site's frame (the dashboard and the embed have frames of their own). */
function inSite<P extends object>(Page: ComponentType<P>) {
  return (props: P) => (
    <Layout>
      <Page {...props} />
    </Layout>
  );
}

const routes = {
  home: inSite(Home),
  login: inSite(LogInPage),
  signUp: inSite(SignUp),
  account: inSite(Account),
  forgotPassword: inSite(ForgotPassword),
  resetPassword: inSite(ResetPassword),
  join: inSite(Join),
  myBookings: inSite(MyBookings),
  listing: inSite(Listing),
  storefront: inSite(Storefront),
  notFound: inSite(NotFound),
};

function App() {
  return (
    <LocationProvider>
      <SessionProvider>
        <ErrorBoundary>
          {/* the server answers these paths with the page shell: PAGE_ROUTES in src/web/web.routes.ts */}
          <Router>
            <Route path="/" component={routes.home} />
            <Route path="/login" component={routes.login} />
            <Route path="/signup" component={routes.signUp} />
            <Route path="/account" component={routes.account} />
            <Route path="/forgot-password" component={routes.forgotPassword} />
            <Route path="/reset-password" component={routes.resetPassword} />
            <Route path="/join" component={routes.join} />
            <Route path="/bookings" component={routes.myBookings} />
            <Route path="/bookings/:id" component={routes.myBookings} />
            <Route path="/equipment/:public_id" component={routes.listing} />
            <Route path="/adventures/:public_id" component={routes.listing} />
            <Route path="/v/:slug" component={routes.storefront} />
            <Route path="/vendor/*" component={Vendor} />
            <Route path="/vendor" component={Vendor} />
            <Route path="/embed/:slug/*" component={Embed} />
            <Route path="/embed/:slug" component={Embed} />
            <Route default component={routes.notFound} />
          </Router>
        </ErrorBoundary>
      </SessionProvider>
    </LocationProvider>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
