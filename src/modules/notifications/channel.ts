import type { Selectable } from 'kysely';
import type { NotificationDeliveriesTable, NotificationEndpointsTable } from '../../db/database.ts';

// What the outbox worker (outbox-worker.ts) hands a channel for one attempt, and what it takes back. A
// channel sends; it never writes the delivery's row: the worker records the outcome, retries and claims.

export type DeliveryRow = Selectable<NotificationDeliveriesTable>;
export type EndpointRow = Selectable<NotificationEndpointsTable>;

export interface DeliveryAttempt {
  delivery: DeliveryRow;
  /** the event's public id (evt_...), type and exact JSON body */
  event: { publicId: string; type: string; payload: string; createdAt: number };
  /** webhook deliveries: the endpoint as it is now (url, secret); null for mail */
  endpoint: EndpointRow | null;
}

export interface AttemptOutcome {
  /** true: delivered, never tried again */
  delivered: boolean;
  /** the receiver's HTTP status (webhooks) or SMTP reply code (mail), when there was one */
  statusCode: number | null;
  /** why it failed, short and safe to show the vendor in the delivery log; null when delivered */
  error: string | null;
  /** the receiver asked never to be called again (HTTP 410): the endpoint is disabled, retries stop */
  disableEndpoint?: boolean;
}

export interface DeliveryChannel {
  send(attempt: DeliveryAttempt): Promise<AttemptOutcome>;
}
