import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session.tsx';
import { ErrorMessage, Field, Page } from '../ui.tsx';

/** Where to go after logging in: `?next=` when it is a path of this site, else the user's home. */
function nextPath(query: Record<string, string>, isVendor: boolean): string {
  const next = query.next;
  if (next?.startsWith('/') && !next.startsWith('//')) return next;
  return isVendor ? '/vendor/' : '/bookings';
}

export function LogInPage() {
  const { query, route } = useLocation();
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = await session.logIn(email, password);
      route(nextPath(query, user.is_vendor));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title="Log in">
      <form class="stack narrow" onSubmit={submit}>
        <ErrorMessage error={error} />
        <Field label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <button type="submit" class="button primary" disabled={busy}>
          Log in
        </button>
        <p>
          <a href="/forgot-password">Forgot password?</a>
        </p>
        <p>
          New here?{' '}
          <a href={`/signup${query.next ? `?next=${encodeURIComponent(query.next)}` : ''}`}>Sign up</a>
        </p>
      </form>
    </Page>
  );
}
