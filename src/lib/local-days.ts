import { Temporal } from 'temporal-polyfill';

// Local calendar days of an IANA time zone, as epoch-millisecond ranges. Every boundary comes from the
// time zone rules Temporal reads (Node's ICU), so a day is as long as it is there: 23 or 25 hours across a
// daylight-saving change, and a day that starts at 01:00 where midnight is skipped starts then.

export interface LocalDay {
  /** the local date, YYYY-MM-DD */
  date: string;
  /** the part of the range inside the day: [from, to), epoch milliseconds */
  from: number;
  to: number;
}

const dateAt = (millis: number, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(millis).toZonedDateTimeISO(timeZone).toPlainDate();

const startOf = (date: Temporal.PlainDate, timeZone: string) =>
  date.toZonedDateTime({ timeZone }).epochMilliseconds;

/** How many local dates of `timeZone` the non-empty range [from, to) touches. */
export function countLocalDays(from: number, to: number, timeZone: string): number {
  return dateAt(from, timeZone).until(dateAt(to - 1, timeZone), { largestUnit: 'day' }).days + 1;
}

/**
 * Each local date of `timeZone` that the non-empty range [from, to) touches, in order, with the part of the
 * range inside it: the first starts at `from` and the last ends at `to`, so the days split the range
 * exactly. Callers bound the range first (countLocalDays): one day is built per date.
 */
export function localDays(from: number, to: number, timeZone: string): LocalDay[] {
  const days: LocalDay[] = [];
  let date = dateAt(from, timeZone);
  let start = from;
  while (start < to) {
    const next = date.add({ days: 1 });
    const end = Math.min(startOf(next, timeZone), to);
    days.push({ date: date.toString(), from: start, to: end });
    date = next;
    start = end;
  }
  return days;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The local date of `timeZone` at the instant `millis`, YYYY-MM-DD. */
export const localDateAt = (millis: number, timeZone: string) => dateAt(millis, timeZone).toString();

/**
 * The local date `date` (YYYY-MM-DD) of `timeZone` as the range [from, to) of its instants, or null when
 * `date` is not a real date in that form (2026-02-30 included).
 */
export function localDay(date: string, timeZone: string): LocalDay | null {
  if (!ISO_DATE.test(date)) return null;
  let plain: Temporal.PlainDate;
  try {
    plain = Temporal.PlainDate.from(date, { overflow: 'reject' });
  } catch {
    return null;
  }
  return { date, from: startOf(plain, timeZone), to: startOf(plain.add({ days: 1 }), timeZone) };
}

/** The local wall-clock time of `timeZone` at the instant `millis`, HH:MM. */
export const localTimeAt = (millis: number, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(millis)
    .toZonedDateTimeISO(timeZone)
    .toPlainTime()
    .toString({ smallestUnit: 'minute' });
