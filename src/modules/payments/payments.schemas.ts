import { Type } from 'typebox';
import { DateTimeOut, MoneyOut } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { EVENT_TYPES } from './payment-status.ts';

export const PaymentSchema = Type.Object({
  id: Type.Integer(),
  booking_id: Type.Integer(),
  gateway_payment_intent_id: Type.String(),
  gateway_charge_id: Type.String({ description: 'empty string until the payment succeeds' }),
  amount: MoneyOut,
  currency: Type.String({ description: 'lower-case ISO 4217 code' }),
  status: Type.Union([
    Type.Literal('requires_payment'),
    Type.Literal('processing'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
    Type.Literal('refunded'),
  ]),
  created_at: DateTimeOut,
  updated_at: DateTimeOut,
});

export const CreateIntentBody = Type.Object({
  booking_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
  currency: Type.Optional(Type.String({ maxLength: 8, description: 'three letters, default usd' })),
});

export const IntentResponse = Type.Object({
  payment: PaymentSchema,
  client_secret: Type.String(),
  mocked: Type.Boolean(),
});

export const PaymentStatusResponse = Type.Object({
  ...PaymentSchema.properties,
  booking_status: Type.String(),
});

export const PaymentIdParams = Type.Object({
  payment_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
});

export const WebhookBody = Type.Object({
  gateway_event_id: Type.String({ minLength: 1, maxLength: 255 }),
  event_type: Type.Union(
    [
      Type.Literal('payment_intent.processing'),
      Type.Literal('payment_intent.succeeded'),
      Type.Literal('payment_intent.payment_failed'),
      Type.Literal('charge.refunded'),
    ],
    { description: `one of ${EVENT_TYPES.join(', ')}` },
  ),
  gateway_payment_intent_id: Type.String({ minLength: 1, maxLength: 255 }),
  payload: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), { description: 'free-form; charge_id is read on success' }),
  ),
});

export const WebhookResponse = Type.Object({
  received: Type.Boolean(),
  duplicate: Type.Boolean(),
  applied: Type.Boolean(),
  payment_status: Type.String(),
});
