import { EXAMPLE_QUESTIONS } from '../../../src/modules/catalog/questions.schemas.ts';
import type { Injector } from '../../helpers/build-test-app.ts';
import type { Account } from '../../helpers/factories.ts';
import { approveWithIntent } from '../../helpers/payment-factories.ts';

// Shared steps of the day-of-the-trip tests (decisions §23); not a test file.

/** A dive's questions: a choice per participant (required), a text per participant, a text per booking. */
export const DIVE_QUESTIONS = EXAMPLE_QUESTIONS;

export const WAIVER = 'I understand that diving carries risks.\nI dive at my own risk.';

let events = 0;

/** The vendor approves, the customer pays, the gateway confirms: the booking is confirmed. */
export async function confirm(api: Injector, vendor: Account, customer: Account, bookingId: number) {
  const payment = await approveWithIntent(api, vendor, customer, bookingId);
  const paid = await api({
    method: 'POST',
    url: '/api/v1/payment/webhooks/gateway/',
    payload: {
      gateway_event_id: `evt_trip_${bookingId}_${events++}`,
      event_type: 'payment_intent.succeeded',
      gateway_payment_intent_id: payment.gateway_payment_intent_id,
    },
  });
  if (paid.json().payment_status !== 'succeeded') throw new Error(`payment: ${paid.body}`);
}

export const attendance = (api: Injector, token: string, id: number, status: string) =>
  api({ method: 'POST', url: `/api/v1/booking/bookings/${id}/attendance/`, token, payload: { status } });
