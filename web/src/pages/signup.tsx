import { useId, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Field, fieldErrors, NewPasswordField, onSubmitRun, Page, useAction } from '../ui.tsx';

/** A customer account by default; "I rent out equipment" registers a vendor with its business name. */
export function SignUpPage() {
  const { query, route } = useLocation();
  const session = useSession();
  const vendorChoice = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstName, setFirstName] = useState('');
  const [isVendor, setIsVendor] = useState(false);
  const [businessName, setBusinessName] = useState('');
  const signUp = useAction(async () => {
    const account = { email, password, first_name: firstName };
    await (isVendor
      ? call(() =>
          api.POST('/api/v1/accounts/register/vendor/', {
            body: { ...account, business_name: businessName },
          }),
        )
      : call(() => api.POST('/api/v1/accounts/register/customer/', { body: account })));
    await session.logIn(email, password);
    const next = query.next;
    route(next?.startsWith('/') && !next.startsWith('//') ? next : isVendor ? '/vendor/' : '/');
  });
  const errors = fieldErrors(signUp.error);

  return (
    <Page title="Sign up">
      <form class="stack narrow" onSubmit={onSubmitRun(signUp.run)}>
        <ErrorMessage error={signUp.error} />
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onValue={setEmail}
          error={errors.email}
        />
        <NewPasswordField
          value={password}
          onValue={setPassword}
          error={errors.password}
          hint="At least 8 characters."
        />
        <Field
          label="First name"
          autoComplete="given-name"
          value={firstName}
          onValue={setFirstName}
          error={errors.first_name}
        />
        <div class="check">
          <input
            id={vendorChoice}
            type="checkbox"
            checked={isVendor}
            onChange={(e) => setIsVendor(e.currentTarget.checked)}
          />
          <label for={vendorChoice}>I rent out equipment or run adventures</label>
        </div>
        {isVendor && (
          <Field
            label="Business name"
            required
            value={businessName}
            onValue={setBusinessName}
            error={errors.business_name}
          />
        )}
        <button type="submit" class="button primary" disabled={signUp.busy}>
          Sign up
        </button>
        <p>
          Have an account?{' '}
          <a href={`/login${query.next ? `?next=${encodeURIComponent(query.next)}` : ''}`}>Log in</a>
        </p>
      </form>
    </Page>
  );
}
