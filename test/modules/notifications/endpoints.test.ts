import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  createEndpoint,
  insertWebhookDelivery,
  PUBLIC_HOOK_URL,
} from '../../helpers/notification-factories.ts';

const ENDPOINTS = '/api/v1/notifications/endpoints/';
const HOUR = 3_600_000;

/** Names the tests resolve: a public one, one pointing home, and one with a private address among public ones. */
const DNS: Record<string, { address: string; family: number }[]> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'home.example.com': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.1.2.3', family: 4 },
  ],
  'v6.example.com': [{ address: 'fe80::1', family: 6 }],
};
const resolveHost = async (hostname: string) => {
  const found = DNS[hostname];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};

let t: TestApp;
let api: Injector;
let vendor: Account;
let other: Account;
let customer: Account;

beforeAll(async () => {
  t = await buildTestApp({ resolveHost });
  api = injector(t.app);
  vendor = await registerVendor(t.app);
  other = await registerVendor(t.app);
  customer = await registerCustomer(t.app);
});
afterAll(() => t.close());

const secretKeyBytes = (secret: string) => Buffer.from(secret.slice('whsec_'.length), 'base64').length;

describe('webhook endpoints CRUD', () => {
  it('creates an endpoint, shows its secret once, and lists, gets, patches and deletes it', async () => {
    const created = await api({
      method: 'POST',
      url: ENDPOINTS,
      token: vendor.token,
      payload: {
        url: 'https://hooks.example.com/waterbook',
        event_types: ['booking.requested', 'payment.succeeded'],
        description: '  Booking desk  ',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    const now = t.clock.now().toISOString();
    expect(body).toEqual({
      id: expect.any(Number),
      url: 'https://hooks.example.com/waterbook',
      description: 'Booking desk',
      event_types: ['booking.requested', 'payment.succeeded'],
      is_active: true,
      created_at: now,
      updated_at: now,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(secretKeyBytes(body.secret)).toBeGreaterThanOrEqual(24);

    const { secret: _secret, ...shown } = body;
    const got = await api({ method: 'GET', url: `${ENDPOINTS}${body.id}/`, token: vendor.token });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(shown);
    expect(got.body).not.toContain(body.secret);

    const list = await api({ method: 'GET', url: ENDPOINTS, token: vendor.token });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ count: 1, next: null, previous: null, results: [shown] });
    expect(list.body).not.toContain('whsec_');

    t.clock.advance(60_000);
    const patched = await api({
      method: 'PATCH',
      url: `${ENDPOINTS}${body.id}/`,
      token: vendor.token,
      payload: { event_types: ['*'], is_active: false, description: 'Desk' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toEqual({
      ...shown,
      event_types: ['*'],
      is_active: false,
      description: 'Desk',
      updated_at: t.clock.now().toISOString(),
    });

    // re-enabled (as after a 410), and the URL changed to another public host
    const enabled = await api({
      method: 'PATCH',
      url: `${ENDPOINTS}${body.id}/`,
      token: vendor.token,
      payload: { is_active: true, url: 'https://93.184.215.15/other' },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({ is_active: true, url: 'https://93.184.215.15/other' });

    await insertWebhookDelivery(t.db, body.id, { createdAt: t.clock.now().getTime() });
    const deliveriesBefore = await countRows(t.db, 'notification_deliveries');
    const deleted = await api({ method: 'DELETE', url: `${ENDPOINTS}${body.id}/`, token: vendor.token });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await countRows(t.db, 'notification_deliveries')).toBe(deliveriesBefore - 1);
    const gone = await api({ method: 'GET', url: `${ENDPOINTS}${body.id}/`, token: vendor.token });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('not_found');
  });

  it('lists newest first, paginated, and only the caller’s own', async () => {
    const owner = await registerVendor(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await createEndpoint(t.app, owner, { description: `n${i}` })).id);
      t.clock.advance(1000);
    }
    await createEndpoint(t.app, other);
    const page1 = await api({ method: 'GET', url: `${ENDPOINTS}?page_size=2`, token: owner.token });
    expect(page1.json().count).toBe(3);
    expect(page1.json().results.map((e: { id: number }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page1.json().next).toMatch(/page=2/);
    const page2 = await api({ method: 'GET', url: `${ENDPOINTS}?page_size=2&page=2`, token: owner.token });
    expect(page2.json().results.map((e: { id: number }) => e.id)).toEqual([ids[0]]);
  });

  it('answers 404 for another vendor’s endpoint on every route, and changes nothing', async () => {
    const endpoint = await createEndpoint(t.app, vendor, { description: 'mine' });
    const { deliveryId } = await insertWebhookDelivery(t.db, endpoint.id, {
      createdAt: t.clock.now().getTime(),
    });
    const requests = [
      { method: 'GET' as const, url: `${ENDPOINTS}${endpoint.id}/` },
      { method: 'PATCH' as const, url: `${ENDPOINTS}${endpoint.id}/`, payload: { description: 'theirs' } },
      { method: 'PATCH' as const, url: `${ENDPOINTS}${endpoint.id}/`, payload: { url: 'http://127.0.0.1/' } },
      { method: 'DELETE' as const, url: `${ENDPOINTS}${endpoint.id}/` },
      { method: 'POST' as const, url: `${ENDPOINTS}${endpoint.id}/rotate-secret/` },
      { method: 'GET' as const, url: `${ENDPOINTS}${endpoint.id}/deliveries/` },
      { method: 'POST' as const, url: `/api/v1/notifications/deliveries/${deliveryId}/redeliver/` },
    ];
    const deliveries = await countRows(t.db, 'notification_deliveries');
    for (const request of requests) {
      const res = await api({ ...request, token: other.token });
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    const row = await t.db
      .selectFrom('notification_endpoints')
      .selectAll()
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.description).toBe('mine');
    expect(row.secret).toBe(endpoint.secret);
    expect(await countRows(t.db, 'notification_deliveries')).toBe(deliveries);
  });

  it('answers 403 to a customer and 401 without a token', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await api({
        method,
        url: ENDPOINTS,
        token: customer.token,
        payload: method === 'POST' ? { url: PUBLIC_HOOK_URL, event_types: ['*'] } : undefined,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('permission_denied');
    }
    expect((await api({ method: 'GET', url: ENDPOINTS })).statusCode).toBe(401);
  });
});

describe('endpoint validation', () => {
  const create = (payload: Record<string, unknown>) =>
    api({
      method: 'POST',
      url: ENDPOINTS,
      token: vendor.token,
      payload: { url: PUBLIC_HOOK_URL, event_types: ['*'], ...payload },
    });

  it('refuses URLs that are not http(s), not URLs, too long or carry credentials (400 on url)', async () => {
    const before = await countRows(t.db, 'notification_endpoints');
    for (const url of [
      'ftp://hooks.example.com/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
      'hooks.example.com/path',
      'https://user:pass@hooks.example.com/',
      'https://user@hooks.example.com/',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
      'https://unknown.invalid/',
    ]) {
      const res = await create({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('invalid');
      expect(Object.keys(res.json().errors), url).toEqual(['url']);
    }
    expect(await countRows(t.db, 'notification_endpoints')).toBe(before);
  });

  it('refuses bad event type lists (400 on event_types)', async () => {
    const cases: [unknown, RegExp][] = [
      [[], /at least one/],
      [['booking.nope'], /"booking.nope" is not an event type/],
      [['*', 'booking.requested'], /"\*" must be the only entry/],
      [['booking.requested', 'booking.requested'], /listed more than once/],
      [['*', '*'], /listed more than once/],
      [['account.password_reset_requested'], /is not an event type/],
      ['booking.requested', /./],
    ];
    for (const [event_types, message] of cases) {
      const res = await create({ event_types });
      expect(res.statusCode, JSON.stringify(event_types)).toBe(400);
      expect(res.json().errors.event_types.join(' '), JSON.stringify(event_types)).toMatch(message);
    }
    const missing = await api({
      method: 'POST',
      url: ENDPOINTS,
      token: vendor.token,
      payload: { url: PUBLIC_HOOK_URL },
    });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors)).toEqual(['event_types']);
  });

  it('refuses a description over 500 characters (400 on description)', async () => {
    const res = await create({ description: 'x'.repeat(501) });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['description']);
    expect((await create({ description: 'x'.repeat(500) })).statusCode).toBe(201);
  });

  it('accepts every event type, and ["*"]', async () => {
    const all = [
      'booking.requested',
      'booking.approved',
      'booking.declined',
      'booking.cancelled',
      'booking.expired',
      'booking.confirmed',
      'payment.succeeded',
      'payment.failed',
      'payment.refunded',
    ];
    const res = await create({ event_types: all });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().event_types).toEqual(all);
  });
});

describe('SSRF guard of the endpoints API', () => {
  const NON_PUBLIC: [string, RegExp][] = [
    ['http://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://10.0.0.1/hook', /10\.0\.0\.1 is a private address/],
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
    ['http://[::1]/hook', /::1 is a loopback address/],
    ['http://0.0.0.0/hook', /0\.0\.0\.0 is an unspecified address/],
    ['http://[::ffff:127.0.0.1]/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://[::ffff:a9fe:a9fe]/hook', /169\.254\.169\.254 is a link-local address/],
    ['http://192.168.1.20:8080/hook', /private/],
    ['http://172.16.0.1/hook', /private/],
    ['http://100.64.0.1/hook', /carrier-grade NAT/],
    ['http://2130706433/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f.1/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://[fd00::1]/hook', /unique-local/],
    ['http://home.example.com/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://mixed.example.com/hook', /10\.1\.2\.3 is a private address/],
    ['http://v6.example.com/hook', /fe80::1 is a link-local address/],
  ];

  it('refuses hosts that are or resolve to non-public addresses, with 400 on url', async () => {
    const before = await countRows(t.db, 'notification_endpoints');
    for (const [url, message] of NON_PUBLIC) {
      const res = await api({
        method: 'POST',
        url: ENDPOINTS,
        token: vendor.token,
        payload: { url, event_types: ['*'] },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.url.join(' '), url).toMatch(message);
    }
    expect(await countRows(t.db, 'notification_endpoints')).toBe(before);
  });

  it('refuses such a URL on update too', async () => {
    const endpoint = await createEndpoint(t.app, vendor, { url: 'https://hooks.example.com/ok' });
    for (const url of ['http://127.0.0.1/', 'http://home.example.com/']) {
      const res = await api({
        method: 'PATCH',
        url: `${ENDPOINTS}${endpoint.id}/`,
        token: vendor.token,
        payload: { url },
      });
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['url']);
    }
    const got = await api({ method: 'GET', url: `${ENDPOINTS}${endpoint.id}/`, token: vendor.token });
    expect(got.json().url).toBe('https://hooks.example.com/ok');
  });

  it('accepts them all, and names it cannot resolve, with WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    const local = await buildTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, resolveHost });
    try {
      const owner = await registerVendor(local.app);
      for (const url of [...NON_PUBLIC.map(([url]) => url), 'http://receiver.invalid:8080/hook']) {
        const endpoint = await createEndpoint(local.app, owner, { url });
        expect(endpoint.url).toBe(url);
      }
    } finally {
      await local.close();
    }
  });
});

describe('secret rotation', () => {
  it('gives a new secret in a 201 and keeps the old one signing for 24 hours', async () => {
    const endpoint = await createEndpoint(t.app, vendor);
    t.clock.advance(5000);
    const res = await api({
      method: 'POST',
      url: `${ENDPOINTS}${endpoint.id}/rotate-secret/`,
      token: vendor.token,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { secret, ...shown } = res.json();
    expect(secret).toMatch(/^whsec_/);
    expect(secretKeyBytes(secret)).toBeGreaterThanOrEqual(24);
    expect(secret).not.toBe(endpoint.secret);
    expect(shown).toEqual({
      id: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      event_types: endpoint.event_types,
      is_active: true,
      created_at: endpoint.created_at,
      updated_at: t.clock.now().toISOString(),
    });
    const row = await t.db
      .selectFrom('notification_endpoints')
      .selectAll()
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toBe(secret);
    expect(row.previous_secret).toBe(endpoint.secret);
    expect(row.previous_secret_expires_at).toBe(t.clock.now().getTime() + 24 * HOUR);
    const got = await api({ method: 'GET', url: `${ENDPOINTS}${endpoint.id}/`, token: vendor.token });
    expect(got.body).not.toContain('whsec_');
  });
});

describe('delivery log and redelivery', () => {
  it('lists an endpoint’s webhook deliveries newest first with the §14 fields', async () => {
    const endpoint = await createEndpoint(t.app, vendor);
    const elsewhere = await createEndpoint(t.app, vendor);
    const start = t.clock.now().getTime();
    const first = await insertWebhookDelivery(t.db, endpoint.id, {
      type: 'booking.requested',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
      createdAt: start,
    });
    const second = await insertWebhookDelivery(t.db, endpoint.id, {
      type: 'payment.failed',
      status: 'pending',
      attempts: 2,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: start + HOUR,
      createdAt: start + 1000,
    });
    await insertWebhookDelivery(t.db, elsewhere.id, { createdAt: start + 2000 });

    const res = await api({
      method: 'GET',
      url: `${ENDPOINTS}${endpoint.id}/deliveries/`,
      token: vendor.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          id: second.deliveryId,
          event_id: second.publicId,
          event_type: 'payment.failed',
          status: 'pending',
          attempts: 2,
          last_status_code: 500,
          last_error: 'HTTP 500',
          next_attempt_at: new Date(start + HOUR).toISOString(),
          created_at: new Date(start + 1000).toISOString(),
          updated_at: new Date(start + 1000).toISOString(),
        },
        {
          id: first.deliveryId,
          event_id: first.publicId,
          event_type: 'booking.requested',
          status: 'succeeded',
          attempts: 1,
          last_status_code: 200,
          last_error: null,
          next_attempt_at: null,
          created_at: new Date(start).toISOString(),
          updated_at: new Date(start).toISOString(),
        },
      ],
    });
    expect(first.publicId).toMatch(/^evt_/);
  });

  it('redelivers as a new pending delivery due now (202), keeping the old one as it was', async () => {
    const endpoint = await createEndpoint(t.app, vendor);
    const original = await insertWebhookDelivery(t.db, endpoint.id, {
      type: 'booking.cancelled',
      status: 'failed',
      attempts: 8,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      nextAttemptAt: null,
      createdAt: t.clock.now().getTime(),
    });
    t.clock.advance(60_000);
    const now = t.clock.now().toISOString();
    const res = await api({
      method: 'POST',
      url: `/api/v1/notifications/deliveries/${original.deliveryId}/redeliver/`,
      token: vendor.token,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      event_id: original.publicId,
      event_type: 'booking.cancelled',
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    });
    expect(res.json().id).not.toBe(original.deliveryId);
    const row = await t.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ event_id: original.eventId, channel: 'webhook', endpoint_id: endpoint.id });

    const log = await api({
      method: 'GET',
      url: `${ENDPOINTS}${endpoint.id}/deliveries/`,
      token: vendor.token,
    });
    expect(log.json().results.map((d: { id: number; status: string }) => [d.id, d.status])).toEqual([
      [res.json().id, 'pending'],
      [original.deliveryId, 'failed'],
    ]);
  });

  it('refuses to redeliver to a disabled endpoint (409), and 404s an unknown delivery', async () => {
    const endpoint = await createEndpoint(t.app, vendor, { is_active: false });
    expect(endpoint.is_active).toBe(false);
    const { deliveryId } = await insertWebhookDelivery(t.db, endpoint.id, {
      createdAt: t.clock.now().getTime(),
    });
    const before = await countRows(t.db, 'notification_deliveries');
    const res = await api({
      method: 'POST',
      url: `/api/v1/notifications/deliveries/${deliveryId}/redeliver/`,
      token: vendor.token,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('invalid_state');
    expect(await countRows(t.db, 'notification_deliveries')).toBe(before);
    const unknown = await api({
      method: 'POST',
      url: '/api/v1/notifications/deliveries/999999/redeliver/',
      token: vendor.token,
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('does not show an endpoint’s log to its vendor’s other endpoints, nor a mail delivery anywhere', async () => {
    const endpoint = await createEndpoint(t.app, vendor);
    const { eventId } = await insertWebhookDelivery(t.db, endpoint.id, {
      createdAt: t.clock.now().getTime(),
    });
    const now = t.clock.now().getTime();
    const mail = await t.db
      .insertInto('notification_deliveries')
      .values({
        event_id: eventId,
        channel: 'email',
        endpoint_id: null,
        recipient: vendor.email,
        recipient_role: 'vendor',
        secret: null,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = await api({
      method: 'GET',
      url: `${ENDPOINTS}${endpoint.id}/deliveries/`,
      token: vendor.token,
    });
    expect(log.json().count).toBe(1);
    const redeliver = await api({
      method: 'POST',
      url: `/api/v1/notifications/deliveries/${mail.id}/redeliver/`,
      token: vendor.token,
    });
    expect(redeliver.statusCode).toBe(404);
  });
});
