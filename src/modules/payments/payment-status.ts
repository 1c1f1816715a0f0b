import type { PaymentStatus } from '../../db/database.ts';

export const EVENT_STATUS = {
  'payment_intent.processing': 'processing',
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'charge.refunded': 'refunded',
} as const satisfies Record<string, PaymentStatus>;

export type GatewayEventType = keyof typeof EVENT_STATUS;
export const EVENT_TYPES = Object.keys(EVENT_STATUS) as GatewayEventType[];

/**
 * Where a payment may go from each status. Events arrive out of order, so a payment never moves
 * backwards: succeeded only goes on to refunded, refunded is final, a failed intent may still be
 * retried (processing, succeeded). A refund seen before its success still lands on refunded.
 */
const NEXT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  requires_payment: ['processing', 'succeeded', 'failed', 'refunded'],
  processing: ['succeeded', 'failed', 'refunded'],
  failed: ['processing', 'succeeded'],
  succeeded: ['refunded'],
  refunded: [],
};

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return NEXT[from].includes(to);
}

/** Payments a repeated intent request should return instead of opening another. */
export const OPEN_STATUSES: readonly PaymentStatus[] = ['requires_payment', 'processing'];
