import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { clientOf } from '../../http/client.ts';
import { authenticateChannel, channelOf } from './octo.auth.ts';
import { availabilityCalendar, availabilityCheck } from './octo.availability.ts';
import * as bookings from './octo.bookings.ts';
import { toOctoErrorResponse } from './octo.errors.ts';
import {
  AvailabilityCalendarBody,
  AvailabilityCheckBody,
  BookingsQuery,
  CancelBody,
  ConfirmBody,
  ExtendBody,
  ProductParams,
  ReserveBody,
  UuidParams,
} from './octo.schemas.ts';
import * as octo from './octo.service.ts';

// The OCTO supplier API under /octo/v1/ (decisions §24): OCTO's paths, authentication and error bodies, in
// a scope of its own so that neither the platform's error body nor its token authentication applies here.
// The routes are left out of the platform's OpenAPI document: OCTO's own specification documents them
// (docs/octo.md says which parts).

/** The capabilities this supplier offers beyond OCTO core: none. */
const CAPABILITIES = '';

const config = { auth: 'channel' as const };

export const octoRoutes: FastifyPluginAsyncTypebox<{ deps: octo.OctoDeps }> = async (app, { deps }) => {
  app.decorateRequest('channel', null);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toOctoErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, 'OCTO request failed');
    return reply.status(status).header('Octo-Capabilities', CAPABILITIES).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .status(404)
      .send({ error: 'NOT_FOUND', errorMessage: `No OCTO endpoint ${request.method} ${request.url}` }),
  );
  app.addHook('onRequest', async (request) => {
    await authenticateChannel(deps.db, request);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Octo-Capabilities', CAPABILITIES);
    return payload;
  });

  const hide = { hide: true };
  app.get('/supplier', { config, schema: hide }, async (request) =>
    octo.getSupplier(deps, channelOf(request)),
  );
  // OCTO's capability list: this supplier speaks OCTO core only
  app.get('/capabilities', { config, schema: hide }, async () => []);
  app.get('/products', { config, schema: hide }, async (request) =>
    octo.listProducts(deps, channelOf(request)),
  );
  app.get('/products/:id', { config, schema: { ...hide, params: ProductParams } }, async (request) =>
    octo.getProduct(deps, channelOf(request), request.params.id),
  );
  app.post(
    '/availability/calendar',
    { config, schema: { ...hide, body: AvailabilityCalendarBody } },
    async (request) => availabilityCalendar(deps, channelOf(request), request.body),
  );
  app.post('/availability', { config, schema: { ...hide, body: AvailabilityCheckBody } }, async (request) =>
    availabilityCheck(deps, channelOf(request), request.body),
  );

  // bookings: reserve (a hold), read, confirm, extend, cancel (octo.bookings.ts)
  app.post('/bookings', { config, schema: { ...hide, body: ReserveBody } }, async (request) =>
    bookings.reserve(deps, channelOf(request), request.body, clientOf(request)),
  );
  app.get('/bookings', { config, schema: { ...hide, querystring: BookingsQuery } }, async (request) =>
    bookings.listBookings(deps, channelOf(request), request.query),
  );
  app.get('/bookings/:uuid', { config, schema: { ...hide, params: UuidParams } }, async (request) =>
    bookings.getBooking(deps, channelOf(request), request.params.uuid),
  );
  app.post(
    '/bookings/:uuid/confirm',
    { config, schema: { ...hide, params: UuidParams, body: ConfirmBody } },
    async (request) => bookings.confirm(deps, channelOf(request), request.params.uuid, request.body),
  );
  app.post(
    '/bookings/:uuid/extend',
    { config, schema: { ...hide, params: UuidParams, body: ExtendBody } },
    async (request) =>
      bookings.extend(deps, channelOf(request), request.params.uuid, request.body.expirationMinutes),
  );
  app.post(
    '/bookings/:uuid/cancel',
    { config, schema: { ...hide, params: UuidParams, body: CancelBody } },
    async (request) => bookings.cancel(deps, channelOf(request), request.params.uuid, request.body.reason),
  );
};
