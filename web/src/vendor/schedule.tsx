// An adventure offering's schedule (decisions §19, §26): rules of weekdays and start times between two
// dates, each with its own capacity if it differs from the offering's. The page only holds what the vendor
// types; the API validates the rules and names the member it refuses (`schedule.0.start_times`), shown at
// that rule's field.
import { useId, useState } from 'preact/hooks';
import { api, call } from '../api.ts';
import { Checkbox, ErrorMessage, Field, fieldErrors, Notice, onSubmitRun, useAction } from '../ui.tsx';
import { type Adventure, integer } from './data.ts';

type Rule = Adventure['schedule'][number];
type Weekday = Rule['weekdays'][number];

const WEEKDAYS: readonly (readonly [Weekday, string])[] = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

/** A rule as its fields hold it (text), with a key that stays with it when an earlier rule is removed. */
interface RuleDraft {
  key: number;
  weekdays: Weekday[];
  start_times: string;
  from_date: string;
  to_date: string;
  capacity: string;
}

let nextKey = 1;

const draftOf = (rule?: Rule): RuleDraft => ({
  key: nextKey++,
  weekdays: rule?.weekdays ?? [],
  start_times: rule?.start_times.join(', ') ?? '',
  from_date: rule?.from_date ?? '',
  to_date: rule?.to_date ?? '',
  capacity: rule?.capacity == null ? '' : String(rule.capacity),
});

/** The rule the API is sent: times split at commas, an empty date or capacity as null. */
const ruleOf = (draft: RuleDraft): Rule => ({
  weekdays: WEEKDAYS.map(([day]) => day).filter((day) => draft.weekdays.includes(day)),
  start_times: draft.start_times
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== ''),
  from_date: draft.from_date || null,
  to_date: draft.to_date || null,
  capacity: draft.capacity.trim() === '' ? null : integer(draft.capacity),
});

function RuleFields({
  index,
  draft,
  errors,
  onChange,
  onRemove,
}: {
  index: number;
  draft: RuleDraft;
  errors: Record<string, string[]>;
  onChange: (draft: RuleDraft) => void;
  onRemove: () => void;
}) {
  const legendId = useId();
  // a member's errors, and those of its items (`schedule.0.start_times.1`: one time of the list)
  const at = (member: string) => {
    const prefix = `schedule.${index}.${member}`;
    const found = Object.entries(errors).filter(([key]) => key === prefix || key.startsWith(`${prefix}.`));
    return found.length ? found.flatMap(([, messages]) => messages) : undefined;
  };
  const set =
    <K extends keyof RuleDraft>(key: K) =>
    (value: RuleDraft[K]) =>
      onChange({ ...draft, [key]: value });
  const toggle = (day: Weekday) => (on: boolean) =>
    set('weekdays')(on ? [...draft.weekdays, day] : draft.weekdays.filter((d) => d !== day));
  return (
    <fieldset class="stack schedule-rule" aria-labelledby={legendId}>
      <legend id={legendId}>Rule {index + 1}</legend>
      {errors[`schedule.${index}`] && <p class="field-error">{errors[`schedule.${index}`]?.join(' ')}</p>}
      <fieldset class="weekdays">
        <legend>Weekdays</legend>
        <div class="row">
          {WEEKDAYS.map(([day, label]) => (
            <Checkbox
              key={day}
              label={label}
              checked={draft.weekdays.includes(day)}
              onChecked={toggle(day)}
            />
          ))}
        </div>
        {at('weekdays') && <small class="field-error">{at('weekdays')?.join(' ')}</small>}
      </fieldset>
      <Field
        label="Start times"
        value={draft.start_times}
        onValue={set('start_times')}
        error={at('start_times')}
        hint="Local times, 24-hour HH:MM, separated by commas: 09:00, 14:30"
      />
      <div class="row">
        <Field
          label="From"
          type="date"
          value={draft.from_date}
          onValue={set('from_date')}
          error={at('from_date')}
        />
        <Field
          label="Until"
          type="date"
          value={draft.to_date}
          onValue={set('to_date')}
          error={at('to_date')}
        />
      </div>
      <Field
        label="Capacity"
        type="number"
        min={1}
        max={10000}
        step={1}
        value={draft.capacity}
        onValue={set('capacity')}
        error={at('capacity')}
        hint="Seats on these departures; empty: the offering's capacity."
      />
      <button type="button" class="button" onClick={onRemove} aria-label={`Remove rule ${index + 1}`}>
        Remove rule
      </button>
    </fieldset>
  );
}

/** The schedule section of an offering's editor: its rules, `Add rule`, and `Save` (a PATCH of `schedule`). */
export function ScheduleEditor({ offering, onSaved }: { offering: Adventure; onSaved: () => Promise<void> }) {
  const headingId = useId();
  const [rules, setRules] = useState(() => offering.schedule.map(draftOf));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await call(() =>
      api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/', {
        params: { path: { id: offering.id } },
        body: { schedule: rules.map(ruleOf) },
      }),
    );
    setSaved(true);
    await onSaved();
  });
  const errors = fieldErrors(save.error);
  const change = (at: number, rule: RuleDraft | null) => {
    setSaved(false);
    setRules((all) => all.flatMap((r, i) => (i !== at ? [r] : rule ? [rule] : [])));
  };
  return (
    <section class="schedule" aria-labelledby={headingId}>
      <h2 id={headingId}>Schedule</h2>
      <p class="hint">
        A scheduled adventure is booked by departure: each rule makes one at each start time on its weekdays
        between its dates, in your time zone. With no rule, customers choose their own start.
      </p>
      <form class="stack listing-form" onSubmit={onSubmitRun(save.run)} noValidate>
        <ErrorMessage error={save.error} />
        {saved && <Notice>Schedule saved.</Notice>}
        {errors.schedule && <p class="field-error">{errors.schedule.join(' ')}</p>}
        {rules.length === 0 && <p>No rules: this adventure is not on a schedule.</p>}
        {rules.map((rule, index) => (
          <RuleFields
            key={rule.key}
            index={index}
            draft={rule}
            errors={errors}
            onChange={(r) => change(index, r)}
            onRemove={() => change(index, null)}
          />
        ))}
        <div class="row">
          <button type="button" class="button" onClick={() => setRules((all) => [...all, draftOf()])}>
            Add rule
          </button>
          <button type="submit" class="button primary" disabled={save.busy}>
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
