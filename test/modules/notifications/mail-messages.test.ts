import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../../src/db/database.ts';
import type { Booking } from '../../../src/modules/booking/index.ts';
import { bookingMail, MAIL_RECIPIENTS } from '../../../src/modules/notifications/index.ts';
import { localTime } from '../../../src/modules/notifications/mail-messages.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingEvent, CUSTOMER_EMAIL, mailBooking, PUBLIC_URL, VENDOR_EMAIL } from './mail-fixtures.ts';

// The messages as pure functions of the event (the SMTP and file tests send them); the last block builds
// them from booking objects the API really returns, on the test database.

const history = (from: BookingStatus, to: BookingStatus, note = '') => ({
  from_status: from,
  to_status: to,
  note,
  actor_id: null,
  created_at: '2026-06-30T09:30:00.000Z',
});

describe('mail messages', () => {
  it('mails who decisions §14 names, for the events it names', () => {
    expect(MAIL_RECIPIENTS).toEqual({
      'booking.requested': ['customer', 'vendor'],
      'booking.approved': ['customer'],
      'booking.declined': ['customer'],
      'booking.cancelled': ['customer', 'vendor'],
      'booking.expired': ['customer'],
      'booking.confirmed': ['customer', 'vendor'],
      'payment.succeeded': [],
      'payment.failed': [],
      'payment.refunded': [],
    });
  });

  it("attaches the booking's .ics to the customer's confirmation alone, the same at every retry", () => {
    for (const [type, roles] of Object.entries(MAIL_RECIPIENTS))
      for (const role of roles) {
        const build = () =>
          bookingMail({
            event: bookingEvent(type as keyof typeof MAIL_RECIPIENTS),
            role,
            to: role === 'customer' ? CUSTOMER_EMAIL : VENDOR_EMAIL,
            publicUrl: PUBLIC_URL,
          });
        const files = build().attachments ?? [];
        const confirmation = type === 'booking.confirmed' && role === 'customer';
        expect(files.map((f) => [f.filename, f.contentType])).toEqual(
          confirmation ? [['booking-41.ics', 'text/calendar; charset=utf-8; method=PUBLISH']] : [],
        );
        // a retried delivery builds the message again from the stored event: byte for byte the same
        expect(build()).toEqual(build());
        if (confirmation) expect(files[0].content).toContain('DTSTAMP:20260630T093000Z');
      }
  });

  it("writes times on the vendor's wall clock, across a DST change and at UTC+14", () => {
    // Auckland's clocks go from 02:00 to 03:00 on 27 September 2026: one hour apart in UTC, two on the wall
    expect(localTime('2026-09-26T13:30:00.000Z', 'Pacific/Auckland')).toBe(
      'Sun 27 Sept 2026, 01:30 (Pacific/Auckland)',
    );
    expect(localTime('2026-09-26T14:30:00.000Z', 'Pacific/Auckland')).toBe(
      'Sun 27 Sept 2026, 03:30 (Pacific/Auckland)',
    );
    expect(localTime('2026-07-01T10:00:00.000Z', 'Pacific/Kiritimati')).toBe(
      'Thu 2 Jul 2026, 00:00 (Pacific/Kiritimati)',
    );
    expect(localTime('2026-07-01T10:00:00.000Z', 'America/Los_Angeles')).toBe(
      'Wed 1 Jul 2026, 03:00 (America/Los_Angeles)',
    );
  });

  it('counts participants of an adventure and units of equipment', () => {
    const tour = mailBooking({ status: 'confirmed', quantity: 1, participants_count: 3 });
    const text = bookingMail({
      event: bookingEvent('booking.confirmed', tour),
      role: 'vendor',
      to: VENDOR_EMAIL,
      publicUrl: PUBLIC_URL,
    }).text;
    expect(text).toMatch(/^Participants: +3$/m);
    expect(text).not.toMatch(/^Quantity:/m);
  });

  it('says why a booking expired when its history tells', () => {
    const expired = (from?: BookingStatus) =>
      bookingMail({
        event: bookingEvent(
          'booking.expired',
          mailBooking({
            status: 'expired',
            status_history: from ? [history(from, 'expired', 'expired')] : [],
          }),
        ),
        role: 'customer',
        to: CUSTOMER_EMAIL,
        publicUrl: PUBLIC_URL,
      }).text;
    expect(expired('requested')).toContain(
      'Tavira Boats did not answer your booking request for Double kayak in time',
    );
    expect(expired('approved')).toContain('Your booking of Double kayak was not paid in time');
    expect(expired()).toContain('Your booking of Double kayak has expired.');
    // the sweep's own note is no message of a party
    expect(expired('approved')).not.toMatch(/^Note:/m);
  });

  it("carries the vendor's note with a decline", () => {
    const declined = mailBooking({
      status: 'declined',
      expires_at: null,
      status_history: [history('requested', 'declined', 'Fully booked that week')],
    });
    const mail = bookingMail({
      event: bookingEvent('booking.declined', declined),
      role: 'customer',
      to: CUSTOMER_EMAIL,
      publicUrl: PUBLIC_URL,
    });
    expect(mail.text).toMatch(/^Note: +Fully booked that week$/m);
    expect(mail.text).not.toMatch(/^Answer|^Pay by/m);
  });
});

describe('mail messages of the booking objects the API returns', () => {
  let t: TestApp;
  let api: Injector;
  let booking: (id: number) => Promise<Booking>;
  let bookingId: number;
  let vendorToken: string;
  let customerToken: string;

  beforeAll(async () => {
    t = await buildTestApp(); // the clock starts at 2026-06-01T12:00:00Z
    api = injector(t.app);
    const vendor = await registerVendor(t.app, {
      business_name: 'Malibu Paddle Co',
      contact_email: 'desk@malibu-paddle.example',
      time_zone: 'America/Los_Angeles',
      currency: 'usd',
      request_ttl_minutes: 90,
      payment_ttl_minutes: 120,
    });
    const customer = await registerCustomer(t.app, { first_name: 'Rui', last_name: 'Costa' });
    const board = await createEquipment(t.app, vendor, {
      title: 'Paddle board',
      price_per_day: '45.00',
      quantity: 4,
    });
    const requested = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        equipment_item_id: board.id,
        quantity: 2,
        starts_at: '2026-06-10T16:00:00Z',
        ends_at: '2026-06-11T16:00:00Z',
      },
    });
    expect(requested.statusCode, requested.body).toBe(201);
    bookingId = requested.json().id;
    booking = async (id) =>
      (await api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: customer.token })).json();
    vendorToken = vendor.token;
    customerToken = customer.token;
  });
  afterAll(() => t.close());

  it('tells the vendor of a request with the answer deadline in Los Angeles time', async () => {
    const mail = bookingMail({
      event: bookingEvent('booking.requested', await booking(bookingId)),
      role: 'vendor',
      to: 'desk@malibu-paddle.example',
      publicUrl: PUBLIC_URL,
    });
    expect(mail.subject).toBe('New booking request: Paddle board');
    expect(mail.text).toContain('Rui Costa asks to book Paddle board.');
    expect(mail.text).toMatch(/^From: +Wed 10 Jun 2026, 09:00 \(America\/Los_Angeles\)$/m);
    expect(mail.text).toMatch(/^Until: +Thu 11 Jun 2026, 09:00 \(America\/Los_Angeles\)$/m);
    expect(mail.text).toMatch(/^Answer by: +Mon 1 Jun 2026, 06:30 \(America\/Los_Angeles\)$/m);
    expect(mail.text).toMatch(/^Quantity: +2$/m);
    expect(mail.text).toMatch(/^Total: +90\.00 USD$/m);
    expect(mail.text).toMatch(/^Customer: +Rui Costa, customer-.+@example\.com$/m);
    expect(mail.text).toContain(`${PUBLIC_URL}/vendor/bookings/${bookingId}`);
  });

  it('tells the customer of an approval with the payment deadline, and of a cancel with its note', async () => {
    expect(
      (
        await api({
          method: 'POST',
          url: `/api/v1/booking/bookings/${bookingId}/approve/`,
          token: vendorToken,
        })
      ).statusCode,
    ).toBe(200);
    const approved = bookingMail({
      event: bookingEvent('booking.approved', await booking(bookingId)),
      role: 'customer',
      to: CUSTOMER_EMAIL,
      publicUrl: PUBLIC_URL,
    });
    expect(approved.text).toMatch(/^Status: +approved$/m);
    expect(approved.text).toMatch(/^Pay by: +Mon 1 Jun 2026, 07:00 \(America\/Los_Angeles\)$/m);
    expect(approved.text).toMatch(/^Vendor: +Malibu Paddle Co, desk@malibu-paddle\.example$/m);

    const cancel = await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${bookingId}/cancel/`,
      token: customerToken,
      payload: { note: 'Plans changed' },
    });
    expect(cancel.statusCode).toBe(200);
    const cancelled = bookingMail({
      event: bookingEvent('booking.cancelled', await booking(bookingId)),
      role: 'customer',
      to: CUSTOMER_EMAIL,
      publicUrl: PUBLIC_URL,
    });
    expect(cancelled.text).toMatch(/^Status: +cancelled$/m);
    expect(cancelled.text).toMatch(/^Refund: +no refund$/m);
    expect(cancelled.text).toMatch(/^Note: +Plans changed$/m);
    expect(cancelled.text).toContain(`${PUBLIC_URL}/bookings/${bookingId}`);
  });
});
