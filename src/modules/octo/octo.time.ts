import { Temporal } from 'temporal-polyfill';
import { localDay } from '../../lib/local-days.ts';
import type { OpeningHours } from '../../lib/opening-hours.ts';
import { WEEKDAYS } from '../../lib/schedule.ts';

// The OCTO API's local times and dates (decisions §24), pure: the vendor's zone's wall clock through
// Temporal (a DST gap's time moves forward, an ambiguous one takes the earlier instant: 'compatible', as
// the schedule does), UTC instants as OCTO writes them, an opening-hours date's window, and calendar dates.

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

// Formatting an instant in a zone through Temporal costs microseconds, three times for each availability of
// every request, and the same departures come back request after request: the strings are remembered (the
// zones' rules do not change while the process runs), up to a bound past which the memory starts afresh.
const localStrings = new Map<string, string>();
const MAX_REMEMBERED = 20_000;

/** An instant as OCTO's local date-times write it: the zone's wall clock and its offset, to the second. */
export function localDateTimeOf(millis: number, timeZone: string): string {
  const key = `${timeZone} ${millis}`;
  let text = localStrings.get(key);
  if (text === undefined) {
    text = Temporal.Instant.fromEpochMilliseconds(millis)
      .toZonedDateTimeISO(timeZone)
      .toString({ timeZoneName: 'never', smallestUnit: 'second' });
    if (localStrings.size >= MAX_REMEMBERED) localStrings.clear();
    localStrings.set(key, text);
  }
  return text;
}

/** An instant as OCTO's `utc*` fields write it: UTC, to the second, ending in Z. */
export const utcOf = (millis: number): string =>
  `${new Date(Math.floor(millis / 1000) * 1000).toISOString().slice(0, 19)}Z`;

/** The instant of a local date and wall-clock time (HH:MM, `24:00` the next day's start) in the zone. */
function instantOf(date: string, time: string, timeZone: string): number {
  const day = Temporal.PlainDate.from(date);
  const [plainDay, plainTime] =
    time === '24:00'
      ? [day.add({ days: 1 }), Temporal.PlainTime.from('00:00')]
      : [day, Temporal.PlainTime.from(time)];
  return plainDay.toPlainDateTime(plainTime).toZonedDateTime(timeZone, { disambiguation: 'compatible' })
    .epochMilliseconds;
}

/** An opening-hours date's window and its hours as OCTO lists them; null on a date the vendor is closed. */
export interface OpeningDay {
  startsAt: number;
  endsAt: number;
  openingHours: { from: string; to: string }[];
}

/**
 * What a reservation of an OPENING_HOURS product on `date` takes (decisions §24: the whole local date):
 * from the date's first opening to its last closing, so that pick-up and return both fall inside the
 * hours (decisions §20); the whole local date when the vendor keeps no hours (always open).
 */
export function openingDayOf(date: string, hours: OpeningHours | null, timeZone: string): OpeningDay | null {
  if (hours === null) {
    const day = localDay(date, timeZone);
    return day && { startsAt: day.from, endsAt: day.to, openingHours: [{ from: '00:00', to: '24:00' }] };
  }
  const weekday = WEEKDAYS[Temporal.PlainDate.from(date).dayOfWeek - 1];
  const intervals = hours[weekday];
  if (intervals.length === 0) return null;
  return {
    startsAt: instantOf(date, intervals[0][0], timeZone),
    endsAt: instantOf(date, intervals[intervals.length - 1][1], timeZone),
    openingHours: intervals.map(([from, to]) => ({ from, to })),
  };
}

// Calendar dates without a zone (YYYY-MM-DD): their arithmetic is the proleptic Gregorian calendar's,
// which Date's UTC day numbers count exactly, at a fraction of Temporal's cost on every request.
const DAY_MS = 86_400_000;
const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Whether `date` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export const isCalendarDate = (date: string): boolean =>
  LOCAL_DATE.test(date) && Number.isInteger(dayNumber(date)) && dateOfDay(dayNumber(date)) === date;

/** How many dates `start` to `end` (real dates) span, both included; 0 or less when end is before start. */
export const datesSpanned = (start: string, end: string): number => dayNumber(end) - dayNumber(start) + 1;

/** The dates from `start` to `end` (real dates), both included, in order. */
export function localDatesBetween(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let day = dayNumber(start); day <= dayNumber(end); day++) dates.push(dateOfDay(day));
  return dates;
}

// A local date's instants in a zone, remembered like the local date-times above: every START_TIME request
// asks for its range's first and last dates.
const localDays = new Map<string, { from: number; to: number } | null>();

/** The instants [from, to) of a local date in a zone (lib/local-days.ts localDay), remembered. */
export function localDayBounds(date: string, timeZone: string): { from: number; to: number } | null {
  const key = `${timeZone} ${date}`;
  let bounds = localDays.get(key);
  if (bounds === undefined) {
    const day = localDay(date, timeZone);
    bounds = day && { from: day.from, to: day.to };
    if (localDays.size >= MAX_REMEMBERED) localDays.clear();
    localDays.set(key, bounds);
  }
  return bounds;
}
