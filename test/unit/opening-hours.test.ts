import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  isOpenForEnd,
  isOpenForStart,
  normalizeOpeningHours,
  type OpeningHours,
  openingHoursErrors,
  windowOutsideHours,
} from '../../src/lib/opening-hours.ts';
import { WEEKDAYS } from '../../src/lib/schedule.ts';

// decisions §20: opening hours for pick-up and return, local times of the vendor's zone (Temporal).

const shop: OpeningHours = normalizeOpeningHours({
  ...Object.fromEntries(WEEKDAYS.map((d) => [d, [['09:00', '18:00']]])),
  sat: [
    ['14:00', '18:00'],
    ['08:00', '12:00'],
  ],
  sun: [],
} as Record<string, [string, string][]>);

/** The instant of a local date and time in a zone (compatible: the gap moves forward). */
const local = (zone: string, date: string, time: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(zone).epochMilliseconds;

describe('opening hours validation', () => {
  it('accepts null, and seven days of up to three ordered, non-overlapping intervals', () => {
    expect(openingHoursErrors(null)).toEqual({});
    expect(openingHoursErrors(shop)).toEqual({});
    expect(openingHoursErrors({ ...shop, fri: [['00:00', '24:00']] })).toEqual({});
    expect(normalizeOpeningHours(shop).sat).toEqual([
      ['08:00', '12:00'],
      ['14:00', '18:00'],
    ]);
  });

  it('names the day of every mistake', () => {
    const { sun: _, ...withoutSunday } = shop;
    expect(Object.keys(openingHoursErrors(withoutSunday))).toEqual(['opening_hours.sun']);
    expect(Object.keys(openingHoursErrors({ ...shop, holiday: [] }))).toEqual(['opening_hours.holiday']);
    const bad = (hours: unknown) => openingHoursErrors({ ...shop, mon: hours })['opening_hours.mon'];
    expect(
      bad([
        ['09:00', '12:00'],
        ['11:00', '13:00'],
      ]),
    ).toMatch(/overlap/);
    expect(bad([['12:00', '09:00']])).toMatch(/after opening/);
    expect(bad([['09:00', '24:01']])).toMatch(/24:00/);
    expect(bad([['24:00', '24:00']])).toMatch(/Opening times/);
    expect(bad([['09:00']])).toMatch(/interval/);
    expect(
      bad([
        ['08:00', '09:00'],
        ['10:00', '11:00'],
        ['12:00', '13:00'],
        ['14:00', '15:00'],
      ]),
    ).toMatch(/At most 3/);
    expect(openingHoursErrors([])).toEqual({ opening_hours: expect.any(String) });
  });
});

describe('a window against the hours', () => {
  const zone = 'Europe/Lisbon';
  it('lets a pick-up start at opening but not at closing, and a return end exactly at closing', () => {
    expect(isOpenForStart(shop, zone, local(zone, '2026-07-01', '09:00'))).toBe(true);
    expect(isOpenForStart(shop, zone, local(zone, '2026-07-01', '17:59'))).toBe(true);
    expect(isOpenForStart(shop, zone, local(zone, '2026-07-01', '18:00'))).toBe(false);
    expect(isOpenForEnd(shop, zone, local(zone, '2026-07-01', '18:00'))).toBe(true);
    expect(isOpenForEnd(shop, zone, local(zone, '2026-07-01', '18:01'))).toBe(false);
    expect(isOpenForEnd(shop, zone, local(zone, '2026-07-01', '08:59'))).toBe(false);
  });

  it('knows the closed Sunday and the gap of a split Saturday, and names the hours', () => {
    const sunday = {
      startsAt: local(zone, '2026-07-05', '10:00'),
      endsAt: local(zone, '2026-07-05', '11:00'),
    };
    expect(windowOutsideHours(shop, zone, sunday)).toEqual({
      starts_at: 'Pick-up at 2026-07-05 10:00 (Europe/Lisbon) is outside the opening hours: sun closed.',
      ends_at: 'Return at 2026-07-05 11:00 (Europe/Lisbon) is outside the opening hours: sun closed.',
    });
    const lunch = {
      startsAt: local(zone, '2026-07-04', '12:30'),
      endsAt: local(zone, '2026-07-04', '15:00'),
    };
    expect(windowOutsideHours(shop, zone, lunch)).toEqual({
      starts_at: expect.stringContaining('sat 08:00–12:00, 14:00–18:00'),
    });
    expect(windowOutsideHours(null, zone, sunday)).toEqual({});
  });

  it('takes a 24:00 close as the next midnight for a return', () => {
    const late = { ...shop, fri: [['20:00', '24:00']] as [string, string][] };
    expect(isOpenForEnd(late, zone, local(zone, '2026-07-04', '00:00'))).toBe(true);
    expect(isOpenForStart(late, zone, local(zone, '2026-07-04', '00:00'))).toBe(false);
  });

  it('reads local times across a daylight-saving change (New York, 8 March 2026)', () => {
    const ny = 'America/New_York';
    const early = { ...shop, sun: [['01:00', '04:00']] as [string, string][] };
    // 02:00-03:00 does not exist that day: the instant one hour after 01:30 shows 03:30, still open
    const halfPastOne = local(ny, '2026-03-08', '01:30');
    expect(isOpenForStart(early, ny, halfPastOne + 3_600_000)).toBe(true);
    expect(isOpenForEnd(early, ny, local(ny, '2026-03-08', '04:00'))).toBe(true);
    expect(isOpenForEnd(early, ny, local(ny, '2026-03-08', '04:00') + 60_000)).toBe(false);
    // 09:00 is 13:00 UTC before the change and 14:00 UTC on the Monday after it
    expect(isOpenForStart(shop, ny, Date.UTC(2026, 2, 9, 13))).toBe(true);
    expect(isOpenForStart(shop, ny, Date.UTC(2026, 2, 9, 12, 59))).toBe(false);
  });

  it('uses the 45-minute offset of Kathmandu and the 30-minute one of Adelaide', () => {
    // 09:00 in Kathmandu (+05:45) is 03:15 UTC; in Adelaide in July (+09:30) 23:30 UTC the day before
    expect(isOpenForStart(shop, 'Asia/Kathmandu', Date.UTC(2026, 6, 1, 3, 15))).toBe(true);
    expect(isOpenForStart(shop, 'Asia/Kathmandu', Date.UTC(2026, 6, 1, 3, 14))).toBe(false);
    expect(isOpenForStart(shop, 'Australia/Adelaide', Date.UTC(2026, 5, 30, 23, 30))).toBe(true);
    expect(isOpenForStart(shop, 'Australia/Adelaide', Date.UTC(2026, 5, 30, 23, 29))).toBe(false);
  });
});

const ZONES = [
  'UTC',
  'Europe/Lisbon',
  'America/New_York',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Pacific/Chatham',
];
const minuteOfDay = fc.integer({ min: 0, max: 1439 });
const time = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
/** a day's intervals: up to three disjoint [open, close) of whole minutes, 24:00 allowed as a close */
const dayArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 1440 }), { minLength: 0, maxLength: 6 })
  .map((cuts) => {
    const sorted = [...cuts].sort((a, b) => a - b);
    const intervals: [string, string][] = [];
    for (let i = 0; i + 1 < sorted.length && intervals.length < 3; i += 2)
      if (sorted[i] < 1440)
        intervals.push([time(sorted[i]), sorted[i + 1] === 1440 ? '24:00' : time(sorted[i + 1])]);
    return intervals;
  });
const hoursArb = fc
  .tuple(...WEEKDAYS.map(() => dayArb))
  .map((days) => Object.fromEntries(WEEKDAYS.map((d, i) => [d, days[i]])) as OpeningHours);
const instantArb = fc
  .integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) })
  .map((t) => t - (t % 60_000));

describe('opening hours (property tests)', () => {
  it('generated hours are valid', () => {
    fc.assert(
      fc.property(hoursArb, (hours) => {
        expect(openingHoursErrors(hours)).toEqual({});
      }),
    );
  });

  it('a start is open exactly when its local minute lies in [open, close) of its local weekday', () => {
    fc.assert(
      fc.property(hoursArb, instantArb, fc.constantFrom(...ZONES), (hours, instant, zone) => {
        const at = Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone);
        const minute = at.hour * 60 + at.minute;
        const toMinutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
        const expected = hours[WEEKDAYS[at.dayOfWeek - 1]].some(
          ([a, b]) => toMinutes(a) <= minute && minute < toMinutes(b),
        );
        expect(isOpenForStart(hours, zone, instant)).toBe(expected);
      }),
    );
  });

  it('an instant inside an interval is open for both, and null hours are always open', () => {
    fc.assert(
      fc.property(hoursArb, instantArb, fc.constantFrom(...ZONES), (hours, instant, zone) => {
        if (isOpenForStart(hours, zone, instant)) expect(isOpenForEnd(hours, zone, instant)).toBe(true);
        expect(windowOutsideHours(null, zone, { startsAt: instant, endsAt: instant + 1 })).toEqual({});
      }),
    );
  });

  it('closing time is open for a return and closed for a pick-up, in every zone', () => {
    fc.assert(
      fc.property(
        minuteOfDay,
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 364 }),
        (closeAt, zone, day) => {
          fc.pre(closeAt > 0);
          const date = Temporal.PlainDate.from('2026-01-01').add({ days: day });
          const hours = Object.fromEntries(
            WEEKDAYS.map((d) => [d, [['00:00', time(closeAt)]]]),
          ) as OpeningHours;
          const closing = date.toZonedDateTime({ timeZone: zone, plainTime: time(closeAt) });
          fc.pre(closing.toPlainTime().toString({ smallestUnit: 'minute' }) === time(closeAt)); // not in a gap
          expect(isOpenForStart(hours, zone, closing.epochMilliseconds)).toBe(false);
          expect(isOpenForEnd(hours, zone, closing.epochMilliseconds)).toBe(true);
        },
      ),
    );
  });
});
