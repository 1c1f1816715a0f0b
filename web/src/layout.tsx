import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { useSession } from './session.tsx';

/** The customer site's frame: a skip link, the header's navigation, the page. */
export function Layout({ children }: { children: ComponentChildren }) {
  const { user, logOut } = useSession();
  const { route } = useLocation();
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <a class="brand" href="/">
          Waterbook
        </a>
        <nav aria-label="Main">
          <ul>
            <li>
              <a href="/">Browse</a>
            </li>
            {user?.is_customer && (
              <li>
                <a href="/bookings">My bookings</a>
              </li>
            )}
            {user?.is_vendor && (
              <li>
                <a href="/vendor/">Vendor dashboard</a>
              </li>
            )}
            {user === null && (
              <>
                <li>
                  <a href="/login">Log in</a>
                </li>
                <li>
                  <a href="/signup">Sign up</a>
                </li>
              </>
            )}
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
      <footer class="site-footer">
        <p>Waterbook: kayaks, paddleboards, dives and boat tours from local vendors.</p>
      </footer>
    </>
  );
}
