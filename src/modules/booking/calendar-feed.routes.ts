import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { Ref } from '../../http/schemas.ts';
import { MANAGERS } from '../../http/team-roles.ts';
import { CalendarFeedSchema, FeedParams } from './calendar-feed.schemas.ts';
import * as feeds from './calendar-feed.service.ts';

const tags = ['calendar feed'];

/** The vendor's feed URL and its rotation (decisions §24), under /api/v1/booking/vendor/calendar-feed/. */
export const calendarFeedRoutes: FastifyPluginAsyncTypebox<{ deps: feeds.CalendarFeedDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/vendor/calendar-feed/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: "The caller's calendar feed URL",
        description:
          "The secret address of an iCalendar feed of the vendor's bookings (requested, approved and " +
          'confirmed; from 30 days back to 365 days ahead), for Google Calendar, Outlook or Apple Calendar. ' +
          'The same URL every time until rotated.',
        response: { 200: Ref(CalendarFeedSchema) },
      },
    },
    async (request) => feeds.getFeedUrl(deps, callerOf(request)),
  );

  app.post(
    '/vendor/calendar-feed/rotate/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags,
        summary: 'Replace the calendar feed URL',
        description:
          'A new secret URL; the old one answers 404 from now on, so calendars subscribed to it stop ' +
          'receiving bookings.',
        response: { 200: Ref(CalendarFeedSchema) },
      },
    },
    async (request) => feeds.rotateFeed(deps, callerOf(request)),
  );
};

/** The feed itself at /calendar/{token}.ics: the token is the only credential. */
export const calendarFileRoutes: FastifyPluginAsyncTypebox<{ deps: feeds.CalendarFeedDeps }> = async (
  app,
  { deps },
) => {
  app.get(
    '/calendar/:token.ics',
    {
      config: { auth: 'public' },
      // out of the API document, like /media/{key}: a file for calendar applications, at the path §24
      // decides (docs/calendar-feed.md), not an API resource
      schema: { hide: true, params: FeedParams },
    },
    async (request, reply) => {
      const body = await feeds.feedIcs(deps, request.params.token);
      const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
      // private: the URL is a secret, so no shared cache keeps a copy; no-cache: a kept copy is checked
      // by its ETag each time (a 304 costs little), so a rotated-out URL stops at once for a cache too
      reply
        .header('cache-control', 'private, no-cache')
        .header('etag', etag)
        .header('x-robots-tag', 'noindex')
        .header('referrer-policy', 'no-referrer');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send(null);
      return reply.type('text/calendar; charset=utf-8').send(body);
    },
  );
};
