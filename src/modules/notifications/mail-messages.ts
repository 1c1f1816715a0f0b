import type { EventBody, EventType, InvitationEventData } from '../../outbox/events.ts';
import { EVENT_TYPES } from '../../outbox/events.ts';
import { type Booking, bookedFor, bookedForLine, type Refund } from '../booking/index.ts';
import { bookingIcsAttachment } from './mail-calendar.ts';
import type { MailMessage } from './mailer.ts';

// The mail of each event (decisions §14) and of a password reset (§15), as pure functions of the event's
// body: the same event always gives the same message, so a retried delivery sends what the first try
// would have. Times are shown in the vendor's time zone, whoever reads them.

/** Who a booking's mail goes to; the account's own mail (a password reset) is passwordResetMail's. */
export type BookingMailRole = 'customer' | 'vendor';

/** What the messages read of the booking object in an event's data (toBooking's shape). */
export type MailBooking = Pick<
  Booking,
  | 'id'
  | 'status'
  | 'listing_title'
  | 'starts_at'
  | 'ends_at'
  | 'quantity'
  | 'participants_count'
  | 'contact'
  | 'channel'
  | 'total_price'
  | 'currency'
  | 'expires_at'
  | 'customer'
  | 'vendor'
  | 'status_history'
>;

export interface BookingEventData {
  booking: MailBooking;
  payment: object | null;
  refund: Pick<Refund, 'amount' | 'currency'> | null;
}

interface Template {
  subject(booking: MailBooking): string;
  /** the opening paragraphs */
  lead(booking: MailBooking): string[];
  /** the label of the booking's expires_at, for the events where it is a deadline the reader must meet */
  deadline?: string | ((booking: MailBooking) => string);
  /** a cancel says what it refunds */
  refund?: true;
  /** the note the party gave with the change (a decline's or a cancel's reason) */
  note?: true;
  /** the booking goes with it as an .ics file, to add to a calendar (decisions §24) */
  calendar?: true;
}

const vendorName = (b: MailBooking) => b.vendor.business_name;
const customerName = (b: MailBooking) => bookedForLine(b);
/** The channel a booking came through (decisions §24), or null. */
const viaChannel = (b: MailBooking) => bookedFor(b).via;
/** " for <contact>" once a channel's booking has its contact's name; "" before. */
const forWhom = (b: MailBooking) => {
  const { name, via } = bookedFor(b);
  return name && name !== via ? ` for ${name}` : '';
};

/** The status the booking left when it expired, if its history records the expiry. */
const expiredFrom = (b: MailBooking) =>
  b.status_history.findLast((h) => h.to_status === 'expired')?.from_status;

/** Each event's message per recipient; an event or recipient missing here gets no mail (decisions §14). */
const TEMPLATES: Record<EventType, Partial<Record<BookingMailRole, Template>>> = {
  'booking.requested': {
    customer: {
      subject: (b) => `Booking request sent: ${b.listing_title}`,
      lead: (b) => [
        `Your booking request for ${b.listing_title} has been sent to ${vendorName(b)}.`,
        'You will get an email when they approve or decline it.',
      ],
      deadline: 'Answer due by',
    },
    vendor: {
      subject: (b) => `New booking request: ${b.listing_title}`,
      // a channel's hold (decisions §24) is the channel's to confirm, not the vendor's to answer
      lead: (b) =>
        viaChannel(b)
          ? [
              `${viaChannel(b)} holds ${b.listing_title}${forWhom(b)}.`,
              'The channel confirms or releases the hold; unconfirmed, it expires at the deadline below.',
            ]
          : [
              `${customerName(b)} asks to book ${b.listing_title}.`,
              'Please approve or decline the request before the deadline below; an unanswered request expires then.',
            ],
      deadline: (b) => (viaChannel(b) ? 'Held until' : 'Answer by'),
    },
  },
  'booking.approved': {
    customer: {
      subject: (b) => `Booking approved, please pay: ${b.listing_title}`,
      lead: (b) => [
        `${vendorName(b)} approved your booking of ${b.listing_title}.`,
        'Please pay before the deadline below to confirm it; an unpaid booking expires then.',
      ],
      deadline: 'Pay by',
    },
  },
  'booking.declined': {
    customer: {
      subject: (b) => `Booking declined: ${b.listing_title}`,
      lead: (b) => [`${vendorName(b)} declined your booking request for ${b.listing_title}.`],
      note: true,
    },
  },
  'booking.cancelled': {
    customer: {
      subject: (b) => `Booking cancelled: ${b.listing_title}`,
      lead: (b) => [`Your booking of ${b.listing_title} with ${vendorName(b)} is cancelled.`],
      refund: true,
      note: true,
    },
    vendor: {
      subject: (b) => `Booking cancelled: ${b.listing_title}`,
      lead: (b) => [`The booking of ${b.listing_title} by ${customerName(b)} is cancelled.`],
      refund: true,
      note: true,
    },
  },
  'booking.expired': {
    customer: {
      subject: (b) => `Booking expired: ${b.listing_title}`,
      lead: (b) => {
        const from = expiredFrom(b);
        return [
          from === 'requested'
            ? `${vendorName(b)} did not answer your booking request for ${b.listing_title} in time, so it has expired.`
            : from === 'approved'
              ? `Your booking of ${b.listing_title} was not paid in time, so it has expired.`
              : `Your booking of ${b.listing_title} has expired.`,
          'You can request the listing again if it is still available.',
        ];
      },
    },
  },
  'booking.confirmed': {
    customer: {
      subject: (b) => `Booking confirmed: ${b.listing_title}`,
      lead: (b) => [
        `Your payment was received: your booking of ${b.listing_title} with ${vendorName(b)} is confirmed.`,
        'The attached file adds it to your calendar.',
      ],
      calendar: true,
    },
    vendor: {
      subject: (b) => `Booking confirmed: ${b.listing_title}`,
      lead: (b) => [
        viaChannel(b)
          ? `${viaChannel(b)} confirmed the booking of ${b.listing_title}${forWhom(b)} (paid to the channel).`
          : `${customerName(b)} has paid: the booking of ${b.listing_title} is confirmed.`,
      ],
    },
  },
  'payment.succeeded': {},
  'payment.failed': {},
  'payment.refunded': {},
};

/** Who gets mail for which event (decisions §14): the outbox worker makes one delivery for each. */
export const MAIL_RECIPIENTS: Record<EventType, BookingMailRole[]> = Object.fromEntries(
  EVENT_TYPES.map((type) => [
    type,
    (['customer', 'vendor'] as const).filter((role) => TEMPLATES[type][role]),
  ]),
) as Record<EventType, BookingMailRole[]>;

/** A fact of the booking, one line of the message. */
interface Fact {
  label: string;
  value: string;
}

/** Builds the message of `event` for its `role` recipient at `to`; publicUrl is the web app's origin. */
export function bookingMail(input: {
  event: EventBody<BookingEventData>;
  role: BookingMailRole;
  to: string;
  publicUrl: string;
}): MailMessage {
  const { event, role, to, publicUrl } = input;
  const template = TEMPLATES[event.type as EventType]?.[role];
  if (!template) throw new Error(`no ${role} mail for ${event.type}`);
  const booking = event.data.booking;
  const zone = booking.vendor.time_zone;
  const facts: Fact[] = [
    { label: 'Booking', value: `#${booking.id}` },
    { label: 'Status', value: booking.status },
    { label: 'Listing', value: booking.listing_title },
    role === 'customer'
      ? {
          label: 'Vendor',
          value: contact(vendorName(booking), booking.vendor.contact_email, booking.vendor.contact_phone),
        }
      : {
          label: 'Customer',
          value: contact(customerName(booking), bookedFor(booking).email, bookedFor(booking).phone),
        },
    { label: 'From', value: localTime(booking.starts_at, zone) },
    { label: 'Until', value: localTime(booking.ends_at, zone) },
    booking.participants_count === null
      ? { label: 'Quantity', value: String(booking.quantity) }
      : { label: 'Participants', value: String(booking.participants_count) },
    { label: 'Total', value: money(booking.total_price, booking.currency) },
  ];
  if (template.deadline && booking.expires_at !== null) {
    const label = typeof template.deadline === 'function' ? template.deadline(booking) : template.deadline;
    facts.push({ label, value: localTime(booking.expires_at, zone) });
  }
  if (template.refund) {
    const refund = event.data.refund;
    facts.push({ label: 'Refund', value: refund ? money(refund.amount, refund.currency) : 'no refund' });
  }
  const note = template.note
    ? booking.status_history.findLast((h) => h.to_status === booking.status)?.note
    : undefined;
  if (note) facts.push({ label: 'Note', value: note });
  const link = `${publicUrl}${role === 'customer' ? '' : '/vendor'}/bookings/${booking.id}`;
  return {
    to,
    subject: template.subject(booking),
    ...bodies(template.lead(booking), facts, { href: link, text: 'View the booking' }),
    ...(template.calendar && {
      attachments: [bookingIcsAttachment(booking, event.created_at, publicUrl)],
    }),
  };
}

/** The password reset mail (decisions §15): the link that carries the single-use `token`. */
export function passwordResetMail(input: { to: string; token: string; publicUrl: string }): MailMessage {
  const link = `${input.publicUrl}/reset-password?token=${encodeURIComponent(input.token)}`;
  return {
    to: input.to,
    subject: 'Reset your Waterbook password',
    ...bodies(
      [
        `Someone asked to reset the password of the Waterbook account ${input.to}.`,
        'To choose a new password, open the link below. It is valid for 1 hour and works once.',
        'If you did not ask for this, ignore this email: your password stays as it is.',
      ],
      [],
      { href: link, text: 'Choose a new password' },
    ),
  };
}

/** A team invitation's mail (decisions §25): the link to the join page that carries the single-use `token`. */
export function invitationMail(input: {
  invitation: InvitationEventData;
  token: string;
  publicUrl: string;
}): MailMessage {
  const { invitation } = input;
  const link = `${input.publicUrl}/join?token=${encodeURIComponent(input.token)}`;
  return {
    to: invitation.email,
    subject: `Join ${invitation.business_name} on Waterbook`,
    ...bodies(
      [
        `${invitation.invited_by} invites you to join the team of ${invitation.business_name} on Waterbook as ${invitation.role}.`,
        'To accept, open the link below and choose your name and password. It works once.',
        'If you did not expect this, ignore this email: no account is made.',
      ],
      [
        { label: 'Role', value: invitation.role },
        { label: 'Valid until', value: localTime(invitation.expires_at, invitation.time_zone) },
      ],
      { href: link, text: 'Join the team' },
    ),
  };
}

/** The plain-text and HTML parts of one content: the same paragraphs, facts and link in both. */
function bodies(
  paragraphs: string[],
  facts: Fact[],
  link: { href: string; text: string },
): Pick<MailMessage, 'text' | 'html'> {
  const width = Math.max(0, ...facts.map((f) => f.label.length)) + 2;
  const text = [
    ...paragraphs.flatMap((p) => [p, '']),
    ...(facts.length ? [...facts.map((f) => `${`${f.label}:`.padEnd(width)}${f.value}`), ''] : []),
    `${link.text}: ${link.href}`,
    '',
  ].join('\n');
  const rows = facts
    .map(
      (f) =>
        `<tr><th align="left" style="padding-right:1em">${escapeHtml(f.label)}</th><td>${escapeHtml(f.value)}</td></tr>`,
    )
    .join('\n');
  const html = [
    '<!doctype html>',
    '<html><body style="font-family:sans-serif;line-height:1.4">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(facts.length ? [`<table>\n${rows}\n</table>`] : []),
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { text, html };
}

function contact(name: string, email: string | null, phone: string | null): string {
  return [name, email, phone].filter(Boolean).join(', ');
}

/** "45.00 EUR": the API's amount and its currency, which the API writes in lower case */
const money = (amount: string, currency: string) => `${amount} ${currency.toUpperCase()}`;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** One formatter per time zone: making one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An API datetime as the vendor's wall clock, with the zone's name: "Wed 1 Jul 2026, 22:00
 * (Pacific/Auckland)". Built from the parts, so the form does not depend on a locale's punctuation.
 */
export function localTime(iso: string, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${part.weekday} ${part.day} ${part.month} ${part.year}, ${part.hour}:${part.minute} (${timeZone})`;
}
