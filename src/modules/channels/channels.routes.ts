import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/auth.ts';
import { PageQuery, pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { MANAGERS, OWNER_ONLY } from '../../http/team-roles.ts';
import {
  ChannelPage,
  ChannelSchema,
  ChannelWithKeySchema,
  CreateChannelBody,
  UpdateChannelBody,
} from './channels.schemas.ts';
import * as channels from './channels.service.ts';

const tags = ['channels'];

/**
 * A vendor's channels (decisions §24), under /api/v1/channels/ (registered with the prefix /api/v1). Keys are the owner's (decisions §25):
 * creating a channel and rotating its key; managers list, read, rename, deactivate and delete.
 */
export const channelRoutes: FastifyPluginAsyncTypebox<{ deps: channels.ChannelsDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/channels/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "List the caller's channels",
        description: 'Newest first. Keys are never shown here.',
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(ChannelPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await channels.listChannels(deps, callerOf(request), page);
      return paginated(request, page, count, results);
    },
  );

  app.post(
    '/channels/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY, showsSecret: true },
      schema: {
        tags,
        summary: 'Create a channel',
        description: 'The answer shows the channel’s key, this once; only its hash is kept.',
        body: CreateChannelBody,
        response: { 201: Ref(ChannelWithKeySchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await channels.createChannel(deps, callerOf(request), request.body)),
  );

  app.get(
    '/channels/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Get one of the caller’s channels',
        params: IdParams,
        response: { 200: Ref(ChannelSchema) },
      },
    },
    async (request) => channels.getChannel(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/channels/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: 'Rename, deactivate or reactivate a channel',
        description:
          'A deactivated channel’s key is refused (403 FORBIDDEN on /octo/v1/) until it is reactivated.',
        params: IdParams,
        body: UpdateChannelBody,
        'x-optional-body': true,
        response: { 200: Ref(ChannelSchema) },
      },
    },
    async (request) => channels.updateChannel(deps, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/channels/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Delete a channel',
        description:
          'Only a channel nothing was booked through; one with bookings is refused (409 invalid_state): deactivate it instead.',
        params: IdParams,
        'x-errors': [409],
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await channels.deleteChannel(deps, callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/channels/:id/rotate-key/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY, showsSecret: true },
      schema: {
        tags,
        summary: 'Give a channel a new key',
        description: 'The answer shows the new key, this once; the old key is refused from now on.',
        params: IdParams,
        response: { 201: Ref(ChannelWithKeySchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await channels.rotateChannelKey(deps, callerOf(request), request.params.id)),
  );
};
