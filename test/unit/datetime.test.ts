import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime } from '../../src/lib/datetime.ts';

describe('parseDateTime', () => {
  it.each([
    ['2026-07-01T09:00:00Z', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01T09:00:00.123Z', '2026-07-01T09:00:00.123Z'],
    ['2026-07-01T09:00:00.123456Z', '2026-07-01T09:00:00.123Z'],
    ['2026-07-01T11:00:00+02:00', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01T04:30:00-0430', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01T10:00:00+01', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01T09:00:00', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01T09:00', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01 09:00:00', '2026-07-01T09:00:00.000Z'],
    ['2026-07-01', '2026-07-01T00:00:00.000Z'],
    ['2026-07-01T00:30:00+01:00', '2026-06-30T23:30:00.000Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['2026-04-30T23:59:59.999Z', '2026-04-30T23:59:59.999Z'],
    ['2026-12-31T12:00:00.5Z', '2026-12-31T12:00:00.500Z'],
  ])('reads %s as %s (offsets honoured, no zone = UTC)', (input, expected) => {
    expect(formatDateTime(parseDateTime(input)!)).toBe(expected);
  });

  it.each([
    'soon',
    '',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2027-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-07-00T00:00:00Z',
    '2026-07-01T24:00:00Z',
    '2026-07-01T09:60:00Z',
    '2026-07-01T09:00:00+25:00',
    '2026-07-01T09:00:00 UTC',
    '1719824400',
    '01/07/2026',
  ])('rejects %j', (input) => {
    expect(parseDateTime(input)).toBeNull();
  });
});

// "YYYY-MM-DDTHH:MM:SS[.sss]Z" is read by a fast path without the regular expression; a leading space
// (trimmed) sends the same text down the general path. Both must agree on every value of that shape,
// valid or not, and on the same shape with any one character replaced.
describe('parseDateTime, the fast path for UTC seconds', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const utcShaped = fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 0, max: 19 }),
      day: fc.integer({ min: 0, max: 39 }),
      hour: fc.integer({ min: 0, max: 29 }),
      minute: fc.integer({ min: 0, max: 69 }),
      second: fc.integer({ min: 0, max: 69 }),
      millis: fc.option(fc.integer({ min: 0, max: 999 })),
    })
    .map(
      (t) =>
        `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:` +
        `${pad(t.second, 2)}${t.millis === null ? '' : `.${pad(t.millis, 3)}`}Z`,
    );

  it('agrees with the general path on every value of its shape', () => {
    fc.assert(
      fc.property(utcShaped, (text) => {
        expect(parseDateTime(text)).toBe(parseDateTime(` ${text}`));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with it when any one character is replaced', () => {
    fc.assert(
      fc.property(utcShaped, fc.nat(), fc.constantFrom(...'0123456789-:.TtZz +/ab'), (text, at, char) => {
        const i = at % text.length;
        const changed = text.slice(0, i) + char + text.slice(i + 1);
        expect(parseDateTime(changed)).toBe(parseDateTime(` ${changed}`));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads the values toISOString writes back to the same instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
        (ms) => {
          expect(parseDateTime(new Date(ms).toISOString())).toBe(ms);
        },
      ),
    );
  });
});

describe('formatDateTime', () => {
  it('prints UTC with milliseconds and Z, like toISOString', () => {
    expect(formatDateTime(Date.UTC(2026, 6, 1, 9))).toBe('2026-07-01T09:00:00.000Z');
  });
});
