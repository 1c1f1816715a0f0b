import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/auth.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { EVERY_MEMBER } from '../../http/team-roles.ts';
import { BookingSchema } from './booking.schemas.ts';
import { type ManifestDeps, setAttendance, vendorManifest } from './day-of-trip.service.ts';
import { Manifest, ManifestCsv, ManifestQuery } from './manifest.schemas.ts';
import { manifestAsCsv } from './manifest-csv.ts';
import { AttendanceBody } from './trip.schemas.ts';

export interface DayOfTripRoutesOptions {
  deps: ManifestDeps;
}

const tags = ['day of the trip'];

/** Attendance and the day's manifest (decisions §23), under /api/v1/booking. */
export const dayOfTripRoutes: FastifyPluginAsyncTypebox<DayOfTripRoutesOptions> = async (app, { deps }) => {
  app.post(
    '/bookings/:id/attendance/',
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: {
        tags,
        summary: 'Record who came: check in, no-show, returned, or undo (the listing’s vendor)',
        description:
          'Only a confirmed booking (else 409 invalid_state). checked_in from 24 hours before starts_at, ' +
          'no_show from starts_at, returned for equipment already checked in (an adventure: 400 on status), ' +
          'pending undoes; too early → 409 invalid_state. Each change is appended to status_history with ' +
          'the status unchanged and a note naming the attendance; the same attendance again changes nothing.',
        params: IdParams,
        body: AttendanceBody,
        response: { 200: Ref(BookingSchema) },
        'x-errors': [409],
      },
    },
    async (request) => setAttendance(deps, callerOf(request), request.params.id, request.body.status),
  );

  app.get(
    '/vendor/manifest/',
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      // A busy day is hundreds of booking objects, each with a dozen nullable members that the compiled
      // serializer checks one by one; the service builds every member itself (toBooking), so the answer
      // is written as it is, several times faster. The schema still documents it.
      serializerCompiler: () => (data) => JSON.stringify(data),
      schema: {
        tags,
        summary: "The caller's manifest of a local date: departures, pick-ups and returns",
        querystring: ManifestQuery,
        response: { 200: Ref(Manifest) },
      },
    },
    async (request) => vendorManifest(deps, callerOf(request), request.query.date),
  );

  app.get(
    '/vendor/manifest/export/',
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: {
        tags,
        summary: "The caller's manifest of a local date as CSV, one row per booking",
        description:
          'The same bookings as GET vendor/manifest/. A text cell starting with =, +, -, @, a tab or a ' +
          'carriage return is prefixed with an apostrophe, so that spreadsheets show it as text.',
        querystring: ManifestQuery,
        response: {
          200: { description: 'CSV', content: { 'text/csv': { schema: Ref(ManifestCsv) } } },
        },
      },
    },
    async (request, reply) => {
      const manifest = await vendorManifest(deps, callerOf(request), request.query.date);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="manifest-${manifest.date}.csv"`)
        .send(manifestAsCsv(manifest));
    },
  );
};
