import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import {
  isOpenForEnd,
  isOpenForStart,
  normalizeOpeningHours,
  type OpeningHours,
} from '../../src/lib/opening-hours.ts';
import { WEEKDAYS } from '../../src/lib/schedule.ts';
import { departureStatus } from '../../src/modules/booking/index.ts';
import {
  availabilityIdOf,
  parseAvailabilityId,
  parseProductId,
  productIdOf,
  type Standing,
  toOctoAvailability,
  toOctoCalendarDay,
} from '../../src/modules/octo/octo.mapping.ts';
import { unitTypeOf } from '../../src/modules/octo/octo.products.ts';
import {
  datesSpanned,
  isCalendarDate,
  localDatesBetween,
  localDateTimeOf,
  localDayBounds,
  openingDayOf,
  utcOf,
} from '../../src/modules/octo/octo.time.ts';

// The OCTO mapping's pure rules (decisions §24): product and availability ids read back to what they
// name, local times in odd zones and across DST changes, an opening-hours date's window inside the hours
// as decisions §20 judges them, and statuses by §19's rule.

const ZONES = [
  'UTC',
  'Europe/Lisbon',
  'America/New_York',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Australia/Lord_Howe',
];
const publicId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const kind = fc.constantFrom('equipment' as const, 'adventure' as const);
// whole seconds between 2000 and 2100: the ids carry seconds
const instant = fc.integer({ min: 946_684_800, max: 4_102_444_800 }).map((s) => s * 1000);
const date = fc
  .integer({ min: 0, max: 36_500 })
  .map((d) => Temporal.PlainDate.from('2000-01-01').add({ days: d }).toString());

describe('product ids', () => {
  it('read back to the listing they name, its kind only where the public id is ambiguous', () => {
    fc.assert(
      fc.property(kind, publicId, fc.boolean(), (k, id, ambiguous) => {
        const productId = productIdOf({ kind: k, publicId: id }, ambiguous);
        expect(productId).toBe(ambiguous ? `${k}:${id}` : id);
        expect(parseProductId(productId)).toEqual({ kind: ambiguous ? k : null, publicId: id });
      }),
    );
  });

  it('name no listing when no public id could be them', () => {
    for (const id of ['', 'a b', 'x'.repeat(65), 'boat:x', 'equipment:', 'kayak@1', 'é'])
      expect(parseProductId(id), id).toBeNull();
  });
});

describe('availability ids', () => {
  it('read back to the product and the departure instant, in any zone', () => {
    fc.assert(
      fc.property(
        kind,
        publicId,
        fc.boolean(),
        instant,
        fc.constantFrom(...ZONES),
        (k, id, amb, at, zone) => {
          const productId = productIdOf({ kind: k, publicId: id }, amb);
          const availabilityId = availabilityIdOf(productId, { startsAt: at }, zone);
          expect(availabilityId).toBe(`${productId}@${localDateTimeOf(at, zone)}`);
          expect(parseAvailabilityId(availabilityId)).toEqual({ productId, at: { startsAt: at } });
        },
      ),
    );
  });

  it('read back to the product and the local date', () => {
    fc.assert(
      fc.property(publicId, date, fc.constantFrom(...ZONES), (id, d, zone) => {
        const availabilityId = availabilityIdOf(id, { date: d }, zone);
        expect(availabilityId).toBe(`${id}@${d}`);
        expect(parseAvailabilityId(availabilityId)).toEqual({ productId: id, at: { date: d } });
      }),
    );
  });

  it('tell apart the two 01:30 of the night Lisbon leaves summer time, and refuse what is none of ours', () => {
    const first = Date.parse('2026-10-25T00:30:00Z');
    const second = Date.parse('2026-10-25T01:30:00Z');
    const ids = [first, second].map((at) => availabilityIdOf('tour', { startsAt: at }, 'Europe/Lisbon'));
    expect(ids).toEqual(['tour@2026-10-25T01:30:00+01:00', 'tour@2026-10-25T01:30:00+00:00']);
    expect(ids.map((id) => parseAvailabilityId(id)?.at.startsAt)).toEqual([first, second]);
    for (const bad of [
      'tour',
      '@2026-01-01',
      'tour@2026-02-30',
      'tour@2026-06-01T09:00:00',
      'a b@2026-06-01',
      'tour@x',
    ])
      expect(parseAvailabilityId(bad), bad).toBeNull();
  });
});

describe('calendar dates', () => {
  it('count and list dates as Temporal does, and know real dates from look-alikes', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 120 }), (start, span) => {
        const end = Temporal.PlainDate.from(start).add({ days: span }).toString();
        const expected: string[] = [];
        for (
          let d = Temporal.PlainDate.from(start);
          Temporal.PlainDate.compare(d, end) <= 0;
          d = d.add({ days: 1 })
        )
          expected.push(d.toString());
        expect(localDatesBetween(start, end)).toEqual(expected);
        expect(datesSpanned(start, end)).toBe(span + 1);
        expect(datesSpanned(end, start)).toBe(1 - span);
      }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2200 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          let real = true;
          try {
            Temporal.PlainDate.from(text, { overflow: 'reject' });
          } catch {
            real = false;
          }
          expect(isCalendarDate(text), text).toBe(real);
        },
      ),
    );
    expect(['2026-02-29', '2024-02-29', '2026-6-1', ' 2026-06-01'].map(isCalendarDate)).toEqual([
      false,
      true,
      false,
      false,
    ]);
  });

  it("remember a local date's instants as localDay gives them", () => {
    fc.assert(
      fc.property(date, fc.constantFrom(...ZONES), (d, zone) => {
        const start = Temporal.PlainDate.from(d).toZonedDateTime({ timeZone: zone }).epochMilliseconds;
        const next = Temporal.PlainDate.from(d)
          .add({ days: 1 })
          .toZonedDateTime({ timeZone: zone }).epochMilliseconds;
        expect(localDayBounds(d, zone)).toEqual({ from: start, to: next });
        expect(localDayBounds(d, zone)).toEqual({ from: start, to: next });
      }),
    );
  });
});

describe('local times', () => {
  it('write the wall clock and offset of +14:00, +13:45 and +05:45, and UTC without milliseconds', () => {
    const at = Date.parse('2026-06-10T19:00:00.250Z');
    expect(localDateTimeOf(at, 'Pacific/Kiritimati')).toBe('2026-06-11T09:00:00+14:00');
    expect(localDateTimeOf(at, 'Pacific/Chatham')).toBe('2026-06-11T07:45:00+12:45');
    expect(localDateTimeOf(Date.parse('2026-01-10T19:00:00Z'), 'Pacific/Chatham')).toBe(
      '2026-01-11T08:45:00+13:45',
    );
    expect(localDateTimeOf(at, 'Asia/Kathmandu')).toBe('2026-06-11T00:45:00+05:45');
    expect(utcOf(at)).toBe('2026-06-10T19:00:00Z');
  });
});

const hoursArb: fc.Arbitrary<OpeningHours> = fc
  .array(
    fc.uniqueArray(fc.integer({ min: 0, max: 47 }), { minLength: 0, maxLength: 6 }).map((points) => {
      const sorted = [...points].sort((a, b) => a - b);
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < sorted.length && pairs.length < 3; i += 2)
        pairs.push([half(sorted[i]), half(sorted[i + 1] + 1)]);
      return pairs;
    }),
    { minLength: 7, maxLength: 7 },
  )
  .map((days) => normalizeOpeningHours(Object.fromEntries(WEEKDAYS.map((d, i) => [d, days[i]]))));

function half(n: number): string {
  if (n >= 48) return '24:00';
  return `${String(Math.floor(n / 2)).padStart(2, '0')}:${n % 2 ? '30' : '00'}`;
}

describe('an opening-hours date', () => {
  it('takes from its first opening to its last closing, both inside the hours as requests are judged', () => {
    fc.assert(
      fc.property(hoursArb, date, fc.constantFrom(...ZONES), (hours, d, zone) => {
        const day = openingDayOf(d, hours, zone);
        const weekday = WEEKDAYS[Temporal.PlainDate.from(d).dayOfWeek - 1];
        if (hours[weekday].length === 0) {
          expect(day).toBeNull();
          return;
        }
        if (!day) throw new Error(`no window on ${d}, open ${JSON.stringify(hours[weekday])}`);
        expect(day.openingHours).toEqual(hours[weekday].map(([from, to]) => ({ from, to })));
        expect(day.startsAt).toBeLessThan(day.endsAt);
        expect(isOpenForStart(hours, zone, day.startsAt)).toBe(true);
        expect(isOpenForEnd(hours, zone, day.endsAt)).toBe(true);
      }),
    );
  });

  it('is the whole local date when the vendor keeps no hours: 23 or 25 hours across a DST change', () => {
    const spring = openingDayOf('2026-03-29', null, 'Europe/Lisbon');
    expect(spring).toEqual({
      startsAt: Date.parse('2026-03-29T00:00:00Z'),
      endsAt: Date.parse('2026-03-29T23:00:00Z'),
      openingHours: [{ from: '00:00', to: '24:00' }],
    });
    const autumn = openingDayOf('2026-10-25', null, 'Europe/Lisbon');
    expect(autumn && (autumn.endsAt - autumn.startsAt) / 3_600_000).toBe(25);
    const kiritimati = openingDayOf('2026-06-10', null, 'Pacific/Kiritimati');
    expect(kiritimati?.startsAt).toBe(Date.parse('2026-06-09T10:00:00Z'));
  });
});

const standing = fc
  .record({
    capacity: fc.integer({ min: 1, max: 50 }),
    taken: fc.integer({ min: 0, max: 50 }),
    closed: fc.boolean(),
    startsAt: instant,
  })
  .map(
    ({ capacity, taken, closed, startsAt }): Standing => ({
      startsAt,
      endsAt: startsAt + 3_600_000,
      cutoffAt: startsAt,
      capacity,
      remaining: closed ? 0 : Math.max(0, capacity - taken),
      closed,
    }),
  );

describe('statuses and vacancies', () => {
  it('follow §19: an availability shows its remaining and status, never FREESALE', () => {
    fc.assert(
      fc.property(standing, fc.integer({ min: 1, max: 60 }), fc.constantFrom(...ZONES), (s, units, zone) => {
        const a = toOctoAvailability('x@1', s, zone, null, units);
        const expected = departureStatus(s.closed, s.remaining, s.capacity).toUpperCase();
        expect(a.status).toBe(expected);
        expect(a.vacancies).toBe(s.remaining);
        expect(a.available).toBe(!s.closed && s.remaining >= units);
        expect(a.utcCutoffAt).toBe(utcOf(s.cutoffAt));
      }),
    );
  });

  it('add a date up over its open departures; a date with none open is closed', () => {
    fc.assert(
      fc.property(fc.array(standing, { maxLength: 6 }), fc.integer({ min: 1, max: 60 }), (list, units) => {
        const day = toOctoCalendarDay('2026-06-06', list, [], units);
        const open = list.filter((s) => !s.closed);
        const vacancies = open.reduce((n, s) => n + s.remaining, 0);
        const capacity = open.reduce((n, s) => n + s.capacity, 0);
        expect(day.vacancies).toBe(vacancies);
        expect(day.status).toBe(departureStatus(open.length === 0, vacancies, capacity).toUpperCase());
        expect(day.available).toBe(open.some((s) => s.remaining >= units));
      }),
    );
  });
});

describe('unit types', () => {
  it('read the category words, OTHER when they name none', () => {
    expect(unitTypeOf({ code: 'adult', label: 'Adult' })).toBe('ADULT');
    expect(unitTypeOf({ code: 'kid', label: 'Under 12' })).toBe('CHILD');
    expect(unitTypeOf({ code: 'a', label: 'Teenager' })).toBe('YOUTH');
    expect(unitTypeOf({ code: 'pet', label: 'Dog' })).toBe('OTHER');
  });
});
