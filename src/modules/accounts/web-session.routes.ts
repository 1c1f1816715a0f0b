import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { Ref } from '../../http/schemas.ts';
import * as schemas from './accounts.schemas.ts';
import * as accounts from './accounts.service.ts';

/**
 * The web app's session: the same tokens as /token/, but the refresh token lives in an HttpOnly cookie
 * that page scripts cannot read, scoped to these routes only, and the access token is answered in the
 * body for the page to keep in memory. An API client keeps using /token/ and /token/refresh/.
 */
const WEB_SESSION_COOKIE = 'waterbook_refresh';
const WEB_SESSION_PATH = '/api/v1/accounts/web-session/';
/** A header a cross-site form cannot send and a cross-site fetch cannot send without a CORS preflight. */
const WEB_SESSION_HEADER = 'x-waterbook-web';

export interface WebSessionRoutesOptions {
  deps: accounts.AccountsDeps;
  rateLimits: Config['rateLimits'];
}

const tags = ['accounts'];

const CSRF_NOTE =
  `Browser only: requests must carry the \`${WEB_SESSION_HEADER}: 1\` header and, when the browser sends ` +
  "an Origin, come from this server's own origin (403 otherwise); the cookie is SameSite=Strict.";

/**
 * The cookie is SameSite=Strict, so another site's page never makes the browser send it. The custom
 * header and the Origin check also stop a cross-site login (forcing someone into an attacker's account)
 * and any browser that does not honour SameSite.
 */
function refuseCrossSite(request: FastifyRequest): void {
  if (request.headers[WEB_SESSION_HEADER] !== '1')
    throw new AppError('permission_denied', `The ${WEB_SESSION_HEADER} header is required.`);
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`)
    throw new AppError('permission_denied', 'Cross-site request refused.');
}

export const webSessionRoutes: FastifyPluginAsyncTypebox<WebSessionRoutesOptions> = async (
  app,
  { deps, rateLimits },
) => {
  // Registered inside this plugin: only these routes parse cookies, not every request of the API.
  await app.register(cookie);
  app.addHook('onRequest', async (request) => refuseCrossSite(request));

  const limit = (rule: { max: number; windowMs: number }) => ({ max: rule.max, timeWindow: rule.windowMs });

  const setSession = (request: FastifyRequest, reply: FastifyReply, refresh: string) =>
    reply.setCookie(WEB_SESSION_COOKIE, refresh, {
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
      path: WEB_SESSION_PATH,
      maxAge: deps.keys.refreshTtl,
    });
  const clearSession = (reply: FastifyReply) =>
    reply.clearCookie(WEB_SESSION_COOKIE, { path: WEB_SESSION_PATH, sameSite: 'strict', httpOnly: true });

  app.post(
    '/web-session/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.login) },
      schema: {
        tags,
        summary: 'Log in from the web app',
        description: `Sets the session cookie and answers the access token. ${CSRF_NOTE}`,
        body: schemas.LoginBody,
        response: { 200: Ref(schemas.WebAccessSchema) },
        'x-errors': [401, 403],
      },
    },
    async (request, reply) => {
      const pair = await accounts.login(deps, request.body.email, request.body.password);
      setSession(request, reply, pair.refresh);
      return { access: pair.access };
    },
  );

  app.post(
    '/web-session/refresh/',
    {
      config: { auth: 'public', rateLimit: limit(rateLimits.refresh) },
      schema: {
        tags,
        summary: 'Get a new access token for the web session',
        description:
          'Rotates the session cookie. Without a cookie (nobody logged in) the answer is a 204; a revoked ' +
          `or expired one is a 401 and clears it. ${CSRF_NOTE}`,
        response: { 200: Ref(schemas.WebAccessSchema), 204: Type.Null({ description: 'No web session.' }) },
        'x-errors': [401, 403],
      },
    },
    async (request, reply) => {
      const token = request.cookies[WEB_SESSION_COOKIE];
      // a page asks at every load whether it has a session: no cookie is an answer, not an error
      if (!token) return reply.status(204).send(null);
      try {
        const pair = await accounts.refresh(deps, token);
        setSession(request, reply, pair.refresh);
        return { access: pair.access };
      } catch (error) {
        clearSession(reply);
        throw error;
      }
    },
  );

  app.post(
    '/web-session/logout/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Log out of the web session',
        description: `Revokes the session's refresh token and clears the cookie. ${CSRF_NOTE}`,
        response: { 204: Type.Null({ description: 'Logged out.' }) },
        'x-errors': [403],
      },
    },
    async (request, reply) => {
      const token = request.cookies[WEB_SESSION_COOKIE];
      clearSession(reply);
      if (token) {
        try {
          await accounts.logout(deps, token);
        } catch (error) {
          // an expired or already revoked cookie still logs out: there is nothing left to revoke
          if (!(error instanceof AppError)) throw error;
        }
      }
      return reply.status(204).send(null);
    },
  );
};
