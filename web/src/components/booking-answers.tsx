// A booking's answers to its listing's questions (decisions §23), as My bookings, the vendor's booking
// view and the Today page show them: by question code (the vendor's own names, made readable), a
// per-participant answer as a numbered list.
import type { Schemas } from '../api.ts';

type Answers = Schemas['Booking']['answers'];
type Value = string | number | boolean | null;

/** `wetsuit_size` → `Wetsuit size`. */
export const codeWords = (code: string) => {
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const valueWords = (value: Value) =>
  value === null ? '—' : value === true ? 'Yes' : value === false ? 'No' : String(value);

/** The answers as a list of terms; nothing when the booking has none. */
export function BookingAnswers({ answers, label }: { answers: Answers; label: string }) {
  const entries = Object.entries(answers);
  if (!entries.length) return null;
  return (
    <dl class="answers" aria-label={label}>
      {entries.map(([code, value]) => (
        <div key={code}>
          <dt>{codeWords(code)}</dt>
          <dd class="user-text">
            {Array.isArray(value)
              ? value.map((v, i) => `${i + 1}. ${valueWords(v)}`).join(', ')
              : valueWords(value)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
