// Joining a vendor's team (decisions §25, §26): the invitation mail's link opens /join?token=...; the
// invitee gives a name and a password, the API makes their account (the invitation's email and role), and
// the page signs them in and opens the dashboard.
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, call } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Field, fieldErrors, NewPasswordField, onSubmitRun, Page, useAction } from '../ui.tsx';

export function JoinPage() {
  // the route's own query: the location's may already be the next page's while this one is shown
  const { query } = useRoute();
  const token = query.token ?? '';
  const { route } = useLocation();
  const { logIn } = useSession();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const join = useAction(async () => {
    const account = await call(() =>
      api.POST('/api/v1/accounts/team/invitations/accept/', {
        body: { token, password, first_name: firstName.trim(), last_name: lastName.trim() },
      }),
    );
    await logIn(account.email, password);
    route('/vendor/');
  });
  const errors = fieldErrors(join.error);
  if (!token)
    return (
      <Page title="Join a team">
        <p>This page needs the link from your invitation mail. Ask the shop's owner to invite you again.</p>
      </Page>
    );
  return (
    <Page title="Join a team">
      <form class="stack narrow" onSubmit={onSubmitRun(join.run)} noValidate>
        <p>You were invited to a shop's team on Waterbook. Choose your name and a password to join.</p>
        {errors.token ? (
          // a refused token is the link's fault, not the form's
          <p class="alert alert-error" role="alert">
            {errors.token.join(' ')} Ask the shop's owner to invite you again.
          </p>
        ) : (
          <ErrorMessage error={join.error} />
        )}
        <Field
          label="First name"
          autoComplete="given-name"
          required
          value={firstName}
          onValue={setFirstName}
          error={errors.first_name}
        />
        <Field
          label="Last name"
          autoComplete="family-name"
          required
          value={lastName}
          onValue={setLastName}
          error={errors.last_name}
        />
        <NewPasswordField value={password} onValue={setPassword} error={errors.password} />
        <button type="submit" class="button primary" disabled={join.busy}>
          Join
        </button>
      </form>
    </Page>
  );
}
