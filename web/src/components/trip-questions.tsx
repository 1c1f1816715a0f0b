// A listing's questions in the booking form (decisions §23, §26): one control per question, or one per
// participant (or unit) labelled `<label> (participant 2)`, with the right kind of control. The API
// checks the answers; the form only gathers them.
import { useState } from 'preact/hooks';
import type { Schemas } from '../api.ts';
import { Field, Select } from '../ui.tsx';
import type { Listing } from './listing.ts';

type Question = Schemas['Question'];
type AnswerValue = string | number | boolean | null;

/** Whether a refused field is the customer's to fill before booking (answers, the waiver). */
export const isTripField = (field: string) =>
  field === 'answers' || field.startsWith('answers.') || field.startsWith('waiver_acceptance');

/** A control's text as the API's value: numbers as numbers, yes/no as booleans, blank as no answer. */
function answerOf(question: Question, raw: string): AnswerValue {
  if (raw.trim() === '') return null;
  if (question.kind === 'boolean') return raw === 'yes';
  if (question.kind === 'number') return Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return raw;
}

const label = (question: Question, index: number) =>
  question.per === 'participant' ? `${question.label} (participant ${index + 1})` : question.label;

/**
 * The form's answers to `listing`'s questions, `count` per participant question (participants of an
 * adventure, units of equipment), and their part of the request body. An unanswered question is left out,
 * unless it asks per participant and is required: then the list says which participant is missing.
 */
export function useAnswers(listing: Listing, count: number) {
  const questions = listing.questions ?? [];
  const [raw, setRaw] = useState<Record<string, string[]>>({});
  const rawOf = (q: Question, i: number) => raw[q.code]?.[i] ?? '';
  const answers: Record<string, AnswerValue | AnswerValue[]> = {};
  for (const q of questions) {
    if (q.per === 'booking') {
      const value = answerOf(q, rawOf(q, 0));
      if (value !== null) answers[q.code] = value;
      continue;
    }
    const values = Array.from({ length: count }, (_, i) => answerOf(q, rawOf(q, i)));
    if (q.required || values.some((v) => v !== null)) answers[q.code] = values;
  }
  return {
    questions,
    count,
    rawOf,
    set: (q: Question, i: number, value: string) => {
      const list = [...(raw[q.code] ?? [])];
      list[i] = value;
      setRaw({ ...raw, [q.code]: list });
    },
    body: questions.length ? { answers } : {},
  };
}
export type Answers = ReturnType<typeof useAnswers>;

function QuestionControl({
  answers,
  question,
  index,
  error,
}: {
  answers: Answers;
  question: Question;
  index: number;
  error?: string[];
}) {
  const common = {
    label: label(question, index),
    value: answers.rawOf(question, index),
    onValue: (v: string) => answers.set(question, index, v),
    error,
  };
  // the API judges what is missing and says so at the field (no browser-side rule)
  const hint = question.required && index === 0 ? 'Required' : undefined;
  if (question.kind === 'choice' || question.kind === 'boolean') {
    const options =
      question.kind === 'choice'
        ? question.choices.map((c) => [c, c] as const)
        : ([
            ['yes', 'Yes'],
            ['no', 'No'],
          ] as const);
    return <Select {...common} options={[['', 'Choose…'], ...options]} />;
  }
  return (
    <Field
      {...common}
      hint={hint}
      type={question.kind === 'number' ? 'number' : 'text'}
      step={question.kind === 'number' ? 'any' : undefined}
      maxLength={question.kind === 'text' ? 500 : undefined}
    />
  );
}

/** The listing's questions, each control labelled as the vendor named it; the API's message under each. */
export function TripQuestions({ answers, errors }: { answers: Answers; errors: Record<string, string[]> }) {
  if (!answers.questions.length) return null;
  return (
    <fieldset class="stack">
      <legend>Questions from the vendor</legend>
      {answers.questions.flatMap((q) =>
        Array.from({ length: q.per === 'participant' ? answers.count : 1 }, (_, i) => (
          <QuestionControl
            key={`${q.code}-${i}`}
            answers={answers}
            question={q}
            index={i}
            error={i === 0 ? errors[`answers.${q.code}`] : undefined}
          />
        )),
      )}
      {errors.answers && <p class="field-error">{errors.answers.join(' ')}</p>}
    </fieldset>
  );
}
