import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchema } from 'fastify';
import { callerOf } from '../../http/auth.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { EVERY_MEMBER, MANAGERS } from '../../http/team-roles.ts';
import type { BookingDeps } from './booking.deps.ts';
import * as schemas from './departures.schemas.ts';
import { listPublicDepartures } from './departures.service.ts';
import {
  cancelDeparture,
  changeDeparture,
  listVendorDepartures,
  previewDepartureCancel,
} from './departures.vendor.ts';

export interface DepartureRoutesOptions {
  deps: BookingDeps;
  /** an alias prefix: served, but left out of the OpenAPI document */
  hidden?: boolean;
}

const tags = ['departures'];

/**
 * The departures of scheduled adventure offerings (decisions §19), under the adventures' path segment
 * (`/api/v1/adventrues`, the spec's spelling, and its alias): the public list, and the vendor's list,
 * change and cancel of one departure.
 */
export const departureRoutes: FastifyPluginAsyncTypebox<DepartureRoutesOptions> = async (
  app,
  { deps, hidden = false },
) => {
  const doc = <T extends FastifySchema>(schema: T): T => (hidden ? { ...schema, hide: true } : schema);

  app.get(
    '/offerings/:public_id/departures/',
    {
      config: { auth: 'public' },
      schema: doc({
        tags,
        summary: "List an adventure offering's departures with their seats",
        description:
          'Departures starting in [from, to) (default: the next 14 days; at most 92), made by the ' +
          "offering's schedule in the vendor's time_zone, each with remaining seats and a status. An " +
          'offering without a schedule answers scheduled false and no departures. An inactive or unknown ' +
          'offering is 404.',
        params: schemas.PublicIdParams,
        querystring: schemas.DeparturesQuery,
        response: { 200: Ref(schemas.DepartureListSchema) },
      }),
    },
    async (request) => listPublicDepartures(deps, request.params.public_id, request.query),
  );

  app.get(
    '/vendor/offerings/:id/departures/',
    {
      config: { auth: 'vendor', roles: EVERY_MEMBER },
      schema: doc({
        tags,
        summary: "List one of the caller's offerings' departures with seats sold",
        description:
          'The public departure objects plus booked seats, bookings, why a departure is closed, its ' +
          'capacity override and its cancel. Same range rules as the public list.',
        params: IdParams,
        querystring: schemas.DeparturesQuery,
        response: { 200: Ref(schemas.VendorDepartureListSchema) },
      }),
    },
    async (request) => listVendorDepartures(deps, callerOf(request), request.params.id, request.query),
  );

  app.patch(
    '/vendor/offerings/:id/departures/:starts_at/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: doc({
        tags,
        summary: 'Change one departure: its capacity, or close or reopen it',
        description:
          'A capacity below the seats its bookings hold is 409 booking_conflict; an instant that is not a ' +
          'departure of the offering is 404. Answers the departure as the public list shows it.',
        params: schemas.DepartureParams,
        body: schemas.ChangeDepartureBody,
        response: { 200: Ref(schemas.DepartureSchema) },
        'x-errors': [409],
      }),
    },
    async (request) =>
      changeDeparture(deps, callerOf(request), request.params.id, request.params.starts_at, request.body),
  );

  app.get(
    '/vendor/offerings/:id/departures/:starts_at/cancellation/',
    {
      // the confirmation of a cancel, which only those who may cancel see
      config: { auth: 'vendor', roles: MANAGERS },
      schema: doc({
        tags,
        summary: 'What cancelling one departure would do now',
        description:
          'The bookings a cancel would cancel and the refund it would make, for a confirmation. Reads ' +
          'only: the cancel decides again when it runs.',
        params: schemas.DepartureParams,
        response: { 200: Ref(schemas.DepartureCancellationSchema) },
      }),
    },
    async (request) =>
      previewDepartureCancel(deps, callerOf(request), request.params.id, request.params.starts_at),
  );

  app.post(
    '/vendor/offerings/:id/departures/:starts_at/cancel/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: doc({
        tags,
        summary: 'Cancel one departure and every booking holding it',
        description:
          'Closes the departure and vendor-cancels its requested, approved and confirmed bookings (paid ones ' +
          'refunded in full, reason cancelled_by_vendor), in one transaction; each history entry carries ' +
          'the note.',
        params: schemas.DepartureParams,
        body: schemas.CancelDepartureBody,
        'x-optional-body': true,
        response: { 200: Ref(schemas.CancelledDepartureSchema) },
      }),
    },
    async (request) =>
      cancelDeparture(deps, callerOf(request), request.params.id, request.params.starts_at, request.body),
  );
};
