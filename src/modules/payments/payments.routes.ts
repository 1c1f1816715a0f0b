import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { SIGNATURE_HEADER } from './gateway.ts';
import * as schemas from './payments.schemas.ts';
import * as payments from './payments.service.ts';

const tags = ['payments'];

export const paymentsRoutes: FastifyPluginAsyncTypebox<{ deps: payments.PaymentsDeps }> = async (
  app,
  { deps },
) => {
  app.post(
    '/intents/',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: "Create (or return the open) payment intent for the caller's approved booking",
        body: schemas.CreateIntentBody,
        response: { 200: schemas.IntentResponse, 201: schemas.IntentResponse },
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
        summary: "A payment's status, for the booking's customer or vendor",
        params: schemas.PaymentIdParams,
        response: { 200: schemas.PaymentStatusResponse },
      },
    },
    async (request) => payments.getPaymentStatus(deps, callerOf(request), request.params.payment_id),
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
        summary:
          'Payment gateway events (idempotent by gateway_event_id; signed when PAYMENT_WEBHOOK_SECRET is set)',
        description:
          'With PAYMENT_WEBHOOK_SECRET set, each request must carry `Gateway-Signature: t=<unix seconds>,v1=<hex ' +
          'HMAC-SHA256 of "<t>.<raw body>">` within 300 s of the server clock.',
        body: schemas.WebhookBody,
        response: { 200: schemas.WebhookResponse },
      },
    },
    async (request) => payments.applyWebhookEvent(deps, request.body),
  );
};
