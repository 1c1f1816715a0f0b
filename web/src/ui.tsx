// The building blocks every page uses: labelled fields (a screen reader and the browser tests find each
// control by its label, decisions §18), buttons, error and status messages, the page frame.
import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ApiError } from './api.ts';

/** The input attributes pages use; everything else about a field is decided here. */
interface InputAttributes {
  type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'datetime-local' | 'search' | 'tel' | 'url';
  required?: boolean;
  disabled?: boolean;
  /** shown to be selected and copied, not edited (a secret URL) */
  readOnly?: boolean;
  autoComplete?: string;
  placeholder?: string;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  maxLength?: number;
  name?: string;
}

type InputProps = InputAttributes & {
  label: string;
  value: string;
  onValue: (value: string) => void;
  /** the API's message for this field, if the last attempt was refused */
  error?: string[];
  hint?: string;
};

/** The ids of a field's hint and error, which a screen reader reads after the field's name. */
const describedBy = (id: string, hint?: string, error?: string[]) =>
  [hint && `${id}-hint`, error?.length && `${id}-error`].filter(Boolean).join(' ') || undefined;

/** A field's hint and the API's message for it, each under its own id for `aria-describedby`. */
function FieldMessages({ id, hint, error }: { id: string; hint?: string; error?: string[] }) {
  return (
    <>
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error?.length ? (
        <small id={`${id}-error`} class="field-error">
          {error.join(' ')}
        </small>
      ) : null}
    </>
  );
}

export function Field({ label, value, onValue, error, hint, ...input }: InputProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        // Preact types <input> as one union member per `type`; the attributes above suit every one
        {...(input as Record<string, unknown>)}
      />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A field for a new password (sign-up, joining a team, a reset, a change): the browser may offer to make
 * one up, and the hint states the API's rule, whose refusals show at the field.
 */
export function NewPasswordField({
  label = 'Password',
  value,
  onValue,
  error,
  hint = 'At least 8 characters, not only digits.',
}: {
  label?: string;
  value: string;
  onValue: (value: string) => void;
  error?: string[];
  hint?: string;
}) {
  return (
    <Field
      label={label}
      type="password"
      autoComplete="new-password"
      required
      value={value}
      onValue={onValue}
      error={error}
      hint={hint}
    />
  );
}

type SelectProps = {
  required?: boolean;
  disabled?: boolean;
  name?: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  options: readonly (readonly [value: string, text: string])[];
  error?: string[];
};

export function Select({ label, value, onValue, options, error, ...select }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onInput={(e) => onValue(e.currentTarget.value)} {...select}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {error?.length ? <small class="field-error">{error.join(' ')}</small> : null}
    </div>
  );
}

/** An error from the API (or anything thrown) as a message a person can act on, announced when it appears. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const text =
    error instanceof ApiError
      ? error.status === 429
        ? 'Too many attempts. Please wait a moment and try again.'
        : error.message
      : 'Something went wrong. Please try again.';
  return (
    <p class="alert alert-error" role="alert">
      {text}
    </p>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="alert alert-info" role="status">
      {children}
    </p>
  );
}

/**
 * A form's or button's action against the API: `busy` while it runs (to disable the button), and the error
 * it ended with, if any, for `ErrorMessage` and the fields' messages; a new run clears the last error.
 */
export function useAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** A form's submit handler that runs `run` instead of the browser's own submission. */
export const onSubmitRun = (run: () => Promise<void>) => (event: Event) => {
  event.preventDefault();
  void run();
};

/** The per-field messages of a refused request, for the fields' `error` props. */
export const fieldErrors = (error: unknown): Record<string, string[]> =>
  error instanceof ApiError ? error.fields : {};

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="loading" role="status">
      {what}…
    </p>
  );
}

/** Sets the document title for the page (screen readers announce it on navigation). */
export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  if (typeof document !== 'undefined') document.title = `${title} · Waterbook`;
  return (
    <section class="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {children}
    </section>
  );
}

/* vendor dashboard */

/** A labelled multi-line text field, with the API's message for it like `Field`. */
export function TextArea({
  label,
  value,
  onValue,
  error,
  hint,
  readOnly,
  rows = 4,
}: {
  label: string;
  value: string;
  onValue?: (value: string) => void;
  error?: string[];
  hint?: string;
  readOnly?: boolean;
  rows?: number;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        readOnly={readOnly}
        onInput={onValue && ((e) => onValue(e.currentTarget.value))}
        aria-invalid={error?.length ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A labelled checkbox. */
export function Checkbox({
  label,
  checked,
  onChecked,
  error,
}: {
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  error?: string[];
}) {
  const id = useId();
  return (
    <div class="field checkbox-field">
      <span>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChecked(e.currentTarget.checked)}
        />{' '}
        <label for={id}>{label}</label>
      </span>
      {error?.length ? <small class="field-error">{error.join(' ')}</small> : null}
    </div>
  );
}

/** A wide table that scrolls sideways on a phone: a named region the keyboard can reach and scroll. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region needs focus to scroll by keyboard
    <section class="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
