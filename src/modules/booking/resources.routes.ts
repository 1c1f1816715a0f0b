import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import { vendorCollection } from '../../http/vendor-collection.ts';
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
  vendorCollection(app, {
    path: '/vendor/resources/',
    tags,
    roles: MANAGERS,
    noun: ['resource', 'resources'],
    schemas: {
      page: ResourcePage,
      item: ResourceSchema,
      create: CreateResourceBody,
      update: UpdateResourceBody,
    },
    describe: {
      list: 'Oldest first.',
      update:
        'A quantity below the peak use of the holding bookings from now on is refused (409 booking_conflict).',
      delete: 'Refused (409 invalid_state) while a listing or one of its extras uses it.',
    },
    list: (caller, page) => resources.listResources(deps, caller, page),
    create: (caller, body) => resources.createResource(deps, caller, body),
    get: (caller, id) => resources.getResource(deps, caller, id),
    update: (caller, id, body) => resources.updateResource(deps, caller, id, body),
    remove: (caller, id) => resources.deleteResource(deps, caller, id),
  });

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
