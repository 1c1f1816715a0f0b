import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PageQuery, pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import { vendorIdOf } from '../catalog/index.ts';
import * as schemas from './endpoints.schemas.ts';
import * as endpoints from './endpoints.service.ts';

const tags = ['notifications'];

/** A vendor's webhook endpoints, their delivery log and redelivery (decisions §14). */
export const endpointsRoutes: FastifyPluginAsyncTypebox<{ deps: endpoints.EndpointsDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/endpoints/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "List the caller's webhook endpoints",
        description: 'Newest first.',
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(schemas.EndpointPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await endpoints.listEndpoints(deps, vendorIdOf(request), page);
      return paginated(request, page, count, results);
    },
  );

  app.post(
    '/endpoints/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Add a webhook endpoint',
        description:
          'The answer carries the signing secret, which is never shown again. A URL whose host is or resolves to a loopback, private, link-local or other non-public address is refused.',
        body: schemas.CreateEndpointBody,
        response: { 201: Ref(schemas.EndpointWithSecretSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await endpoints.createEndpoint(deps, vendorIdOf(request), request.body)),
  );

  app.get(
    '/endpoints/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Get a webhook endpoint',
        params: IdParams,
        response: { 200: Ref(schemas.EndpointSchema) },
      },
    },
    async (request) => endpoints.getEndpoint(deps, vendorIdOf(request), request.params.id),
  );

  app.patch(
    '/endpoints/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Update a webhook endpoint',
        description: '`is_active: true` enables an endpoint again, also one disabled by a 410 answer.',
        params: IdParams,
        body: schemas.UpdateEndpointBody,
        response: { 200: Ref(schemas.EndpointSchema) },
      },
    },
    async (request) => endpoints.updateEndpoint(deps, vendorIdOf(request), request.params.id, request.body),
  );

  app.delete(
    '/endpoints/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'Its delivery log goes with it.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await endpoints.deleteEndpoint(deps, vendorIdOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/endpoints/:id/rotate-secret/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "Replace a webhook endpoint's signing secret",
        description:
          'The answer carries the new secret, which signs from now on. For 24 hours the old one signs too, as a second signature in the webhook-signature header.',
        params: IdParams,
        response: { 201: Ref(schemas.EndpointWithSecretSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await endpoints.rotateSecret(deps, vendorIdOf(request), request.params.id)),
  );

  app.get(
    '/endpoints/:id/deliveries/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "A webhook endpoint's delivery log",
        description: 'Newest first.',
        params: IdParams,
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(schemas.DeliveryPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await endpoints.listDeliveries(
        deps,
        vendorIdOf(request),
        request.params.id,
        page,
      );
      return paginated(request, page, count, results);
    },
  );

  app.post(
    '/deliveries/:id/redeliver/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "Send a delivery's event to its endpoint again",
        description:
          'A new pending delivery of the same event to the same endpoint, due now (the log keeps every try). A disabled endpoint is a 409.',
        params: IdParams,
        response: { 202: Ref(schemas.DeliverySchema) },
        'x-errors': [409],
      },
    },
    async (request, reply) =>
      reply.status(202).send(await endpoints.redeliver(deps, vendorIdOf(request), request.params.id)),
  );
};
