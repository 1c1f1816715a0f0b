import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError } from 'fastify';
import { clientOf } from '../../http/client.ts';
import { authenticateChannel, channelOf } from './octo.auth.ts';
import * as bookings from './octo.bookings.ts';
import { toOctoErrorResponse } from './octo.errors.ts';
import {
  BookingsQuery,
  CancelBody,
  ConfirmBody,
  ExtendBody,
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

const route = { config: { auth: 'channel' as const }, schema: { hide: true } };

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

  app.get('/supplier', route, async (request) => octo.getSupplier(deps, channelOf(request)));
  // OCTO's capability list: this supplier speaks OCTO core only
  app.get('/capabilities', route, async () => []);

  // bookings: reserve (a hold), read, confirm, extend, cancel (octo.bookings.ts)
  const withSchema = <S extends object>(schema: S) => ({ ...route, schema: { ...route.schema, ...schema } });
  app.post('/bookings', withSchema({ body: ReserveBody }), async (request) =>
    bookings.reserve(deps, channelOf(request), request.body, clientOf(request)),
  );
  app.get('/bookings', withSchema({ querystring: BookingsQuery }), async (request) =>
    bookings.listBookings(deps, channelOf(request), request.query),
  );
  app.get('/bookings/:uuid', withSchema({ params: UuidParams }), async (request) =>
    bookings.getBooking(deps, channelOf(request), request.params.uuid),
  );
  app.post(
    '/bookings/:uuid/confirm',
    withSchema({ params: UuidParams, body: ConfirmBody }),
    async (request) => bookings.confirm(deps, channelOf(request), request.params.uuid, request.body),
  );
  app.post('/bookings/:uuid/extend', withSchema({ params: UuidParams, body: ExtendBody }), async (request) =>
    bookings.extend(deps, channelOf(request), request.params.uuid, request.body.expirationMinutes),
  );
  app.post('/bookings/:uuid/cancel', withSchema({ params: UuidParams, body: CancelBody }), async (request) =>
    bookings.cancel(deps, channelOf(request), request.params.uuid, request.body.reason),
  );
};
