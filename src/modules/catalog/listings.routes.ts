import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { callerOf } from '../../http/auth.ts';
import { permissionDenied } from '../../http/errors.ts';
import { pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { EVERY_MEMBER, MANAGERS } from '../../http/team-roles.ts';
import type { KindDescriptor } from './kinds.ts';
import type { ListingResponses } from './listings.responses.ts';
import { listingSchemas, MAX_TRACKING_LENGTH, TRACKING_PARAMS, withArticle } from './listings.schemas.ts';
import * as listings from './listings.service.ts';

export interface ListingRoutesOptions {
  deps: listings.CatalogDeps;
  responses: ListingResponses;
  kind: KindDescriptor;
  /** an alias prefix: served, but left out of the OpenAPI document */
  hidden?: boolean;
}

/** The caller's vendor profile id (403 for an account without one). */
export function vendorIdOf(request: FastifyRequest): number {
  const { vendorId } = callerOf(request);
  if (vendorId === null) throw permissionDenied('This account has no vendor profile.');
  return vendorId;
}

/** An empty query value (`?category=`) means the parameter was not given, as HTML forms send it. */
async function dropEmptyQueryValues(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  for (const key of Object.keys(query)) if (query[key] === '') delete query[key];
}

/**
 * Every route of one listing kind: public list and detail, storefront, and the vendor's CRUD. Registered
 * once per kind (and per alias prefix); the kind descriptor supplies every name.
 */
export const listingRoutes: FastifyPluginAsyncTypebox<ListingRoutesOptions> = async (
  app,
  { deps, responses, kind, hidden = false },
) => {
  const s = listingSchemas(kind);
  const tags = [kind.tag];
  const { collection, noun, plural } = kind;
  const doc = <T extends FastifySchema>(schema: T): T => (hidden ? { ...schema, hide: true } : schema);

  app.get(
    `/${collection}/`,
    {
      config: { auth: 'public' },
      preValidation: dropEmptyQueryValues,
      schema: doc({
        tags,
        summary: `List active ${plural}`,
        description: 'Filtered by the query parameters; newest first unless ordering says otherwise.',
        querystring: s.listQuery,
        response: { 200: Ref(s.page) },
      }),
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const found = await listings.listPublicListings(deps, kind, request.query, page);
      return responses.sendListPage(request, reply, page, found);
    },
  );

  app.get(
    `/${collection}/:public_id/`,
    {
      config: { auth: 'public' },
      schema: doc({
        tags,
        summary: `Get ${withArticle(noun.toLowerCase())} by public_id (records a click)`,
        description:
          `Each successful view records a listing click. The tracking parameters (${TRACKING_PARAMS.join(', ')}; ` +
          `at most ${MAX_TRACKING_LENGTH} characters each), the referrer and, with a valid token, ` +
          'the user are stored on it; any non-empty tracking parameter makes it marketing traffic. The ' +
          `referrer is the \`referrer\` query parameter when given (at most ${MAX_TRACKING_LENGTH} characters), ` +
          `else the Referer header cut to ${MAX_TRACKING_LENGTH} characters; it never makes a click marketing.`,
        'x-optional-auth': true,
        params: s.publicIdParams,
        querystring: s.detailQuery,
        response: { 200: Ref(s.detail) },
      }),
    },
    async (request, reply) => {
      // A page running in a browser passes its own referrer as a parameter: the Referer of its API call
      // is the page itself. Given, even empty (a page opened directly), the parameter wins.
      const { referrer, ...params } = request.query;
      const view = await listings.viewListing(deps, kind, request.params.public_id, {
        params,
        referrer: referrer ?? (request.headers.referer ?? '').slice(0, MAX_TRACKING_LENGTH),
        userId: request.user?.id ?? null,
        userAgent: request.headers['user-agent'],
      });
      return responses.sendDetail(reply, view, s.listing);
    },
  );

  app.get(
    '/storefront/:slug/',
    {
      config: { auth: 'public' },
      preValidation: dropEmptyQueryValues,
      schema: doc({
        tags,
        summary: `Get a vendor's storefront: its public profile and active ${plural}`,
        params: s.slugParams,
        querystring: s.storefrontQuery,
        response: { 200: Ref(s.storefront) },
      }),
    },
    async (request) => {
      const page = pageOf(request.query);
      const { vendor, count, results } = await listings.storefront(
        deps,
        kind,
        request.params.slug,
        request.query,
        page,
      );
      return { vendor, ...paginated(request, page, count, results) };
    },
  );

  app.get(
    `/vendor/${collection}/`,
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: doc({
        tags,
        summary: `List the caller's ${plural}`,
        description: 'Inactive ones included; newest first.',
        querystring: Type.Object({
          page: s.listQuery.properties.page,
          page_size: s.listQuery.properties.page_size,
        }),
        response: { 200: Ref(s.page) },
      }),
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await listings.listOwnListings(deps, kind, vendorIdOf(request), page);
      return paginated(request, page, count, results);
    },
  );

  app.post(
    `/vendor/${collection}/`,
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: `Create ${withArticle(noun.toLowerCase())}`,
        body: s.createBody,
        response: { 201: Ref(s.listing) },
      }),
    },
    async (request, reply) =>
      reply.status(201).send(await listings.createListing(deps, kind, vendorIdOf(request), request.body)),
  );

  app.get(
    `/vendor/${collection}/:id/`,
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: doc({
        tags,
        summary: `Get one of the caller's ${plural}`,
        params: IdParams,
        response: { 200: Ref(s.listing) },
      }),
    },
    async (request) => listings.getOwnListing(deps, kind, vendorIdOf(request), request.params.id),
  );

  app.put(
    `/vendor/${collection}/:id/`,
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: `Replace one of the caller's ${plural}`,
        description: 'Every writable field is required.',
        params: IdParams,
        body: s.replaceBody,
        response: { 200: Ref(s.listing) },
      }),
    },
    async (request) =>
      listings.updateListing(deps, kind, vendorIdOf(request), request.params.id, request.body),
  );

  app.patch(
    `/vendor/${collection}/:id/`,
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: `Update some fields of one of the caller's ${plural}`,
        params: IdParams,
        body: s.patchBody,
        response: { 200: Ref(s.listing) },
      }),
    },
    async (request) =>
      listings.updateListing(deps, kind, vendorIdOf(request), request.params.id, request.body),
  );

  app.delete(
    `/vendor/${collection}/:id/`,
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: `Archive one of the caller's ${plural}`,
        description: 'It leaves every list and detail; its bookings and clicks stay.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Archived.' }) },
      }),
    },
    async (request, reply) => {
      await listings.archiveListing(deps, kind, vendorIdOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
