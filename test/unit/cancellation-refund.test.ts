import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MONEY_CENTS } from '../../src/lib/money.ts';
import { customerRefundCents } from '../../src/modules/booking/cancellation.ts';

const HOUR = 3_600_000;
const START = Date.parse('2026-07-01T09:00:00.000Z');

describe('customerRefundCents', () => {
  const policy = { freeCancellationHours: 24, lateRefundPercent: 33 };

  it('refunds in full exactly at the cutoff and the late share one millisecond after it', () => {
    expect(customerRefundCents(policy, START, START - 24 * HOUR, 1001)).toBe(1001);
    expect(customerRefundCents(policy, START, START - 24 * HOUR + 1, 1001)).toBe(330);
  });

  it('rounds the late share down to the cent', () => {
    expect(customerRefundCents({ ...policy, lateRefundPercent: 50 }, START, START, 101)).toBe(50);
    expect(customerRefundCents({ ...policy, lateRefundPercent: 99 }, START, START, 1)).toBe(0);
    expect(customerRefundCents({ ...policy, lateRefundPercent: 100 }, START, START, 9_999_999_999)).toBe(
      9_999_999_999,
    );
  });

  it('with no free period, only the late share, and never more than the amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_MONEY_CENTS - 1 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 8760 }),
        fc.integer({ min: -1000 * HOUR, max: 1000 * HOUR }),
        (amount, percent, hours, lead) => {
          const cents = customerRefundCents(
            { freeCancellationHours: hours, lateRefundPercent: percent },
            START,
            START - lead,
            amount,
          );
          expect(Number.isInteger(cents)).toBe(true);
          expect(cents).toBeLessThanOrEqual(amount);
          expect(cents).toBe(lead >= hours * HOUR ? amount : Math.floor((amount * percent) / 100));
        },
      ),
    );
  });
});
