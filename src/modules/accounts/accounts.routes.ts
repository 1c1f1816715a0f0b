import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { callerOf } from '../../http/auth.ts';
import { Ref } from '../../http/schemas.ts';
import { EVERY_MEMBER, MANAGERS } from '../../http/team-roles.ts';
import * as schemas from './accounts.schemas.ts';
import * as accounts from './accounts.service.ts';

export interface AccountsRoutesOptions {
  deps: accounts.AccountsDeps;
  rateLimits: Config['rateLimits'];
}

const tags = ['accounts'];

export const accountsRoutes: FastifyPluginAsyncTypebox<AccountsRoutesOptions> = async (
  app,
  { deps, rateLimits },
) => {
  const limit = (rule: { max: number; windowMs: number }) => ({ max: rule.max, timeWindow: rule.windowMs });

  app.post(
    '/register/vendor/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.register) },
      schema: {
        tags,
        summary: 'Register a vendor account',
        description:
          'currency (ISO 4217, default usd) and time_zone (IANA name, default UTC) are optional; an unknown ' +
          'one is a 400 naming the field. So are request_ttl_minutes and payment_ttl_minutes (1–10080, ' +
          'default 1440): how long a booking holds its window unanswered, then unpaid, before it expires.',
        body: schemas.RegisterVendorBody,
        response: { 201: Ref(schemas.VendorUserSchema) },
      },
    },
    async (request, reply) => reply.status(201).send(await accounts.registerVendor(deps, request.body)),
  );

  app.post(
    '/register/customer/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.register) },
      schema: {
        tags,
        summary: 'Register a customer account',
        body: schemas.RegisterCustomerBody,
        response: { 201: Ref(schemas.UserSchema) },
      },
    },
    async (request, reply) => reply.status(201).send(await accounts.registerCustomer(deps, request.body)),
  );

  app.post(
    '/token/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.login) },
      schema: {
        tags,
        summary: 'Log in and get a token pair',
        body: schemas.LoginBody,
        response: { 200: Ref(schemas.TokenPairSchema) },
        'x-errors': [401],
      },
    },
    async (request) => accounts.login(deps, request.body.email, request.body.password),
  );

  app.post(
    '/token/refresh/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.refresh) },
      schema: {
        tags,
        summary: 'Rotate a refresh token',
        description: 'Answers a new token pair; the presented refresh token is revoked.',
        body: schemas.RefreshBody,
        response: { 200: Ref(schemas.TokenPairSchema) },
        'x-errors': [401],
      },
    },
    async (request) => accounts.refresh(deps, request.body.refresh),
  );

  app.post(
    '/logout/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Log out: revoke a refresh token',
        description:
          "The caller's refresh token can no longer be rotated; access tokens already issued run out on " +
          "their own. Another user's token is a 401.",
        body: schemas.RefreshBody,
        response: { 204: Type.Null({ description: 'Logged out.' }) },
        'x-errors': [401],
      },
    },
    async (request, reply) => {
      await accounts.logout(deps, request.body.refresh, callerOf(request).id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me/',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Get the current user', response: { 200: Ref(schemas.UserSchema) } },
    },
    async (request) => accounts.getMe(deps, callerOf(request).id),
  );

  app.patch(
    '/me/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "Update the current user's name and phone",
        description: 'Fields not given stay as they are; an empty body changes nothing.',
        body: schemas.UpdateMeBody,
        response: { 200: Ref(schemas.UserSchema) },
      },
    },
    async (request) => accounts.updateMe(deps, callerOf(request).id, request.body),
  );

  app.post(
    '/password/change/',
    {
      // rate limited like login: a wrong current password is otherwise a way to guess it
      config: { auth: 'user', rateLimit: limit(rateLimits.login) },
      schema: {
        tags,
        summary: 'Change the password',
        description:
          'A wrong current_password is a 400 naming it. Every refresh token of the user is revoked (every ' +
          'session ends, the web session too); access tokens already issued run out on their own.',
        body: schemas.ChangePasswordBody,
        response: { 204: Type.Null({ description: 'Password changed.' }) },
      },
    },
    async (request, reply) => {
      await accounts.changePassword(deps, callerOf(request).id, request.body);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/password/reset/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.register) },
      schema: {
        tags,
        summary: 'Ask for a password reset mail',
        description:
          'Answers 202 whether or not an account has the email. If one has, a mail with a single-use link ' +
          'valid for one hour follows.',
        body: schemas.PasswordResetBody,
        response: { 202: Ref(schemas.PasswordResetAcceptedSchema) },
      },
    },
    async (request, reply) => {
      await accounts.requestPasswordReset(deps, request.body.email);
      return reply.status(202).send({ detail: 'If an account exists for that address, we sent a link.' });
    },
  );

  app.post(
    '/password/reset/confirm/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.login) },
      schema: {
        tags,
        summary: 'Set a new password with a reset token',
        description:
          'A used, expired or unknown token is a 400 on token. Every refresh token of the user is revoked, ' +
          'and so are the other reset tokens still unused.',
        body: schemas.PasswordResetConfirmBody,
        response: { 204: Type.Null({ description: 'Password set.' }) },
      },
    },
    async (request, reply) => {
      await accounts.confirmPasswordReset(deps, request.body);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/vendor-profile/me/',
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: {
        tags,
        summary: "Get the caller's vendor profile",
        response: { 200: Ref(schemas.VendorProfileSchema) },
      },
    },
    async (request) => accounts.getOwnProfile(deps, callerOf(request)),
  );

  app.patch(
    '/vendor-profile/me/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "Update the caller's vendor profile",
        description:
          'A new business_name re-derives the slug. A new currency applies at once to every listing and to ' +
          'bookings requested from then on; existing bookings keep theirs. An unknown currency or time zone ' +
          'is a 400 naming the field. A new request_ttl_minutes applies to bookings requested from then on, ' +
          'a new payment_ttl_minutes to bookings approved from then on; deadlines already set stay.',
        body: schemas.UpdateVendorProfileBody,
        response: { 200: Ref(schemas.VendorProfileSchema) },
      },
    },
    async (request) => accounts.updateOwnProfile(deps, callerOf(request), request.body),
  );
};
