import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { AUTH_RULES, type AuthRule } from './auth.ts';
import { ErrorBodySchema } from './schemas.ts';

/** One registered route as the server enforces it: what the security tests enumerate. */
export interface RouteEntry {
  method: string;
  /** with its prefix, as registered (`/api/v1/booking/bookings/:id/approve/`) */
  url: string;
  auth: AuthRule;
  schema?: FastifySchema;
  /** served by a plugin (docs pages, CORS preflight), not by a module */
  internal: boolean;
}

declare module 'fastify' {
  interface FastifySchema {
    /** error statuses a route answers beyond those its auth rule and shape imply (e.g. 409) */
    'x-errors'?: number[];
  }
  interface FastifyInstance {
    /** every route registered so far, one entry per method */
    routeTable: readonly RouteEntry[];
  }
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input; `errors` names each bad field.',
  401: 'Missing, bad or expired token.',
  403: 'Valid token of the wrong account kind, or the other party of a booking.',
  404: 'Unknown resource, or one the caller may not see.',
  409: 'Conflict with the current state.',
  413: 'Body over 1 MiB.',
  415: 'Body is not JSON.',
  429: 'Rate limit hit; see Retry-After.',
  500: 'Unexpected server error.',
  503: 'Database unavailable; retry shortly.',
};

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)));
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

const INTERNAL_PREFIXES = ['/api/docs'];

/**
 * Every route must declare `config.auth`; its OpenAPI entry gets the security requirement, an operation id
 * and the error responses (the one error body) derived from that decision, so the document cannot drift
 * from what the server enforces.
 */
export function registerRouteConventions(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  const record = (route: RouteOptions, auth: AuthRule, internal: boolean) => {
    for (const method of [route.method].flat())
      table.push({ method, url: route.url, auth, schema: route.schema, internal });
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    // The docs pages and CORS preflight (OPTIONS *) come from plugins and are public by nature.
    if (INTERNAL_PREFIXES.some((p) => route.url.startsWith(p)) || route.method === 'OPTIONS') {
      route.config = { ...route.config, auth: 'public' };
      record(route, 'public', true);
      return;
    }
    const auth = route.config?.auth;
    if (!auth) throw new Error(`route ${route.method} ${route.url} declares no config.auth`);
    if (!AUTH_RULES.includes(auth))
      throw new Error(`route ${route.method} ${route.url} declares an unknown config.auth "${auth}"`);
    record(route, auth, false);
    if (!route.schema || route.schema.hide) return;
    const schema = route.schema as Record<string, unknown>;
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    schema.operationId ??= operationId(method, route.url);
    schema.description ??= schema.summary;
    // Public operations say so explicitly (an empty requirement), the others name the bearer token.
    schema.security = auth === 'public' ? [] : [{ bearerAuth: [] }];
    const codes = new Set<number>([400, 500, 503]);
    if (route.schema.body) for (const c of [413, 415]) codes.add(c);
    if (auth !== 'public') for (const c of [401, 403]) codes.add(c);
    if (/:/.test(route.url) || auth !== 'public') codes.add(404);
    if (route.config?.rateLimit) codes.add(429);
    for (const c of (schema['x-errors'] as number[] | undefined) ?? []) codes.add(c);
    delete schema['x-errors'];
    const response = (schema.response ?? {}) as Record<string, unknown>;
    for (const code of codes) {
      response[code] ??= { ...ErrorBodySchema, description: ERROR_DESCRIPTIONS[code] ?? 'Error.' };
    }
    schema.response = response;
  });
}
