import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/auth.ts';
import { PageQuery, pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import {
  CreateResourceBody,
  ResourcePage,
  ResourceSchema,
  ResourceUsageSchema,
  UpdateResourceBody,
  UsageQuery,
} from './resources.schemas.ts';
import * as resources from './resources.service.ts';

const tags = ['resources'];

/** A vendor's shared resources (decisions §22), under /api/v1/booking/vendor/resources/. */
export const resourceRoutes: FastifyPluginAsyncTypebox<{ deps: resources.ResourcesDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/vendor/resources/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "List the caller's resources",
        description: 'Oldest first.',
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(ResourcePage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await resources.listResources(deps, callerOf(request), page);
      return paginated(request, page, count, results);
    },
  );

  app.post(
    '/vendor/resources/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Create a resource',
        body: CreateResourceBody,
        response: { 201: Ref(ResourceSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await resources.createResource(deps, callerOf(request), request.body)),
  );

  app.get(
    '/vendor/resources/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Get one of the caller’s resources',
        params: IdParams,
        response: { 200: Ref(ResourceSchema) },
      },
    },
    async (request) => resources.getResource(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/vendor/resources/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Change a resource',
        description:
          'A quantity below the peak use of the holding bookings from now on is refused (409 booking_conflict).',
        params: IdParams,
        body: UpdateResourceBody,
        'x-optional-body': true,
        response: { 200: Ref(ResourceSchema) },
      },
    },
    async (request) => resources.updateResource(deps, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/vendor/resources/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Delete a resource',
        description: 'Refused (409 invalid_state) while a listing or one of its extras uses it.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await resources.deleteResource(deps, callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/vendor/resources/:id/usage/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'A resource’s use over a range',
        description: 'Consecutive constant segments covering [from, to); the range at most 92 days.',
        params: IdParams,
        querystring: UsageQuery,
        response: { 200: Ref(ResourceUsageSchema) },
      },
    },
    async (request) => resources.resourceUsage(deps, callerOf(request), request.params.id, request.query),
  );
};
