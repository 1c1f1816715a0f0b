import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { preparedQuery } from '../db/prepared-query.ts';
import { formatDateTime } from '../lib/datetime.ts';

// The transactional outbox's writing side (decisions §14). Every module that changes something a vendor
// or customer is told about calls recordEvent with the transaction of that change, so the event exists
// exactly when the change does. Delivery (webhooks, mail) is the notifications module's, after the commit.

/** The events a webhook endpoint may subscribe to (decisions §14). */
export const EVENT_TYPES = [
  'booking.requested',
  'booking.approved',
  'booking.declined',
  'booking.cancelled',
  'booking.expired',
  'booking.confirmed',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An account's own mail (a password reset): through the same outbox and its retries, never to a webhook.
 * Its payload's data is `{ email }`; the worker finds the account, if there is one, when it fans out.
 */
export const PASSWORD_RESET_EVENT = 'account.password_reset_requested';

/**
 * An invitation to a vendor's team (decisions §25): mailed through the outbox like a password reset. Its
 * data is the invitation (InvitationEventData); the worker gives the invitation its token when it fans
 * the mail out, so the token is never stored but in that delivery (and as a hash on the invitation).
 */
export const TEAM_INVITATION_EVENT = 'team.invitation_sent';

export interface InvitationEventData {
  invitation_id: number;
  email: string;
  role: string;
  business_name: string;
  /** the inviting owner's name (or email) */
  invited_by: string;
  expires_at: string;
  /** the vendor's, in which the mail shows the deadline */
  time_zone: string;
}

/** The objects of an event's `data`, as the API shows them at the moment of the change. */
export interface EventData {
  booking: object;
  payment: object | null;
  refund: object | null;
}

/** The JSON body every receiver of the event gets. */
export interface EventBody<D = EventData> {
  id: string;
  type: string;
  created_at: string;
  data: D;
}

/** A new event id: evt_ and 32 hex digits (the Standard Webhooks webhook-id). */
export const newEventId = () => `evt_${randomUUID().replaceAll('-', '')}`;

/**
 * Writes an event into the outbox in the caller's transaction `trx`: `vendorId` is whose webhook endpoints
 * receive it, `bookingId` whose parties get its mail.
 */
export async function recordEvent(
  trx: Db,
  event: { type: EventType; vendorId: number; bookingId: number; data: EventData; now: number },
): Promise<void> {
  await insertEvent(trx, event.type, event.vendorId, event.bookingId, event.data, event.now);
}

/** Writes an account's password-reset request into the outbox (see PASSWORD_RESET_EVENT). */
export async function recordPasswordResetRequest(trx: Db, email: string, now: number): Promise<void> {
  await insertEvent(trx, PASSWORD_RESET_EVENT, null, null, { email }, now);
}

/** Writes a team invitation's mail into the outbox (see TEAM_INVITATION_EVENT), never to a webhook. */
export async function recordTeamInvitation(trx: Db, data: InvitationEventData, now: number): Promise<void> {
  await insertEvent(trx, TEAM_INVITATION_EVENT, null, null, data, now);
}

// Prepared: a booking request writes one with every booking, on the hottest write path.
const insertEventRow = preparedQuery(
  (
    db,
    a: {
      public_id: string;
      type: string;
      vendor_id: number | null;
      booking_id: number | null;
      payload: string;
      created_at: number;
    },
  ) =>
    db.insertInto('notification_events').values({
      public_id: a.public_id,
      type: a.type,
      vendor_id: a.vendor_id,
      booking_id: a.booking_id,
      payload: a.payload,
      created_at: a.created_at,
    }),
  ['public_id', 'type', 'vendor_id', 'booking_id', 'payload', 'created_at'],
);

async function insertEvent(
  trx: Db,
  type: string,
  vendorId: number | null,
  bookingId: number | null,
  data: object,
  now: number,
): Promise<void> {
  const id = newEventId();
  const body: EventBody<object> = { id, type, created_at: formatDateTime(now), data };
  await insertEventRow(trx, {
    public_id: id,
    type,
    vendor_id: vendorId,
    booking_id: bookingId,
    payload: JSON.stringify(body),
    created_at: now,
  });
}
