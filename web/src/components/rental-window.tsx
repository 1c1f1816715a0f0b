// An equipment booking's pick-up and return (decisions §20): dates and times in the vendor's time zone,
// offering only times inside the vendor's opening hours and the item's duration limits (rental-times.ts).
import { useEffect, useState } from 'preact/hooks';
import type { OpeningHours } from '../../../src/lib/opening-hours.ts';
import { Field, Select } from '../ui.tsx';
import { type Equipment, fetchStorefront } from './listing.ts';
import {
  choose,
  firstChoice,
  lastReturnDate,
  localDateAt,
  pickUpTimes,
  type RentalChoice,
  type RentalRules,
  returnTimes,
} from './rental-times.ts';

export interface RentalWindow {
  starts_at: string;
  ends_at: string;
}

/** The rules with the instant they were loaded (times before it are past) and the customer's choice. */
interface Form {
  rules: RentalRules;
  now: number;
  choice: RentalChoice;
}

/**
 * The vendor's hours and zone with the item's limits, and the first choice they allow; null until the
 * vendor's profile has loaded. Both arrive in one state, so the fields never show before their values.
 */
function useRentalForm(item: Equipment): [Form | null, (change: Partial<RentalChoice>) => void] {
  const [form, setForm] = useState<Form | null>(null);
  useEffect(() => {
    let current = true;
    const load = (rules: RentalRules) => {
      const now = Date.now();
      if (current) setForm({ rules, now, choice: firstChoice(rules, now) });
    };
    const limits = {
      minDurationMinutes: item.min_duration_minutes,
      maxDurationMinutes: item.max_duration_minutes,
    };
    fetchStorefront('equipment', item.vendor.slug, 1).then(
      ({ vendor }) =>
        load({
          openingHours: (vendor.opening_hours ?? null) as OpeningHours | null,
          timeZone: vendor.time_zone,
          ...limits,
        }),
      // without the profile the form still works, always open in UTC; the API judges the request anyway
      () => load({ openingHours: null, timeZone: 'UTC', ...limits }),
    );
    return () => {
      current = false;
    };
  }, [item.id, item.vendor.slug]);
  // each change applies to the state as it is then, never to the one a render saw
  const change = (part: Partial<RentalChoice>) =>
    setForm((f) => f && { ...f, choice: choose(f.rules, f.now, f.choice, part) });
  return [form, change];
}

/**
 * The pick-up and return fields and the window they make (null while incomplete). `errors` are the API's
 * field errors of the last request, shown beside the field they name.
 */
export function useRentalWindow(
  item: Equipment,
  errors: Record<string, string[]>,
): { fields: preact.JSX.Element; window: RentalWindow | null } {
  const [form, change] = useRentalForm(item);
  if (!form) return { fields: <p class="muted">Loading the opening hours…</p>, window: null };
  const { rules, now, choice } = form;
  const pickUps = pickUpTimes(rules, choice.pickUpDate, now);
  const startsAt = pickUps.find(([time]) => time === choice.pickUpTime)?.[1] ?? null;
  const returns = startsAt === null ? [] : returnTimes(rules, choice.returnDate, startsAt);
  const endsAt = returns.find(([time]) => time === choice.returnTime)?.[1] ?? null;
  const fields = (
    <fieldset class="stack rental-window">
      <legend>Pick-up and return</legend>
      <p class="muted">Times are local to {rules.timeZone}.</p>
      <DateAndTime
        what="Pick-up"
        date={choice.pickUpDate}
        onDate={(pickUpDate) => change({ pickUpDate })}
        min={localDateAt(now, rules.timeZone)}
        time={choice.pickUpTime}
        onTime={(pickUpTime) => change({ pickUpTime })}
        times={pickUps}
        error={errors.starts_at}
        none="No pick-up on this date: choose another."
      />
      <DateAndTime
        what="Return"
        date={choice.returnDate}
        onDate={(returnDate) => change({ returnDate })}
        min={choice.pickUpDate}
        max={lastReturnDate(rules, choice.pickUpDate)}
        time={choice.returnTime}
        onTime={(returnTime) => change({ returnTime })}
        times={returns}
        error={errors.ends_at}
        none={startsAt === null ? '' : 'No return on this date for that pick-up: choose another.'}
      />
    </fieldset>
  );
  const window =
    startsAt !== null && endsAt !== null
      ? { starts_at: new Date(startsAt).toISOString(), ends_at: new Date(endsAt).toISOString() }
      : null;
  return { fields, window };
}

/** A date field and the times it offers (`<what> date`, `<what> time`), or why it offers none. */
function DateAndTime(props: {
  what: 'Pick-up' | 'Return';
  date: string;
  onDate: (date: string) => void;
  min?: string;
  max?: string;
  time: string;
  onTime: (time: string) => void;
  times: [string, number][];
  error?: string[];
  none: string;
}) {
  return (
    <>
      <Field
        label={`${props.what} date`}
        type="date"
        required
        min={props.min}
        max={props.max}
        value={props.date}
        onValue={props.onDate}
      />
      {props.times.length ? (
        <Select
          label={`${props.what} time`}
          value={props.time}
          onValue={props.onTime}
          options={props.times.map(([time]) => [time, time] as const)}
          error={props.error}
        />
      ) : (
        props.none && <p class="field-error">{props.none}</p>
      )}
    </>
  );
}
