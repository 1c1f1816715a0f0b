// A listing's questions (decisions §23): what a booking request must answer, once per booking or for each
// participant (or unit). The page holds what the vendor types; the API validates and names the member it
// refuses (`questions.1.choices`), shown at that field.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import {
  Checkbox,
  ErrorMessage,
  Field,
  fieldErrors,
  Notice,
  onSubmitRun,
  Select,
  useAction,
} from '../ui.tsx';
import type { Kind, Listing } from './data.ts';

type Question = Schemas['Question'];

/** A question as its fields hold it; `choices` as the vendor types them, comma-separated. */
interface Draft extends Omit<Question, 'choices'> {
  key: number;
  choices: string;
}

let nextKey = 1;
const draftOf = (q?: Question): Draft => ({
  key: nextKey++,
  code: q?.code ?? '',
  label: q?.label ?? '',
  kind: q?.kind ?? 'text',
  choices: (q?.choices ?? []).join(', '),
  required: q?.required ?? false,
  per: q?.per ?? 'booking',
});
const questionOf = (d: Draft): Question => ({
  code: d.code.trim(),
  label: d.label,
  kind: d.kind,
  choices:
    d.kind === 'choice'
      ? d.choices
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean)
      : [],
  required: d.required,
  per: d.per,
});

const KINDS: [Question['kind'], string][] = [
  ['text', 'Text'],
  ['number', 'Number'],
  ['choice', 'Choice'],
  ['boolean', 'Yes or no'],
];

function QuestionFields({
  index,
  draft,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  draft: Draft;
  errors: Record<string, string[]>;
  onChange: (draft: Draft) => void;
  onRemove: () => void;
}) {
  const legendId = useId();
  const at = (member: string) => errors[`questions.${index}.${member}`];
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange({ ...draft, [key]: value });
  return (
    <fieldset class="stack schedule-rule" aria-labelledby={legendId}>
      <legend id={legendId}>Question {index + 1}</legend>
      <div class="row">
        <Field
          label="Question"
          value={draft.label}
          onValue={(v) => set('label', v)}
          error={at('label')}
          maxLength={200}
        />
        <Field
          label="Code"
          value={draft.code}
          onValue={(v) => set('code', v)}
          error={at('code')}
          hint="a-z, 0-9, _ and -: the answer's name in bookings and the CSV"
        />
      </div>
      <div class="row">
        <Select
          label="Answer"
          value={draft.kind}
          onValue={(v) => set('kind', v as Question['kind'])}
          options={KINDS}
          error={at('kind')}
        />
        <Select
          label="Asked"
          value={draft.per}
          onValue={(v) => set('per', v as Question['per'])}
          options={[
            ['booking', 'Once per booking'],
            ['participant', 'For each participant or unit'],
          ]}
          error={at('per')}
        />
      </div>
      {draft.kind === 'choice' && (
        <Field
          label="Choices"
          value={draft.choices}
          onValue={(v) => set('choices', v)}
          error={at('choices')}
          hint="separated by commas"
        />
      )}
      <Checkbox label="Required" checked={draft.required} onChecked={(v) => set('required', v)} />
      <button type="button" class="button" onClick={onRemove} aria-label={`Remove question ${index + 1}`}>
        Remove
      </button>
    </fieldset>
  );
}

/** The questions section of a listing's editor, with `Add question` and `Save questions`. */
export function QuestionsEditor({
  kind,
  listing,
  onSaved,
}: {
  kind: Kind;
  listing: Listing;
  onSaved: () => Promise<void>;
}) {
  const headingId = useId();
  const [drafts, setDrafts] = useState(() => (listing.questions ?? []).map(draftOf));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    const params = { path: { id: listing.id } };
    const body = { questions: drafts.map(questionOf) };
    await (kind === 'equipment'
      ? call(() => api.PATCH('/api/v1/equipment/vendor/items/{id}/', { params, body }))
      : call(() => api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/', { params, body })));
    setSaved(true);
    await onSaved();
  });
  const errors = fieldErrors(save.error);
  const change = (at: number, draft: Draft | null) => {
    setSaved(false);
    setDrafts((all) => all.flatMap((d, i) => (i !== at ? [d] : draft ? [draft] : [])));
  };
  return (
    <section class="schedule" aria-labelledby={headingId}>
      <h2 id={headingId}>Questions</h2>
      <form class="stack listing-form" onSubmit={onSubmitRun(save.run)} noValidate>
        <p class="hint">
          What customers answer when they book: a certification level, a wetsuit size, allergies. Answers show
          on the booking and the Today page.
        </p>
        <ErrorMessage error={save.error} />
        {saved && <Notice>Questions saved.</Notice>}
        {errors.questions && <p class="field-error">{errors.questions.join(' ')}</p>}
        {drafts.map((draft, index) => (
          <QuestionFields
            key={draft.key}
            index={index}
            draft={draft}
            errors={errors}
            onChange={(d) => change(index, d)}
            onRemove={() => change(index, null)}
          />
        ))}
        <div class="row">
          <button type="button" class="button" onClick={() => setDrafts((all) => [...all, draftOf()])}>
            Add question
          </button>
          <button type="submit" class="button primary" disabled={save.busy}>
            Save questions
          </button>
        </div>
      </form>
    </section>
  );
}
