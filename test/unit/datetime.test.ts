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
  ])('reads %s as %s (offsets honoured, no zone = UTC)', (input, expected) => {
    expect(formatDateTime(parseDateTime(input)!)).toBe(expected);
  });

  it.each([
    'soon',
    '',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2027-02-29T00:00:00Z',
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

describe('formatDateTime', () => {
  it('prints UTC with milliseconds and Z, like toISOString', () => {
    expect(formatDateTime(Date.UTC(2026, 6, 1, 9))).toBe('2026-07-01T09:00:00.000Z');
  });
});
