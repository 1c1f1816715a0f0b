import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../session.tsx';
import { ErrorMessage, Field, onSubmitRun, Page, useAction } from '../ui.tsx';

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
  const logIn = useAction(async () => {
    const user = await session.logIn(email, password);
    route(nextPath(query, user.is_vendor));
  });

  return (
    <Page title="Log in">
      <form class="stack narrow" onSubmit={onSubmitRun(logIn.run)}>
        <ErrorMessage error={logIn.error} />
        <Field label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <button type="submit" class="button primary" disabled={logIn.busy}>
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
