import { Temporal } from 'temporal-polyfill';

// An adventure offering's schedule (decisions §19): rules that make departures at local times of the
// vendor's time zone. Pure: the catalog validates a schedule with it, and every path that needs a
// departure (the departures endpoint, booking requests, the availability check, the list filter) computes
// it here.
//
// Local times become instants through Temporal with the `compatible` disambiguation (decisions, third
// round): a start time that does not exist on a spring-forward date moves forward by the gap (02:30 on a
// date that jumps from 02:00 to 03:00 leaves at 03:30), one that occurs twice on an autumn date is the
// earlier instant. A departure's local_date and local_time are those of its instant (the moved 03:30), so a
// page shows the time the clock will show.

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const MAX_SCHEDULE_RULES = 20;
export const MAX_START_TIMES = 24;
export const MAX_RULE_CAPACITY = 10_000;

export interface ScheduleRule {
  weekdays: Weekday[];
  /** local times, HH:MM */
  start_times: string[];
  /** inclusive local dates, YYYY-MM-DD; null: unbounded */
  from_date: string | null;
  to_date: string | null;
  /** the departures' capacity; null: the offering's */
  capacity: number | null;
}

export type Schedule = readonly ScheduleRule[];

export interface Departure {
  startsAt: number;
  endsAt: number;
  /** the local date and time of startsAt in the zone */
  localDate: string;
  localTime: string;
  /** the first rule making this instant: its capacity (null: the offering's) */
  capacity: number | null;
  rule: number;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD that is a real calendar date. */
function isDate(value: unknown): value is string {
  if (typeof value !== 'string' || !DATE.test(value)) return false;
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' }).toString() === value;
  } catch {
    return false;
  }
}

const hasRepeats = (values: readonly unknown[]) => new Set(values).size !== values.length;

function ruleErrors(rule: unknown, at: string, errors: Record<string, string>): void {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    errors[at] = 'Each rule must be an object.';
    return;
  }
  const r = rule as Record<string, unknown>;
  const { weekdays, start_times: times, from_date: from, to_date: to, capacity } = r;
  if (!Array.isArray(weekdays) || weekdays.length === 0)
    errors[`${at}.weekdays`] = 'Give at least one weekday (mon..sun).';
  else if (!weekdays.every((d) => (WEEKDAYS as readonly unknown[]).includes(d)))
    errors[`${at}.weekdays`] = `Weekdays are ${WEEKDAYS.join(', ')}.`;
  else if (hasRepeats(weekdays)) errors[`${at}.weekdays`] = 'A weekday may appear only once.';
  if (!Array.isArray(times) || times.length < 1 || times.length > MAX_START_TIMES)
    errors[`${at}.start_times`] = `Give 1 to ${MAX_START_TIMES} start times (HH:MM).`;
  else if (!times.every((t) => typeof t === 'string' && TIME.test(t)))
    errors[`${at}.start_times`] = 'Start times are local times HH:MM, 00:00 to 23:59.';
  else if (hasRepeats(times)) errors[`${at}.start_times`] = 'A start time may appear only once.';
  for (const [field, value] of [
    ['from_date', from],
    ['to_date', to],
  ] as const)
    if (value !== undefined && value !== null && !isDate(value))
      errors[`${at}.${field}`] = 'Enter a date YYYY-MM-DD, or null.';
  if (isDate(from) && isDate(to) && to < from)
    errors[`${at}.to_date`] = 'to_date must not be before from_date.';
  if (
    capacity !== undefined &&
    capacity !== null &&
    !(Number.isInteger(capacity) && (capacity as number) >= 1 && (capacity as number) <= MAX_RULE_CAPACITY)
  )
    errors[`${at}.capacity`] = `Enter an integer from 1 to ${MAX_RULE_CAPACITY}, or null.`;
}

/**
 * What is wrong with a schedule as a request gives it, by member (`schedule.0.start_times`); empty when it
 * is valid.
 */
export function scheduleErrors(value: unknown, field = 'schedule'): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!Array.isArray(value)) errors[field] = 'Enter a list of schedule rules.';
  else if (value.length > MAX_SCHEDULE_RULES) errors[field] = `At most ${MAX_SCHEDULE_RULES} rules.`;
  else for (const [i, rule] of value.entries()) ruleErrors(rule, `${field}.${i}`, errors);
  return errors;
}

/** A valid schedule with every member present (left-out dates and capacity are null), in its stored form. */
export function normalizeSchedule(value: readonly Record<string, unknown>[]): ScheduleRule[] {
  return value.map((r) => ({
    weekdays: r.weekdays as Weekday[],
    start_times: r.start_times as string[],
    from_date: (r.from_date as string | null | undefined) ?? null,
    to_date: (r.to_date as string | null | undefined) ?? null,
    capacity: (r.capacity as number | null | undefined) ?? null,
  }));
}

/** A stored schedule (JSON text written after scheduleErrors found nothing). */
export function parseSchedule(text: string): ScheduleRule[] {
  return text === '[]' ? [] : (JSON.parse(text) as ScheduleRule[]);
}

const MINUTE_MS = 60_000;

/**
 * A calendar date's weekday and the date after it, kept once computed (Temporal's date arithmetic costs
 * more than the rest of a departures read; the calendar never changes).
 */
interface CalendarDay {
  weekday: Weekday;
  next: string;
}
const calendar = new Map<string, CalendarDay>();
const CALENDAR_DAYS_KEPT = 100_000;

function calendarDay(iso: string): CalendarDay {
  const kept = calendar.get(iso);
  if (kept) return kept;
  const date = Temporal.PlainDate.from(iso);
  const day = { weekday: WEEKDAYS[date.dayOfWeek - 1], next: date.add({ days: 1 }).toString() };
  if (calendar.size >= CALENDAR_DAYS_KEPT) calendar.clear();
  calendar.set(iso, day);
  return day;
}

/**
 * The UTC date of an instant moved by whole days. Every zone's local date is within a day of the UTC date,
 * and a departure moved by a spring-forward gap within a day of its own date: two days on each side of a
 * range's UTC dates hold every local date that can make a departure in it, without converting to the zone
 * (each candidate's instant is then compared with the range).
 */
const utcDate = (millis: number, days: number) =>
  Temporal.Instant.fromEpochMilliseconds(millis)
    .toZonedDateTimeISO('UTC')
    .toPlainDate()
    .add({ days })
    .toString();

/** The earliest and latest local dates any rule can make a departure on (null: unbounded). */
function ruleBounds(schedule: Schedule): { first: string | null; last: string | null } {
  const froms = schedule.map((r) => r.from_date);
  const tos = schedule.map((r) => r.to_date);
  return {
    first: froms.includes(null) ? null : (froms as string[]).sort()[0],
    last: tos.includes(null) ? null : (tos as string[]).sort().at(-1)!,
  };
}

type LocalStart = Pick<Departure, 'startsAt' | 'localDate' | 'localTime'>;

// Converting a local time to an instant is by far the dearest step (the zone's offset, through Intl), and
// the same dates and times come back on every read of an offering's departures. The zone rules a process
// reads never change while it runs, so each conversion is kept, up to a bound (then the cache starts over).
const LOCAL_STARTS_KEPT = 100_000;
const localStarts = new Map<string, LocalStart>();

/** The instant of a local date and time in the zone (compatible), with the local date and time it shows. */
function localStart(date: string, time: string, timeZone: string): LocalStart {
  const key = `${timeZone} ${date}T${time}`;
  const kept = localStarts.get(key);
  if (kept) return kept;
  const zoned = Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(timeZone, {
    disambiguation: 'compatible',
  });
  const local = {
    startsAt: zoned.epochMilliseconds,
    localDate: zoned.toPlainDate().toString(),
    localTime: zoned.toPlainTime().toString({ smallestUnit: 'minute' }),
  };
  if (localStarts.size >= LOCAL_STARTS_KEPT) localStarts.clear();
  localStarts.set(key, local);
  return local;
}

/** The departures the rules make on one local date, the first rule winning an instant (by `seen`). */
function departuresOn(
  schedule: Schedule,
  iso: string,
  durationMs: number,
  timeZone: string,
  seen: Map<number, Departure>,
): void {
  const { weekday } = calendarDay(iso);
  for (const [index, rule] of schedule.entries()) {
    if (!rule.weekdays.includes(weekday)) continue;
    if ((rule.from_date !== null && iso < rule.from_date) || (rule.to_date !== null && iso > rule.to_date))
      continue;
    for (const time of rule.start_times) {
      const local = localStart(iso, time, timeZone);
      const found = seen.get(local.startsAt);
      if (found && found.rule <= index) continue;
      seen.set(local.startsAt, {
        ...local,
        endsAt: local.startsAt + durationMs,
        capacity: rule.capacity,
        rule: index,
      });
    }
  }
}

/**
 * The departures in chunks of local dates, each chunk's departures starting in [from, to), sorted. A
 * departure may move across midnight (a start time in a spring-forward gap), so each chunk is made from
 * one more date on each side and only what starts in its own part of the range is kept.
 */
function* departureChunks(
  schedule: Schedule,
  durationMinutes: number,
  timeZone: string,
  from: number,
  to: number,
  datesPerChunk: number,
): Generator<Departure[]> {
  if (schedule.length === 0 || to <= from) return;
  const { first, last } = ruleBounds(schedule);
  let date = utcDate(from, -2);
  let end = utcDate(to - 1, 2);
  if (first !== null && first > date) date = first;
  if (last !== null && last < end) end = last;
  const durationMs = durationMinutes * MINUTE_MS;
  const emitted = new Set<number>();
  while (date <= end) {
    const seen = new Map<number, Departure>();
    // the chunk's dates and one more, so a departure moved across the chunk's last midnight is made here too
    let d = date;
    for (let i = 0; i <= datesPerChunk && d <= end; i++, d = calendarDay(d).next)
      departuresOn(schedule, d, durationMs, timeZone, seen);
    const chunk = [...seen.values()]
      .filter((x) => x.startsAt >= from && x.startsAt < to && !emitted.has(x.startsAt))
      .sort((a, b) => a.startsAt - b.startsAt);
    for (const x of chunk) emitted.add(x.startsAt);
    if (chunk.length) yield chunk;
    for (let i = 0; i < datesPerChunk; i++) date = calendarDay(date).next;
  }
}

/**
 * Every departure of the schedule starting in [from, to), in order of starts_at, one per instant (where
 * two rules make the same instant, the first rule's capacity). `ends_at` = `starts_at` + the duration.
 */
export function departuresBetween(
  schedule: Schedule,
  durationMinutes: number,
  timeZone: string,
  from: number,
  to: number,
): Departure[] {
  const all: Departure[] = [];
  for (const chunk of departureChunks(schedule, durationMinutes, timeZone, from, to, 7)) all.push(...chunk);
  // chunks are each sorted; a start moved across a chunk's last midnight may still come out of turn
  return all.sort((a, b) => a.startsAt - b.startsAt);
}

/**
 * The first departure in [from, to), a week of dates at a time, for which `accept` holds; undefined when
 * none does. For long ranges (the list filter) that usually stop early.
 */
export async function findDeparture(
  schedule: Schedule,
  durationMinutes: number,
  timeZone: string,
  from: number,
  to: number,
  accept: (chunk: Departure[]) => Promise<Departure | undefined> | Departure | undefined,
): Promise<Departure | undefined> {
  for (const chunk of departureChunks(schedule, durationMinutes, timeZone, from, to, 7)) {
    const found = await accept(chunk);
    if (found) return found;
  }
  return undefined;
}

/** The departure starting at exactly `startsAt`, or undefined when the schedule makes none then. */
export function departureAt(
  schedule: Schedule,
  durationMinutes: number,
  timeZone: string,
  startsAt: number,
): Departure | undefined {
  return departuresBetween(schedule, durationMinutes, timeZone, startsAt, startsAt + 1)[0];
}

export const isScheduled = (schedule: Schedule): boolean => schedule.length > 0;
