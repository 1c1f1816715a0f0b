import type { PaymentStatus } from '../../db/database.ts';

export const EVENT_STATUS = {
  'payment_intent.processing': 'processing',
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'charge.refunded': 'refunded',
} as const satisfies Record<string, PaymentStatus>;

export type GatewayEventType = keyof typeof EVENT_STATUS;
export const EVENT_TYPES = Object.keys(EVENT_STATUS) as GatewayEventType[];

/** A payment's outcome as the gateway's event that reports it: what the simulators send. */
export type GatewayOutcome = (typeof EVENT_STATUS)[GatewayEventType];
export const OUTCOME_EVENTS = Object.fromEntries(
  Object.entries(EVENT_STATUS).map(([event, status]) => [status, event]),
) as Record<GatewayOutcome, GatewayEventType>;

/**
 * Where a payment may go from each status. Events arrive out of order, so a payment never moves
 * backwards: succeeded only goes on to (partially) refunded, refunded is final, a failed intent may still
 * be retried (processing, succeeded). A refund seen before its success still lands on refunded.
 */
const NEXT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  requires_payment: ['processing', 'succeeded', 'failed', 'refunded'],
  processing: ['succeeded', 'failed', 'refunded'],
  failed: ['processing', 'succeeded'],
  succeeded: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
};

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return NEXT[from].includes(to);
}

/** Payments a repeated intent request should return instead of opening another. */
export const OPEN_STATUSES: readonly PaymentStatus[] = ['requires_payment', 'processing'];

/** Payments holding money that may be refunded (decisions §12). */
export const REFUNDABLE_STATUSES: readonly PaymentStatus[] = ['succeeded', 'partially_refunded'];

/**
 * A paid payment's status once `refundedCents` of its `amountCents` are refunded: partially_refunded while
 * some remains, refunded when nothing does.
 */
export function statusAfterRefunds(amountCents: number, refundedCents: number): PaymentStatus {
  if (refundedCents <= 0) return 'succeeded';
  return refundedCents < amountCents ? 'partially_refunded' : 'refunded';
}
