import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import { RefundSchema } from '../booking/index.ts';
import { SIGNATURE_HEADER } from './gateway.ts';
import type { PaymentsDeps } from './payments.deps.ts';
import * as schemas from './payments.schemas.ts';
import * as payments from './payments.service.ts';
import * as refunds from './refunds.service.ts';

const tags = ['payments'];

export const paymentsRoutes: FastifyPluginAsyncTypebox<{
  deps: PaymentsDeps;
  /** the MOCK_CHECKOUT setting */
  mockCheckout: boolean;
}> = async (app, { deps, mockCheckout }) => {
  app.post(
    '/intents/',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: "Create a payment intent for the caller's approved booking",
        description:
          'Answers 201 with a new intent, or 200 with the booking’s open one. The payment is in the ' +
          "booking's currency (its vendor's when it was requested) for the booking's total_price; a " +
          'currency naming another is a 400 on currency.',
        body: schemas.CreateIntentBody,
        response: { 200: Ref(schemas.IntentResponse), 201: Ref(schemas.IntentResponse) },
        'x-errors': [409],
      },
    },
    async (request, reply) => {
      const result = await payments.createPaymentIntent(deps, callerOf(request), request.body);
      return reply.status(result.created ? 201 : 200).send(result.body);
    },
  );

  app.get(
    '/:payment_id/status/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "Get a payment's status",
        description: "For the booking's customer or vendor.",
        params: schemas.PaymentIdParams,
        response: { 200: Ref(schemas.PaymentStatusResponse) },
      },
    },
    async (request) => payments.getPaymentStatus(deps, callerOf(request), request.params.payment_id),
  );

  app.post(
    '/:payment_id/mock-checkout/',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: "Play the mock gateway's checkout for the caller's payment (development)",
        description:
          "For the web app's Pay while the mock gateway runs: applies the event the gateway would send " +
          '(payment_intent.succeeded or payment_intent.payment_failed, under a fresh event id) exactly as ' +
          'the webhook does, so a success confirms the approved booking. Answers the payment as it now ' +
          'is. 404 with a real gateway, with MOCK_CHECKOUT off (the default when NODE_ENV=production), or ' +
          "for anyone but the booking's customer. Asking again after a success changes nothing.",
        params: schemas.PaymentIdParams,
        body: schemas.MockCheckoutBody,
        response: { 200: Ref(schemas.PaymentStatusResponse) },
        'x-errors': [404],
      },
    },
    async (request) =>
      payments.mockCheckout(
        deps,
        mockCheckout,
        callerOf(request),
        request.params.payment_id,
        request.body.outcome,
      ),
  );

  app.post(
    '/:payment_id/refunds/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Refund (part of) a payment (the booking’s vendor)',
        description:
          'amount defaults to all that remains. A payment not succeeded or partially_refunded is 409 ' +
          "invalid_state (checked first); more than remains is 400 on amount; the booking's customer is " +
          '403. The refund goes through the gateway after its amount is reserved, so simultaneous refunds ' +
          'never exceed the payment; it answers pending when the gateway has not answered yet.',
        params: schemas.PaymentIdParams,
        body: schemas.RefundBody,
        'x-optional-body': true,
        response: { 201: Ref(RefundSchema) },
        'x-errors': [409],
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await refunds.refundPayment(deps, callerOf(request), request.params.payment_id, request.body)),
  );

  app.post(
    '/webhooks/gateway/',
    {
      config: { auth: 'public' },
      // The signature covers the raw body, so it is checked before the body is interpreted at all.
      preValidation: async (request) => {
        const signature = request.headers[SIGNATURE_HEADER];
        payments.verifyWebhookSignature(
          deps,
          request.rawBody ?? '',
          Array.isArray(signature) ? signature[0] : signature,
        );
      },
      schema: {
        tags,
        summary: 'Receive a payment gateway event',
        description:
          'Idempotent by gateway_event_id. With PAYMENT_WEBHOOK_SECRET set, each request must carry a valid ' +
          'Gateway-Signature header. An unknown gateway_payment_intent_id is a 404.',
        headers: schemas.WebhookHeaders,
        body: schemas.WebhookBody,
        response: { 200: Ref(schemas.WebhookResponse) },
        'x-errors': [404],
      },
    },
    async (request) => payments.applyWebhookEvent(deps, request.body),
  );
};
