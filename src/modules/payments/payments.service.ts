import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { AuthUser } from '../../http/auth.ts';
import { AppError, invalidFields, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { formatMoney } from '../../lib/money.ts';
import { confirmApprovedBooking, findBookingForPayment, setBookingCurrency } from '../booking/index.ts';
import { type PaymentGateway, WebhookSignatureError } from './gateway.ts';
import { canMovePayment, EVENT_STATUS, type GatewayEventType, OPEN_STATUSES } from './payment-status.ts';
import * as repo from './payments.repository.ts';

export interface PaymentsDeps {
  db: Kysely<Database>;
  clock: Clock;
  gateway: PaymentGateway;
}

export function toPayment(row: repo.PaymentRow) {
  return {
    id: row.id,
    booking_id: row.booking_id,
    gateway_payment_intent_id: row.gateway_payment_intent_id,
    gateway_charge_id: row.gateway_charge_id,
    amount: formatMoney(row.amount_cents),
    currency: row.currency,
    status: row.status,
    created_at: formatDateTime(row.created_at),
    updated_at: formatDateTime(row.updated_at),
  };
}

export interface IntentResult {
  created: boolean;
  body: { payment: ReturnType<typeof toPayment>; client_secret: string; mocked: boolean };
}

/**
 * Opens a payment for the caller's approved booking. While one is open (requires_payment, processing),
 * asking again returns that one instead of opening a second.
 */
export async function createPaymentIntent(
  deps: PaymentsDeps,
  caller: AuthUser,
  input: { booking_id: number; currency?: string },
): Promise<IntentResult> {
  const currency = (input.currency ?? 'usd').trim().toLowerCase();
  if (!/^[a-z]{3}$/.test(currency))
    throw invalidFields({ currency: 'Must be a three-letter currency code.' });
  const respond = (row: repo.PaymentRow, created: boolean): IntentResult => ({
    created,
    body: { payment: toPayment(row), client_secret: row.client_secret, mocked: deps.gateway.mocked },
  });
  return inTransaction(deps.db, async (trx) => {
    const booking = await findBookingForPayment(trx, input.booking_id);
    if (!booking || booking.customerId !== caller.id) throw notFound('Booking not found.');
    if (booking.status !== 'approved') {
      throw new AppError(
        'invalid_state',
        `A payment needs an approved booking; this one is ${booking.status}.`,
      );
    }
    const open = await repo.findOpenPayment(trx, booking.id);
    if (open) return respond(open, false);
    const intent = await deps.gateway.createIntent({
      amountCents: booking.totalPriceCents,
      currency,
      bookingId: booking.id,
    });
    const now = deps.clock.now().getTime();
    const row = await repo.insertPaymentUnlessOpen(trx, {
      booking_id: booking.id,
      gateway_payment_intent_id: intent.intentId,
      client_secret: intent.clientSecret,
      gateway_charge_id: '',
      amount_cents: booking.totalPriceCents,
      currency,
      status: 'requires_payment',
      created_at: now,
      updated_at: now,
    });
    if (!row) {
      // Another request opened one between our read and our insert (PostgreSQL): answer with it.
      const raced = await repo.findOpenPayment(trx, booking.id);
      if (!raced) throw new AppError('conflict', 'The payment changed meanwhile; try again.');
      return respond(raced, false);
    }
    await setBookingCurrency(trx, booking.id, currency);
    return respond(row, true);
  });
}

/** The payment and its booking's status, for the booking's customer or vendor only. */
export async function getPaymentStatus(deps: PaymentsDeps, caller: AuthUser, paymentId: number) {
  const payment = await repo.findPaymentById(deps.db, paymentId);
  const booking = payment && (await findBookingForPayment(deps.db, payment.booking_id));
  const isParty =
    booking &&
    (booking.customerId === caller.id || (caller.vendorId !== null && booking.vendorId === caller.vendorId));
  if (!payment || !booking || !isParty) throw notFound('Payment not found.');
  return { ...toPayment(payment), booking_status: booking.status };
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
  payment_status: string;
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

async function applyWebhookEventOnce(deps: PaymentsDeps, event: WebhookInput): Promise<WebhookResult> {
  const now = deps.clock.now().getTime();
  return inTransaction(deps.db, async (trx) => {
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
        received: true,
        duplicate: true,
        applied: previous?.applied === 1,
        payment_status: payment.status,
      };
    }
    if (!applies) return { received: true, duplicate: false, applied: false, payment_status: payment.status };
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
    if (target === 'succeeded') {
      // A booking declined or cancelled meanwhile stays as it is; the payment still records the success.
      await confirmApprovedBooking(trx, payment.booking_id, now);
      await closeSupersededPayment(deps, trx, payment.booking_id, now);
    }
    return { received: true, duplicate: false, applied: true, payment_status: updated.status };
  });
}

/**
 * A success for a payment the customer had given up on (a late event for a failed one, after a new payment
 * was opened) settles the booking, so the new payment must not take the money a second time: while nobody
 * has started paying it (requires_payment) it is cancelled at the gateway and closed as failed. One already
 * processing is left to finish and its outcome recorded as it comes; a second success is then a refund for
 * the vendor to make, visible in the booking's payments.
 */
async function closeSupersededPayment(deps: PaymentsDeps, trx: Db, bookingId: number, now: number) {
  const open = await repo.findOpenPayment(trx, bookingId);
  if (!open || open.status !== 'requires_payment') return;
  await deps.gateway.cancelIntent(open.gateway_payment_intent_id);
  await repo.updatePayment(trx, open.id, { status: 'failed', updated_at: now });
}
