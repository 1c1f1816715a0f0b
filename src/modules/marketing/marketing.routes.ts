import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { pageOf, paginated } from '../../http/pagination.ts';
import { Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import * as analytics from './analytics.service.ts';
import { type ClickTrackingDeps, trackListingClick } from './clicks.service.ts';
import { clicksAsCsv } from './clicks-csv.ts';
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
        summary: 'Record a listing click',
        description: 'A valid token stores the user on the click; a bad one is ignored.',
        'x-optional-auth': true,
        body: schemas.TrackClickBody,
        response: { 201: Ref(schemas.TrackedClickSchema) },
        'x-errors': [404],
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await trackListingClick(
            deps,
            request.body,
            request.user?.id ?? null,
            request.headers['user-agent'],
          ),
        ),
  );

  app.get(
    '/vendor/clicks/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "List the caller's listing clicks in [from, to)",
        description: 'Newest first.',
        querystring: schemas.ClicksQuery,
        response: { 200: Ref(schemas.ClickPage) },
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
    '/vendor/clicks/export/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "Export the caller's listing clicks in [from, to) as CSV",
        description:
          'The click list with the same filters, oldest first, without pages: a header row with the click ' +
          "object's fields, then one row per click. Streamed. A text cell starting with =, +, -, @, a tab or " +
          'a carriage return is prefixed with an apostrophe, so that spreadsheets show it as text.',
        querystring: schemas.ClicksExportQuery,
        response: {
          200: { description: 'CSV, streamed', content: { 'text/csv': { schema: Ref(schemas.ClicksCsv) } } },
        },
      },
    },
    async (request, reply) => {
      const chunks = analytics.exportVendorClicks(deps, callerOf(request).vendorId, request.query);
      const name = `clicks-${request.query.from.slice(0, 10)}-${request.query.to.slice(0, 10)}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
        .send(clicksAsCsv(chunks));
    },
  );

  app.get(
    '/vendor/summary/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "Summarise the clicks and click-to-booking conversion of the caller's listings",
        description: 'Over [from, to).',
        querystring: schemas.RangeQuery,
        response: { 200: Ref(schemas.SummarySchema) },
      },
    },
    async (request) => analytics.summariseVendorClicks(deps, callerOf(request).vendorId, request.query),
  );

  app.get(
    '/vendor/timeseries/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "The caller's clicks, bookings and revenue per local date of their time zone",
        description:
          `Over [from, to); at most ${schemas.MAX_TIMESERIES_POINTS} points (dates of the vendor's time_zone), ` +
          'else 400 on to. Bookings are counted on the date they were requested; revenue is what the ' +
          "bookings of that date that reached confirmed kept after refunds, in the vendor's currency.",
        querystring: schemas.RangeQuery,
        response: { 200: Ref(schemas.TimeseriesSchema) },
      },
    },
    async (request) => analytics.vendorTimeseries(deps, callerOf(request).vendorId, request.query),
  );
};
