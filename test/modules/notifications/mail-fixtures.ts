import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { DeliveryAttempt } from '../../../src/modules/notifications/channel.ts';
import type { BookingEventData, MailBooking } from '../../../src/modules/notifications/index.ts';
import type { EventBody, EventType } from '../../../src/outbox/events.ts';
import { PASSWORD_RESET_EVENT } from '../../../src/outbox/events.ts';

export const PUBLIC_URL = 'https://book.example';
export const CUSTOMER_EMAIL = 'ana.silva@example.com';
export const VENDOR_EMAIL = 'bookings@tavira-boats.example';

/**
 * A booking of a vendor in Pacific/Auckland (UTC+12 in July), as toBooking shows it: 10:00 UTC is 22:00 there,
 * on the next day for the end and the day before for the deadline.
 */
export function mailBooking(overrides: Partial<MailBooking> = {}): MailBooking {
  return {
    id: 41,
    status: 'requested',
    listing_title: 'Double kayak',
    starts_at: '2026-07-01T10:00:00.000Z',
    ends_at: '2026-07-02T10:00:00.000Z',
    quantity: 2,
    participants_count: null,
    total_price: '90.00',
    currency: 'nzd',
    expires_at: '2026-06-30T21:30:00.000Z',
    contact: null,
    channel: null,
    customer: {
      id: 7,
      first_name: 'Ana',
      last_name: 'Silva',
      email: CUSTOMER_EMAIL,
      phone_number: '+64 21 555 0101',
    },
    vendor: {
      business_name: 'Tavira Boats',
      slug: 'tavira-boats',
      contact_email: VENDOR_EMAIL,
      contact_phone: '+64 9 555 0199',
      time_zone: 'Pacific/Auckland',
    },
    status_history: [],
    ...overrides,
  };
}

/** The wall-clock forms of mailBooking's instants in Pacific/Auckland. */
export const LOCAL = {
  startsAt: 'Wed 1 Jul 2026, 22:00 (Pacific/Auckland)',
  endsAt: 'Thu 2 Jul 2026, 22:00 (Pacific/Auckland)',
  expiresAt: 'Wed 1 Jul 2026, 09:30 (Pacific/Auckland)',
};

/** The status a booking has in each event's data. */
const STATUS_AFTER: Record<EventType, MailBooking['status']> = {
  'booking.requested': 'requested',
  'booking.approved': 'approved',
  'booking.declined': 'declined',
  'booking.cancelled': 'cancelled',
  'booking.expired': 'expired',
  'booking.confirmed': 'confirmed',
  'payment.succeeded': 'confirmed',
  'payment.failed': 'approved',
  'payment.refunded': 'cancelled',
};

export function bookingEvent(
  type: EventType,
  booking: MailBooking = mailBooking({ status: STATUS_AFTER[type] }),
  data: Partial<Omit<BookingEventData, 'booking'>> = {},
): EventBody<BookingEventData> {
  return {
    id: 'evt_0123456789abcdef0123456789abcdef',
    type,
    created_at: '2026-06-30T09:30:00.000Z',
    data: { booking, payment: null, refund: null, ...data },
  };
}

let deliveryId = 0;

/** One attempt of a mail delivery of `event` to `to`, as the outbox worker hands it to a channel. */
export function mailAttempt(
  event: EventBody<object>,
  role: 'customer' | 'vendor' | 'account',
  to: string,
  secret: string | null = null,
): DeliveryAttempt {
  const now = Date.parse(event.created_at);
  return {
    delivery: {
      id: ++deliveryId,
      event_id: 1,
      channel: 'email',
      endpoint_id: null,
      recipient: to,
      recipient_role: role,
      secret,
      status: 'pending',
      attempts: 1,
      last_status_code: null,
      last_error: null,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    },
    event: { publicId: event.id, type: event.type, payload: JSON.stringify(event), createdAt: now },
    endpoint: null,
  };
}

export function passwordResetEvent(email: string): EventBody<object> {
  return {
    id: 'evt_fedcba9876543210fedcba9876543210',
    type: PASSWORD_RESET_EVENT,
    created_at: '2026-06-30T09:30:00.000Z',
    data: { email },
  };
}

/** The environment of an app that mails through `smtp`, its links under PUBLIC_URL. */
export const mailingEnv = (smtp: Pick<TestSmtpServer, 'url'>) => ({
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Waterbook <no-reply@waterbook.example>',
  PUBLIC_URL,
});

export interface TestSmtpServer {
  url: string;
  /** the messages received so far, parsed, with the envelope's recipients */
  received: { envelopeTo: string[]; mail: ParsedMail }[];
  /** the credentials the client logged in with */
  logins: { username: string; password: string }[];
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (a random port), plain text (no STARTTLS), accepting any login; with
 * `rejectRecipient`, every RCPT TO is refused with 550.
 */
export async function startSmtpServer(options: { rejectRecipient?: boolean } = {}): Promise<TestSmtpServer> {
  const received: TestSmtpServer['received'] = [];
  const logins: TestSmtpServer['logins'] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (!options.rejectRecipient) return callback();
      const error = Object.assign(new Error(`mailbox unavailable: ${address.address}`), {
        responseCode: 550,
      });
      callback(error);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://mailer:mail-password@127.0.0.1:${port}`,
    received,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
