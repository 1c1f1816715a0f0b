// The vendor's opening hours in the settings (decisions §20): when equipment can be picked up and
// returned, in the vendor's time zone. Each day is written as its intervals ("09:00-12:00, 14:00-18:00",
// empty when closed); the API judges them and a refused day shows its message beside it.
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { useSession } from '../session.tsx';
import { Checkbox, ErrorMessage, Field, fieldErrors, Notice, onSubmitRun, useAction } from '../ui.tsx';

type Hours = NonNullable<Schemas['VendorProfile']['opening_hours']>;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_NAMES = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
/** What a shop unsure of its hours starts from: 09:00-18:00, closed on Sundays. */
const USUAL = Object.fromEntries(DAYS.map((d) => [d, d === 'sun' ? '' : '09:00-18:00'])) as Record<
  (typeof DAYS)[number],
  string
>;

const textOf = (hours: Hours) =>
  Object.fromEntries(DAYS.map((d) => [d, hours[d].map((i) => i.join('-')).join(', ')])) as typeof USUAL;

/** "09:00-12:00, 14:00-18:00" → [["09:00", "12:00"], ["14:00", "18:00"]]; a part that is no interval is sent as it is, for the API to name. */
const intervalsOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => part.split(/\s*[-–]\s*/));

export function OpeningHoursForm({ profile }: { profile: Schemas['VendorProfile'] }) {
  const session = useSession();
  const [alwaysOpen, setAlwaysOpen] = useState(profile.opening_hours == null);
  const [days, setDays] = useState(() => (profile.opening_hours ? textOf(profile.opening_hours) : USUAL));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    const opening_hours = alwaysOpen
      ? null
      : (Object.fromEntries(DAYS.map((d) => [d, intervalsOf(days[d])])) as unknown as Hours);
    await call(() => api.PATCH('/api/v1/accounts/vendor-profile/me/', { body: { opening_hours } }));
    await session.reload();
    setSaved(true);
  });
  const errors = fieldErrors(save.error);
  return (
    <form class="stack narrow" onSubmit={onSubmitRun(save.run)} noValidate aria-labelledby="hours-title">
      <h2 id="hours-title">Opening hours</h2>
      <p class="muted">
        When customers can pick up and return equipment, in your time zone ({profile.time_zone}).
      </p>
      <ErrorMessage error={save.error} />
      <Checkbox
        label="Always open"
        checked={alwaysOpen}
        onChecked={(checked) => {
          setSaved(false);
          setAlwaysOpen(checked);
        }}
        error={errors.opening_hours}
      />
      {!alwaysOpen &&
        DAYS.map((d) => (
          <Field
            key={d}
            label={`${DAY_NAMES[d]} hours`}
            value={days[d]}
            onValue={(text) => {
              setSaved(false);
              setDays((all) => ({ ...all, [d]: text }));
            }}
            error={errors[`opening_hours.${d}`]}
            hint="For example 09:00-12:00, 14:00-18:00 (up to three); empty when closed."
          />
        ))}
      {saved && <Notice>Opening hours saved.</Notice>}
      <button type="submit" class="button primary" disabled={save.busy}>
        Save opening hours
      </button>
    </form>
  );
}
