import {
  type EventBody,
  type InvitationEventData,
  PASSWORD_RESET_EVENT,
  TEAM_INVITATION_EVENT,
} from '../../outbox/events.ts';
import type { AttemptOutcome, DeliveryAttempt, DeliveryChannel } from './channel.ts';
import { type BookingEventData, bookingMail, invitationMail, passwordResetMail } from './mail-messages.ts';
import type { Mailer, MailMessage } from './mailer.ts';

// The email channel of the outbox worker: one attempt of one mail delivery. The message is built anew from
// the event's stored body at each attempt, so a retry sends what the first attempt would have.

/** The longest error text kept with a delivery: enough for an SMTP reply, never a whole transcript. */
const MAX_ERROR_LENGTH = 500;

export function createEmailChannel({
  mailer,
  publicUrl,
}: {
  mailer: Mailer;
  publicUrl: string;
}): DeliveryChannel {
  return {
    async send(attempt) {
      let message: MailMessage;
      try {
        message = messageOf(attempt, publicUrl);
      } catch (error) {
        return failed(null, `cannot build the message: ${errorText(error)}`);
      }
      try {
        await mailer.send(message);
        return { delivered: true, statusCode: null, error: null };
      } catch (error) {
        return failed(replyCode(error), errorText(error));
      }
    },
  };
}

/** The message of a mail delivery: whose it is (recipient_role) decides which. */
function messageOf({ delivery, event }: DeliveryAttempt, publicUrl: string): MailMessage {
  const to = delivery.recipient;
  if (!to) throw new Error('the delivery has no recipient');
  const role = delivery.recipient_role;
  if (role === 'invitee') {
    if (event.type !== TEAM_INVITATION_EVENT) throw new Error(`no invitation mail for ${event.type}`);
    if (!delivery.secret) throw new Error('the invitation token is gone (the delivery was finished)');
    const { data } = JSON.parse(event.payload) as EventBody<InvitationEventData>;
    return invitationMail({ invitation: data, token: delivery.secret, publicUrl });
  }
  if (role === 'account') {
    if (event.type !== PASSWORD_RESET_EVENT) throw new Error(`no account mail for ${event.type}`);
    if (!delivery.secret) throw new Error('the reset token is gone (the delivery was finished)');
    return passwordResetMail({ to, token: delivery.secret, publicUrl });
  }
  if (role !== 'customer' && role !== 'vendor') throw new Error(`unknown recipient role ${role}`);
  const body = JSON.parse(event.payload) as EventBody<BookingEventData>;
  return bookingMail({ event: body, role, to, publicUrl });
}

const failed = (statusCode: number | null, error: string): AttemptOutcome => ({
  delivered: false,
  statusCode,
  error: error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error,
});

/** The SMTP server's reply code, when the failure was its answer (nodemailer's responseCode). */
function replyCode(error: unknown): number | null {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' ? code : null;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
