import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { normalizeOpeningHours, type OpeningHours } from '../../src/lib/opening-hours.ts';
import { durationProblem } from '../../src/lib/rental-terms.ts';
import { WEEKDAYS } from '../../src/lib/schedule.ts';
import {
  choose,
  firstChoice,
  instantOf,
  lastReturnDate,
  pickUpTimes,
  type RentalChoice,
  type RentalRules,
  returnTimes,
} from '../../web/src/components/rental-times.ts';

// decisions §20: the pick-up and return the equipment form offers, and how a change keeps the choice whole.

const open = (timeZone: string, hours: OpeningHours | null = null): RentalRules => ({
  openingHours: hours,
  timeZone,
  minDurationMinutes: null,
  maxDurationMinutes: null,
});
const weekdaysNineToSix = normalizeOpeningHours({
  ...Object.fromEntries(WEEKDAYS.map((d) => [d, [['09:00', '18:00']]])),
  sat: [],
  sun: [],
} as Record<string, [string, string][]>);
const days = (date: string, n: number) => Temporal.PlainDate.from(date).add({ days: n }).toString();

/** The customer's steps, each applied to the state the one before left, as the form applies them. */
const steps = (rules: RentalRules, now: number, changes: Partial<RentalChoice>[]) =>
  changes.reduce<RentalChoice>(
    (choice, change) => choose(rules, now, choice, change),
    firstChoice(rules, now),
  );

describe('the equipment form’s pick-up and return', () => {
  it('keeps every step of a customer who types fast, at any hour of the day', () => {
    // the journey the browser suite walks; it once lost the return date when steps overtook each other
    for (const at of ['2026-11-27T19:20:00Z', '2026-11-27T23:50:00Z', '2026-11-28T00:10:00Z']) {
      const now = Date.parse(at);
      const today = Temporal.Instant.from(at).toZonedDateTimeISO('Europe/Lisbon').toPlainDate().toString();
      const rules = open('Europe/Lisbon');
      const choice = steps(rules, now, [
        { pickUpDate: days(today, 5) },
        { pickUpTime: '09:00' },
        { returnDate: days(today, 7) },
        { returnTime: '09:00' },
      ]);
      expect(choice).toEqual({
        pickUpDate: days(today, 5),
        pickUpTime: '09:00',
        returnDate: days(today, 7),
        returnTime: '09:00',
      });
    }
  });

  it('opens on the first open time of the vendor’s tomorrow, in the vendor’s zone', () => {
    // 10:30 UTC on Friday 27 November is already 00:30 on Saturday in Kiritimati (UTC+14): its tomorrow
    // is Sunday; closed at weekends, the shop's first pick-up is Monday at 09:00, the return half an hour later
    const rules = open('Pacific/Kiritimati', weekdaysNineToSix);
    expect(firstChoice(rules, Date.parse('2026-11-27T10:30:00Z'))).toEqual({
      pickUpDate: '2026-11-30',
      pickUpTime: '09:00',
      returnDate: '2026-11-30',
      returnTime: '09:30',
    });
    // in Kathmandu (UTC+05:45) at 19:00 UTC it is 00:45 on Saturday
    expect(firstChoice(open('Asia/Kathmandu'), Date.parse('2026-11-27T19:00:00Z')).pickUpDate).toBe(
      '2026-11-29',
    );
  });

  it('offers no time a spring change skips, and every time of a normal day (New York, 8 March 2026)', () => {
    const rules = open('America/New_York');
    const before = Date.parse('2026-03-01T00:00:00Z');
    const offered = pickUpTimes(rules, '2026-03-08', before).map(([time]) => time);
    expect(offered).not.toContain('02:00');
    expect(offered).not.toContain('02:30');
    expect(offered).toHaveLength(46);
    expect(pickUpTimes(rules, '2026-03-09', before)).toHaveLength(48);
    // 03:00 that morning is one hour after 01:00, not two
    const [, one] = pickUpTimes(rules, '2026-03-08', before).find(([t]) => t === '01:00') ?? [];
    expect(instantOf('2026-03-08', '03:00', 'America/New_York')).toBe((one ?? 0) + 3_600_000);
  });

  it('moves the return when a later pick-up leaves it behind, and keeps a return date the customer typed', () => {
    const rules = { ...open('UTC', weekdaysNineToSix), maxDurationMinutes: 2 * 1440 };
    const now = Date.parse('2026-11-27T12:00:00Z');
    const moved = steps(rules, now, [{ pickUpDate: '2026-12-02' }, { pickUpTime: '17:00' }]);
    expect(moved).toMatchObject({ returnDate: '2026-12-02', returnTime: '17:30' });
    // Saturday is closed: the date stays as typed, offering no time, and the form says so
    const typed = choose(rules, now, moved, { returnDate: '2026-12-05' });
    expect(typed.returnDate).toBe('2026-12-05');
    expect(returnTimes(rules, typed.returnDate, instantOf('2026-12-02', '17:00', 'UTC'))).toEqual([]);
    expect(lastReturnDate(rules, '2026-12-02')).toBe('2026-12-05');
  });

  it('treats a date still being typed, or beyond year 9999, as one with no times', () => {
    const rules = open('UTC');
    const now = Date.parse('2026-11-27T12:00:00Z');
    for (const date of ['', '+020000-01-01', '20000-01-01']) {
      expect(pickUpTimes(rules, date, now)).toEqual([]);
      expect(lastReturnDate(rules, date)).toBeUndefined();
      expect(choose(rules, now, firstChoice(rules, now), { pickUpDate: date }).pickUpDate).toBe(date);
    }
  });
});

const ZONES = ['UTC', 'Europe/Lisbon', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Chatham'];
const gridTime = fc
  .integer({ min: 0, max: 47 })
  .map((i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
const change: fc.Arbitrary<Partial<RentalChoice>> = fc.oneof(
  fc.integer({ min: 0, max: 20 }).map((n) => ({ pickUpDate: days('2026-11-27', n) })),
  gridTime.map((pickUpTime) => ({ pickUpTime })),
  fc.integer({ min: 0, max: 20 }).map((n) => ({ returnDate: days('2026-11-27', n) })),
  gridTime.map((returnTime) => ({ returnTime })),
);

describe('the equipment form’s choice (property tests)', () => {
  it('after any steps: the pick-up time is one its date offers, and an offered return is inside the limits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 5 }).map((d) => d * 1440)),
        fc.array(change, { maxLength: 8 }),
        (zone, hours, max, changes) => {
          const rules = { ...open(zone, hours ? weekdaysNineToSix : null), maxDurationMinutes: max };
          const now = Date.parse('2026-11-27T19:20:00Z');
          const choice = steps(rules, now, changes);
          const pickUps = pickUpTimes(rules, choice.pickUpDate, now);
          if (pickUps.length === 0) return;
          const startsAt = pickUps.find(([t]) => t === choice.pickUpTime)?.[1];
          expect(startsAt).toBeGreaterThan(now);
          const returns = returnTimes(rules, choice.returnDate, startsAt as number);
          const last = changes.at(-1);
          if (last?.returnDate === undefined) expect(returns.length).toBeGreaterThan(0);
          else expect(choice.returnDate).toBe(last.returnDate);
          if (returns.length === 0) return;
          const endsAt = returns.find(([t]) => t === choice.returnTime)?.[1] as number;
          expect(endsAt).toBeGreaterThan(startsAt as number);
          expect(durationProblem((endsAt - (startsAt as number)) / 60_000, rules)).toBeNull();
        },
      ),
    );
  });
});
