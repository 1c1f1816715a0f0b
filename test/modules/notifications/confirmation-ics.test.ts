import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { parseCalendar } from '../../helpers/ical.ts';
import { bookedFixture } from '../../helpers/refund-factories.ts';
import { mailingEnv, startSmtpServer, type TestSmtpServer } from './mail-fixtures.ts';

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
    env: mailingEnv(smtp),
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
    // paid through the API and the gateway's webhook: the customer Ana Silva, one Sea kayak for a day
    const { bookingId, customer, startsAt } = await bookedFixture(t, { vendor });
    await t.app.outbox.runOnce();

    const mails = smtp.received.map(({ envelopeTo, mail }) => ({
      to: envelopeTo[0],
      subject: mail.subject,
      files: mail.attachments.map((a) => a.filename),
    }));
    expect(mails.filter((m) => m.files.length > 0)).toEqual([
      { to: customer.email, subject: 'Booking confirmed: Sea kayak', files: [`booking-${bookingId}.ics`] },
    ]);
    expect(mails.map((m) => m.subject)).toContain('Booking confirmed: Sea kayak');

    const confirmation = smtp.received.find(
      (r) => r.envelopeTo[0] === customer.email && r.mail.subject === 'Booking confirmed: Sea kayak',
    );
    const [file] = confirmation?.mail.attachments ?? [];
    expect(file.contentType).toBe('text/calendar');
    expect(confirmation?.mail.text).toContain('The attached file adds it to your calendar.');
    const attached = parseCalendar(file.content.toString('utf8'));
    expect(attached).toMatchObject({ method: 'PUBLISH', name: 'Tavira Boats' });
    expect(attached.events).toEqual([
      {
        uid: `booking-${bookingId}@book.example`,
        start: new Date(startsAt).toISOString(),
        end: new Date(startsAt + 24 * HOUR).toISOString(),
        utc: true,
        summary: 'Sea kayak — Ana Silva, 1 unit',
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
