import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/http/openapi.ts';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { type Account, PASSWORD } from '../helpers/factories.ts';
import {
  apiRoutes,
  bodyFields,
  encodedBody,
  freshTarget,
  ownedResource,
  routeName,
  sampleBody,
  sampleHeaders,
  sampleQuery,
  sampleUrl,
  UNOWNED,
} from './routes.ts';
import { buildWorld, fillPath, type Markers, type Party, pathParams, type World } from './world.ts';

// Mass assignment (read-only and foreign fields in bodies never take effect) and data exposure (no
// password hashes, no client secrets outside the paying customer's intent answer, nothing of another
// account's), over every route of the route table.

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await buildTestApp();
  w = await buildWorld(t);
}, 120_000);
afterAll(() => t?.close());

const HIJACK_TIME = '2001-01-01T00:00:00.000Z';

/** Fields a client must never be able to set; values distinctive enough to find anywhere afterwards. */
function foreignFields(w: World): Record<string, unknown> {
  return {
    id: 424242,
    vendor: { business_name: 'Hijacked Ltd', slug: 'hijacked-vendor' },
    vendor_id: w.b.vendor.profileId,
    status: 'confirmed',
    total_price: '0.01',
    price_cents: 1,
    amount: '0.01',
    amount_cents: 1,
    is_staff: true,
    is_vendor: true,
    slug: 'hijacked-slug',
    vendor_slug: 'hijacked-vendor',
    created_at: HIJACK_TIME,
    updated_at: HIJACK_TIME,
    date_joined: HIJACK_TIME,
    archived_at: HIJACK_TIME,
    customer_id: w.b.customer.id,
    user_id: w.b.customer.id,
    listing_click: w.b.clickId,
    listing_click_id: w.b.clickId,
    password_hash: '$argon2id$hijacked',
    client_secret: 'hijacked-secret',
    gateway_payment_intent_id: 'pi_hijacked',
    gateway_charge_id: 'ch_hijacked',
    booking_status: 'confirmed',
    traffic_type: 'marketing',
    source: 'hijacked',
    status_history: [{ to_status: 'confirmed' }],
  };
}

/** Every value of `key` anywhere in a JSON value. */
function valuesAt(value: unknown, key: string, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) valuesAt(item, key, found);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === key) found.push(v);
      valuesAt(v, key, found);
    }
  return found;
}

/** Rows that reference account B (by every column naming an account, listing, click or booking). */
async function rowsReferencing(party: Party): Promise<Record<string, number>> {
  const refs: [string, string, number[]][] = [
    ['bookings', 'customer_id', [party.customer.id]],
    ['bookings', 'vendor_id', [party.vendor.profileId]],
    ['bookings', 'listing_click_id', [party.clickId]],
    ['listings', 'vendor_id', [party.vendor.profileId]],
    ['availability_slots', 'vendor_id', [party.vendor.profileId]],
    ['listing_clicks', 'user_id', [party.customer.id]],
    ['listing_clicks', 'vendor_id', [party.vendor.profileId]],
    ['booking_status_history', 'actor_id', [party.customer.id, party.vendor.id]],
    ['vendor_profiles', 'user_id', [party.vendor.id]],
    ['refresh_tokens', 'user_id', [party.customer.id, party.vendor.id]],
    ['notification_endpoints', 'vendor_id', [party.vendor.profileId]],
  ];
  const counts: Record<string, number> = {};
  for (const [table, column, ids] of refs) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
      where ${sql.ref(column)} in (${sql.join(ids)})`.execute(t.db);
    counts[`${table}.${column}`] = Number(rows[0].n);
  }
  return counts;
}

/** The whole database as text, for markers that must not appear anywhere. */
async function databaseText(): Promise<string> {
  const tables = [
    'users',
    'vendor_profiles',
    'categories',
    'listings',
    'availability_slots',
    'bookings',
    'booking_status_history',
    'payments',
    'webhook_events',
    'listing_clicks',
    'notification_endpoints',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql`select * from ${sql.table(table)}`.execute(t.db);
    parts.push(JSON.stringify(rows));
  }
  return parts.join('\n');
}

/** The account a route is meant for, in world A. */
function callerFor(route: RouteEntry): Account | undefined {
  if (route.auth === 'vendor') return w.a.vendor;
  if (route.auth === 'customer' || route.auth === 'user') return w.a.customer;
  if (route.auth === 'staff') return w.staff;
  return undefined;
}

describe('mass assignment', () => {
  it('ignores read-only and foreign fields on every create and update route', async () => {
    const foreign = foreignFields(w);
    const before = await rowsReferencing(w.b);
    const failures: string[] = [];
    const tried: string[] = [];
    for (const route of apiRoutes(t.app).filter((r) => r.schema?.body)) {
      const own = new Set(bodyFields(route));
      const extra = Object.fromEntries(Object.entries(foreign).filter(([k]) => !own.has(k)));
      const account = callerFor(route);
      const id = await freshTarget(w, w.a, route);
      const request = await encodedBody({ ...extra, ...sampleBody(w, w.a, route) });
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: sampleUrl(w, w.a, route, id) + sampleQuery(w.a, route),
        headers: {
          ...sampleHeaders(route),
          ...request.headers,
          ...(account ? { authorization: `Bearer ${account.token}` } : {}),
        },
        payload: request.payload,
      });
      // the refresh samples are a dead token: refused whatever else the body holds
      if (/\/(token\/refresh|logout)\/$/.test(route.url)) {
        if (res.statusCode !== 401) failures.push(`${routeName(route)}: ${res.statusCode}`);
        continue;
      }
      // so are the reset and invitation samples' tokens
      if (/\/(password\/reset\/confirm|team\/invitations\/accept)\/$/.test(route.url)) {
        if (res.statusCode !== 400) failures.push(`${routeName(route)}: ${res.statusCode}`);
        continue;
      }
      tried.push(routeName(route));
      if (res.statusCode >= 300) {
        failures.push(`${routeName(route)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      const body = res.body ? res.json() : null;
      for (const [key, value] of Object.entries(extra)) {
        if (typeof value === 'boolean') continue; // checked in the database below
        for (const seen of valuesAt(body, key))
          if (JSON.stringify(seen) === JSON.stringify(value))
            failures.push(`${routeName(route)}: ${key} was taken`);
      }
    }
    expect(tried.length).toBeGreaterThanOrEqual(15);
    expect(failures).toEqual([]);

    // nothing anywhere carries the distinctive values
    const text = await databaseText();
    for (const marker of ['hijacked', 'Hijacked', '424242', String(Date.parse(HIJACK_TIME)), 'pi_hijacked'])
      expect(text, marker).not.toContain(marker);
    // no row came to reference account B (another vendor, customer or click)
    expect(await rowsReferencing(w.b)).toEqual(before);
    // flags: nobody became staff, no customer became a vendor
    const users = await t.db.selectFrom('users').select(['id', 'is_staff', 'is_vendor', 'email']).execute();
    expect(users.filter((u) => u.is_staff === 1).map((u) => u.id)).toEqual([w.staff.id]);
    expect(users.filter((u) => u.email.startsWith('c-')).every((u) => u.is_vendor === 0)).toBe(true);
    // prices, states and money come from the server
    const bookings = await t.db
      .selectFrom('bookings')
      .select(['status', 'total_price_cents', 'created_at'])
      .execute();
    expect(bookings.every((b) => b.total_price_cents > 1 && b.created_at > Date.parse(HIJACK_TIME))).toBe(
      true,
    );
    const payments = await t.db.selectFrom('payments').select(['amount_cents']).execute();
    expect(payments.every((p) => p.amount_cents > 1)).toBe(true);
  }, 60_000);

  it('keeps a vendor a vendor and a customer a customer, whatever the registration body says', async () => {
    const customer = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      payload: {
        email: 'flags-c@example.com',
        password: PASSWORD,
        is_vendor: true,
        is_customer: false,
        is_staff: true,
      },
    });
    expect(customer.statusCode).toBe(201);
    expect(customer.json()).toMatchObject({ is_vendor: false, is_customer: true, vendor_profile: null });
    const vendor = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accounts/register/vendor/',
      payload: {
        email: 'flags-v@example.com',
        password: PASSWORD,
        business_name: 'Flag Rentals',
        is_vendor: false,
        is_customer: true,
        slug: 'chosen-slug',
      },
    });
    expect(vendor.statusCode).toBe(201);
    expect(vendor.json()).toMatchObject({ is_vendor: true, is_customer: false });
    expect(vendor.json().vendor_profile.slug).toBe('flag-rentals');
    const staff = await t.db
      .selectFrom('users')
      .select(['email', 'is_staff'])
      .where('email', 'in', ['flags-c@example.com', 'flags-v@example.com'])
      .execute();
    expect(staff.map((u) => u.is_staff)).toEqual([0, 0]);
  });
});

describe('data exposure', () => {
  /** Every GET route, as each caller of world A (and anonymously), aimed at A's and at B's resources. */
  async function crawl(): Promise<{ route: RouteEntry; caller: string; status: number; body: string }[]> {
    const callers: [string, Account | undefined][] = [
      ['anonymous', undefined],
      ['customer A', w.a.customer],
      ['vendor A', w.a.vendor],
      ['staff', w.staff],
    ];
    const answers: { route: RouteEntry; caller: string; status: number; body: string }[] = [];
    for (const route of apiRoutes(t.app).filter((r) => r.method === 'GET')) {
      const urls = new Set<string>();
      for (const party of [w.a, w.b]) {
        let url = route.url;
        if (pathParams(route.url).length) {
          const owned = ownedResource(route.url);
          const unowned = UNOWNED.find((u) => u.match.test(route.url));
          const value = owned
            ? owned.idOf(party, route.url)
            : party === w.a
              ? unowned!.value(w, '', route.url)
              : unowned!.value({ ...w, a: w.b }, '', route.url);
          url = fillPath(route.url, Object.fromEntries(pathParams(route.url).map((p) => [p, value])));
        }
        urls.add(url + sampleQuery(party, route));
      }
      for (const url of urls)
        for (const [name, account] of callers) {
          const res = await t.app.inject({
            method: 'GET',
            url,
            headers: {
              ...sampleHeaders(route),
              ...(account ? { authorization: `Bearer ${account.token}` } : {}),
            },
          });
          answers.push({ route, caller: name, status: res.statusCode, body: res.body });
        }
    }
    return answers;
  }

  const privateValues = (m: Markers, p: Party) => ({
    ...m,
    intentId: p.intentId,
    clientSecret: p.clientSecret,
    webhookSecret: p.webhookSecret,
  });

  it("never shows account B's private data to anyone of world A, nor any password hash or client secret", async () => {
    const answers = await crawl();
    expect(answers.length).toBeGreaterThan(100);
    const leaks: string[] = [];
    const seenOwn = new Set<string>();
    for (const answer of answers) {
      const where = `${routeName(answer.route)} as ${answer.caller}`;
      for (const [name, value] of Object.entries(privateValues(w.markers.b, w.b)))
        if (answer.body.includes(value)) leaks.push(`${where}: B's ${name}`);
      for (const [name, value] of Object.entries(privateValues(w.markers.a, w.a)))
        if (answer.body.includes(value)) seenOwn.add(name);
      if (/\$argon2|"password_hash"|"password"\s*:\s*"/.test(answer.body)) leaks.push(`${where}: a password`);
      if (/"client_secret"\s*:\s*"|_secret_[A-Za-z0-9]/.test(answer.body))
        leaks.push(`${where}: a client secret`);
      // a webhook signing secret is shown only in the answer that makes it, never by a GET
      if (/whsec_/.test(answer.body)) leaks.push(`${where}: a webhook secret`);
    }
    expect(leaks).toEqual([]);
    // the crawl does reach private data: A's parties see their own
    for (const name of [
      'customerEmail',
      'vendorEmail',
      'customerNotes',
      'vendorNotes',
      'intentId',
      'webhookUrl',
      'answer',
      'waiverName',
      'userAgent',
    ])
      expect(seenOwn, name).toContain(name);
    if (apiRoutes(t.app).some((r) => /\/marketing\/vendor\/clicks\/$/.test(r.url)))
      expect(seenOwn).toContain('campaign');
  }, 60_000);

  /** The records a list answers: a page's results, or the rows of a CSV export (ids as numbers). */
  function listedRecords(res: {
    headers: Record<string, unknown>;
    body: string;
    json(): { results?: unknown };
  }) {
    if (String(res.headers['content-type']).startsWith('text/csv'))
      return (parse(res.body, { columns: true }) as Record<string, string>[]).map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [k, /_id$/.test(k) && v !== '' ? Number(v) : v]),
        ),
      );
    const { results } = res.json();
    return Array.isArray(results) ? (results as Record<string, unknown>[]) : null;
  }

  it("lists only the caller's own records on every non-public list route", async () => {
    const ownListings = new Set([w.a.equipment.id, w.a.adventure.id, w.a.slotItem.id]);
    const problems: string[] = [];
    let lists = 0;
    for (const route of apiRoutes(t.app).filter((r) => r.method === 'GET' && r.auth !== 'public')) {
      if (pathParams(route.url).length) continue;
      for (const account of [w.a.customer, w.a.vendor]) {
        const res = await t.app.inject({
          method: 'GET',
          url: route.url + sampleQuery(w.a, route),
          headers: { authorization: `Bearer ${account.token}` },
        });
        const results = res.statusCode === 200 ? listedRecords(res) : null;
        if (!results) continue;
        lists++;
        for (const item of results) {
          const where = `${routeName(route)} as ${account.email}`;
          if ('customer_id' in item && account === w.a.customer && item.customer_id !== w.a.customer.id)
            problems.push(`${where}: customer ${item.customer_id}`);
          if ('vendor_slug' in item && account === w.a.vendor && item.vendor_slug !== w.a.vendor.slug)
            problems.push(`${where}: vendor ${item.vendor_slug}`);
          for (const field of ['equipment_item_id', 'adventure_offering_id'])
            if (
              account === w.a.vendor &&
              typeof item[field] === 'number' &&
              !ownListings.has(item[field] as number)
            )
              problems.push(`${where}: ${field} ${item[field]}`);
          const vendor = item.vendor as { slug?: string } | undefined;
          if (vendor?.slug && vendor.slug !== w.a.vendor.slug)
            problems.push(`${where}: vendor ${vendor.slug}`);
        }
      }
    }
    expect(lists).toBeGreaterThanOrEqual(4);
    expect(problems).toEqual([]);
    // and the lists are complete: customer A sees both own bookings, vendor A both bookings of its listings
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/booking/bookings/?page_size=100',
      headers: { authorization: `Bearer ${w.a.customer.token}` },
    });
    const ids = (mine.json().results as { id: number }[]).map((b) => b.id);
    expect(ids).toEqual(expect.arrayContaining([w.a.bookingId, w.a.paidBookingId]));
    expect(ids).not.toContain(w.b.bookingId);
  });

  it("gives the client secret to the paying customer's intent request only", async () => {
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      headers: { authorization: `Bearer ${w.a.customer.token}` },
      payload: { booking_id: w.a.paidBookingId },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().client_secret).toBe(w.a.clientSecret);
    for (const [account, status] of [
      [w.b.customer, 404],
      [w.a.vendor, 403],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payment/intents/',
        headers: { authorization: `Bearer ${account.token}` },
        payload: { booking_id: w.a.paidBookingId },
      });
      expect(res.statusCode).toBe(status);
      expect(res.body).not.toContain(w.a.clientSecret);
    }
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/v1/payment/${w.a.paymentId}/status/`,
      headers: { authorization: `Bearer ${w.a.vendor.token}` },
    });
    expect(status.statusCode).toBe(200);
    expect(status.json().gateway_payment_intent_id).toBe(w.a.intentId);
    expect(status.body).not.toContain('secret');
  });
});
