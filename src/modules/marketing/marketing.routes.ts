import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { PaginatedSchema, pageOf, paginated } from '../../http/pagination.ts';
import * as analytics from './analytics.service.ts';
import { type ClickTrackingDeps, trackListingClick } from './clicks.service.ts';
import * as schemas from './marketing.schemas.ts';

export interface MarketingRoutesOptions {
  deps: analytics.MarketingDeps & ClickTrackingDeps;
}

const tags = ['marketing'];

export const marketingRoutes: FastifyPluginAsyncTypebox<MarketingRoutesOptions> = async (app, { deps }) => {
  app.post(
    '/track/click/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Record a listing click explicitly (a valid token stores the user; a bad one is ignored)',
        body: schemas.TrackClickBody,
        response: { 201: schemas.TrackedClickSchema },
        'x-errors': [404],
      },
    },
    async (request, reply) =>
      reply.status(201).send(await trackListingClick(deps, request.body, request.user?.id ?? null)),
  );

  app.get(
    '/vendor/clicks/',
    {
      config: { auth: 'vendor' },
      schema: {
        tags,
        summary: "The caller's listing clicks in [from, to), newest first",
        querystring: schemas.ClicksQuery,
        response: { 200: PaginatedSchema(schemas.ClickSchema) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await analytics.listVendorClicks(
        deps,
        callerOf(request).vendorId,
        request.query,
        page,
      );
      return paginated(request, page, count, results);
    },
  );

  app.get(
    '/vendor/summary/',
    {
      config: { auth: 'vendor' },
      schema: {
        tags,
        summary: "Clicks and click-to-booking conversion of the caller's listings in [from, to)",
        querystring: schemas.SummaryQuery,
        response: { 200: schemas.SummarySchema },
      },
    },
    async (request) => analytics.summariseVendorClicks(deps, callerOf(request).vendorId, request.query),
  );
};
