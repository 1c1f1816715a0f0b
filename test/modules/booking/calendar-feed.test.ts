import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingStatus } from '../../../src/db/database.ts';
import { DAY_MS, HOUR_MS } from '../../../src/lib/datetime.ts';
import { insertListing, vendorProfileId } from '../../helpers/booking-factories.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { parseCalendar } from '../../helpers/ical.ts';
import { addTeamMember } from '../../helpers/team-factories.ts';

// The calendar feed over HTTP (decisions §24), read back with ical.js as a calendar application reads it:
// which bookings it carries at the window's edges, their UIDs, instants, statuses and summaries; the URL's
// rotation; who may see and rotate the URL.

const NOW = Date.UTC(2026, 6, 1, 12, 0);
const PUBLIC_URL = 'https://book.example';
const FEED_PATH = /^https:\/\/book\.example(\/calendar\/[A-Za-z0-9_-]{43}\.ics)$/;

let t: TestApp;
let api: Injector;
let vendor: Account;
let vendorId: number;
let customerId: number;
let tour: number;
let kayak: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  t.clock.set(new Date(NOW));
  api = injector(t.app);
  vendor = await registerVendor(t.app, { business_name: 'Tavira Boats' });
  vendorId = await vendorProfileId(t.db, vendor.id);
  customerId = (await registerCustomer(t.app, { first_name: 'Rita', last_name: 'Sousa' })).id;
  tour = await insertListing(t.db, { vendorId, kind: 'adventure', title: 'Sunset boat tour', capacity: 12 });
  kayak = await insertListing(t.db, { vendorId, kind: 'equipment', title: 'Double kayak', quantity: 5 });
});
afterAll(() => t.close());

interface BookingRow {
  listingId?: number;
  vendor?: number;
  status?: BookingStatus;
  startsAt: number;
  endsAt?: number;
  expiresAt?: number | null;
  participants?: number;
  quantity?: number;
}

async function insertBooking(b: BookingRow): Promise<number> {
  const listingId = b.listingId ?? tour;
  const adventure = listingId === tour || b.participants !== undefined;
  const row = await t.db
    .insertInto('bookings')
    .values({
      listing_id: listingId,
      listing_kind: adventure ? 'adventure' : 'equipment',
      vendor_id: b.vendor ?? vendorId,
      customer_id: customerId,
      status: b.status ?? 'confirmed',
      starts_at: b.startsAt,
      ends_at: b.endsAt ?? b.startsAt + 2 * HOUR_MS,
      expires_at: b.expiresAt ?? null,
      participants_count: adventure ? (b.participants ?? 3) : null,
      quantity: adventure ? null : (b.quantity ?? 2),
      customer_notes: '',
      vendor_notes: '',
      total_price_cents: 9000,
      currency: 'eur',
      listing_click_id: null,
      created_at: NOW - DAY_MS,
      updated_at: NOW - DAY_MS,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function feedUrl(token = vendor.token): Promise<string> {
  const res = await api({ method: 'GET', url: '/api/v1/booking/vendor/calendar-feed/', token });
  expect(res.statusCode).toBe(200);
  const { url } = res.json();
  expect(url).toMatch(FEED_PATH);
  return url;
}

const pathOf = (url: string) => (FEED_PATH.exec(url) as RegExpExecArray)[1];

async function readFeed(url: string) {
  const res = await api({ method: 'GET', url: pathOf(url) });
  expect(res.statusCode).toBe(200);
  return { res, calendar: parseCalendar(res.body) };
}

const uid = (id: number) => `booking-${id}@book.example`;
const iso = (ms: number) => new Date(ms).toISOString();

describe('the calendar feed', () => {
  it('carries each requested, approved and confirmed booking once, as a calendar reads it', async () => {
    const start = NOW + 3 * DAY_MS;
    const requested = await insertBooking({ status: 'requested', startsAt: start, expiresAt: NOW + HOUR_MS });
    const approved = await insertBooking({
      status: 'approved',
      startsAt: start + DAY_MS,
      expiresAt: NOW + 2 * HOUR_MS,
      participants: 1,
    });
    const confirmed = await insertBooking({
      listingId: kayak,
      status: 'confirmed',
      startsAt: start + 2 * DAY_MS,
      endsAt: start + 3 * DAY_MS,
    });
    const absent = [
      await insertBooking({ status: 'cancelled', startsAt: start }),
      await insertBooking({ status: 'declined', startsAt: start }),
      await insertBooking({ status: 'expired', startsAt: start }),
      // a hold whose deadline passed is expired, whether or not the sweep has recorded it yet
      await insertBooking({ status: 'requested', startsAt: start, expiresAt: NOW }),
    ];
    const other = await registerVendor(t.app);
    const otherVendor = await vendorProfileId(t.db, other.id);
    const otherTour = await insertListing(t.db, { vendorId: otherVendor, kind: 'adventure' });
    absent.push(await insertBooking({ listingId: otherTour, vendor: otherVendor, startsAt: start }));

    const { res, calendar } = await readFeed(await feedUrl());
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(calendar.name).toBe('Tavira Boats');
    expect(calendar.prodId).toMatch(/Waterbook/);
    const ours = calendar.events.filter((e) => !absent.map(uid).includes(e.uid));
    expect(ours).toHaveLength(calendar.events.length);
    expect(calendar.events.filter((e) => [requested, approved, confirmed].map(uid).includes(e.uid))).toEqual([
      {
        uid: uid(requested),
        start: iso(start),
        end: iso(start + 2 * HOUR_MS),
        utc: true,
        summary: 'Sunset boat tour — Rita Sousa, 3 participants',
        status: 'TENTATIVE',
        url: `${PUBLIC_URL}/vendor/bookings/${requested}`,
        location: 'Lagos',
      },
      {
        uid: uid(approved),
        start: iso(start + DAY_MS),
        end: iso(start + DAY_MS + 2 * HOUR_MS),
        utc: true,
        summary: 'Sunset boat tour — Rita Sousa, 1 participant',
        status: 'TENTATIVE',
        url: `${PUBLIC_URL}/vendor/bookings/${approved}`,
        location: 'Lagos',
      },
      {
        uid: uid(confirmed),
        start: iso(start + 2 * DAY_MS),
        end: iso(start + 3 * DAY_MS),
        utc: true,
        summary: 'Double kayak — Rita Sousa, 2 units',
        status: 'CONFIRMED',
        url: `${PUBLIC_URL}/vendor/bookings/${confirmed}`,
        location: 'Lagos',
      },
    ]);
    // the raw text writes the instants in UTC
    expect(res.body).toContain(`DTSTART:${iso(start).replace(/[-:]/g, '').replace('.000', '')}`);
  });

  it('reaches from windows that ended 30 days ago to those starting 365 days ahead, edges included', async () => {
    const endsFrom = NOW - 30 * DAY_MS;
    const startsUntil = NOW + 365 * DAY_MS;
    const inside = [
      await insertBooking({ startsAt: endsFrom - HOUR_MS, endsAt: endsFrom }),
      await insertBooking({ startsAt: startsUntil, endsAt: startsUntil + HOUR_MS }),
      // under way now
      await insertBooking({ startsAt: NOW - HOUR_MS, endsAt: NOW + HOUR_MS }),
    ];
    const outside = [
      await insertBooking({ startsAt: endsFrom - HOUR_MS, endsAt: endsFrom - 1 }),
      await insertBooking({ startsAt: startsUntil + 1, endsAt: startsUntil + HOUR_MS }),
    ];
    const url = await feedUrl();
    const uids = (await readFeed(url)).calendar.events.map((e) => e.uid);
    for (const id of inside) expect(uids).toContain(uid(id));
    for (const id of outside) expect(uids).not.toContain(uid(id));
    // a day later the oldest has left, and the farthest day has come in
    t.clock.set(new Date(NOW + DAY_MS));
    try {
      const later = (await readFeed(url)).calendar.events.map((e) => e.uid);
      expect(later).not.toContain(uid(inside[0]));
      expect(later).toContain(uid(outside[1]));
    } finally {
      t.clock.set(new Date(NOW));
    }
  });

  it('may be kept only privately, checked by its ETag: 304 until a booking changes', async () => {
    const url = await feedUrl();
    const { res } = await readFeed(url);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    const etag = String(res.headers.etag);
    const again = await api({ method: 'GET', url: pathOf(url), headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await insertBooking({ startsAt: NOW + 10 * DAY_MS });
    const changed = await api({ method: 'GET', url: pathOf(url), headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers 404 in the error body to a token nobody has', async () => {
    for (const path of [`/calendar/${'A'.repeat(43)}.ics`, '/calendar/short.ics', '/calendar/.ics']) {
      const res = await api({ method: 'GET', url: path });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Calendar feed not found.', code: 'not_found' });
    }
  });
});

describe('the feed URL', () => {
  it('stays the same until rotated; rotation gives a new one and the old one answers 404', async () => {
    const first = await feedUrl();
    expect(await feedUrl()).toBe(first);
    const rotated = await api({
      method: 'POST',
      url: '/api/v1/booking/vendor/calendar-feed/rotate/',
      token: vendor.token,
    });
    expect(rotated.statusCode).toBe(200);
    const { url } = rotated.json();
    expect(url).toMatch(FEED_PATH);
    expect(url).not.toBe(first);
    expect(await feedUrl()).toBe(url);
    const old = await api({ method: 'GET', url: pathOf(first) });
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ detail: 'Calendar feed not found.', code: 'not_found' });
    expect((await readFeed(url)).calendar.name).toBe('Tavira Boats');
  });

  it('is a secret of each vendor: two vendors never share one', async () => {
    const other = await registerVendor(t.app, { business_name: 'Sagres Divers' });
    const theirs = await feedUrl(other.token);
    expect(theirs).not.toBe(await feedUrl());
    const { calendar } = await readFeed(theirs);
    expect(calendar).toMatchObject({ name: 'Sagres Divers', events: [] });
  });

  it('is seen and rotated by the owner and managers, never by staff or customers', async () => {
    const manager = await addTeamMember(t, vendor, 'manager');
    const staff = await addTeamMember(t, vendor, 'staff');
    const customer = await registerCustomer(t.app);
    expect(await feedUrl(manager.token)).toBe(await feedUrl());
    for (const [who, expected] of [
      [staff, 'permission_denied'],
      [customer, 'permission_denied'],
    ] as const)
      for (const [method, path] of [
        ['GET', '/api/v1/booking/vendor/calendar-feed/'],
        ['POST', '/api/v1/booking/vendor/calendar-feed/rotate/'],
      ] as const) {
        const res = await api({ method, url: path, token: who.token });
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe(expected);
      }
    const anonymous = await api({ method: 'GET', url: '/api/v1/booking/vendor/calendar-feed/' });
    expect(anonymous.statusCode).toBe(401);
    const before = await feedUrl();
    const byManager = await api({
      method: 'POST',
      url: '/api/v1/booking/vendor/calendar-feed/rotate/',
      token: manager.token,
    });
    expect(byManager.statusCode).toBe(200);
    expect(await feedUrl()).toBe(byManager.json().url);
    expect((await api({ method: 'GET', url: pathOf(before) })).statusCode).toBe(404);
  });
});
