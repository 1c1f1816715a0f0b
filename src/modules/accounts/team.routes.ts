import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { callerOf } from '../../http/auth.ts';
import { PageQuery, pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { EVERY_MEMBER, OWNER_ONLY, permittedOperations } from '../../http/team-roles.ts';
import { UserSchema } from './accounts.schemas.ts';
import type { AccountsDeps } from './accounts.service.ts';
import * as schemas from './team.schemas.ts';
import * as team from './team.service.ts';

const tags = ['team'];

/** A vendor's team (decisions §25), under /api/v1/accounts/team/. The team is the owner's alone. */
export const teamRoutes: FastifyPluginAsyncTypebox<{
  deps: AccountsDeps;
  rateLimits: Config['rateLimits'];
}> = async (app, { deps, rateLimits }) => {
  // invitations are rate limited like registration: each one sends a mail, and accepting makes an account
  const limit = { max: rateLimits.register.max, timeWindow: rateLimits.register.windowMs };

  app.get(
    '/team/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY },
      schema: {
        tags,
        summary: "List the caller's team and its open invitations",
        querystring: Type.Object(PageQuery),
        response: { 200: Ref(schemas.TeamSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results, invitations } = await team.listTeam(deps, callerOf(request), page);
      return { ...paginated(request, page, count, results), invitations };
    },
  );

  app.get(
    '/team/permissions/',
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: {
        tags,
        summary: "What the caller's team role may do",
        description:
          'The caller’s role and every vendor operation it may call ("METHOD /path/{param}/", as this ' +
          'document names them), read from the same permission table the server enforces: a dashboard shows ' +
          'a member only what they may do.',
        response: { 200: Ref(schemas.PermissionsSchema) },
      },
    },
    async (request) => {
      const { vendorRole } = callerOf(request);
      return { role: vendorRole!, operations: permittedOperations(app.routeTable, vendorRole) };
    },
  );

  app.post(
    '/team/invitations/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY, rateLimit: limit },
      schema: {
        tags,
        summary: 'Invite someone to the team by mail',
        description:
          'Mails a single-use link (/join?token=...) valid 7 days. An email that already has an account is a ' +
          '400 on email. Inviting an email again replaces its open invitation: the older link stops working.',
        body: schemas.InviteBody,
        response: { 201: Ref(schemas.InvitationSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await team.invite(deps, callerOf(request), request.body)),
  );

  app.delete(
    '/team/invitations/:id/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY },
      schema: {
        tags,
        summary: 'Revoke an invitation',
        description:
          'Its link stops working. Revoking one already revoked or expired changes nothing (204); an accepted ' +
          'one is a 409: remove the member instead.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked.' }) },
        'x-errors': [409],
      },
    },
    async (request, reply) => {
      await team.revokeInvitation(deps, callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/team/invitations/accept/',
    {
      config: { auth: 'public', rateLimit: limit },
      schema: {
        tags,
        summary: 'Join a team with an invitation',
        description:
          'Makes the invited vendor account (the invitation’s email and role) and answers it; sign in with ' +
          'its email and password. A used, revoked, replaced, expired or unknown token is a 400 on token.',
        body: schemas.AcceptInvitationBody,
        response: { 201: Ref(UserSchema) },
      },
    },
    async (request, reply) => reply.status(201).send(await team.acceptInvitation(deps, request.body)),
  );

  app.patch(
    '/team/:user_id/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY },
      schema: {
        tags,
        summary: "Change a member's role",
        description:
          'manager or staff; it counts from the member’s next request. The owner’s own role changes only by ' +
          'make-owner (400).',
        params: schemas.UserIdParams,
        body: schemas.ChangeRoleBody,
        response: { 200: Ref(schemas.MemberSchema) },
        'x-errors': [409],
      },
    },
    async (request) => team.changeRole(deps, callerOf(request), request.params.user_id, request.body.role),
  );

  app.delete(
    '/team/:user_id/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY },
      schema: {
        tags,
        summary: 'Remove a member from the team',
        description:
          'The account is closed: its refresh tokens are revoked and its access tokens refused from its next ' +
          'request; what it did stays in the history. The owner cannot remove themselves (400).',
        params: schemas.UserIdParams,
        response: { 204: Type.Null({ description: 'Removed.' }) },
        'x-errors': [409],
      },
    },
    async (request, reply) => {
      await team.removeMember(deps, callerOf(request), request.params.user_id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/team/:user_id/make-owner/',
    {
      config: { auth: 'vendor', roles: OWNER_ONLY },
      schema: {
        tags,
        summary: 'Hand the ownership to a member',
        description:
          'The member becomes the owner and the caller a manager; a vendor always has exactly one owner.',
        params: schemas.UserIdParams,
        response: { 200: Ref(schemas.MemberSchema) },
        'x-errors': [409],
      },
    },
    async (request) => team.makeOwner(deps, callerOf(request), request.params.user_id),
  );
};
