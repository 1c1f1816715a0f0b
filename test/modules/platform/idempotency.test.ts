import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_TIMEOUT_MS, KEY_TTL_MS } from '../../../src/http/idempotency.ts';
import { MockGateway } from '../../../src/modules/payments/index.ts';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, PASSWORD, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { approvedBooking } from '../../helpers/payment-factories.ts';

// Idempotency keys on authenticated POSTs (decisions §13), on SQLite and (TEST_DATABASE_URL) PostgreSQL.

/** The mock gateway, whose next intent can be held until the test lets it go, or made to fail once. */
class ControlledGateway extends MockGateway {
  hold?: { reached: () => void; release: Promise<void> };
  failNext = false;

  /** Makes the next intent wait until `release` is called; `reached` resolves once it waits. */
  holdNextIntent(): { reached: Promise<void>; release: () => void } {
    let release!: () => void;
    const reached = new Promise<void>((resolve) => {
      this.hold = { reached: resolve, release: new Promise<void>((r) => (release = r)) };
    });
    return { reached, release };
  }

  override async createIntent() {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('gateway unreachable');
    }
    const hold = this.hold;
    this.hold = undefined;
    if (hold) {
      hold.reached();
      await hold.release;
    }
    return super.createIntent();
  }
}

let t: TestApp;
let api: Injector;
let gateway: ControlledGateway;
let vendor: Account;
let customer: Account;
let item: ListingOut;
let keyCount = 0;
const newKey = () => `key-${Date.now()}-${keyCount++}`;
const DAY = 86_400_000;
let dayOffset = 10;

/** A one-day window on the shared item that no other test uses. */
function freshWindow() {
  const starts = t.clock.now().getTime() + dayOffset++ * DAY;
  return { starts_at: new Date(starts).toISOString(), ends_at: new Date(starts + DAY).toISOString() };
}

function requestBooking(token: string, key: string | undefined, payload: unknown, url = REQUEST_URL) {
  return api({
    method: 'POST',
    url,
    token,
    headers: key === undefined ? {} : { 'idempotency-key': key },
    payload: payload as Record<string, unknown>,
  });
}
const REQUEST_URL = '/api/v1/booking/bookings/request/';

const bookingsOf = (customerId: number) =>
  t.db.selectFrom('bookings').select(['id', 'status']).where('customer_id', '=', customerId).execute();
/** A new approved booking, and a payment intent request for it that always sends one new key. */
async function keyedIntent() {
  const { bookingId, customer: payer, payments } = await approvedBooking(t);
  const key = newKey();
  const intent = () =>
    api({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      token: payer.token,
      headers: { 'idempotency-key': key },
      payload: { booking_id: bookingId },
    });
  return { intent, payments };
}

/** A new access token, issued at the clock's present time (the account's first one may have expired). */
async function tokenNow(account: Account): Promise<string> {
  const res = await api({
    method: 'POST',
    url: '/api/v1/accounts/token/',
    payload: { email: account.email, password: PASSWORD },
  });
  return res.json().access;
}
const keyRows = () => t.db.selectFrom('idempotency_keys').selectAll().execute();

beforeAll(async () => {
  gateway = new ControlledGateway(null);
  t = await buildTestApp({ gateway });
  api = injector(t.app);
  vendor = await registerVendor(t.app);
  customer = await registerCustomer(t.app);
  item = await createEquipment(t.app, vendor, { price_per_day: '45.00' });
});
afterAll(async () => {
  await t.close();
});

describe('the same key with the same request', () => {
  it('replays the first answer (status, body, header) and creates nothing more', async () => {
    const key = newKey();
    const body = { equipment_item_id: item.id, ...freshWindow() };
    const before = await countRows(t.db, 'bookings');
    const first = await requestBooking(customer.token, key, body);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json()).toMatchObject({ status: 'requested', total_price: '45.00' });

    const second = await requestBooking(customer.token, key, body);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.body).toBe(first.body);
    expect(await countRows(t.db, 'bookings')).toBe(before + 1);
    const history = await t.db
      .selectFrom('booking_status_history')
      .select('id')
      .where('booking_id', '=', first.json().id)
      .execute();
    expect(history).toHaveLength(1);
  });

  it('compares the body as a value (key order, whitespace) and the path with or without its slash', async () => {
    const key = newKey();
    const window = freshWindow();
    const first = await api({
      method: 'POST',
      url: REQUEST_URL,
      token: customer.token,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify({
        equipment_item_id: item.id,
        starts_at: window.starts_at,
        ends_at: window.ends_at,
      }),
    });
    expect(first.statusCode).toBe(201);
    const reordered = await api({
      method: 'POST',
      url: REQUEST_URL.replace(/\/$/, ''),
      token: customer.token,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
      payload: `{ "ends_at": "${window.ends_at}",\n  "starts_at": "${window.starts_at}", "equipment_item_id": ${item.id} }`,
    });
    expect(reordered.statusCode).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.json().id).toBe(first.json().id);
  });

  it('replays a transition instead of refusing it as a second one', async () => {
    const booking = await requestBooking(customer.token, undefined, {
      equipment_item_id: item.id,
      ...freshWindow(),
    });
    const key = newKey();
    const approve = () =>
      api({
        method: 'POST',
        url: `/api/v1/booking/bookings/${booking.json().id}/approve/`,
        token: vendor.token,
        headers: { 'idempotency-key': key },
        payload: { vendor_notes: 'See you at the beach' },
      });
    const first = await approve();
    expect(first.statusCode).toBe(200);
    expect(first.json().status).toBe('approved');
    const again = await approve();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.json().status_history).toHaveLength(2);
    // without the key, a second approve is the state machine's 409
    const unkeyed = await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${booking.json().id}/approve/`,
      token: vendor.token,
    });
    expect(unkeyed.statusCode).toBe(409);
  });
});

describe('the same key with another request', () => {
  it('is 422 idempotency_key_reused for another body or another path, and does nothing', async () => {
    const key = newKey();
    const body = { equipment_item_id: item.id, booking_id: 1, ...freshWindow() };
    expect((await requestBooking(customer.token, key, body)).statusCode).toBe(201);
    const before = await countRows(t.db, 'bookings');

    const otherBody = await requestBooking(customer.token, key, { ...body, ...freshWindow() });
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({
      detail: expect.stringContaining('Idempotency-Key'),
      code: 'idempotency_key_reused',
    });
    // a body both routes accept (unknown fields are ignored), so the intents route gets as far as the key
    const otherPath = await requestBooking(customer.token, key, body, '/api/v1/payment/intents/');
    expect(otherPath.statusCode).toBe(422);
    expect(otherPath.json().code).toBe('idempotency_key_reused');
    const otherQuery = await requestBooking(customer.token, key, body, `${REQUEST_URL}?x=1`);
    expect(otherQuery.statusCode).toBe(422);
    expect(await countRows(t.db, 'bookings')).toBe(before);
  });

  it('is ignored on other methods: only POSTs take a key', async () => {
    const booking = await requestBooking(customer.token, undefined, {
      equipment_item_id: item.id,
      ...freshWindow(),
    });
    const key = newKey();
    const approve = await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${booking.json().id}/approve/`,
      token: vendor.token,
      headers: { 'idempotency-key': key },
    });
    expect(approve.statusCode).toBe(200);
    const profile = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      headers: { 'idempotency-key': key },
      payload: { description: 'Kayaks since 1998' },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.headers['idempotent-replayed']).toBeUndefined();
    expect(profile.json().description).toBe('Kayaks since 1998');
  });
});

describe('a request still running', () => {
  it('makes the same key 409 idempotency_key_in_use, then replays once it has answered', async () => {
    const { intent, payments } = await keyedIntent();
    const { reached, release } = gateway.holdNextIntent();
    const first = intent();
    await reached;
    const during = await intent();
    expect(during.statusCode).toBe(409);
    expect(during.json()).toEqual({ detail: expect.any(String), code: 'idempotency_key_in_use' });
    release();
    const answered = await first;
    expect(answered.statusCode).toBe(201);
    const after = await intent();
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.body).toBe(answered.body);
    expect(await payments()).toHaveLength(1);
  });
});

describe('a request whose server never answered', () => {
  it('stops blocking the key once CLAIM_TIMEOUT_MS has passed; the next request runs in its place', async () => {
    const { intent, payments } = await keyedIntent();
    const { reached, release } = gateway.holdNextIntent();
    // the first request stalls inside its work, as if its process had died there
    const lost = intent();
    await reached;
    const start = t.clock.now().getTime();
    try {
      t.clock.set(new Date(start + CLAIM_TIMEOUT_MS - 1));
      expect((await intent()).json().code).toBe('idempotency_key_in_use');
      t.clock.set(new Date(start + CLAIM_TIMEOUT_MS));
      const successor = await intent();
      expect(successor.statusCode).toBe(201);
      expect(successor.headers['idempotent-replayed']).toBeUndefined();
      // the stalled request finishing late does not replace the answer the key now holds
      release();
      await lost;
      const replayed = await intent();
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body).toBe(successor.body);
      expect(await payments()).toHaveLength(1);
    } finally {
      t.clock.set(new Date(start));
    }
  });
});

describe('answers that are not kept', () => {
  it('a 400 (schema or service) leaves the key free for a corrected request', async () => {
    const key = newKey();
    const window = freshWindow();
    const missing = await requestBooking(customer.token, key, {
      equipment_item_id: item.id,
      ends_at: window.ends_at,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toHaveProperty('starts_at');
    const past = await requestBooking(customer.token, key, {
      equipment_item_id: item.id,
      starts_at: '2020-01-01T00:00:00Z',
      ends_at: '2020-01-02T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect(past.headers['idempotent-replayed']).toBeUndefined();
    const fixed = await requestBooking(customer.token, key, { equipment_item_id: item.id, ...window });
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(fixed.json().status).toBe('requested');
  });

  it('a 409 runs anew on retry', async () => {
    const window = freshWindow();
    const holder = await registerCustomer(t.app);
    const held = await requestBooking(holder.token, undefined, { equipment_item_id: item.id, ...window });
    expect(held.statusCode).toBe(201);
    const key = newKey();
    const body = { equipment_item_id: item.id, ...window };
    const conflict = await requestBooking(customer.token, key, body);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('booking_conflict');
    const cancel = await api({
      method: 'POST',
      url: `/api/v1/booking/bookings/${held.json().id}/cancel/`,
      token: holder.token,
    });
    expect(cancel.statusCode).toBe(200);
    const retry = await requestBooking(customer.token, key, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a 5xx runs anew on retry', async () => {
    const { intent, payments } = await keyedIntent();
    gateway.failNext = true;
    const failed = await intent();
    expect(failed.statusCode).toBe(500);
    expect(await payments()).toHaveLength(0);
    const retry = await intent();
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await payments()).toHaveLength(1);
  });
});

describe('scope and lifetime', () => {
  it("is per user: another user's same key is independent", async () => {
    const key = newKey();
    const other = await registerCustomer(t.app);
    const mine = await requestBooking(customer.token, key, { equipment_item_id: item.id, ...freshWindow() });
    const theirs = await requestBooking(other.token, key, { equipment_item_id: item.id, ...freshWindow() });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().customer_id).toBe(other.id);
    expect(await bookingsOf(other.id)).toHaveLength(1);
  });

  it('holds for 24 hours, then the key is free and expired keys are deleted', async () => {
    const clock = t.clock;
    const start = clock.now().getTime();
    const key = newKey();
    const body = { equipment_item_id: item.id, ...freshWindow() };
    const first = await requestBooking(customer.token, key, body);
    expect(first.statusCode).toBe(201);
    try {
      clock.set(new Date(start + KEY_TTL_MS - 1));
      const late = await requestBooking(await tokenNow(customer), key, body);
      expect(late.headers['idempotent-replayed']).toBe('true');
      expect(late.json().id).toBe(first.json().id);

      clock.set(new Date(start + KEY_TTL_MS));
      const other = await requestBooking(await tokenNow(customer), key, {
        equipment_item_id: item.id,
        ...freshWindow(),
      });
      expect(other.statusCode).toBe(201);
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.json().id).not.toBe(first.json().id);
      // every key of the first day has expired by now and is gone; only the new claim remains
      clock.set(new Date(start + 2 * KEY_TTL_MS));
      const later = await requestBooking(await tokenNow(customer), newKey(), {
        equipment_item_id: item.id,
        ...freshWindow(),
      });
      expect(later.statusCode).toBe(201);
      const rows = await keyRows();
      expect(rows.every((r) => r.expires_at > start + 2 * KEY_TTL_MS - 1)).toBe(true);
    } finally {
      clock.set(new Date(start));
    }
  });
});

describe('the header', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'abc\u0001def'],
    ['a non-ASCII character', 'caf\u00e9'],
  ])('is 400 on the header when %s, and nothing is created', async (_name, value) => {
    const before = await countRows(t.db, 'bookings');
    const res = await requestBooking(customer.token, value, { equipment_item_id: item.id, ...freshWindow() });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Invalid Idempotency-Key header.',
      code: 'invalid',
      errors: { 'Idempotency-Key': ['Must be 1 to 255 printable ASCII characters.'] },
    });
    expect(await countRows(t.db, 'bookings')).toBe(before);
  });

  it('takes 255 printable characters, spaces included', async () => {
    const key = `a b~${'x'.repeat(251)}`;
    const res = await requestBooking(customer.token, key, { equipment_item_id: item.id, ...freshWindow() });
    expect(res.statusCode).toBe(201);
  });

  it('changes nothing on anonymous POSTs: login, click tracking, the webhook', async () => {
    const key = newKey();
    const rowsBefore = (await keyRows()).length;
    const login = () =>
      api({
        method: 'POST',
        url: '/api/v1/accounts/token/',
        headers: { 'idempotency-key': key },
        payload: { email: customer.email, password: PASSWORD },
      });
    const logins = [await login(), await login()];
    expect(logins.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(logins.map((r) => r.headers['idempotent-replayed'])).toEqual([undefined, undefined]);

    const clicksBefore = await countRows(t.db, 'listing_clicks');
    const track = () =>
      api({
        method: 'POST',
        url: '/api/v1/marketing/track/click/',
        headers: { 'idempotency-key': key },
        payload: { listing_type: 'equipment', public_id: item.public_id },
      });
    const tracks = [await track(), await track()];
    expect(tracks.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(await countRows(t.db, 'listing_clicks')).toBe(clicksBefore + 2);

    const { intent } = await approvedBooking(t);
    const intentId = (await intent()).json().payment.gateway_payment_intent_id;
    const webhook = (eventId: string, type: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/payment/webhooks/gateway/',
        headers: { 'idempotency-key': key },
        payload: { gateway_event_id: eventId, event_type: type, gateway_payment_intent_id: intentId },
      });
    const processing = await webhook(`evt-${key}-1`, 'payment_intent.processing');
    const succeeded = await webhook(`evt-${key}-2`, 'payment_intent.succeeded');
    expect(processing.json()).toMatchObject({ applied: true, payment_status: 'processing' });
    expect(succeeded.json()).toMatchObject({ applied: true, payment_status: 'succeeded' });
    // the intent above was sent without a key; none of the anonymous requests stored one
    expect((await keyRows()).length).toBe(rowsBefore);
  });
});

describe('the OpenAPI document', () => {
  interface Operation {
    security: Record<string, string[]>[];
    parameters?: { in: string; name: string; required?: boolean }[];
    responses: Record<string, { headers?: Record<string, unknown> }>;
    'x-secret-once'?: boolean;
  }

  it('declares the header, 409 and 422 on every authenticated POST and on nothing else', async () => {
    // but on the POSTs whose answer shows a secret once (a channel's key): no key keeps that answer
    const doc = (await api({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    let keyed = 0;
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const header = operation.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
        const authenticated = operation.security.length > 0 && operation.security.every((s) => s.bearerAuth);
        if (method === 'post' && authenticated && !operation['x-secret-once']) {
          keyed++;
          expect(header, path).toMatchObject({ required: false });
          expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(['409', '422']));
          const success = Object.keys(operation.responses).find((s) => s.startsWith('2'))!;
          expect(operation.responses[success].headers, path).toHaveProperty('Idempotent-Replayed');
        } else {
          expect(header, `${method} ${path}`).toBeUndefined();
          expect(operation.responses, `${method} ${path}`).not.toHaveProperty('422');
        }
      }
    expect(keyed).toBeGreaterThan(5);
    const secretOnce = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation['x-secret-once'])
        .map(([method]) => `${method} ${path}`),
    );
    expect(secretOnce.sort()).toEqual(['post /api/v1/channels/', 'post /api/v1/channels/{id}/rotate-key/']);
  });
});
