import { Temporal } from 'temporal-polyfill';
import { WEEKDAYS, type Weekday } from './schedule.ts';

// A vendor's opening hours (decisions §20): when equipment can be picked up and returned, as local times of
// the vendor's time zone. Pure: the accounts module validates a profile write with it; the booking request,
// the quote and the availability check judge a window with it.
//
// A start is inside an interval [open, close) of its local date (picking up exactly at closing time is
// too late); an end is inside [open, close] (returning exactly at closing time is in time, and so is
// returning exactly at opening time). "24:00" closes at the end of the day: an end at the next local
// midnight is inside it. Local times are those the clock shows at the instant (Temporal), so on a
// daylight-saving date an hour that does not exist is never inside and 09:00 is 09:00 whatever the offset.

export type Interval = [string, string];
export type OpeningHours = Record<Weekday, Interval[]>;

export const MAX_INTERVALS_A_DAY = 3;

const OPEN = /^([01]\d|2[0-3]):[0-5]\d$/;
const CLOSE = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** "09:30" → 570 minutes after local midnight. */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

function dayErrors(intervals: unknown): string | null {
  if (!Array.isArray(intervals)) return 'Enter a list of [open, close] intervals ([] when closed).';
  if (intervals.length > MAX_INTERVALS_A_DAY) return `At most ${MAX_INTERVALS_A_DAY} intervals a day.`;
  for (const interval of intervals) {
    if (!Array.isArray(interval) || interval.length !== 2) return 'Each interval is ["HH:MM", "HH:MM"].';
    const [open, close] = interval;
    if (typeof open !== 'string' || !OPEN.test(open)) return 'Opening times are HH:MM, 00:00 to 23:59.';
    if (typeof close !== 'string' || !CLOSE.test(close)) return 'Closing times are HH:MM, 00:01 to 24:00.';
    if (minutesOf(close) <= minutesOf(open)) return `${open}–${close}: closing must be after opening.`;
  }
  const sorted = [...(intervals as Interval[])].sort((a, b) => minutesOf(a[0]) - minutesOf(b[0]));
  for (let i = 1; i < sorted.length; i++)
    if (minutesOf(sorted[i][0]) < minutesOf(sorted[i - 1][1]))
      return `${sorted[i - 1].join('–')} and ${sorted[i].join('–')} overlap.`;
  return null;
}

/** What is wrong with opening hours as a request gives them, by member (`opening_hours.sun`). */
export function openingHoursErrors(value: unknown, field = 'opening_hours'): Record<string, string> {
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    return { [field]: 'Enter null (always open) or the hours of all seven days, mon to sun.' };
  const errors: Record<string, string> = {};
  const days = value as Record<string, unknown>;
  for (const key of Object.keys(days))
    if (!(WEEKDAYS as readonly string[]).includes(key)) errors[`${field}.${key}`] = 'Days are mon to sun.';
  for (const day of WEEKDAYS) {
    if (!(day in days)) errors[`${field}.${day}`] = 'Give every day; [] when closed.';
    else {
      const problem = dayErrors(days[day]);
      if (problem) errors[`${field}.${day}`] = problem;
    }
  }
  return errors;
}

/** Valid hours (openingHoursErrors found nothing) with each day's intervals in order. */
export function normalizeOpeningHours(value: Record<string, Interval[]>): OpeningHours {
  return Object.fromEntries(
    WEEKDAYS.map((day) => [day, [...value[day]].sort((a, b) => minutesOf(a[0]) - minutesOf(b[0]))]),
  ) as OpeningHours;
}

/** Stored hours: null (always open) or the JSON text of normalizeOpeningHours' result. */
export function parseOpeningHours(text: string | null): OpeningHours | null {
  return text === null ? null : (JSON.parse(text) as OpeningHours);
}

/** "mon 09:00–12:00, 14:00–18:00" or "sun closed": one day's hours as a message names them. */
export function describeDay(hours: OpeningHours, day: Weekday): string {
  const intervals = hours[day];
  return `${day} ${intervals.length ? intervals.map(([a, b]) => `${a}–${b}`).join(', ') : 'closed'}`;
}

interface LocalInstant {
  day: Weekday;
  date: string;
  /** minutes after local midnight, with the seconds as a fraction */
  minutes: number;
  /** the local time HH:MM as the clock shows it */
  time: string;
}

function localInstant(instant: number, timeZone: string): LocalInstant {
  const at = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone);
  return {
    day: WEEKDAYS[at.dayOfWeek - 1],
    date: at.toPlainDate().toString(),
    minutes: at.hour * 60 + at.minute + (at.second * 1000 + at.millisecond) / 60_000,
    time: at.toPlainTime().toString({ smallestUnit: 'minute' }),
  };
}

const previousDay = (day: Weekday): Weekday => WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7];

/** Whether a pick-up at `instant` is inside the hours: [open, close) of its local date. */
export function isOpenForStart(hours: OpeningHours | null, timeZone: string, instant: number): boolean {
  if (hours === null) return true;
  const local = localInstant(instant, timeZone);
  return hours[local.day].some(([a, b]) => minutesOf(a) <= local.minutes && local.minutes < minutesOf(b));
}

/** Whether a return at `instant` is inside the hours: [open, close] of its local date, or a 24:00 close. */
export function isOpenForEnd(hours: OpeningHours | null, timeZone: string, instant: number): boolean {
  if (hours === null) return true;
  const local = localInstant(instant, timeZone);
  if (hours[local.day].some(([a, b]) => minutesOf(a) <= local.minutes && local.minutes <= minutesOf(b)))
    return true;
  return local.minutes === 0 && hours[previousDay(local.day)].some(([, b]) => b === '24:00');
}

/**
 * The window's members outside the hours, each with a message naming its local time and that day's
 * hours; empty when both are inside (and always when the hours are null: always open).
 */
export function windowOutsideHours(
  hours: OpeningHours | null,
  timeZone: string,
  window: { startsAt: number; endsAt: number },
): Partial<Record<'starts_at' | 'ends_at', string>> {
  if (hours === null) return {};
  const errors: Partial<Record<'starts_at' | 'ends_at', string>> = {};
  const say = (what: string, instant: number) => {
    const local = localInstant(instant, timeZone);
    return `${what} at ${local.date} ${local.time} (${timeZone}) is outside the opening hours: ${describeDay(hours, local.day)}.`;
  };
  if (!isOpenForStart(hours, timeZone, window.startsAt)) errors.starts_at = say('Pick-up', window.startsAt);
  if (!isOpenForEnd(hours, timeZone, window.endsAt)) errors.ends_at = say('Return', window.endsAt);
  return errors;
}
