import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime } from '../../src/lib/datetime.ts';

// Date.UTC maps the years 0-99 to 1900-1999: "0050-01-01" must not become 1950.
describe('parseDateTime with early years', () => {
  it.each([
    ['0050-01-01T00:00:00Z', '0050-01-01T00:00:00.000Z'],
    ['0000-03-01T12:30:00Z', '0000-03-01T12:30:00.000Z'],
    ['0099-12-31T23:59:59.999Z', '0099-12-31T23:59:59.999Z'],
    ['0001-01-01T01:00:00+02:00', '0000-12-31T23:00:00.000Z'],
    ['1999-12-31T23:59:59Z', '1999-12-31T23:59:59.000Z'],
    ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(formatDateTime(parseDateTime(input)!)).toBe(expected);
  });

  it('still refuses days that do not exist in early years', () => {
    expect(parseDateTime('0050-02-29T00:00:00Z')).toBeNull();
    expect(parseDateTime('0048-02-29T00:00:00Z')).not.toBeNull();
  });
});

describe('formatDateTime', () => {
  it('writes exactly what toISOString writes, across years, days and milliseconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), (ms) => {
        expect(formatDateTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
    // the same day again (its date part remembered), and the edges of a day
    const day = Date.UTC(2026, 10, 22);
    for (const ms of [day, day + 1, day + 9, day + 10, day + 99, day + 100, day + 86_399_999, day - 1])
      expect(formatDateTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('refuses times a Date cannot hold, as toISOString does', () => {
    expect(() => formatDateTime(Number.NaN)).toThrow(RangeError);
    expect(() => formatDateTime(8_640_000_000_000_001)).toThrow(RangeError);
    expect(formatDateTime(1_000.9)).toBe(new Date(1_000.9).toISOString());
  });
});
