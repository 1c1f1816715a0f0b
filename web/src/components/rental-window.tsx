// An equipment booking's pick-up and return (decisions §20): dates and times in the vendor's time zone,
// offering only times inside the vendor's opening hours and the item's duration limits (rental-times.ts).
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { OpeningHours } from '../../../src/lib/opening-hours.ts';
import { Field, Select } from '../ui.tsx';
import { type Equipment, fetchStorefront } from './listing.ts';
import {
  addDays,
  lastReturnDate,
  localToday,
  pickUpTimes,
  type RentalRules,
  returnTimes,
} from './rental-times.ts';

export interface RentalWindow {
  starts_at: string;
  ends_at: string;
}

/** The vendor's hours and zone with the item's limits; null until the vendor's profile has loaded. */
function useRentalRules(item: Equipment): RentalRules | null {
  const [rules, setRules] = useState<RentalRules | null>(null);
  useEffect(() => {
    let current = true;
    fetchStorefront('equipment', item.vendor.slug, 1).then(
      ({ vendor }) =>
        current &&
        setRules({
          openingHours: (vendor.opening_hours ?? null) as OpeningHours | null,
          timeZone: vendor.time_zone,
          minDurationMinutes: item.min_duration_minutes,
          maxDurationMinutes: item.max_duration_minutes,
        }),
      // without the profile the form still works, always open in UTC; the API judges the request anyway
      () =>
        current &&
        setRules({
          openingHours: null,
          timeZone: 'UTC',
          minDurationMinutes: item.min_duration_minutes,
          maxDurationMinutes: item.max_duration_minutes,
        }),
    );
    return () => {
      current = false;
    };
  }, [item.id, item.vendor.slug]);
  return rules;
}

/** The first date from `from` on (two weeks at most) with a time `timesOf` offers, else `from`. */
function firstDateWith(from: string, timesOf: (date: string) => unknown[]): string {
  for (let i = 0; i < 14; i++) if (timesOf(addDays(from, i)).length) return addDays(from, i);
  return from;
}

/**
 * The pick-up and return fields and the window they make (null while incomplete). `errors` are the API's
 * field errors of the last request, shown beside the field they name.
 */
export function useRentalWindow(
  item: Equipment,
  errors: Record<string, string[]>,
): { fields: preact.JSX.Element; window: RentalWindow | null } {
  const rules = useRentalRules(item);
  const [pickUpDate, setPickUpDate] = useState('');
  const [pickUpTime, setPickUpTime] = useState('');
  const [returnDate, setReturnDate] = useState('');
  const [returnTime, setReturnTime] = useState('');
  const now = useMemo(() => Date.now(), [rules]);

  const pickUps = rules && pickUpDate ? pickUpTimes(rules, pickUpDate, now) : [];
  const startsAt = pickUps.find(([time]) => time === pickUpTime)?.[1] ?? null;
  const returns = rules && returnDate && startsAt !== null ? returnTimes(rules, returnDate, startsAt) : [];
  const endsAt = returns.find(([time]) => time === returnTime)?.[1] ?? null;

  // the first open pick-up from tomorrow once the rules are known
  useEffect(() => {
    if (!rules) return;
    const date = firstDateWith(localToday(rules.timeZone, 1), (d) => pickUpTimes(rules, d, now));
    setPickUpDate(date);
    setPickUpTime(pickUpTimes(rules, date, now)[0]?.[0] ?? '');
  }, [rules]);
  // a pick-up time the new date does not offer moves to its first one
  useEffect(() => {
    if (pickUps.length && !pickUps.some(([time]) => time === pickUpTime)) setPickUpTime(pickUps[0][0]);
  }, [pickUpDate, rules]);
  // the return follows the pick-up: the same date or the first later one with a return time
  useEffect(() => {
    if (!rules || startsAt === null) return;
    const stillFits = returnDate >= pickUpDate && returnTimes(rules, returnDate, startsAt).length > 0;
    const date = stillFits ? returnDate : firstDateWith(pickUpDate, (d) => returnTimes(rules, d, startsAt));
    setReturnDate(date);
    const times = returnTimes(rules, date, startsAt);
    if (!times.some(([time]) => time === returnTime)) setReturnTime(times[0]?.[0] ?? '');
  }, [startsAt]);
  useEffect(() => {
    if (returns.length && !returns.some(([time]) => time === returnTime)) setReturnTime(returns[0][0]);
  }, [returnDate]);

  // the fields wait for the rules: a date typed before them would be replaced by the first open one
  if (!rules) return { fields: <p class="muted">Loading the opening hours…</p>, window: null };
  const fields = (
    <fieldset class="stack rental-window">
      <legend>Pick-up and return</legend>
      <p class="muted">Times are local to {rules.timeZone}.</p>
      <DateAndTime
        what="Pick-up"
        date={pickUpDate}
        onDate={setPickUpDate}
        min={localToday(rules.timeZone)}
        time={pickUpTime}
        onTime={setPickUpTime}
        times={pickUps}
        error={errors.starts_at}
        none="No pick-up on this date: choose another."
      />
      <DateAndTime
        what="Return"
        date={returnDate}
        onDate={setReturnDate}
        min={pickUpDate}
        max={pickUpDate ? lastReturnDate(rules, pickUpDate) : undefined}
        time={returnTime}
        onTime={setReturnTime}
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
