import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { parseCalendar } from '../../helpers/ical.ts';
import { approveWithIntent } from '../../helpers/payment-factories.ts';
import { startSmtpServer, type TestSmtpServer } from './mail-fixtures.ts';

// The customer's confirmation mail carries the booking as an .ics file (decisions §24), end to end: a
// booking requested, approved and paid through the API, the app's outbox sending to a real SMTP server,
// the attachment read back with ical.js and compared with the vendor's calendar feed.

const HOUR = 3_600_000;

let t: TestApp;
let smtp: TestSmtpServer;
let api: Injector;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await buildTestApp({
    clock: new ManualClock('2026-07-01T09:00:00.000Z'),
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Waterbook <no-reply@waterbook.example>',
      PUBLIC_URL: 'https://book.example',
    },
  });
  api = injector(t.app);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('the confirmation mail', () => {
  it("attaches the booking as a calendar event with the feed's UID, and only to the customer's confirmation", async () => {
    const vendor = await registerVendor(t.app, { business_name: 'Tavira Boats' });
    const customer = await registerCustomer(t.app, { first_name: 'Rita', last_name: 'Sousa' });
    const item = await createEquipment(t.app, vendor, { title: 'Double kayak', price_per_day: '60.00', quantity: 4 });
    const starts = Date.parse('2026-07-04T09:00:00.000Z');
    const requested = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      token: customer.token,
      payload: {
        equipment_item_id: item.id,
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + 24 * HOUR).toISOString(),
        quantity: 2,
      },
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const bookingId: number = requested.json().id;
    const payment = await approveWithIntent(api, vendor, customer, bookingId);
    const paid = await api({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      payload: {
        gateway_event_id: 'evt_paid_1',
        event_type: 'payment_intent.succeeded',
        gateway_payment_intent_id: payment.gateway_payment_intent_id,
      },
    });
    expect(paid.statusCode).toBe(200);
    await t.app.outbox.runOnce();

    const mails = smtp.received.map(({ envelopeTo, mail }) => ({
      to: envelopeTo[0],
      subject: mail.subject,
      files: mail.attachments.map((a) => a.filename),
    }));
    expect(mails.filter((m) => m.files.length > 0)).toEqual([
      { to: customer.email, subject: 'Booking confirmed: Double kayak', files: [`booking-${bookingId}.ics`] },
    ]);
    expect(mails.map((m) => m.subject)).toContain('Booking confirmed: Double kayak');

    const confirmation = smtp.received.find(
      (r) => r.envelopeTo[0] === customer.email && r.mail.subject === 'Booking confirmed: Double kayak',
    );
    const [file] = confirmation?.mail.attachments ?? [];
    expect(file.contentType).toBe('text/calendar');
    expect(confirmation?.mail.text).toContain('The attached file adds it to your calendar.');
    const attached = parseCalendar(file.content.toString('utf8'));
    expect(attached).toMatchObject({ method: 'PUBLISH', name: 'Tavira Boats' });
    expect(attached.events).toEqual([
      {
        uid: `booking-${bookingId}@book.example`,
        start: '2026-07-04T09:00:00.000Z',
        end: '2026-07-05T09:00:00.000Z',
        utc: true,
        summary: 'Double kayak — Rita Sousa, 2 units',
        status: 'CONFIRMED',
        url: `https://book.example/bookings/${bookingId}`,
        location: null,
      },
    ]);

    // the vendor's feed shows the same event under the same UID, so a calendar holding both merges them
    const feed = await api({
      method: 'GET',
      url: '/api/v1/booking/vendor/calendar-feed/',
      token: vendor.token,
    });
    const fetched = await api({ method: 'GET', url: new URL(feed.json().url).pathname });
    const [inFeed] = parseCalendar(fetched.body).events;
    expect(inFeed).toMatchObject({
      uid: attached.events[0].uid,
      start: attached.events[0].start,
      end: attached.events[0].end,
      summary: attached.events[0].summary,
      status: 'CONFIRMED',
    });
  });
});
