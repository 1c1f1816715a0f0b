import { Type } from 'typebox';
import { PaginatedSchema } from '../../http/pagination.ts';
import { DateTimeOut, Named, Nullable, StringEnum, serviceChecks } from '../../http/schemas.ts';
import { EVENT_TYPES } from '../../outbox/events.ts';

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** "every event type", alone in an endpoint's event_types */
export const ALL_EVENTS = '*';

const endpointExample = {
  id: 3,
  url: 'https://hooks.example.com/waterbook',
  description: 'Booking desk',
  event_types: ['booking.requested', 'booking.cancelled'],
  is_active: true,
  created_at: '2026-07-01T09:00:00.000Z',
  updated_at: '2026-07-01T09:00:00.000Z',
};
const secretExample = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6KAR1fNmt8U=';

const endpointFields = {
  id: Type.Integer(),
  url: Type.String(),
  description: Type.String(),
  event_types: Type.Array(Type.String(), { description: 'the event types it receives, or ["*"] for all' }),
  is_active: Type.Boolean({ description: 'false: nothing is sent to it (a 410 answer sets it so)' }),
  created_at: DateTimeOut,
  updated_at: DateTimeOut,
};

export const EndpointSchema = Named(
  'WebhookEndpoint',
  Type.Object(endpointFields, {
    description: "A vendor's webhook endpoint. Its secret is shown only when it is made.",
    examples: [endpointExample],
  }),
);
export const EndpointPage = PaginatedSchema(EndpointSchema);

export const EndpointWithSecretSchema = Named(
  'WebhookEndpointWithSecret',
  Type.Object(
    {
      ...endpointFields,
      secret: Type.String({
        description:
          'whsec_ and the base64 of the signing key (Standard Webhooks); shown only in this answer',
      }),
    },
    {
      description: 'A webhook endpoint with its new signing secret: the only time the secret is shown.',
      examples: [{ ...endpointExample, secret: secretExample }],
    },
  ),
);

export const DeliverySchema = Named(
  'WebhookDelivery',
  Type.Object(
    {
      id: Type.Integer(),
      event_id: Type.String({ description: 'the event id (evt_...), sent as the webhook-id header' }),
      event_type: Type.String(),
      status: StringEnum(['pending', 'succeeded', 'failed']),
      attempts: Type.Integer({ description: 'attempts made so far' }),
      last_status_code: Nullable(
        Type.Integer({ description: "the receiver's HTTP status at the last attempt" }),
      ),
      last_error: Nullable(Type.String({ description: 'why the last attempt failed' })),
      next_attempt_at: Nullable(DateTimeOut),
      created_at: DateTimeOut,
      updated_at: DateTimeOut,
    },
    {
      description: 'One event sent to one endpoint, with its attempts.',
      examples: [
        {
          id: 41,
          event_id: 'evt_5f0c2b7e9a4d4c1b8e3f6a2d1c0b9e8f',
          event_type: 'booking.requested',
          status: 'pending',
          attempts: 2,
          last_status_code: 500,
          last_error: 'HTTP 500',
          next_attempt_at: '2026-07-01T09:35:05.000Z',
          created_at: '2026-07-01T09:00:00.000Z',
          updated_at: '2026-07-01T09:05:05.000Z',
        },
      ],
    },
  ),
);
export const DeliveryPage = PaginatedSchema(DeliverySchema);

const Url = Type.String({
  maxLength: MAX_URL_LENGTH,
  description: 'http or https, without credentials; its host must be (and resolve to) public addresses only',
  ...serviceChecks({ format: 'uri' }),
});
const EventTypes = Type.Array(
  Type.String({ maxLength: 64, ...serviceChecks({ enum: [...EVENT_TYPES, ALL_EVENTS] }) }),
  {
    maxItems: EVENT_TYPES.length + 1,
    description: `a non-empty list of distinct event types, or ["${ALL_EVENTS}"] for every type`,
    ...serviceChecks({ minItems: 1, uniqueItems: true }),
  },
);
const Description = Type.String({ maxLength: MAX_DESCRIPTION_LENGTH });

export const CreateEndpointBody = Type.Object(
  {
    url: Url,
    event_types: EventTypes,
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean({ default: true })),
  },
  {
    examples: [
      {
        url: 'https://hooks.example.com/waterbook',
        event_types: ['booking.requested', 'booking.cancelled'],
        description: 'Booking desk',
      },
    ],
  },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    event_types: Type.Optional(EventTypes),
    description: Type.Optional(Description),
    is_active: Type.Optional(Type.Boolean()),
  },
  { examples: [{ is_active: true }] },
);
