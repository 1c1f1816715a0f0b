import { type AddressInfo, createServer } from 'node:net';
import type { AddressObject, ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmailChannel,
  createMailer,
  MAIL_RECIPIENTS,
  type Mailer,
} from '../../../src/modules/notifications/index.ts';
import type { EventType } from '../../../src/outbox/events.ts';
import {
  bookingEvent,
  CUSTOMER_EMAIL,
  LOCAL,
  mailAttempt,
  mailBooking,
  PUBLIC_URL,
  passwordResetEvent,
  startSmtpServer,
  type TestSmtpServer,
  VENDOR_EMAIL,
} from './mail-fixtures.ts';

// The email channel against a real SMTP server (smtp-server), each message read back with mailparser.

const FROM = 'Waterbook Bookings <bookings@waterbook.example>';

let smtp: TestSmtpServer;
let mailer: Mailer;
let channel: ReturnType<typeof createEmailChannel>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  mailer = createMailer({ smtpUrl: smtp.url, from: FROM, mailDir: '/nonexistent/never-written' });
  channel = createEmailChannel({ mailer, publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  mailer.close();
  await smtp.close();
});

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value);

/** Sends one attempt through the channel and returns the message the server received for it. */
async function sendAndReceive(attempt: Parameters<typeof channel.send>[0]): Promise<ParsedMail> {
  const before = smtp.received.length;
  expect(await channel.send(attempt)).toEqual({ delivered: true, statusCode: null, error: null });
  expect(smtp.received).toHaveLength(before + 1);
  const { envelopeTo, mail } = smtp.received[before];
  expect(envelopeTo).toEqual([attempt.delivery.recipient]);
  return mail;
}

const SUBJECTS: Record<string, string> = {
  'booking.requested:customer': 'Booking request sent: Double kayak',
  'booking.requested:vendor': 'New booking request: Double kayak',
  'booking.approved:customer': 'Booking approved, please pay: Double kayak',
  'booking.declined:customer': 'Booking declined: Double kayak',
  'booking.cancelled:customer': 'Booking cancelled: Double kayak',
  'booking.cancelled:vendor': 'Booking cancelled: Double kayak',
  'booking.expired:customer': 'Booking expired: Double kayak',
  'booking.confirmed:customer': 'Booking confirmed: Double kayak',
  'booking.confirmed:vendor': 'Booking confirmed: Double kayak',
};

const kinds = Object.entries(MAIL_RECIPIENTS).flatMap(([type, roles]) =>
  roles.map((role) => ({ type: type as EventType, role })),
);

describe('email channel over SMTP', () => {
  it('has a message for every event and recipient of decisions §14, and for no other', () => {
    expect(kinds.map((k) => `${k.type}:${k.role}`).sort()).toEqual(Object.keys(SUBJECTS).sort());
  });

  it.each(kinds)(
    'sends $type to the $role with the facts in the vendor time zone',
    async ({ type, role }) => {
      const to = role === 'customer' ? CUSTOMER_EMAIL : VENDOR_EMAIL;
      const event = bookingEvent(type);
      const mail = await sendAndReceive(mailAttempt(event, role, to));
      expect(addresses(mail.to)).toEqual([{ address: to, name: '' }]);
      expect(addresses(mail.from)).toEqual([
        { address: 'bookings@waterbook.example', name: 'Waterbook Bookings' },
      ]);
      expect(mail.subject).toBe(SUBJECTS[`${type}:${role}`]);
      const link = role === 'customer' ? `${PUBLIC_URL}/bookings/41` : `${PUBLIC_URL}/vendor/bookings/41`;
      const html = mail.html || '';
      for (const part of [mail.text ?? '', html]) {
        expect(part).toContain('Double kayak');
        expect(part).toContain('#41');
        expect(part).toContain(LOCAL.startsAt);
        expect(part).toContain(LOCAL.endsAt);
        expect(part).toContain('90.00 NZD');
        expect(part).toContain(link);
      }
      expect(mail.text).toMatch(/^Quantity: +2$/m);
      expect(mail.text).toMatch(new RegExp(`^Status: +${event.data.booking.status}$`, 'm'));
      expect(html).toContain(`<a href="${link}">View the booking</a>`);
      // the other party is named, with the ways to reach them
      if (role === 'customer')
        expect(mail.text).toMatch(
          /^Vendor: +Tavira Boats, bookings@tavira-boats\.example, \+64 9 555 0199$/m,
        );
      else expect(mail.text).toMatch(/^Customer: +Ana Silva, ana\.silva@example\.com, \+64 21 555 0101$/m);
      expect(smtp.logins.at(-1)).toEqual({ username: 'mailer', password: 'mail-password' });
    },
  );

  it('gives the customer the payment deadline of an approval, the vendor the answer deadline of a request', async () => {
    const approved = await sendAndReceive(
      mailAttempt(
        bookingEvent('booking.approved', mailBooking({ status: 'approved' })),
        'customer',
        CUSTOMER_EMAIL,
      ),
    );
    expect(approved.text).toMatch(new RegExp(`^Pay by: +${escapeRegExp(LOCAL.expiresAt)}$`, 'm'));
    expect(approved.html).toContain(
      `<th align="left" style="padding-right:1em">Pay by</th><td>${LOCAL.expiresAt}</td>`,
    );
    expect(approved.text).toContain('Please pay before the deadline below');

    const requested = await sendAndReceive(
      mailAttempt(bookingEvent('booking.requested'), 'vendor', VENDOR_EMAIL),
    );
    expect(requested.text).toMatch(new RegExp(`^Answer by: +${escapeRegExp(LOCAL.expiresAt)}$`, 'm'));
    expect(requested.text).toContain('Ana Silva asks to book Double kayak.');
  });

  it("tells both parties of a cancel what it refunds, with the party's note", async () => {
    const cancelled = mailBooking({
      status: 'cancelled',
      expires_at: null,
      status_history: [
        {
          from_status: 'requested',
          to_status: 'approved',
          note: '',
          actor_id: 3,
          created_at: '2026-06-30T09:00:00.000Z',
        },
        {
          from_status: 'approved',
          to_status: 'confirmed',
          note: '',
          actor_id: null,
          created_at: '2026-06-30T09:10:00.000Z',
        },
        {
          from_status: 'confirmed',
          to_status: 'cancelled',
          note: 'Storm warning',
          actor_id: 3,
          created_at: '2026-06-30T09:30:00.000Z',
        },
      ],
    });
    const refund = {
      id: 5,
      payment_id: 9,
      amount: '45.00',
      currency: 'nzd',
      reason: 'requested_by_customer' as const,
      status: 'succeeded' as const,
      created_at: '2026-06-30T09:30:00.000Z',
      updated_at: '2026-06-30T09:30:00.000Z',
    };
    for (const [role, to] of [
      ['customer', CUSTOMER_EMAIL],
      ['vendor', VENDOR_EMAIL],
    ] as const) {
      const mail = await sendAndReceive(
        mailAttempt(bookingEvent('booking.cancelled', cancelled, { refund }), role, to),
      );
      expect(mail.text).toMatch(/^Refund: +45\.00 NZD$/m);
      expect(mail.text).toMatch(/^Note: +Storm warning$/m);
      expect(mail.html).toContain('<td>45.00 NZD</td>');
    }
    const unpaid = await sendAndReceive(
      mailAttempt(
        bookingEvent('booking.cancelled', mailBooking({ status: 'cancelled' })),
        'customer',
        CUSTOMER_EMAIL,
      ),
    );
    expect(unpaid.text).toMatch(/^Refund: +no refund$/m);
    expect(unpaid.text).not.toMatch(/^Note:/m);
  });

  it('escapes every value in the HTML part and keeps it as written in the text part', async () => {
    const title = '<script>alert("x")</script> & Co';
    const mail = await sendAndReceive(
      mailAttempt(
        bookingEvent('booking.confirmed', mailBooking({ listing_title: title })),
        'customer',
        CUSTOMER_EMAIL,
      ),
    );
    expect(mail.subject).toBe(`Booking confirmed: ${title}`);
    expect(mail.text).toContain(title);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
  });

  it('sends the password reset link with its token, valid for 1 hour', async () => {
    const token = 'Zm9vYmFy-token_with+chars/=';
    const mail = await sendAndReceive(
      mailAttempt(passwordResetEvent(CUSTOMER_EMAIL), 'account', CUSTOMER_EMAIL, token),
    );
    const link = `${PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}`;
    expect(mail.subject).toBe('Reset your Waterbook password');
    expect(addresses(mail.to)).toEqual([{ address: CUSTOMER_EMAIL, name: '' }]);
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('valid for 1 hour');
    expect(mail.text).toContain('If you did not ask for this, ignore this email');
    expect(mail.html).toContain(`<a href="${link}">Choose a new password</a>`);
    expect(new URL(link).searchParams.get('token')).toBe(token);
  });

  it('reports the SMTP reply of a refused recipient, without throwing', async () => {
    const refusing = await startSmtpServer({ rejectRecipient: true });
    const refusingMailer = createMailer({ smtpUrl: refusing.url, from: FROM, mailDir: '/nonexistent' });
    try {
      const outcome = await createEmailChannel({ mailer: refusingMailer, publicUrl: PUBLIC_URL }).send(
        mailAttempt(bookingEvent('booking.approved'), 'customer', CUSTOMER_EMAIL),
      );
      expect(outcome.delivered).toBe(false);
      expect(outcome.statusCode).toBe(550);
      expect(outcome.error).toContain('mailbox unavailable');
      expect(refusing.received).toEqual([]);
    } finally {
      refusingMailer.close();
      await refusing.close();
    }
  });

  it('reports a mail server that is down as a connection error, without throwing', async () => {
    const port = await freePort();
    const downMailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: FROM,
      mailDir: '/nonexistent',
    });
    try {
      const outcome = await createEmailChannel({ mailer: downMailer, publicUrl: PUBLIC_URL }).send(
        mailAttempt(bookingEvent('booking.approved'), 'customer', CUSTOMER_EMAIL),
      );
      expect(outcome).toMatchObject({ delivered: false, statusCode: null });
      expect(outcome.error).toMatch(/ECONNREFUSED/);
    } finally {
      downMailer.close();
    }
  });

  it('gives up on a mail server that never answers within the send timeout', async () => {
    // a listener that accepts the connection and never sends the SMTP greeting
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const slowMailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: FROM,
      mailDir: '/nonexistent',
      sendTimeoutMs: 300,
    });
    try {
      const started = Date.now();
      const outcome = await createEmailChannel({ mailer: slowMailer, publicUrl: PUBLIC_URL }).send(
        mailAttempt(bookingEvent('booking.approved'), 'customer', CUSTOMER_EMAIL),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(outcome).toMatchObject({ delivered: false, statusCode: null });
      // whichever bound fires first: nodemailer's greeting timeout or the whole send's
      expect(outcome.error).toMatch(/timeout|timed out|aborted|greeting never received/i);
    } finally {
      slowMailer.close();
      silent.close();
    }
  });

  it('reports a delivery it has no message for as not delivered, sending nothing', async () => {
    const before = smtp.received.length;
    const cases = [
      [
        mailAttempt(bookingEvent('payment.succeeded'), 'customer', CUSTOMER_EMAIL),
        'no customer mail for payment.succeeded',
      ],
      [
        mailAttempt(bookingEvent('booking.approved'), 'vendor', VENDOR_EMAIL),
        'no vendor mail for booking.approved',
      ],
      [
        mailAttempt(passwordResetEvent(CUSTOMER_EMAIL), 'account', CUSTOMER_EMAIL, null),
        'the reset token is gone',
      ],
      [
        mailAttempt(bookingEvent('booking.approved'), 'account', CUSTOMER_EMAIL, 'token'),
        'no account mail for booking.approved',
      ],
    ] as const;
    for (const [attempt, error] of cases) {
      const outcome = await channel.send(attempt);
      expect(outcome).toMatchObject({ delivered: false, statusCode: null });
      expect(outcome.error).toContain(error);
    }
    expect(smtp.received).toHaveLength(before);
  });
});

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A port nothing listens on: bound once by the system's choice, then closed again. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
