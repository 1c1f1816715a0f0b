import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { AppError, notFound } from '../http/errors.ts';
import {
  type GatewayOutcome,
  OUTCOME_EVENTS,
  SIGNATURE_HEADER,
  signWebhook,
} from '../modules/payments/index.ts';

/**
 * Plays the gateway for a person walking the booking flow by hand: sends the event for one payment to a
 * running server, signed the way the server checks when PAYMENT_WEBHOOK_SECRET is set.
 */
export async function simulatePayment(
  db: Kysely<Database>,
  options: { paymentId: number; outcome: GatewayOutcome; baseUrl: string; secret: string | null },
): Promise<{ status: number; body: unknown }> {
  const payment = await db
    .selectFrom('payments')
    .select(['gateway_payment_intent_id'])
    .where('id', '=', options.paymentId)
    .executeTakeFirst();
  if (!payment) throw notFound(`no payment with id ${options.paymentId} in DATABASE_URL`);
  const body = JSON.stringify({
    gateway_event_id: `evt_sim_${randomUUID()}`,
    event_type: OUTCOME_EVENTS[options.outcome],
    gateway_payment_intent_id: payment.gateway_payment_intent_id,
    payload: { simulated: true },
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.secret)
    headers[SIGNATURE_HEADER] = signWebhook(options.secret, body, Math.floor(Date.now() / 1000));
  const res = await fetch(new URL('/api/v1/payment/webhooks/gateway/', options.baseUrl), {
    method: 'POST',
    headers,
    body,
  }).catch((error: Error) => {
    throw unreachable(options.baseUrl, error);
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
};

/** fetch's "fetch failed" as the one line an operator can act on (the cause is in `cause`). */
function unreachable(baseUrl: string, error: Error): AppError {
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const reason = REASONS[cause?.code ?? ''] ?? cause?.message ?? error.message;
  return new AppError(
    'service_unavailable',
    `cannot reach the server at ${baseUrl} (${reason}); pass --url or set API_URL`,
  );
}
