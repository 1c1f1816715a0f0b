import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, PASSWORD, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { createEndpoint } from '../../helpers/notification-factories.ts';
import { mailingEnv, startSmtpServer, type TestSmtpServer } from './mail-fixtures.ts';

// Notifications end to end through the app as it is wired (decisions §14, §15): API changes write events,
// the app's own outbox worker (app.outbox) fans them out and delivers them to a real HTTP receiver,
// verified with the reference Standard Webhooks implementation, and to a real SMTP server; a password
// reset's token travels only by mail. /metrics reports the attempts.

const HOUR = 3_600_000;

interface Hook {
  url: string;
  requests: { headers: Record<string, string>; body: string }[];
  status: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Hook> {
  const hook = { requests: [] as Hook['requests'], status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hook.requests.push({
        headers: {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        },
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(hook.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(hook, {
    url: `http://127.0.0.1:${port}/waterbook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

let t: TestApp;
let smtp: TestSmtpServer;
let hook: Hook;
let api: Injector;

beforeEach(async () => {
  smtp = await startSmtpServer();
  hook = await startReceiver();
  t = await buildTestApp({
    // the receiver checks webhook-timestamp against its own clock
    clock: new ManualClock(new Date()),
    env: { ...mailingEnv(smtp), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
  });
  api = injector(t.app);
});
afterEach(async () => {
  await t.close();
  await hook.close();
  await smtp.close();
});

const mailTo = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address));

async function requestBooking(vendor: Account, customer: Account) {
  const item = await createEquipment(t.app, vendor, { title: 'Sunset kayak', price_per_day: '60.00' });
  const starts = t.clock.now().getTime() + 72 * HOUR;
  const res = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: {
      equipment_item_id: item.id,
      starts_at: new Date(starts).toISOString(),
      ends_at: new Date(starts + 24 * HOUR).toISOString(),
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
}

describe('a booking notifies by webhook and mail', () => {
  it('requested and approved reach the endpoint signed, and both parties by mail', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const endpoint = await createEndpoint(t.app, vendor, {
      url: hook.url,
      event_types: ['booking.requested', 'booking.approved'],
    });
    const bookingId = await requestBooking(vendor, customer);
    await t.app.outbox.runOnce();

    expect(hook.requests).toHaveLength(1);
    const [first] = hook.requests;
    const verified = new Webhook(endpoint.secret).verify(first.body, first.headers) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({ id: first.headers['webhook-id'], type: 'booking.requested' });
    const booking = (verified.data as { booking: Record<string, unknown> }).booking;
    expect(booking).toMatchObject({ id: bookingId, status: 'requested', total_price: '60.00' });

    expect(mailTo(customer.email).map((m) => m.mail.subject)).toEqual(['Booking request sent: Sunset kayak']);
    const [vendorMail] = mailTo(vendor.email);
    expect(vendorMail.mail.subject).toBe('New booking request: Sunset kayak');
    expect(vendorMail.mail.text).toContain(`https://book.example/vendor/bookings/${bookingId}`);

    await api({ method: 'POST', url: `/api/v1/booking/bookings/${bookingId}/approve/`, token: vendor.token });
    await t.app.outbox.runOnce();
    expect(hook.requests).toHaveLength(2);
    const approved = JSON.parse(hook.requests[1].body);
    expect(approved.type).toBe('booking.approved');
    expect(approved.data.booking.status).toBe('approved');
    const [approvedMail] = mailTo(customer.email).slice(1);
    expect(approvedMail.mail.subject).toBe('Booking approved, please pay: Sunset kayak');
    expect(approvedMail.mail.text).toContain(`https://book.example/bookings/${bookingId}`);

    // the delivery log shows both, newest first, delivered at the first attempt
    const log = await api({
      method: 'GET',
      url: `/api/v1/notifications/endpoints/${endpoint.id}/deliveries/`,
      token: vendor.token,
    });
    expect(
      log.json().results.map((d: Record<string, unknown>) => [d.event_type, d.status, d.attempts]),
    ).toEqual([
      ['booking.approved', 'succeeded', 1],
      ['booking.requested', 'succeeded', 1],
    ]);
  });

  it('/metrics counts attempts and failures by endpoint and shows what waits', async () => {
    const vendor = await registerVendor(t.app);
    const customer = await registerCustomer(t.app);
    const endpoint = await createEndpoint(t.app, vendor, { url: hook.url, event_types: ['*'] });
    hook.status = 500;
    await requestBooking(vendor, customer);
    const waiting = (await api({ method: 'GET', url: '/metrics' })).body;
    expect(waiting).toContain('notification_outbox_depth{kind="events"} 1');
    await t.app.outbox.runOnce();
    const metrics = (await api({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain(
      `notification_delivery_attempts_total{channel="webhook",endpoint="${endpoint.id}"} 1`,
    );
    expect(metrics).toContain(
      `notification_delivery_failures_total{channel="webhook",endpoint="${endpoint.id}"} 1`,
    );
    expect(metrics).toContain('notification_delivery_attempts_total{channel="email",endpoint="mail"} 2');
    expect(metrics).not.toContain('notification_delivery_failures_total{channel="email"');
    // the failed webhook waits for its retry; the mail is done
    expect(metrics).toContain('notification_outbox_depth{kind="events"} 0');
    expect(metrics).toContain('notification_outbox_depth{kind="deliveries"} 1');
  });
});

describe('a password reset by mail', () => {
  it('mails a single-use link to an existing account, and nothing for an unknown address', async () => {
    const customer = await registerCustomer(t.app);
    for (const email of [customer.email, 'nobody-here@example.com']) {
      const asked = await api({
        method: 'POST',
        url: '/api/v1/accounts/password/reset/',
        payload: { email },
      });
      expect(asked.statusCode).toBe(202);
    }
    await t.app.outbox.runOnce();
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([[customer.email]]);
    const link = /https:\/\/book\.example\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(
      smtp.received[0].mail.text ?? '',
    );
    expect(link).not.toBeNull();
    const token = decodeURIComponent((link as RegExpExecArray)[1]);
    // the token is kept nowhere in clear once its mail is sent
    const delivery = await t.db
      .selectFrom('notification_deliveries')
      .select(['secret', 'status'])
      .where('recipient_role', '=', 'account')
      .executeTakeFirstOrThrow();
    expect(delivery).toEqual({ secret: null, status: 'succeeded' });

    const confirm = () =>
      api({
        method: 'POST',
        url: '/api/v1/accounts/password/reset/confirm/',
        payload: { token, new_password: 'Harbour-Light-2031!' },
      });
    expect((await confirm()).statusCode).toBe(204);
    expect((await confirm()).statusCode).toBe(400);
    const login = (password: string) =>
      api({ method: 'POST', url: '/api/v1/accounts/token/', payload: { email: customer.email, password } });
    expect((await login('Harbour-Light-2031!')).statusCode).toBe(200);
    expect((await login(PASSWORD)).statusCode).toBe(401);
  });
});
