import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, DeliveryStatus } from '../../src/db/database.ts';
import { newEventId } from '../../src/outbox/events.ts';
import type { Account } from './factories.ts';

/** A public address standing in for a receiver on the internet (tests never connect to it). */
export const PUBLIC_HOOK_URL = 'https://93.184.215.14/hooks/waterbook';

export interface EndpointOut {
  id: number;
  url: string;
  description: string;
  event_types: string[];
  is_active: boolean;
  created_at: string;
  updated_at: string;
  secret: string;
}

/** A webhook endpoint of the vendor, made through the API (the 201, with its secret). */
export async function createEndpoint(
  app: FastifyInstance,
  vendor: Account,
  overrides: Record<string, unknown> = {},
): Promise<EndpointOut> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/notifications/endpoints/',
    headers: { authorization: `Bearer ${vendor.token}` },
    payload: { url: PUBLIC_HOOK_URL, event_types: ['*'], ...overrides },
  });
  if (res.statusCode !== 201) throw new Error(`endpoint creation failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * An outbox event and a webhook delivery of it to the endpoint, written straight into the tables as the
 * outbox worker would (the worker itself is not under test here).
 */
export async function insertWebhookDelivery(
  db: Kysely<Database>,
  endpointId: number,
  values: {
    type?: string;
    status?: DeliveryStatus;
    attempts?: number;
    lastStatusCode?: number | null;
    lastError?: string | null;
    nextAttemptAt?: number | null;
    createdAt: number;
  },
): Promise<{ deliveryId: number; eventId: number; publicId: string }> {
  const publicId = newEventId();
  const type = values.type ?? 'booking.requested';
  const event = await db
    .insertInto('notification_events')
    .values({
      public_id: publicId,
      type,
      vendor_id: null,
      booking_id: null,
      payload: JSON.stringify({
        id: publicId,
        type,
        created_at: new Date(values.createdAt).toISOString(),
        data: {},
      }),
      created_at: values.createdAt,
      dispatched_at: values.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = await db
    .insertInto('notification_deliveries')
    .values({
      event_id: event.id,
      channel: 'webhook',
      endpoint_id: endpointId,
      recipient: null,
      recipient_role: null,
      secret: null,
      status: values.status ?? 'pending',
      attempts: values.attempts ?? 0,
      last_status_code: values.lastStatusCode ?? null,
      last_error: values.lastError ?? null,
      next_attempt_at: values.nextAttemptAt === undefined ? values.createdAt : values.nextAttemptAt,
      created_at: values.createdAt,
      updated_at: values.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { deliveryId: delivery.id, eventId: event.id, publicId };
}
