// The pick-up and return times the equipment booking form offers (decisions §20), in the vendor's time
// zone. The rules are the server's own pure functions (opening hours, duration limits), imported, not
// rewritten: what the form offers is what a request is judged by. Prices never come from here: the form
// asks the API for a quote.
import { Temporal } from 'temporal-polyfill';
import { isOpenForEnd, isOpenForStart, type OpeningHours } from '../../../src/lib/opening-hours.ts';
import { durationProblem } from '../../../src/lib/rental-terms.ts';

/** The form offers times on this grid of the local day. */
export const STEP_MINUTES = 30;

export interface RentalRules {
  openingHours: OpeningHours | null;
  timeZone: string;
  minDurationMinutes: number | null;
  maxDurationMinutes: number | null;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const GRID = Array.from({ length: (24 * 60) / STEP_MINUTES }, (_, i) => hhmm(i * STEP_MINUTES));

/** The instant of a local date and time in the zone (a time in a spring gap moves forward, as the API's). */
export function instantOf(date: string, time: string, timeZone: string): number {
  return Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(timeZone).epochMilliseconds;
}

/** The local date in the zone at the instant `now`, and `days` later. */
export const localDateAt = (now: number, timeZone: string, days = 0) =>
  Temporal.Instant.fromEpochMilliseconds(now)
    .toZonedDateTimeISO(timeZone)
    .toPlainDate()
    .add({ days })
    .toString();

export const addDays = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();

/** A date field's value the form can offer times on: empty while being typed, and years past 9999 are none. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The local times of a date that exist there (none of a spring gap), as instants. */
function gridOf(date: string, timeZone: string): [string, number][] {
  if (!ISO_DATE.test(date)) return [];
  return GRID.map((time): [string, number] => [time, instantOf(date, time, timeZone)]).filter(
    ([time, instant]) =>
      Temporal.Instant.fromEpochMilliseconds(instant)
        .toZonedDateTimeISO(timeZone)
        .toPlainTime()
        .toString({ smallestUnit: 'minute' }) === time,
  );
}

/** Pick-up times of a local date: open for a start, and not past. */
export function pickUpTimes(rules: RentalRules, date: string, now: number): [string, number][] {
  return gridOf(date, rules.timeZone).filter(
    ([, instant]) => instant > now && isOpenForStart(rules.openingHours, rules.timeZone, instant),
  );
}

/** Return times of a local date for a pick-up at `startsAt`: open for a return, within the limits. */
export function returnTimes(rules: RentalRules, date: string, startsAt: number): [string, number][] {
  return gridOf(date, rules.timeZone).filter(
    ([, instant]) =>
      instant > startsAt &&
      isOpenForEnd(rules.openingHours, rules.timeZone, instant) &&
      durationProblem((instant - startsAt) / 60_000, rules) === null,
  );
}

/** The last local date a return may fall on: the pick-up's date plus the longest rental, or a month. */
export function lastReturnDate(rules: RentalRules, pickUpDate: string): string | undefined {
  if (!ISO_DATE.test(pickUpDate)) return undefined;
  const days = rules.maxDurationMinutes === null ? 31 : Math.ceil(rules.maxDurationMinutes / 1440) + 1;
  return addDays(pickUpDate, days);
}

/** What the customer has chosen: local dates and times in the vendor's zone ('' while none). */
export interface RentalChoice {
  pickUpDate: string;
  pickUpTime: string;
  returnDate: string;
  returnTime: string;
}

/** The first date from `from` on (two weeks at most) with a time `timesOf` offers, else `from`. */
function firstDateWith(from: string, timesOf: (date: string) => unknown[]): string {
  for (let i = 0; i < 14; i++) if (timesOf(addDays(from, i)).length) return addDays(from, i);
  return from;
}

/** A time the list offers, else its first (or the time as it was when it offers none). */
const offered = (times: [string, number][], time: string) =>
  times.length === 0 || times.some(([t]) => t === time) ? time : times[0][0];

/**
 * The choice after the customer changes part of it, whole again: a pick-up time the date does not offer
 * moves to its first; a return the pick-up no longer allows follows it (its own date when still possible,
 * else the first date from the pick-up's with a return time), unless the customer is choosing the return
 * date right now, which is kept even when it offers no time, so the form can say so. One step from one
 * state, so no change can overwrite a later one.
 */
export function choose(
  rules: RentalRules,
  now: number,
  choice: RentalChoice,
  change: Partial<RentalChoice>,
): RentalChoice {
  const next = { ...choice, ...change };
  const pickUps = pickUpTimes(rules, next.pickUpDate, now);
  next.pickUpTime = offered(pickUps, next.pickUpTime);
  const startsAt = pickUps.find(([time]) => time === next.pickUpTime)?.[1];
  if (startsAt === undefined) return next;
  const returnsOn = (date: string) => returnTimes(rules, date, startsAt);
  const keepDate =
    change.returnDate !== undefined ||
    (next.returnDate >= next.pickUpDate && returnsOn(next.returnDate).length > 0);
  if (!keepDate) next.returnDate = firstDateWith(next.pickUpDate, returnsOn);
  next.returnTime = offered(returnsOn(next.returnDate), next.returnTime);
  return next;
}

/** The choice the form opens with: the first open pick-up from tomorrow and the first return after it. */
export function firstChoice(rules: RentalRules, now: number): RentalChoice {
  const date = firstDateWith(localDateAt(now, rules.timeZone, 1), (d) => pickUpTimes(rules, d, now));
  return choose(rules, now, { pickUpDate: date, pickUpTime: '', returnDate: '', returnTime: '' }, {});
}
