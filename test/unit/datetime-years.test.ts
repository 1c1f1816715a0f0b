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
