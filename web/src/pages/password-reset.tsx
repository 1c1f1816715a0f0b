// Forgotten passwords (decisions §15): asking for a reset link by email, and setting a new password with
// the link's token. The request's answer is the same for every address, so this page says nothing about
// whether an account exists.
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call } from '../api.ts';
import {
  ErrorMessage,
  Field,
  fieldErrors,
  NewPasswordField,
  Notice,
  onSubmitRun,
  Page,
  useAction,
} from '../ui.tsx';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const send = useAction(async () => {
    const answer = await call(() => api.POST('/api/v1/accounts/password/reset/', { body: { email } }));
    setSent(answer.detail);
  });
  const errors = fieldErrors(send.error);

  return (
    <Page title="Forgot password">
      {sent ? (
        <Notice>{sent}</Notice>
      ) : (
        <form class="stack narrow" onSubmit={onSubmitRun(send.run)}>
          <p>Enter the email of your account and we send you a link to set a new password.</p>
          <ErrorMessage error={send.error} />
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onValue={setEmail}
            error={errors.email}
          />
          <button type="submit" class="button primary" disabled={send.busy}>
            Send reset link
          </button>
        </form>
      )}
      <p>
        <a href="/login">Back to log in</a>
      </p>
    </Page>
  );
}

export function ResetPasswordPage() {
  // the route's own query: the location's may already be the next page's while this one is shown
  const { query } = useRoute();
  const token = query.token ?? '';
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const confirm = useAction(async () => {
    await call(() =>
      api.POST('/api/v1/accounts/password/reset/confirm/', { body: { token, new_password: password } }),
    );
    setDone(true);
  });
  const errors = fieldErrors(confirm.error);

  if (done)
    return (
      <Page title="Reset your password">
        <Notice>
          Your new password is set. <a href="/login">Log in</a>
        </Notice>
      </Page>
    );
  if (!token)
    return (
      <Page title="Reset your password">
        <p>
          This page needs the link from the reset mail. <a href="/forgot-password">Ask for a new link</a>
        </p>
      </Page>
    );
  // a refused token is the link's fault, not the form's: say so and offer a new link
  const tokenRefused = errors.token;
  return (
    <Page title="Reset your password">
      <form class="stack narrow" onSubmit={onSubmitRun(confirm.run)}>
        {tokenRefused ? (
          <p class="alert alert-error" role="alert">
            {tokenRefused.join(' ')} <a href="/forgot-password">Ask for a new link</a>
          </p>
        ) : (
          <ErrorMessage error={confirm.error} />
        )}
        <NewPasswordField
          label="New password"
          value={password}
          onValue={setPassword}
          error={errors.new_password}
          hint="At least 8 characters."
        />
        <button type="submit" class="button primary" disabled={confirm.busy}>
          Set new password
        </button>
      </form>
    </Page>
  );
}
