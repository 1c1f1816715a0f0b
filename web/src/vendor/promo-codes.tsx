// A vendor's promo codes (decisions §21, §26): `New code` (a percentage or an amount off, a limit, dates)
// and each code with its redemptions, `N of M used`, counted by the API from the bookings holding it.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { dateTime, fromLocalInput, money } from '../format.ts';
import { useSession } from '../session.tsx';
import { ErrorMessage, Field, fieldErrors, Loading, Notice, onSubmitRun, Page, useAction } from '../ui.tsx';
import { integer, useLoad } from './data.ts';

type PromoCode = Schemas['PromoCode'];

/** Redemptions as words: "3 of 50 used", or "3 used" when unlimited. */
export const usedWords = (code: Pick<PromoCode, 'redemptions' | 'max_redemptions'>) =>
  code.max_redemptions === null
    ? `${code.redemptions} used`
    : `${code.redemptions} of ${code.max_redemptions} used`;

const EMPTY = {
  code: '',
  percent_off: '',
  amount_off: '',
  max_redemptions: '',
  valid_from: '',
  valid_until: '',
};
type Draft = typeof EMPTY;

const orNull = <T,>(text: string, value: (text: string) => T) => (text.trim() === '' ? null : value(text));

function NewCode({ onCreated }: { onCreated: () => Promise<void> }) {
  const headingId = useId();
  const [draft, setDraft] = useState(EMPTY);
  const [created, setCreated] = useState('');
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const create = useAction(async () => {
    setCreated('');
    const made = await call(() =>
      api.POST('/api/v1/booking/vendor/promo-codes/', {
        body: {
          code: draft.code.trim(),
          percent_off: orNull(draft.percent_off, integer),
          amount_off: orNull(draft.amount_off, (t) => t.trim()),
          max_redemptions: orNull(draft.max_redemptions, integer),
          valid_from: orNull(draft.valid_from, fromLocalInput),
          valid_until: orNull(draft.valid_until, fromLocalInput),
        },
      }),
    );
    setCreated(made.code);
    setDraft(EMPTY);
    await onCreated();
  });
  const errors = fieldErrors(create.error);
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>New code</h2>
      <form class="stack listing-form" onSubmit={onSubmitRun(create.run)} noValidate>
        <ErrorMessage error={create.error} />
        {created && <Notice>Code {created} created.</Notice>}
        <Field
          label="Code"
          required
          value={draft.code}
          onValue={set('code')}
          error={errors.code}
          hint="3 to 32 letters, digits and -; customers may type it in any case."
        />
        <div class="row">
          <Field
            label="Percent off"
            type="number"
            min={1}
            max={100}
            step={1}
            value={draft.percent_off}
            onValue={set('percent_off')}
            error={errors.percent_off}
          />
          <Field
            label="Amount off"
            type="number"
            min={0}
            step="0.01"
            value={draft.amount_off}
            onValue={set('amount_off')}
            error={errors.amount_off}
            hint="Give a percentage or an amount, not both."
          />
        </div>
        <Field
          label="Max redemptions"
          type="number"
          min={1}
          step={1}
          value={draft.max_redemptions}
          onValue={set('max_redemptions')}
          error={errors.max_redemptions}
          hint="Empty: unlimited. A declined, cancelled or expired booking gives its use back."
        />
        <div class="row">
          <Field
            label="Valid from"
            type="datetime-local"
            value={draft.valid_from}
            onValue={set('valid_from')}
            error={errors.valid_from}
          />
          <Field
            label="Valid until"
            type="datetime-local"
            value={draft.valid_until}
            onValue={set('valid_until')}
            error={errors.valid_until}
          />
        </div>
        <div class="row">
          <button type="submit" class="button primary" disabled={create.busy}>
            Create
          </button>
        </div>
      </form>
    </section>
  );
}

function CodeCard({
  code,
  currency,
  onChange,
}: {
  code: PromoCode;
  currency: string;
  onChange: () => Promise<void>;
}) {
  const headingId = useId();
  const deactivate = useAction(async () => {
    await call(() =>
      api.PATCH('/api/v1/booking/vendor/promo-codes/{id}/', {
        params: { path: { id: code.id } },
        body: { is_active: false },
      }),
    );
    await onChange();
  });
  const discount =
    code.percent_off !== null ? `${code.percent_off}% off` : `${money(code.amount_off ?? 0, currency)} off`;
  const dates = [
    code.valid_from && `from ${dateTime(code.valid_from)}`,
    code.valid_until && `until ${dateTime(code.valid_until)}`,
  ].filter(Boolean);
  return (
    <section class="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{code.code}</h3>
      <p>
        {discount}
        {dates.length > 0 && ` · ${dates.join(' ')}`}
      </p>
      <p data-used>{usedWords(code)}</p>
      <ErrorMessage error={deactivate.error} />
      {code.is_active ? (
        <button type="button" class="button" onClick={() => deactivate.run()} disabled={deactivate.busy}>
          Deactivate
        </button>
      ) : (
        <p class="muted">Deactivated</p>
      )}
    </section>
  );
}

export function PromoCodesPage() {
  const { user } = useSession();
  const currency = user?.vendor_profile?.currency ?? 'usd';
  const codes = useLoad(
    () =>
      call(() => api.GET('/api/v1/booking/vendor/promo-codes/', { params: { query: { page_size: 100 } } })),
    [],
  );
  return (
    <Page title="Promo codes">
      <NewCode onCreated={codes.reload} />
      <h2>Your codes</h2>
      <ErrorMessage error={codes.error} />
      {!codes.data && !codes.error && <Loading />}
      {codes.data?.results.length === 0 && <p>No promo codes yet.</p>}
      <div class="stack">
        {codes.data?.results.map((code) => (
          <CodeCard key={code.id} code={code} currency={currency} onChange={codes.reload} />
        ))}
      </div>
    </Page>
  );
}
