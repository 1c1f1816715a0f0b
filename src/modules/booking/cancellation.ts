import { HOUR_MS } from '../../lib/datetime.ts';

/** A listing's cancellation policy (decisions §12). */
export interface CancellationPolicy {
  freeCancellationHours: number;
  lateRefundPercent: number;
}

/**
 * The cents a customer's cancel at `now` refunds of a paid amount: all of it at least
 * `freeCancellationHours` before the booking starts, else `lateRefundPercent` of it rounded down to the
 * cent. Integer cents throughout: the product stays far below 2^53 for any amount under the money limit.
 */
export function customerRefundCents(
  policy: CancellationPolicy,
  startsAt: number,
  now: number,
  amountCents: number,
): number {
  if (inFreeCancellation(policy, startsAt, now)) return amountCents;
  return Math.floor((amountCents * policy.lateRefundPercent) / 100);
}

/** Whether a customer's cancel at `now` is early enough for a full refund (the cutoff itself included). */
export function inFreeCancellation(
  policy: Pick<CancellationPolicy, 'freeCancellationHours'>,
  startsAt: number,
  now: number,
): boolean {
  return startsAt - now >= policy.freeCancellationHours * HOUR_MS;
}

/**
 * Whether a channel may cancel its booking at `now` (decisions §24): a hold (or anything not yet
 * confirmed) is released at any time; a confirmed booking only while its free cancellation lasts, the
 * reseller having taken the money on the policy's terms.
 */
export function channelMayCancel(
  policy: Pick<CancellationPolicy, 'freeCancellationHours'>,
  confirmed: boolean,
  startsAt: number,
  now: number,
): boolean {
  return !confirmed || inFreeCancellation(policy, startsAt, now);
}
