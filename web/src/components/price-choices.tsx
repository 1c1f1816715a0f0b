// What a customer chooses of a listing's prices (decisions §21): participants by price category, extras,
// and a promo code. The form sends them; the API prices them (POST quote).
import { useState } from 'preact/hooks';
import { Field } from '../ui.tsx';
import { isEquipment, type Listing } from './listing.ts';

type Counts = Record<string, string>;

/** The promo code field's name: Enter in it applies the code instead of submitting the booking. */
export const PROMO_FIELD = 'promo_code';

/** A keydown handler for the form: Enter in the promo code field applies the code. */
export const applyOnEnter = (choices: Choices) => (e: KeyboardEvent) => {
  if (e.key !== 'Enter' || (e.target as HTMLInputElement | null)?.name !== PROMO_FIELD) return;
  e.preventDefault();
  choices.apply();
};

const toCounts = (counts: Counts) =>
  Object.fromEntries(
    Object.entries(counts).map(([code, n]) => [code, Math.max(0, Math.floor(Number(n)) || 0)]),
  );

/** The form's state of a listing's price choices, and their part of the request body. */
export function useChoices(listing: Listing) {
  const categories = isEquipment(listing) ? [] : (listing.price_categories ?? []);
  const byCategory = categories.length > 0;
  // one participant of the first category to start with, as the plain form starts with one participant
  const [counts, setCounts] = useState<Counts>(() =>
    Object.fromEntries(categories.map((c, i) => [c.code, i === 0 ? '1' : '0'])),
  );
  const [extras, setExtras] = useState<Counts>(() =>
    Object.fromEntries(listing.extras.map((e) => [e.code, '0'])),
  );
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState('');
  const chosenExtras = Object.fromEntries(Object.entries(toCounts(extras)).filter(([, n]) => n > 0));
  return {
    byCategory,
    counts,
    setCount: (c: string, n: string) => setCounts({ ...counts, [c]: n }),
    extras,
    setExtra: (c: string, n: string) => setExtras({ ...extras, [c]: n }),
    code,
    setCode,
    apply: () => setApplied(code.trim()),
    body: {
      ...(byCategory ? { participants: toCounts(counts) } : {}),
      ...(Object.keys(chosenExtras).length ? { extras: chosenExtras } : {}),
      ...(applied ? { promo_code: applied } : {}),
    },
  };
}
export type Choices = ReturnType<typeof useChoices>;

/** A number field per price category and per extra, labelled as the vendor named them, and a promo code. */
export function PriceChoices({
  listing,
  choices,
  errors,
}: {
  listing: Listing;
  choices: Choices;
  errors: Record<string, string[]>;
}) {
  const categories = isEquipment(listing) ? [] : (listing.price_categories ?? []);
  return (
    <>
      {categories.map((c) => (
        <Field
          key={c.code}
          label={c.label}
          type="number"
          min={0}
          value={choices.counts[c.code] ?? '0'}
          onValue={(n) => choices.setCount(c.code, n)}
          error={errors[`participants.${c.code}`] ?? (c === categories[0] ? errors.participants : undefined)}
        />
      ))}
      {listing.extras.map((e) => (
        <Field
          key={e.code}
          label={e.label}
          type="number"
          min={0}
          max={e.max_quantity}
          value={choices.extras[e.code] ?? '0'}
          onValue={(n) => choices.setExtra(e.code, n)}
          hint={e.per === 'day' ? 'Per day' : 'Per booking'}
          error={errors[`extras.${e.code}`]}
        />
      ))}
      <div class="inline-field">
        <Field
          label="Promo code"
          name={PROMO_FIELD}
          value={choices.code}
          onValue={choices.setCode}
          maxLength={32}
          error={errors.promo_code}
        />
        <button type="button" class="button" onClick={choices.apply}>
          Apply
        </button>
      </div>
    </>
  );
}
