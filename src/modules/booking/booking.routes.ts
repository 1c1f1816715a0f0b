import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/auth.ts';
import { clientOf } from '../../http/client.ts';
import { pageOf, paginated } from '../../http/pagination.ts';
import { IdParams, Ref } from '../../http/schemas.ts';
import { EVERY_MEMBER, MANAGERS } from '../../http/team-roles.ts';
import { checkAvailability } from './availability.service.ts';
import type { BookingDeps } from './booking.deps.ts';
import * as schemas from './booking.schemas.ts';
import { requestBooking } from './booking.service.ts';
import { transitionBooking } from './booking.transitions.ts';
import { getBooking, listBookings } from './booking.view.ts';
import { cancelBooking, previewCancellation } from './cancellation.service.ts';
import { QuoteSchema } from './prices.schemas.ts';
import { quoteBooking } from './quote.service.ts';
import * as slots from './slots.service.ts';

export interface BookingRoutesOptions {
  deps: BookingDeps;
}

const slotTags = ['availability slots'];
const tags = ['bookings'];

export const bookingRoutes: FastifyPluginAsyncTypebox<BookingRoutesOptions> = async (app, { deps }) => {
  // --- availability slots (vendor) ---

  app.get(
    '/vendor/slots/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags: slotTags,
        summary: "List the caller's availability slots",
        description: 'Ordered by starts_at.',
        querystring: schemas.VendorSlotsQuery,
        response: { 200: Ref(schemas.SlotPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await slots.listVendorSlots(deps, callerOf(request), request.query, page);
      return paginated(request, page, count, results);
    },
  );

  app.post(
    '/vendor/slots/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags: slotTags,
        summary: 'Create an availability slot on one of the caller’s listings',
        body: schemas.CreateSlotBody,
        response: { 201: Ref(schemas.SlotSchema) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await slots.createSlot(deps, callerOf(request), request.body)),
  );

  app.get(
    '/vendor/slots/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags: slotTags,
        summary: 'Get one of the caller’s availability slots',
        params: IdParams,
        response: { 200: Ref(schemas.SlotSchema) },
      },
    },
    async (request) => slots.getSlot(deps, callerOf(request), request.params.id),
  );

  app.patch(
    '/vendor/slots/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: slotTags,
        summary: 'Change a slot’s window or availability',
        description: 'Existing bookings are not affected.',
        params: IdParams,
        body: schemas.UpdateSlotBody,
        'x-optional-body': true,
        response: { 200: Ref(schemas.SlotSchema) },
      },
    },
    async (request) => slots.updateSlot(deps, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/vendor/slots/:id/',
    {
      config: { auth: 'vendor', roles: MANAGERS },
      schema: {
        tags: slotTags,
        summary: 'Delete a slot',
        description: 'Existing bookings are not affected.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }) },
      },
    },
    async (request, reply) => {
      await slots.deleteSlot(deps, callerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  // --- public slots and the availability check ---

  app.get(
    '/slots/',
    {
      config: { auth: 'public' },
      schema: {
        tags: slotTags,
        summary: 'List a listing’s availability slots',
        description: 'Ordered by starts_at; with from and to, only those overlapping [from, to).',
        querystring: schemas.PublicSlotsQuery,
        response: { 200: Ref(schemas.SlotPage) },
        'x-errors': [404],
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await slots.listPublicSlots(deps, request.query, page);
      return paginated(request, page, count, results);
    },
  );

  app.get(
    '/availability/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Check whether a listing can be booked for [starts_at, ends_at)',
        querystring: schemas.AvailabilityQuery,
        response: { 200: Ref(schemas.AvailabilitySchema) },
        'x-errors': [404],
      },
    },
    async (request) => checkAvailability(deps, request.query),
  );

  // --- bookings ---

  app.post(
    '/bookings/request/',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Request a booking',
        description:
          'The booking starts in status requested; the server computes total_price. It holds its window until ' +
          "expires_at (now + the vendor's request_ttl_minutes, never after starts_at); unanswered by then, it " +
          'is expired and holds nothing.',
        body: schemas.BookingRequestBody,
        response: { 201: Ref(schemas.BookingSchema) },
        'x-errors': [409],
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requestBooking(deps, callerOf(request), request.body, clientOf(request))),
  );

  app.post(
    '/quote/',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Price a booking request without making it',
        description:
          'The body of a booking request; the answer is what that request would cost now (its price lines ' +
          'and total) and whether it would be accepted. Validated as a request is (the same 400s and 404s; ' +
          'a window the request would refuse with 409 is is_available false); creates nothing: no booking, ' +
          'no redemption of the promo code, no click. A token is ignored.',
        body: schemas.BookingRequestBody,
        response: { 200: Ref(QuoteSchema) },
        'x-errors': [404],
      },
    },
    async (request) => quoteBooking(deps, request.body),
  );

  app.get(
    '/bookings/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'List the caller’s bookings',
        description:
          'A vendor sees the bookings of its listings, a customer its own; newest first. status=expired lists ' +
          'every booking whose hold has lapsed (recorded by the sweep or not); status=requested and ' +
          'status=approved leave those out.',
        querystring: schemas.BookingListQuery,
        response: { 200: Ref(schemas.BookingPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { count, results } = await listBookings(deps, callerOf(request), request.query, page);
      return paginated(request, page, count, results);
    },
  );

  app.get(
    '/bookings/:id/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Get a booking',
        description: 'Only its customer and its vendor see it.',
        params: IdParams,
        response: { 200: Ref(schemas.BookingSchema) },
      },
    },
    async (request) => getBooking(deps, callerOf(request), request.params.id),
  );

  app.get(
    '/bookings/:id/cancellation/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'What cancelling the booking now would refund (a party to it)',
        description:
          "For the customer, what POST cancel/ would refund by the listing's cancellation_policy; for the " +
          'vendor, what POST vendor-cancel/ would (all that remains paid). Reads only: nothing is reserved, ' +
          'so a later cancel may differ if the booking or its payment changes meanwhile.',
        params: IdParams,
        response: { 200: Ref(schemas.CancellationPreviewSchema) },
      },
    },
    async (request) => previewCancellation(deps, callerOf(request), request.params.id),
  );

  const transitions = [
    ['approve', schemas.ApproveBody, 'Approve a requested booking (the listing’s vendor)'],
    ['decline', schemas.DeclineBody, 'Decline a requested or approved booking (the listing’s vendor)'],
  ] as const;
  for (const [action, body, summary] of transitions) {
    app.post(
      `/bookings/:id/${action}/`,
      {
        config: { auth: 'vendor', roles: EVERY_MEMBER },
        // every field is optional, so a POST without a body means "no fields"
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary,
          description:
            'Approving sets expires_at to now + the vendor’s payment_ttl_minutes (never after starts_at); ' +
            'declining or cancelling clears it. On an expired booking (expires_at passed, recorded or not) ' +
            'every action is 409 invalid_state.',
          params: IdParams,
          body,
          'x-optional-body': true,
          response: { 200: Ref(schemas.BookingSchema) },
          'x-errors': [409],
        },
      },
      async (request) => transitionBooking(deps, callerOf(request), request.params.id, action, request.body),
    );
  }

  const cancels = [
    [
      'cancel',
      'customer',
      schemas.CancelBody,
      'Cancel a requested, approved or confirmed booking (its customer)',
      'A confirmed booking only before starts_at (after: 409 invalid_state). A paid booking is refunded ' +
        "by the listing's cancellation_policy: in full when cancelled at least free_cancellation_hours " +
        'before starts_at, else late_refund_percent of the amount, rounded down to the cent; a zero refund ' +
        'makes no refund object. The answer carries the refund (or null).',
    ],
    [
      'vendor-cancel',
      'vendor',
      schemas.VendorCancelBody,
      'Cancel a requested, approved or confirmed booking (the listing’s vendor)',
      'A paid booking is refunded in full (reason cancelled_by_vendor). The answer carries the refund (or ' +
        "null). The booking's customer calling it is 403.",
    ],
  ] as const;
  for (const [path, auth, body, summary, description] of cancels) {
    const action = path === 'cancel' ? 'cancel' : 'vendor_cancel';
    app.post(
      `/bookings/:id/${path}/`,
      {
        config: auth === 'vendor' ? { auth, roles: MANAGERS } : { auth },
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary,
          description,
          params: IdParams,
          body,
          'x-optional-body': true,
          response: { 200: Ref(schemas.CancelledBookingSchema) },
          'x-errors': [409],
        },
      },
      async (request) => cancelBooking(deps, callerOf(request), request.params.id, action, request.body),
    );
  }
};
