import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { AUTH_RULES, type AuthRule } from './auth.ts';
import {
  CLAIM_TIMEOUT_MS,
  IDEMPOTENCY_KEY_HEADER,
  isKeptStatus,
  REPLAYED_HEADER,
  takesIdempotencyKey,
} from './idempotency.ts';
import { allNamedSchemas, ErrorBodySchema, Ref, SERVICE_CHECKS, withNamedSchemasInlined } from './schemas.ts';
import { rolesDeclarationProblem, type TeamRoles } from './team-roles.ts';

/** One registered route as the server enforces it: what the security tests enumerate. */
export interface RouteEntry {
  method: string;
  /** with its prefix, as registered (`/api/v1/booking/bookings/:id/approve/`) */
  url: string;
  auth: AuthRule;
  /** the team roles that may call a `vendor` route (the permission table); undefined on the others */
  roles?: TeamRoles;
  schema?: FastifySchema;
  /** documentation (the OpenAPI document, the docs pages) or CORS preflight, not a module's route */
  internal: boolean;
}

declare module 'fastify' {
  interface FastifySchema {
    /** error statuses a route answers beyond those its auth rule and shape imply (e.g. 409) */
    'x-errors'?: number[];
    /** a public route that identifies the caller when a valid token is sent (a bad one is ignored) */
    'x-optional-auth'?: boolean;
    /** a route with a body schema that takes a request without a body as an empty object */
    'x-optional-body'?: boolean;
    /** set here on every vendor route: the team roles that may call it (decisions §25) */
    'x-team-roles'?: readonly string[];
    /** set here on every route that takes an Idempotency-Key; the document declares the header from it */
    'x-idempotency-key'?: boolean;
    /** set here on a route whose answer shows a secret once, so that no Idempotency-Key keeps it */
    'x-secret-once'?: boolean;
  }
  interface FastifyInstance {
    /** every route registered so far, one entry per method */
    routeTable: readonly RouteEntry[];
  }
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input; `errors` names each bad field.',
  401: 'Missing, bad or expired token.',
  403: 'Valid token of the wrong account kind or team role, or the other party of a booking.',
  404: 'Unknown resource, or one the caller may not see.',
  409: 'Conflict with the current state.',
  413: 'Body over 1 MiB.',
  415: 'Body is not JSON.',
  422: 'The Idempotency-Key was already used with another request (method, path or body).',
  429: 'Rate limit hit; retry after the seconds in Retry-After.',
  500: 'Unexpected server error.',
  503: 'Database unavailable; retry after the seconds in Retry-After.',
};

const RETRY_AFTER = { type: 'integer', minimum: 0, description: 'seconds to wait before trying again' };
/** The headers each error status carries (error-handler.ts and the rate limiter set them). */
const ERROR_HEADERS: Record<number, Record<string, object>> = {
  401: {
    'WWW-Authenticate': { type: 'string', const: 'Bearer', description: 'the scheme to authenticate with' },
  },
  429: { 'Retry-After': RETRY_AFTER },
  503: { 'Retry-After': RETRY_AFTER },
};

const ERROR_EXAMPLES: Record<number, { detail: string; code: string; errors?: object }> = {
  400: { detail: 'Invalid input.', code: 'invalid', errors: { starts_at: ['This field is required.'] } },
  401: { detail: 'Authentication credentials were not provided.', code: 'not_authenticated' },
  403: { detail: 'You do not have permission to perform this action.', code: 'permission_denied' },
  404: { detail: 'Not found.', code: 'not_found' },
  409: { detail: 'Cannot approve a booking that is cancelled.', code: 'invalid_state' },
  413: { detail: 'Request body is too large', code: 'payload_too_large' },
  415: { detail: 'Unsupported Media Type', code: 'unsupported_media_type' },
  422: {
    detail: 'This Idempotency-Key was already used with another request (method, path or body).',
    code: 'idempotency_key_reused',
  },
  429: { detail: 'Request was throttled. Expected available in 60 seconds.', code: 'throttled' },
  500: { detail: 'Internal server error.', code: 'server_error' },
  503: { detail: 'The service is temporarily unavailable; try again shortly.', code: 'service_unavailable' },
};

const errorResponse = (code: number) => ({
  ...Ref(ErrorBodySchema),
  description: ERROR_DESCRIPTIONS[code] ?? 'Error.',
  ...(ERROR_HEADERS[code] && { headers: ERROR_HEADERS[code] }),
});

function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1)));
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

export const OPENAPI_DOCUMENT_URL = '/api/v1/openapi.json';
const DOCS_PREFIX = '/api/docs';
// The document's examples are made up (passwords, client secrets), not anybody's data.
const INTERNAL_PREFIXES = [DOCS_PREFIX, OPENAPI_DOCUMENT_URL];

/**
 * Every route must declare `config.auth`; its OpenAPI entry gets the security requirement, an operation id
 * and the error responses (the one error body) derived from that decision, so the document cannot drift
 * from what the server enforces.
 */
export function registerRouteConventions(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  const record = (route: RouteOptions, auth: AuthRule, internal: boolean) => {
    const roles = route.config?.roles;
    for (const method of [route.method].flat())
      table.push({ method, url: route.url, auth, roles, schema: route.schema, internal });
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    // The documentation, CORS preflight (OPTIONS *) and the web app's pages are public by nature.
    if (
      INTERNAL_PREFIXES.some((p) => route.url.startsWith(p)) ||
      route.method === 'OPTIONS' ||
      route.config?.webPage
    ) {
      route.config = { ...route.config, auth: 'public' };
      record(route, 'public', true);
      return;
    }
    const auth = route.config?.auth;
    if (!auth) throw new Error(`route ${route.method} ${route.url} declares no config.auth`);
    if (!AUTH_RULES.includes(auth))
      throw new Error(`route ${route.method} ${route.url} declares an unknown config.auth "${auth}"`);
    // the permission table: every vendor route says which team roles may call it, and no other route does
    const rolesProblem =
      auth === 'vendor'
        ? rolesDeclarationProblem(route.config?.roles)
        : route.config?.roles !== undefined && 'declares config.roles, which only a vendor route may';
    if (rolesProblem) throw new Error(`route ${route.method} ${route.url} ${rolesProblem}`);
    record(route, auth, false);
    if (!route.schema || route.schema.hide) return;
    const schema = route.schema as Record<string, unknown>;
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    schema.operationId ??= operationId(method, route.url);
    schema.description ??= schema.summary;
    // Public operations say so explicitly (an empty requirement), the others name the bearer token; a
    // public operation that uses a token when one is sent lists both.
    schema.security =
      auth !== 'public' ? [{ bearerAuth: [] }] : schema['x-optional-auth'] ? [{}, { bearerAuth: [] }] : [];
    delete schema['x-optional-auth'];
    if (auth === 'vendor') schema['x-team-roles'] = route.config?.roles;
    const codes = new Set<number>([400, 500, 503]);
    if (route.schema.body) {
      codes.add(415);
      // a multipart body is read by its route, whose limits answer 400 (photos.routes.ts)
      if (!(schema.consumes as string[] | undefined)?.includes('multipart/form-data')) codes.add(413);
    }
    if (auth !== 'public') for (const c of [401, 403]) codes.add(c);
    if (/:/.test(route.url) || auth !== 'public') codes.add(404);
    if (route.config?.rateLimit) codes.add(429);
    if (route.config?.showsSecret) schema['x-secret-once'] = true;
    if (takesIdempotencyKey(route.method, auth, route.config?.showsSecret)) {
      schema['x-idempotency-key'] = true;
      for (const c of [409, 422]) codes.add(c);
    }
    for (const c of (schema['x-errors'] as number[] | undefined) ?? []) codes.add(c);
    delete schema['x-errors'];
    const response = (schema.response ?? {}) as Record<string, unknown>;
    for (const code of codes) response[code] ??= errorResponse(code);
    schema.response = response;
  });
}

/** A request schema as the document shows it: each field's service-checked rules written in. */
function withServiceChecks(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withServiceChecks);
  if (typeof node !== 'object' || node === null) return node;
  const { [SERVICE_CHECKS]: rules, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, withServiceChecks(v)]));
  return rules ? { ...copy, ...(rules as object) } : copy;
}

export const API_TITLE = 'Waterbook API';

/**
 * The OpenAPI document at /api/v1/openapi.json and the docs pages at /api/docs/. Registered before the
 * modules' routes: the named schemas are added here, and the responses referencing them resolve against
 * them.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  for (const schema of allNamedSchemas()) app.addSchema(schema);
  // The named schemas are added for the document's sake. Fastify's own serializer compiler would hand all
  // of them to every route's serializer, which costs memory per route for nothing: each serializer is
  // compiled from its response schema with the references it makes resolved in place instead.
  // compiled at a route's first answer, not at start, as the checks are (validation.ts)
  app.setSerializerCompiler(({ schema }) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => {
      serialize ??= fastJsonStringify(withNamedSchemasInlined(schema) as object);
      return serialize(data);
    };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: API_TITLE,
        version: '1.0.0',
        description:
          'Waterbook: equipment rentals and adventures: listings, availability, bookings, mock card payments ' +
          'and click-to-booking analytics. Every error has the body {detail, code, errors?}. Paths are listed ' +
          'with their trailing slash; they work without it too.',
      },
      servers: [{ url: '/', description: 'this server' }],
      tags: [
        { name: 'accounts', description: 'Registration, tokens, the current user and vendor profile' },
        { name: 'categories', description: 'Listing categories (staff manage them)' },
        { name: 'equipment', description: 'Equipment items, priced per day' },
        {
          name: 'adventures',
          description: 'Adventure offerings, priced per person (path segment: adventrues)',
        },
        { name: 'availability slots', description: "Vendors' availability slots and the public slot list" },
        { name: 'bookings', description: 'Availability checks, booking requests and their lifecycle' },
        { name: 'payments', description: 'Mock card payments and the gateway webhook' },
        { name: 'marketing', description: 'Click tracking and click-to-booking analytics' },
        {
          name: 'resources',
          description: 'Shared resources: boats, kayaks, wetsuits used by several listings',
        },
        {
          name: 'channels',
          description: 'Resellers booking over the OCTO API at /octo/v1/ (docs/octo.md), each with its key',
        },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    // Named schemas keep their names in components.schemas (instead of def-0, def-1, ...).
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    transform: ({ schema, url }) => ({
      url,
      schema: {
        ...schema,
        ...(schema.body !== undefined && { body: withServiceChecks(schema.body) }),
        ...(schema.querystring !== undefined && { querystring: withServiceChecks(schema.querystring) }),
      },
    }),
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      completeOperations(document.openapiObject as OpenApiDocument);
      return document.openapiObject;
    },
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, theme: { title: API_TITLE } });
  app.get(OPENAPI_DOCUMENT_URL, { config: { auth: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}

interface OpenApiMedia {
  schema?: { $ref?: string };
  example?: unknown;
}
interface OpenApiOperation {
  'x-optional-body'?: boolean;
  'x-idempotency-key'?: boolean;
  parameters?: object[];
  requestBody?: { required?: boolean };
  responses: Record<
    string,
    { description: string; headers?: Record<string, object>; content?: Record<string, OpenApiMedia> }
  >;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, { examples?: unknown[] }> };
}

const SUCCESS_TEXT: Record<string, string> = { 200: 'OK', 201: 'Created', 204: 'No content' };

const IDEMPOTENCY_KEY_PARAMETER = {
  in: 'header',
  name: IDEMPOTENCY_KEY_HEADER,
  required: false,
  description:
    'Makes the request safe to retry: the same key with the same method, path and JSON body within 24 ' +
    `hours replays the first answer (same status and body, header ${REPLAYED_HEADER}: true) and does ` +
    'nothing else. Keys are per user. While the first request runs: 409 idempotency_key_in_use; with ' +
    'another request: 422 idempotency_key_reused. Answers 400, 409, 429 and 5xx are not kept: the key ' +
    'stays free for a corrected request or a retry. A first request whose server process died before ' +
    'answering holds the key until that process is known to be gone: at once when another process on ' +
    `the same machine sees it, at most ${CLAIM_TIMEOUT_MS / 1000} s after the first request began ` +
    'otherwise; until then a retry gets 409 idempotency_key_in_use and should wait a second and retry.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  example: 'c0a8e4d2-booking-request-1',
};
const REPLAYED_RESPONSE_HEADER = {
  description: `"true" when this is the replayed answer of an earlier request with the same ${IDEMPOTENCY_KEY_HEADER}`,
  schema: { type: 'string', const: 'true' },
};

/** Answers given before a key is looked at (authentication, the body's parsing, the key's own 422). */
const ANSWERED_BEFORE_THE_KEY = new Set([401, 413, 415, 422]);

/** The Idempotency-Key header, and the replay marker on every answer that may be a replay. */
function declareIdempotencyKey(operation: OpenApiOperation): void {
  operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
  for (const [status, response] of Object.entries(operation.responses)) {
    const code = Number(status);
    if (isKeptStatus(code) && !ANSWERED_BEFORE_THE_KEY.has(code))
      response.headers = { ...response.headers, [REPLAYED_HEADER]: REPLAYED_RESPONSE_HEADER };
  }
}

/**
 * What @fastify/swagger leaves out of each operation: it marks every request body required (a route
 * schema's `x-optional-body`, copied onto the operation as every `x-` key is, says which are not), it
 * shows no example for a response that references a named schema, and it describes such a response as
 * "Default Response".
 */
function completeOperations(document: OpenApiDocument): void {
  const schemas = document.components?.schemas ?? {};
  for (const path of Object.values(document.paths ?? {}))
    for (const operation of Object.values(path)) {
      if (operation['x-optional-body'] && operation.requestBody) operation.requestBody.required = false;
      delete operation['x-optional-body'];
      if (operation['x-idempotency-key']) declareIdempotencyKey(operation);
      delete operation['x-idempotency-key'];
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        const name = media?.schema?.$ref?.replace('#/components/schemas/', '');
        if (!media || !name) continue;
        if (response.description === 'Default Response')
          response.description = `${SUCCESS_TEXT[status]}: ${name}`;
        media.example ??= ERROR_EXAMPLES[Number(status)] ?? schemas[name]?.examples?.[0];
      }
    }
}
