// An equipment item's rental periods in the listing editor (decisions §20): its rates, the shortest and
// longest rental, and the turnaround buffer. The API judges every value; a refused one shows its message
// beside the field it names (rates.1.duration_minutes).
import { Field } from '../ui.tsx';
import { type Equipment, integer } from './data.ts';

export interface RentalTermsDraft {
  rates: { minutes: string; price: string }[];
  min: string;
  max: string;
  buffer: string;
}

export const rentalTermsOf = (item?: Equipment): RentalTermsDraft => ({
  rates: (item?.rates ?? []).map((r) => ({ minutes: String(r.duration_minutes), price: r.price })),
  min: item?.min_duration_minutes == null ? '' : String(item.min_duration_minutes),
  max: item?.max_duration_minutes == null ? '' : String(item.max_duration_minutes),
  buffer: String(item?.buffer_minutes ?? 0),
});

/** An empty limit is none (null). */
const limit = (text: string) => (text.trim() === '' ? null : integer(text));

/** The draft as the listing body's fields. */
export const rentalTermsBody = (draft: RentalTermsDraft) => ({
  rates: draft.rates.map((r) => ({ duration_minutes: integer(r.minutes), price: r.price })),
  min_duration_minutes: limit(draft.min),
  max_duration_minutes: limit(draft.max),
  buffer_minutes: integer(draft.buffer),
});

export function RentalTermsFields({
  value,
  onValue,
  errors,
}: {
  value: RentalTermsDraft;
  onValue: (value: RentalTermsDraft) => void;
  errors: Record<string, string[]>;
}) {
  const setRate = (i: number, key: 'minutes' | 'price') => (text: string) =>
    onValue({ ...value, rates: value.rates.map((r, j) => (j === i ? { ...r, [key]: text } : r)) });
  const set = (key: 'min' | 'max' | 'buffer') => (text: string) => onValue({ ...value, [key]: text });
  return (
    <fieldset class="stack">
      <legend>Rental periods</legend>
      <p class="muted">
        A rental costs the lowest of: the cheapest rate at least as long, the started days × the price per
        day, and the longest rate plus the days beyond it.
      </p>
      {value.rates.map((rate, i) => (
        <div class="row rate-row" key={i}>
          <Field
            label={`Rate ${i + 1} duration (minutes)`}
            type="number"
            min={15}
            max={43200}
            step={1}
            required
            value={rate.minutes}
            onValue={setRate(i, 'minutes')}
            error={errors[`rates.${i}.duration_minutes`] ?? errors[`rates.${i}`]}
          />
          <Field
            label={`Rate ${i + 1} price`}
            type="number"
            min={0}
            step="0.01"
            required
            value={rate.price}
            onValue={setRate(i, 'price')}
            error={errors[`rates.${i}.price`]}
          />
          <button
            type="button"
            class="button"
            onClick={() => onValue({ ...value, rates: value.rates.filter((_, j) => j !== i) })}
          >
            Remove rate {i + 1}
          </button>
        </div>
      ))}
      {errors.rates && <p class="field-error">{errors.rates.join(' ')}</p>}
      <button
        type="button"
        class="button"
        onClick={() => onValue({ ...value, rates: [...value.rates, { minutes: '60', price: '' }] })}
      >
        Add rate
      </button>
      <Field
        label="Shortest rental (minutes)"
        type="number"
        min={15}
        step={1}
        value={value.min}
        onValue={set('min')}
        error={errors.min_duration_minutes}
        hint="Empty: no minimum."
      />
      <Field
        label="Longest rental (minutes)"
        type="number"
        min={15}
        step={1}
        value={value.max}
        onValue={set('max')}
        error={errors.max_duration_minutes}
        hint="Empty: no maximum."
      />
      <Field
        label="Turnaround buffer (minutes)"
        type="number"
        min={0}
        max={1440}
        step={1}
        value={value.buffer}
        onValue={set('buffer')}
        error={errors.buffer_minutes}
        hint="Each unit stays taken this long after a rental ends (cleaning, charging)."
      />
    </fieldset>
  );
}
