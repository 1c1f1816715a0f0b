import { Type } from 'typebox';
import { PAYMENT_STATUSES } from '../../db/database.ts';
import { DateTimeOut, MoneyOut, Named, Ref, StringEnum, serviceChecks, Text } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { BOOKING_STATUSES, RefundSchema } from '../booking/index.ts';
import { EVENT_TYPES } from './payment-status.ts';

const PaymentStatus = StringEnum(PAYMENT_STATUSES, {
  description:
    'requires_payment → processing → succeeded (→ partially_refunded while 0 < amount_refunded < amount ' +
    '→ refunded when equal), or failed',
});

const PAYMENT_EXAMPLE = {
  id: 9,
  booking_id: 41,
  gateway_payment_intent_id: 'pi_mock_3f9a2c',
  gateway_charge_id: '',
  amount: '90.00',
  currency: 'eur',
  status: 'requires_payment',
  amount_refunded: '0.00',
  refunds: [],
  created_at: '2026-05-04T15:05:00.000Z',
  updated_at: '2026-05-04T15:05:00.000Z',
};

export const PaymentSchema = Named(
  'Payment',
  Type.Object(
    {
      id: Type.Integer(),
      booking_id: Type.Integer(),
      gateway_payment_intent_id: Type.String(),
      gateway_charge_id: Type.String({ description: 'empty string until the payment succeeds' }),
      amount: MoneyOut,
      currency: Type.String({
        description: "lower-case ISO 4217 code: always the booking's (fixed when it was requested)",
      }),
      status: PaymentStatus,
      amount_refunded: MoneyOut,
      refunds: Type.Array(Ref(RefundSchema), { description: 'oldest first' }),
      created_at: DateTimeOut,
      updated_at: DateTimeOut,
    },
    {
      description:
        "A payment of a booking: amount is the booking's total_price, currency the booking's. Amounts " +
        'have two decimals in every currency, JPY included.',
      examples: [PAYMENT_EXAMPLE],
    },
  ),
);

export const CreateIntentBody = Type.Object(
  {
    booking_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
    // The service trims and lower-cases it, wants three letters, then the booking's currency.
    currency: Type.Optional(
      Type.String({
        maxLength: 8,
        description:
          "optional; when given it must be the booking's currency (compared in any case), else 400 on " +
          "currency. The payment is always in the booking's currency.",
        ...serviceChecks({ pattern: '^\\s*[A-Za-z]{3}\\s*$' }),
      }),
    ),
  },
  { examples: [{ booking_id: 41, currency: 'EUR' }] },
);

export const IntentResponse = Named(
  'PaymentIntent',
  Type.Object(
    {
      payment: Ref(PaymentSchema),
      client_secret: Type.String({ description: "for the gateway's client-side confirmation" }),
      mocked: Type.Boolean({ description: 'true while the mock gateway stands in for a real one' }),
    },
    {
      examples: [{ payment: PAYMENT_EXAMPLE, client_secret: 'pi_mock_3f9a2c_secret_51b0', mocked: true }],
    },
  ),
);

export const PaymentStatusResponse = Named(
  'PaymentWithBookingStatus',
  Type.Object(
    { ...PaymentSchema.properties, booking_status: StringEnum(BOOKING_STATUSES) },
    { examples: [{ ...PAYMENT_EXAMPLE, booking_status: 'approved' }] },
  ),
);

export const RefundBody = Type.Object(
  {
    amount: Type.Optional(
      Type.Union([Type.String({ maxLength: 32 }), Type.Number()], {
        description: 'decimal string or number, > 0, at most two decimals; default: all that remains',
      }),
    ),
    note: Type.Optional(Text(2000)),
  },
  { examples: [{ amount: '20.00', note: 'One paddle was missing.' }] },
);

export const MockCheckoutBody = Type.Object(
  {
    outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')], {
      description: 'succeeded: the card is accepted; failed: it is declined',
    }),
  },
  { examples: [{ outcome: 'succeeded' }] },
);

export const PaymentIdParams = Type.Object({
  payment_id: Type.Integer({ minimum: 1, maximum: MAX_ID }),
});

export const WebhookBody = Type.Object(
  {
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
  },
  {
    examples: [
      {
        gateway_event_id: 'evt_mock_71c2',
        event_type: 'payment_intent.succeeded',
        gateway_payment_intent_id: 'pi_mock_3f9a2c',
        payload: { charge_id: 'ch_mock_88d1' },
      },
    ],
  },
);

/** The header carrying the webhook's signature (its name as the document shows it). */
export const WebhookHeaders = Type.Object({
  'Gateway-Signature': Type.Optional(
    Type.String({
      description:
        'Required when the server has PAYMENT_WEBHOOK_SECRET: `t=<unix seconds>,v1=<hex HMAC-SHA256 of ' +
        '"<t>.<raw body>">`, within 300 s of the server clock.',
    }),
  ),
});

export const WebhookResponse = Named(
  'WebhookReceipt',
  Type.Object(
    {
      received: Type.Boolean(),
      duplicate: Type.Boolean({ description: 'this gateway_event_id was seen before; nothing changed' }),
      applied: Type.Boolean({ description: 'the event moved the payment (and its booking)' }),
      payment_status: PaymentStatus,
    },
    { examples: [{ received: true, duplicate: false, applied: true, payment_status: 'succeeded' }] },
  ),
);
