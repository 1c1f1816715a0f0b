import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/http/json-body.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { categoryId, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { approvedBooking } from '../../helpers/payment-factories.ts';

// The one way a JSON body is read (src/http/json-body.ts): a byte-order mark is dropped, a body nested
// past MAX_JSON_DEPTH is 400 `invalid`, and the idempotency fingerprint sees the body the handler sees,
// on SQLite and (TEST_DATABASE_URL) PostgreSQL.

const BOM = '\ufeff';
const DAY = 86_400_000;

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
let item: ListingOut;
let dayOffset = 5;
let keys = 0;
const newKey = () => `body-${Date.now()}-${keys++}`;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app);
  customer = await registerCustomer(t.app);
  item = await createEquipment(t.app, vendor, { price_per_day: '45.00' });
});
afterAll(() => t.close());

function freshWindow() {
  const starts = t.clock.now().getTime() + dayOffset++ * DAY;
  return { starts_at: new Date(starts).toISOString(), ends_at: new Date(starts + DAY).toISOString() };
}

async function requestedBooking(): Promise<number> {
  const res = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: { equipment_item_id: item.id, ...freshWindow() },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** A POST with a JSON text sent as it is (a mark or deep nesting survives), with an optional key. */
function post(url: string, token: string | undefined, text: string, key?: string) {
  return api({
    method: 'POST',
    url,
    token,
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: Buffer.from(text, 'utf8'),
  });
}

const bookingStatus = async (id: number) =>
  (await t.db.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

/** `{"ignored": [[...[1]...]]}` with `levels` levels in all (the outer object is the first). */
const nestedIn = (fields: Record<string, unknown>, levels: number) => {
  const inner = `${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}`;
  return `{${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
    .join('')}"ignored":${inner}}`;
};

describe('a body that starts with a byte-order mark', () => {
  it('is the same body without it: an approve with a key succeeds, and replays for the unmarked body', async () => {
    const id = await requestedBooking();
    const url = `/api/v1/booking/bookings/${id}/approve/`;
    const key = newKey();
    const marked = await post(url, vendor.token, `${BOM}{"vendor_notes":"ok"}`, key);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().status).toBe('approved');
    expect(marked.json().vendor_notes).toBe('ok');
    expect(await bookingStatus(id)).toBe('approved');
    // the same request without the mark is the same request: replayed, not run again (which would be 409)
    const plain = await post(url, vendor.token, '{"vendor_notes":"ok"}', key);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['idempotent-replayed']).toBe('true');
    expect(plain.body).toBe(marked.body);
  });

  it('creates with a key what the unmarked body would', async () => {
    const window = freshWindow();
    const res = await post(
      '/api/v1/booking/bookings/request/',
      customer.token,
      `${BOM}${JSON.stringify({ equipment_item_id: item.id, ...window })}`,
      newKey(),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'requested',
      total_price: '45.00',
      starts_at: window.starts_at,
    });
  });
});

describe('a body nested deeper than MAX_JSON_DEPTH', () => {
  it(`is 400 invalid with or without a key, even in an ignored field, and changes nothing`, async () => {
    const id = await requestedBooking();
    const url = `/api/v1/booking/bookings/${id}/approve/`;
    for (const levels of [MAX_JSON_DEPTH + 1, 6_000, 200_000]) {
      const text = nestedIn({ vendor_notes: 'ok' }, levels);
      for (const key of [undefined, newKey()]) {
        const res = await post(url, vendor.token, text, key);
        expect(res.statusCode, `${levels} levels, key ${key}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json()).toEqual({
          detail: `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
          code: 'invalid',
          errors: { body: [`Nested more than ${MAX_JSON_DEPTH} levels deep.`] },
        });
      }
    }
    expect(await bookingStatus(id)).toBe('requested');
    // the key of a refused body stays free: the same key with an acceptable body runs
    const key = newKey();
    expect((await post(url, vendor.token, nestedIn({}, MAX_JSON_DEPTH + 1), key)).statusCode).toBe(400);
    const accepted = await post(url, vendor.token, nestedIn({ vendor_notes: 'ok' }, MAX_JSON_DEPTH), key);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status).toBe('approved');
  });

  it('is refused on public endpoints too: the webhook stores its free-form payload as JSON text', async () => {
    const { intent, payments } = await approvedBooking(t);
    const intentId = (await intent()).json().payment.gateway_payment_intent_id;
    const text = `{"gateway_event_id":"evt_deep","event_type":"payment_intent.succeeded",
      "gateway_payment_intent_id":"${intentId}","payload":${nestedIn({}, 6_000)}}`;
    const res = await post('/api/v1/payment/webhooks/gateway/', undefined, text);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('invalid');
    expect((await payments()).map((p) => p.status)).toEqual(['requires_payment']);
  });

  it('is refused in a listing whose free-form details would be stored and served deep', async () => {
    const body = {
      public_id: `deep-${Date.now()}`,
      title: 'Deep kayak',
      price_per_day: '10.00',
      category_id: await categoryId(t.app, 'kayaks'),
    };
    const res = await post(
      '/api/v1/equipment/vendor/items/',
      vendor.token,
      `{${JSON.stringify(body).slice(1, -1)},"details":${nestedIn({}, 6_000)}}`,
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual({ body: [`Nested more than ${MAX_JSON_DEPTH} levels deep.`] });
    // at the bound it is a listing like any other, details kept as sent
    const details = JSON.parse(nestedIn({ seats: 2 }, MAX_JSON_DEPTH - 1));
    const ok = await post(
      '/api/v1/equipment/vendor/items/',
      vendor.token,
      JSON.stringify({ ...body, public_id: `ok-${Date.now()}`, details }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().details).toEqual(details);
  });
});
