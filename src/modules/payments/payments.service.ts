import { randomUUID } from 'node:crypto';
import type { Db, PaymentStatus } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inReadSnapshot, inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import {
  type BookingForPayment,
  confirmApprovedBooking,
  findBookingForPayment,
  partyOf,
} from '../booking/index.ts';
import { WebhookSignatureError } from './gateway.ts';
import { recordPaymentEvents, recordRefundEvent, toPayment } from './payment-events.ts';
import {
  canMovePayment,
  EVENT_STATUS,
  type GatewayEventType,
  type GatewayOutcome,
  OPEN_STATUSES,
  OUTCOME_EVENTS,
} from './payment-status.ts';
import type { PaymentsDeps } from './payments.deps.ts';
import * as repo from './payments.repository.ts';
import { refundsOf } from './refunds.repository.ts';
import { completeRefund, recordGatewayRefund, refundLatePayment } from './refunds.service.ts';

export interface IntentResult {
  created: boolean;
  body: { payment: ReturnType<typeof toPayment>; client_secret: string; mocked: boolean };
}

/** The caller's approved booking, checked for paying: only its customer pays, and only once approved. */
async function payableBooking(
  db: Db,
  caller: AuthUser,
  bookingId: number,
  now: number,
): Promise<BookingForPayment> {
  const booking = await findBookingForPayment(db, bookingId, now);
  // to anyone but its customer the booking does not exist
  if (!booking || partyOf(booking, caller) !== 'customer') throw notFound('Booking not found.');
  if (booking.status !== 'approved') {
    throw new AppError(
      'invalid_state',
      `A payment needs an approved booking; this one is ${booking.status}.`,
    );
  }
  return booking;
}

/**
 * The currency a payment request names, lower-cased; undefined when it names none. Its format is judged
 * before anything is read, its agreement with the booking once the booking is known (sameCurrency).
 */
function requestedCurrency(currency: string | undefined): string | undefined {
  if (currency === undefined) return undefined;
  const code = currency.trim().toLowerCase();
  if (!/^[a-z]{3}$/.test(code)) throw invalidFields({ currency: 'Must be a three-letter currency code.' });
  return code;
}

/** A payment is in its booking's currency (decisions §10): a request naming another is refused. */
function sameCurrency(booking: BookingForPayment, requested: string | undefined): void {
  if (requested !== undefined && requested !== booking.currency)
    throw invalidFields({ currency: `Must be the booking's currency (${booking.currency}).` });
}

/**
 * Opens a payment for the caller's approved booking, in the booking's currency (a `currency` in the
 * request must name it). While one is open (requires_payment, processing), asking again returns that one
 * instead of opening a second.
 *
 * The gateway is called between two transactions, never inside one: a transaction waiting on the network
 * would hold a connection, and on SQLite the only write lock, for as long as the gateway takes. So the
 * second transaction checks the booking again, and the one-open-payment index decides between requests
 * that opened intents at the same time: the loser answers with the winner's payment and cancels its own
 * intent at the gateway.
 */
export async function createPaymentIntent(
  deps: PaymentsDeps,
  caller: AuthUser,
  input: { booking_id: number; currency?: string },
): Promise<IntentResult> {
  const requested = requestedCurrency(input.currency);
  const respond = (row: repo.PaymentRow, created: boolean): IntentResult => ({
    created,
    // an open payment has no refunds: a refund needs a succeeded payment, and charge.refunded closes it
    body: { payment: toPayment(row, []), client_secret: row.client_secret, mocked: deps.gateway.mocked },
  });
  const checked = await inReadSnapshot(deps.db, async (db) => {
    const booking = await payableBooking(db, caller, input.booking_id, deps.clock.now().getTime());
    sameCurrency(booking, requested);
    return { booking, open: await repo.findOpenPayment(db, booking.id) };
  });
  if (checked.open) return respond(checked.open, false);

  const intent = await deps.gateway.createIntent({
    amountCents: checked.booking.totalPriceCents,
    currency: checked.booking.currency,
    bookingId: checked.booking.id,
  });
  const now = deps.clock.now().getTime();
  const stored = await inTransaction(deps.db, async (trx) => {
    // declined, cancelled or paid meanwhile: refused as if the request had come after
    const booking = await payableBooking(trx, caller, input.booking_id, now);
    const row = await repo.insertPaymentUnlessOpen(trx, {
      booking_id: booking.id,
      gateway_payment_intent_id: intent.intentId,
      client_secret: intent.clientSecret,
      gateway_charge_id: '',
      amount_cents: booking.totalPriceCents,
      // a booking's currency never changes (fixed when it was requested), so this is the one checked above
      currency: booking.currency,
      status: 'requires_payment',
      created_at: now,
      updated_at: now,
    });
    if (row) return { row, created: true };
    // another request opened one since our check: answer with it
    const raced = await repo.findOpenPayment(trx, booking.id);
    if (!raced) throw new AppError('conflict', 'The payment changed meanwhile; try again.');
    return { row: raced, created: false };
  }).catch(async (error: unknown) => {
    await deps.gateway.cancelIntent(intent.intentId);
    throw error;
  });
  if (!stored.created) await deps.gateway.cancelIntent(intent.intentId);
  return respond(stored.row, stored.created);
}

/**
 * The payment and its booking's status, for the booking's customer or vendor only. Its three reads (the
 * payment, the booking, the refunds) share one snapshot: a refund committing between them would show a
 * status that contradicts amount_refunded (decisions §12).
 */
export async function getPaymentStatus(deps: PaymentsDeps, caller: AuthUser, paymentId: number) {
  return inReadSnapshot(deps.db, async (db) => {
    const payment = await repo.findPaymentById(db, paymentId);
    const booking =
      payment && (await findBookingForPayment(db, payment.booking_id, deps.clock.now().getTime()));
    if (!payment || !booking || !partyOf(booking, caller)) throw notFound('Payment not found.');
    const refunds = await refundsOf(db, [payment.id]);
    return { ...toPayment(payment, refunds), booking_status: booking.status };
  });
}

/** What a mock checkout plays: the card accepted, or declined. */
export type MockCheckoutOutcome = Extract<GatewayOutcome, 'succeeded' | 'failed'>;

/**
 * Plays the mock gateway's checkout for the payment's customer (the web app's Pay in development): the
 * event the gateway's webhook would deliver, under a fresh event id, applied by applyWebhookEvent, so the
 * booking moves through the one path a real payment takes. `enabled` is the MOCK_CHECKOUT setting; with it
 * off, or a real gateway, or for anyone but the booking's customer, the payment does not exist here.
 */
export async function mockCheckout(
  deps: PaymentsDeps,
  enabled: boolean,
  caller: AuthUser,
  paymentId: number,
  outcome: MockCheckoutOutcome,
) {
  if (!enabled || !deps.gateway.mocked) throw notFound('Payment not found.');
  const payment = await repo.findPaymentById(deps.db, paymentId);
  const booking =
    payment && (await findBookingForPayment(deps.db, payment.booking_id, deps.clock.now().getTime()));
  if (!payment || !booking || partyOf(booking, caller) !== 'customer') throw notFound('Payment not found.');
  await applyWebhookEvent(deps, {
    gateway_event_id: `evt_mock_checkout_${randomUUID()}`,
    event_type: OUTCOME_EVENTS[outcome],
    gateway_payment_intent_id: payment.gateway_payment_intent_id,
    payload: { source: 'mock_checkout' },
  });
  return getPaymentStatus(deps, caller, paymentId);
}

export interface WebhookInput {
  gateway_event_id: string;
  event_type: GatewayEventType;
  gateway_payment_intent_id: string;
  payload?: Record<string, unknown>;
}

export interface WebhookResult {
  received: true;
  duplicate: boolean;
  applied: boolean;
  payment_status: PaymentStatus;
}

/** Verifies the signature of a raw webhook body (before anything is parsed into effects). */
export function verifyWebhookSignature(
  deps: PaymentsDeps,
  rawBody: string,
  signature: string | undefined,
): void {
  try {
    deps.gateway.verifyWebhook(rawBody, signature, deps.clock.now().getTime());
  } catch (error) {
    if (error instanceof WebhookSignatureError)
      throw invalidFields({ 'Gateway-Signature': error.message }, error.message);
    throw error;
  }
}

/**
 * Applies a gateway event exactly once. The event row and its effect share one transaction, and the
 * unique gateway_event_id decides which delivery applies: repeats, however simultaneous, are stored once
 * and answered as duplicates.
 */
export async function applyWebhookEvent(deps: PaymentsDeps, event: WebhookInput): Promise<WebhookResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await applyWebhookEventOnce(deps, event);
    } catch (error) {
      // A new payment of the booking was opened while this event reopened an old one (PostgreSQL): the
      // one-open-payment index refused it; the retry sees the new payment and does not reopen.
      if (attempt < 2 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/**
 * An event's outcome, and what to do at the gateway once its transaction has committed: the intent to
 * cancel, the refund to complete.
 */
interface AppliedEvent {
  result: WebhookResult;
  supersededIntent?: string;
  lateRefund?: number;
}

async function applyWebhookEventOnce(deps: PaymentsDeps, event: WebhookInput): Promise<WebhookResult> {
  const now = deps.clock.now().getTime();
  const applied = await inTransaction<AppliedEvent>(deps.db, async (trx) => {
    const payment = await repo.findPaymentByIntentForUpdate(trx, event.gateway_payment_intent_id);
    // Not stored: the gateway retries, and a later delivery applies once the payment exists.
    if (!payment) throw notFound('No payment has this gateway_payment_intent_id.');
    const target = EVENT_STATUS[event.event_type];
    // A late event must not reopen a failed payment once the customer has opened a new one for the
    // booking: a booking has at most one open payment.
    const reopens = OPEN_STATUSES.includes(target) && !OPEN_STATUSES.includes(payment.status);
    const replaced = reopens && (await repo.findOpenPayment(trx, payment.booking_id)) !== undefined;
    const applies = canMovePayment(payment.status, target) && !replaced;
    const stored = await repo.insertWebhookEventOnce(trx, {
      gateway_event_id: event.gateway_event_id,
      event_type: event.event_type,
      gateway_payment_intent_id: event.gateway_payment_intent_id,
      payload: JSON.stringify(event.payload ?? {}),
      applied: applies ? 1 : 0,
      created_at: now,
    });
    if (!stored) {
      const previous = await repo.findWebhookEvent(trx, event.gateway_event_id);
      return {
        result: {
          received: true,
          duplicate: true,
          applied: previous?.applied === 1,
          payment_status: payment.status,
        },
      };
    }
    if (!applies)
      return {
        result: { received: true, duplicate: false, applied: false, payment_status: payment.status },
      };
    const chargeId =
      target === 'succeeded'
        ? typeof event.payload?.charge_id === 'string' && event.payload.charge_id
          ? event.payload.charge_id.slice(0, 255)
          : payment.gateway_charge_id || deps.gateway.newChargeId()
        : undefined;
    const updated = await repo.updatePayment(trx, payment.id, {
      status: target,
      gateway_charge_id: chargeId,
      updated_at: now,
    });
    if (target === 'refunded')
      for (const refundId of await recordGatewayRefund(trx, updated, now))
        await recordRefundEvent(trx, refundId, now);
    if (target === 'failed') await recordPaymentEvents(trx, ['payment.failed'], payment.id, now);
    const result: WebhookResult = {
      received: true,
      duplicate: false,
      applied: true,
      payment_status: updated.status,
    };
    if (target !== 'succeeded') return { result };
    // A booking declined, cancelled or expired meanwhile stays as it is; the payment records the success and
    // is refunded (reserved here, with the success, so no crash can lose it). The booking is confirmed
    // only here, in the success's transaction: no event says confirmed before the payment succeeded.
    const confirmed = await confirmApprovedBooking(trx, payment.booking_id, now);
    await recordPaymentEvents(
      trx,
      confirmed ? ['payment.succeeded', 'booking.confirmed'] : ['payment.succeeded'],
      payment.id,
      now,
    );
    const booking = confirmed ? undefined : await findBookingForPayment(trx, payment.booking_id, now);
    return {
      result,
      supersededIntent: await closeSupersededPayment(trx, payment.booking_id, now),
      lateRefund: booking && (await refundLatePayment(trx, updated, booking.status, now)),
    };
  });
  // at the gateway after the commit: never a network call inside a transaction (see createPaymentIntent)
  if (applied.supersededIntent !== undefined) await deps.gateway.cancelIntent(applied.supersededIntent);
  // the answer tells what the event did (succeeded); the refund shows on the payment
  if (applied.lateRefund !== undefined) await completeRefund(deps, applied.lateRefund);
  return applied.result;
}

/**
 * A success for a payment the customer had given up on (a late event for a failed one, after a new payment
 * was opened) settles the booking, so the new payment must not take the money a second time: while nobody
 * has started paying it (requires_payment) it is closed as failed, and its intent (returned) is to be
 * cancelled at the gateway once this transaction commits. One already processing is left to finish and its
 * outcome recorded as it comes; a second success is then a refund for the vendor to make, visible in the
 * booking's payments.
 */
async function closeSupersededPayment(trx: Db, bookingId: number, now: number): Promise<string | undefined> {
  const open = await repo.findOpenPayment(trx, bookingId);
  if (open?.status !== 'requires_payment') return undefined;
  await repo.updatePayment(trx, open.id, { status: 'failed', updated_at: now });
  return open.gateway_payment_intent_id;
}
