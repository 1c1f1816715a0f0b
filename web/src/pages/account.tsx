// The signed-in user's own account (decisions §15): name and phone, and the password. A password change
// revokes every refresh token of the user, the web session's cookie too, so the page says so and logs out
// rather than pretend the session goes on.
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../api.ts';
import { type User, useSession } from '../session.tsx';
import {
  ErrorMessage,
  Field,
  fieldErrors,
  Loading,
  NewPasswordField,
  Notice,
  onSubmitRun,
  Page,
  useAction,
} from '../ui.tsx';

/** The fields of PATCH me/, with the browser's autofill names and the API's lengths. */
const PROFILE_FIELDS = [
  { key: 'first_name', label: 'First name', autoComplete: 'given-name', maxLength: 150 },
  { key: 'last_name', label: 'Last name', autoComplete: 'family-name', maxLength: 150 },
  { key: 'phone_number', label: 'Phone', autoComplete: 'tel', maxLength: 40, type: 'tel' },
] as const;
type ProfileDraft = Record<(typeof PROFILE_FIELDS)[number]['key'], string>;

function ProfileForm({ user }: { user: User }) {
  const session = useSession();
  const [draft, setDraft] = useState<ProfileDraft>(() => ({
    first_name: user.first_name,
    last_name: user.last_name,
    phone_number: user.phone_number,
  }));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await call(() => api.PATCH('/api/v1/accounts/me/', { body: draft }));
    await session.reload();
    setSaved(true);
  });
  const errors = fieldErrors(save.error);
  const set = (key: keyof ProfileDraft) => (value: string) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };

  return (
    <form class="stack narrow" onSubmit={onSubmitRun(save.run)} aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <p>
        Email: <strong>{user.email}</strong>
      </p>
      <ErrorMessage error={save.error} />
      {PROFILE_FIELDS.map(({ key, ...field }) => (
        <Field key={key} {...field} value={draft[key]} onValue={set(key)} error={errors[key]} />
      ))}
      {saved && <Notice>Profile saved.</Notice>}
      <button type="submit" class="button primary" disabled={save.busy}>
        Save
      </button>
    </form>
  );
}

function PasswordForm({ onChanged }: { onChanged: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useAction(async () => {
    await call(() =>
      api.POST('/api/v1/accounts/password/change/', {
        body: { current_password: current, new_password: next },
      }),
    );
    onChanged();
  });
  const errors = fieldErrors(change.error);

  return (
    <form class="stack narrow" onSubmit={onSubmitRun(change.run)} aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <ErrorMessage error={change.error} />
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        value={current}
        onValue={setCurrent}
        error={errors.current_password}
      />
      <NewPasswordField
        label="New password"
        value={next}
        onValue={setNext}
        error={errors.new_password}
        hint="At least 8 characters. Changing it logs you out everywhere."
      />
      <button type="submit" class="button primary" disabled={change.busy}>
        Change password
      </button>
    </form>
  );
}

export function AccountPage() {
  const session = useSession();
  const { user } = session;
  const { route } = useLocation();
  const [passwordChanged, setPasswordChanged] = useState(false);
  useEffect(() => {
    if (user === null && !passwordChanged) route(`/login?next=${encodeURIComponent('/account')}`, true);
  }, [user, passwordChanged, route]);

  if (passwordChanged)
    return (
      <Page title="Account">
        <Notice>
          Password changed. Please log in again. <a href="/login?next=%2Faccount">Log in</a>
        </Notice>
      </Page>
    );
  if (!user) return <Loading />;
  return (
    <Page title="Account">
      <ProfileForm user={user} />
      <PasswordForm
        onChanged={() => {
          setPasswordChanged(true);
          // every session of the user has just been revoked: end this page's too
          void session.logOut();
        }}
      />
    </Page>
  );
}
