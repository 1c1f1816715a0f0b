import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VendorRole } from '../db/database.ts';
import { AppError, permissionDenied } from './errors.ts';
import { type TeamRoles, teamRoleRefusal } from './team-roles.ts';

/**
 * Who may call a route. Every route declares one; a route without a decision fails at start-up. `channel`:
 * a reseller's key on the OCTO API (decisions §24), which authenticates its own scope
 * (src/modules/octo/octo.auth.ts); the hook below leaves those routes alone.
 */
export const AUTH_RULES = ['public', 'user', 'vendor', 'customer', 'staff', 'channel'] as const;
export type AuthRule = (typeof AUTH_RULES)[number];

export interface AuthUser {
  id: number;
  email: string;
  isVendor: boolean;
  isStaff: boolean;
  /** the vendor whose team the account is on (its own for the owner), for vendor accounts */
  vendorId: number | null;
  /** the account's role on that team, read from the database with the user, so a change counts at once */
  vendorRole: VendorRole | null;
}

/** Resolves a bearer token to its user; throws AppError('token_not_valid') for any bad token. */
export type Authenticate = (token: string) => Promise<AuthUser>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRule;
    /**
     * Which roles of a vendor's team may call a `vendor` route (decisions §25): the permission table is
     * these declarations, one per vendor route, checked at start-up (team-roles.ts) and enforced below.
     */
    roles?: TeamRoles;
    /** a page of the web app (src/web): public, and no part of the API or its document */
    webPage?: boolean;
    /** an answer that shows a secret once (a channel's key): no Idempotency-Key keeps it (idempotency.ts) */
    showsSecret?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

const notAuthenticated = () =>
  new AppError('not_authenticated', 'Authentication credentials were not provided.');

function bearerToken(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

const ROLE_CHECKS: Record<
  Exclude<AuthRule, 'public' | 'user' | 'channel'>,
  [(u: AuthUser) => boolean, string]
> = {
  vendor: [(u) => u.isVendor, 'This action needs a vendor account.'],
  customer: [(u) => !u.isVendor, 'This action needs a customer account.'],
  staff: [(u) => u.isStaff, 'This action needs a staff account.'],
};

/**
 * Enforces each route's `config.auth` and sets `request.user`. A callback hook rather than an async one:
 * most requests (public routes without a token) pass without a promise.
 */
export function registerAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const rule = request.routeOptions.config.auth;
    if (rule === 'channel') return done();
    const token = rule && bearerToken(request);
    // unknown routes (the 404 handler answers) and public routes without a token: nothing to check
    if (!rule || (rule === 'public' && !token)) return done();
    identify(request, rule, token, authenticate).then(() => done(), done);
  });
}

async function identify(
  request: FastifyRequest,
  rule: Exclude<AuthRule, 'channel'>,
  token: string | null | undefined,
  authenticate: Authenticate,
): Promise<void> {
  if (rule === 'public') {
    // On public routes a bad or expired token is ignored; a good one identifies the caller.
    if (token) request.user = await authenticate(token).catch(() => null);
    return;
  }
  if (token === undefined) throw notAuthenticated();
  if (token === null) throw new AppError('token_not_valid', 'Authorization header must be "Bearer <token>".');
  const user = await authenticate(token);
  request.user = user;
  if (rule !== 'user') {
    const [allowed, message] = ROLE_CHECKS[rule];
    if (!allowed(user)) throw permissionDenied(message);
  }
  if (rule === 'vendor') {
    // the one check of the permission table: registerRouteConventions made every vendor route declare roles
    const refusal = teamRoleRefusal(request.routeOptions.config.roles ?? [], user.vendorRole);
    if (refusal) throw permissionDenied(refusal);
  }
}

/** The authenticated caller of a route whose rule is not 'public'. */
export function callerOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw notAuthenticated();
  return request.user;
}
