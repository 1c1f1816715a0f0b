import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  departureAt,
  departuresBetween,
  normalizeSchedule,
  type ScheduleRule,
  scheduleErrors,
  WEEKDAYS,
} from '../../src/lib/schedule.ts';

// The schedule module (decisions §19): rules → departures in a time zone, and its validation.

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
const rule = (over: Partial<ScheduleRule>): ScheduleRule => ({
  weekdays: [...WEEKDAYS],
  start_times: ['09:00'],
  from_date: null,
  to_date: null,
  capacity: null,
  ...over,
});
const starts = (schedule: ScheduleRule[], zone: string, from: string, to: string) =>
  departuresBetween(schedule, 60, zone, at(from), at(to)).map((d) => [
    new Date(d.startsAt).toISOString(),
    d.localDate,
    d.localTime,
  ]);

describe('departures at the daylight-saving changes (Temporal, compatible)', () => {
  it('moves a start time skipped in spring forward by the gap (New York, 2026-03-08)', () => {
    expect(
      starts(
        [rule({ start_times: ['02:30'] })],
        'America/New_York',
        '2026-03-07T12:00Z',
        '2026-03-09T12:00Z',
      ),
    ).toEqual([
      ['2026-03-08T07:30:00.000Z', '2026-03-08', '03:30'],
      ['2026-03-09T06:30:00.000Z', '2026-03-09', '02:30'],
    ]);
  });

  it('takes the earlier of a start time that occurs twice in autumn (New York, 2026-11-01)', () => {
    expect(
      starts(
        [rule({ start_times: ['01:30'] })],
        'America/New_York',
        '2026-11-01T00:00Z',
        '2026-11-02T00:00Z',
      ),
    ).toEqual([['2026-11-01T05:30:00.000Z', '2026-11-01', '01:30']]);
  });

  it('handles Lord Howe’s half-hour change both ways', () => {
    // 2026-10-04 02:00 → 02:30 (+10:30 → +11)
    expect(
      starts(
        [rule({ start_times: ['02:15'] })],
        'Australia/Lord_Howe',
        '2026-10-03T12:00Z',
        '2026-10-04T12:00Z',
      ),
    ).toEqual([['2026-10-03T15:45:00.000Z', '2026-10-04', '02:45']]);
    // 2026-04-05 02:00 → 01:30 (+11 → +10:30): 01:45 happens twice, the earlier counts
    expect(
      starts(
        [rule({ start_times: ['01:45'] })],
        'Australia/Lord_Howe',
        '2026-04-04T12:00Z',
        '2026-04-05T12:00Z',
      ),
    ).toEqual([['2026-04-04T14:45:00.000Z', '2026-04-05', '01:45']]);
  });

  it('uses offsets of 45 minutes (Chatham +12:45, Kathmandu +5:45) and +14 (Kiritimati)', () => {
    expect(starts([rule({})], 'Pacific/Chatham', '2026-06-01T00:00Z', '2026-06-02T00:00Z')).toEqual([
      ['2026-06-01T20:15:00.000Z', '2026-06-02', '09:00'],
    ]);
    expect(starts([rule({})], 'Asia/Kathmandu', '2026-06-01T00:00Z', '2026-06-02T00:00Z')).toEqual([
      ['2026-06-01T03:15:00.000Z', '2026-06-01', '09:00'],
    ]);
    expect(
      starts([rule({ weekdays: ['mon'] })], 'Pacific/Kiritimati', '2026-05-31T00:00Z', '2026-06-02T00:00Z'),
    ).toEqual([['2026-05-31T19:00:00.000Z', '2026-06-01', '09:00']]);
  });

  it('finds the departure at an instant, and none a minute off', () => {
    const schedule = [rule({ weekdays: ['sat'], start_times: ['09:00'], capacity: 4 })];
    expect(departureAt(schedule, 90, 'Europe/Lisbon', at('2026-06-06T08:00Z'))).toMatchObject({
      endsAt: at('2026-06-06T09:30Z'),
      capacity: 4,
    });
    expect(departureAt(schedule, 90, 'Europe/Lisbon', at('2026-06-06T08:01Z'))).toBeUndefined();
  });
});

// --- properties -------------------------------------------------------------------------------------------

const ZONES = [
  'America/New_York',
  'Europe/Lisbon',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kathmandu',
  'Pacific/Kiritimati',
  'Pacific/Apia',
  'UTC',
];
// times near the changes (midnight, 01:00-03:00) are drawn more often than the rest
const time = fc.oneof(
  fc.constantFrom(
    '00:00',
    '00:30',
    '01:00',
    '01:30',
    '01:45',
    '02:00',
    '02:15',
    '02:30',
    '02:45',
    '03:00',
    '23:30',
  ),
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
);
const date = fc
  .integer({ min: 0, max: 720 })
  .map((d) => Temporal.PlainDate.from('2026-01-01').add({ days: d }).toString());
const ruleArb = fc
  .record({
    weekdays: fc.subarray([...WEEKDAYS], { minLength: 1 }),
    start_times: fc.uniqueArray(time, { minLength: 1, maxLength: 5 }),
    dates: fc.option(fc.tuple(date, date), { nil: null }),
    from_only: fc.boolean(),
    capacity: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
  })
  .map(({ weekdays, start_times, dates, from_only, capacity }): ScheduleRule => {
    const [a, b] = dates ? [dates[0], dates[1]].sort() : [null, null];
    return { weekdays, start_times, from_date: a, to_date: from_only ? null : b, capacity };
  });
const scenario = fc.record({
  schedule: fc.array(ruleArb, { minLength: 1, maxLength: 4 }),
  zone: fc.constantFrom(...ZONES),
  // ranges starting anywhere in 2026-2027 (every change of those years), up to 40 days long
  from: fc.integer({ min: at('2026-01-01T00:00Z'), max: at('2027-12-01T00:00Z') }),
  length: fc.integer({ min: 1, max: 40 * DAY }),
  duration: fc.integer({ min: 1, max: 600 }),
});

/**
 * Every instant the rules name, by brute force over each local date around the range: for each date,
 * rule and start time, the instant of that wall-clock time (ZonedDateTime.from, compatible), with the
 * lowest rule index making it.
 */
function expected(schedule: ScheduleRule[], zone: string, from: number, to: number) {
  const made = new Map<number, { rule: number; date: string; time: string }>();
  const first = Temporal.Instant.fromEpochMilliseconds(from)
    .toZonedDateTimeISO(zone)
    .toPlainDate()
    .subtract({ days: 2 });
  const last = Temporal.Instant.fromEpochMilliseconds(to)
    .toZonedDateTimeISO(zone)
    .toPlainDate()
    .add({ days: 2 });
  for (let d = first; Temporal.PlainDate.compare(d, last) <= 0; d = d.add({ days: 1 })) {
    const iso = d.toString();
    schedule.forEach((r, index) => {
      if (!r.weekdays.includes(WEEKDAYS[d.dayOfWeek - 1])) return;
      if ((r.from_date && iso < r.from_date) || (r.to_date && iso > r.to_date)) return;
      for (const t of r.start_times) {
        const [hour, minute] = t.split(':').map(Number);
        const instant = Temporal.ZonedDateTime.from(
          { year: d.year, month: d.month, day: d.day, hour, minute, timeZone: zone },
          { disambiguation: 'compatible' },
        ).epochMilliseconds;
        if (instant < from || instant >= to) continue;
        const seen = made.get(instant);
        if (!seen || seen.rule > index) made.set(instant, { rule: index, date: iso, time: t });
      }
    });
  }
  return made;
}

describe('departuresBetween (properties)', () => {
  it('makes exactly the instants the rules name in the range, in order, once each, first rule winning', () => {
    fc.assert(
      fc.property(scenario, ({ schedule, zone, from, length, duration }) => {
        const to = from + length;
        const got = departuresBetween(schedule, duration, zone, from, to);
        const want = expected(schedule, zone, from, to);
        expect(got.map((d) => d.startsAt)).toEqual([...want.keys()].sort((a, b) => a - b));
        for (const d of got) {
          const made = want.get(d.startsAt)!;
          expect(d.endsAt).toBe(d.startsAt + duration * 60_000);
          expect(d.rule).toBe(made.rule);
          expect(d.capacity).toBe(schedule[made.rule].capacity);
          // its local date and time are those of the instant in the zone
          const local = Temporal.Instant.fromEpochMilliseconds(d.startsAt).toZonedDateTimeISO(zone);
          expect([d.localDate, d.localTime]).toEqual([
            local.toPlainDate().toString(),
            local.toPlainTime().toString().slice(0, 5),
          ]);
          // the rule's own time, unless it fell in a spring-forward gap: then later, by less than 2 hours
          if (d.localTime !== made.time) {
            const asked = Temporal.PlainDateTime.from(`${made.date}T${made.time}`);
            const moved = local.toPlainDateTime().since(asked).total('minutes');
            expect(moved).toBeGreaterThan(0);
            expect(moved).toBeLessThanOrEqual(120);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('counts weekdays × start times × dates where no change interferes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('UTC', 'Asia/Kathmandu', 'Pacific/Kiritimati'),
        fc.subarray([...WEEKDAYS], { minLength: 1 }),
        fc.uniqueArray(time, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 8 }),
        (zone, weekdays, times, weeks) => {
          // whole weeks of local dates: each weekday occurs `weeks` times
          const start = Temporal.PlainDate.from('2026-06-01').toZonedDateTime({ timeZone: zone });
          const from = start.epochMilliseconds;
          const to = start.add({ days: 7 * weeks }).epochMilliseconds;
          const schedule = [rule({ weekdays, start_times: times })];
          expect(departuresBetween(schedule, 60, zone, from, to)).toHaveLength(
            weekdays.length * times.length * weeks,
          );
        },
      ),
    );
  });

  it('agrees with departureAt on every departure it makes', () => {
    fc.assert(
      fc.property(scenario, ({ schedule, zone, from, duration }) => {
        for (const d of departuresBetween(schedule, duration, zone, from, from + 3 * DAY))
          expect(departureAt(schedule, duration, zone, d.startsAt)).toEqual(d);
      }),
      { numRuns: 60 },
    );
  });
});

describe('scheduleErrors', () => {
  it('accepts every generated rule list and normalizes left-out members to null', () => {
    fc.assert(
      fc.property(fc.array(ruleArb, { maxLength: 20 }), (schedule) => {
        expect(scheduleErrors(schedule)).toEqual({});
      }),
    );
    expect(normalizeSchedule([{ weekdays: ['mon'], start_times: ['09:00'] }])).toEqual([
      { weekdays: ['mon'], start_times: ['09:00'], from_date: null, to_date: null, capacity: null },
    ]);
  });

  it('names the member of each broken rule', () => {
    const ok = { weekdays: ['mon'], start_times: ['09:00'] };
    expect(
      scheduleErrors([
        ok,
        { ...ok, start_times: ['9:00'] },
        { ...ok, weekdays: ['mon', 'mon'], to_date: '2026-01-01', from_date: '2026-01-02' },
        { ...ok, capacity: 1.5 },
        'x',
      ]),
    ).toEqual({
      'schedule.1.start_times': 'Start times are local times HH:MM, 00:00 to 23:59.',
      'schedule.2.weekdays': 'A weekday may appear only once.',
      'schedule.2.to_date': 'to_date must not be before from_date.',
      'schedule.3.capacity': 'Enter an integer from 1 to 10000, or null.',
      'schedule.4': 'Each rule must be an object.',
    });
  });
});
