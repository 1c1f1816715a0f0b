import { describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from '../../src/lib/money.ts';

describe('parseMoney', () => {
  it.each([
    ['45', 4500],
    ['45.5', 4550],
    ['45.50', 4550],
    ['0', 0],
    ['0.01', 1],
    [' 12.30 ', 1230],
    [45, 4500],
    [45.5, 4550],
    [0.1, 10],
    ['99999999.99', 9_999_999_999],
  ])('reads %j as %i cents', (input, cents) => {
    expect(parseMoney(input)).toBe(cents);
  });

  it.each([
    ['45.123'],
    [45.123],
    ['-1'],
    [-1],
    ['1e3'],
    ['abc'],
    [''],
    ['100000000'],
    [100_000_000],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [null],
    [true],
    [{}],
    ['12,50'],
    ['.5'],
  ])('rejects %j', (input) => {
    expect(parseMoney(input)).toBeNull();
  });
});

describe('formatMoney', () => {
  it.each([
    [0, '0.00'],
    [1, '0.01'],
    [4500, '45.00'],
    [13_500, '135.00'],
    [9_999_999_999, '99999999.99'],
  ])('prints %i cents as %s', (cents, text) => {
    expect(formatMoney(cents)).toBe(text);
  });
});
