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

/** The local date today in the zone, and `days` later. */
export const localToday = (timeZone: string, days = 0) =>
  Temporal.Now.plainDateISO(timeZone).add({ days }).toString();

export const addDays = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();

/** The local times of a date that exist there (none of a spring gap), as instants. */
function gridOf(date: string, timeZone: string): [string, number][] {
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
export function lastReturnDate(rules: RentalRules, pickUpDate: string): string {
  const days = rules.maxDurationMinutes === null ? 31 : Math.ceil(rules.maxDurationMinutes / 1440) + 1;
  return addDays(pickUpDate, days);
}
