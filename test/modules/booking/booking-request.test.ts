import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import { recordListingClick } from '../../../src/modules/marketing/index.ts';
import { vendorProfileId } from '../../helpers/booking-factories.ts';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { bookingRequester, listingOf, transitioner } from './setup.ts';

let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let vendor: Account;
let customer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  vendor = await registerVendor(t.app, {
    business_name: 'Algarve Kayaks',
    contact_email: 'bookings@algarve-kayaks.example',
    contact_phone: '+351 282 000 000',
    time_zone: 'Europe/Lisbon',
  });
  customer = await registerCustomer(t.app, { phone_number: '+44 7700 900123' });
});
afterAll(() => t.close());

const DAY = 86_400_000;

describe('booking request: the booking object and price', () => {
  it('creates a requested equipment booking priced by days rounded up (50h at 45.00 → 135.00)', async () => {
    const kayak = await listingOf(t.db, vendor, { title: 'Sea kayak', priceCents: 4500 });
    const res = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-03T12:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    const now = t.clock.now().toISOString();
    expect(res.json()).toEqual({
      id: expect.any(Number),
      status: 'requested',
      equipment_item_id: kayak,
      adventure_offering_id: null,
      starts_at: '2026-07-01T10:00:00.000Z',
      ends_at: '2026-07-03T12:00:00.000Z',
      participants_count: null,
      quantity: 1,
      customer_notes: '',
      vendor_notes: '',
      total_price: '135.00',
      // with no categories, extras or code: one base line, the spec's price
      price_lines: [
        {
          kind: 'base',
          code: null,
          label: 'Sea kayak, 50 h',
          quantity: 1,
          unit_price: '135.00',
          amount: '135.00',
        },
      ],
      promo_code: null,
      answers: {},
      waiver: null,
      attendance: 'pending',
      attendance_updated_at: null,
      listing_click: null,
      customer_id: customer.id,
      vendor_slug: 'algarve-kayaks',
      listing_title: 'Sea kayak',
      currency: 'usd',
      customer: {
        id: customer.id,
        first_name: 'Ana',
        last_name: 'Silva',
        email: customer.email,
        phone_number: '+44 7700 900123',
      },
      // a customer's own request: no channel, contact or reseller reference (decisions §24)
      contact: null,
      channel: null,
      reseller_reference: null,
      vendor: {
        business_name: 'Algarve Kayaks',
        slug: 'algarve-kayaks',
        contact_email: 'bookings@algarve-kayaks.example',
        contact_phone: '+351 282 000 000',
        time_zone: 'Europe/Lisbon',
      },
      // the vendor's default request_ttl_minutes (1440) after creation
      expires_at: new Date(t.clock.now().getTime() + DAY).toISOString(),
      status_history: [
        { from_status: null, to_status: 'requested', note: '', actor_id: customer.id, created_at: now },
      ],
      created_at: now,
      updated_at: now,
    });
  });

  it('charges 1 day for 24h, 2 days for 25h, 1 day for 1 hour', async () => {
    const kayak = await listingOf(t.db, vendor, { priceCents: 4500 });
    const cases: [string, string, string][] = [
      ['2026-07-10T00:00:00Z', '2026-07-11T00:00:00Z', '45.00'],
      ['2026-07-12T00:00:00Z', '2026-07-13T01:00:00Z', '90.00'],
      ['2026-07-14T09:00:00Z', '2026-07-14T10:00:00Z', '45.00'],
      ['2026-07-15T00:00:00Z', '2026-07-17T00:00:00.001Z', '135.00'],
    ];
    for (const [starts_at, ends_at, price] of cases) {
      const res = await request(customer.token, { equipment_item_id: kayak, starts_at, ends_at });
      expect(res.statusCode).toBe(201);
      expect(res.json().total_price).toBe(price);
    }
  });

  it('prices an adventure by participants × price per person; participants default to 1', async () => {
    const tour = await listingOf(t.db, vendor, { kind: 'adventure', priceCents: 3550, capacity: 6 });
    const three = await request(customer.token, {
      adventure_offering_id: tour,
      starts_at: '2026-07-01T09:00:00Z',
      ends_at: '2026-07-01T11:00:00Z',
      participants_count: 3,
      customer_notes: 'Two kids',
    });
    expect(three.statusCode).toBe(201);
    expect(three.json()).toMatchObject({
      equipment_item_id: null,
      adventure_offering_id: tour,
      participants_count: 3,
      total_price: '106.50',
      customer_notes: 'Two kids',
    });
    const one = await request(customer.token, {
      adventure_offering_id: tour,
      starts_at: '2026-07-02T09:00:00Z',
      ends_at: '2026-07-02T11:00:00Z',
    });
    expect(one.json()).toMatchObject({ participants_count: 1, total_price: '35.50' });
    const full = await request(customer.token, {
      adventure_offering_id: tour,
      starts_at: '2026-07-03T09:00:00Z',
      ends_at: '2026-07-03T11:00:00Z',
      participants_count: 6,
    });
    expect(full.json()).toMatchObject({ participants_count: 6, total_price: '213.00' });
  });

  it('refuses participants outside 1..capacity', async () => {
    const tour = await listingOf(t.db, vendor, { kind: 'adventure', priceCents: 3550, capacity: 4 });
    const window = { starts_at: '2026-07-05T09:00:00Z', ends_at: '2026-07-05T11:00:00Z' };
    const over = await request(customer.token, {
      adventure_offering_id: tour,
      ...window,
      participants_count: 5,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('invalid');
    expect(Object.keys(over.json().errors)).toEqual(['participants_count']);
    const zero = await request(customer.token, {
      adventure_offering_id: tour,
      ...window,
      participants_count: 0,
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors.participants_count).toBeDefined();
    const ok = await request(customer.token, {
      adventure_offering_id: tour,
      ...window,
      participants_count: 4,
    });
    expect(ok.statusCode).toBe(201);
  });

  it('stores participants_count null for equipment even when sent', async () => {
    const kayak = await listingOf(t.db, vendor, { priceCents: 1000 });
    const res = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-01T12:00:00Z',
      participants_count: 4,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ participants_count: null, total_price: '10.00' });
  });

  it('refuses a booking whose total would reach 100,000,000.00', async () => {
    const yacht = await listingOf(t.db, vendor, { priceCents: 9_999_999_999 });
    const oneDay = await request(customer.token, {
      equipment_item_id: yacht,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-02T10:00:00Z',
    });
    expect(oneDay.statusCode).toBe(201);
    expect(oneDay.json().total_price).toBe('99999999.99');
    const twoDays = await request(customer.token, {
      equipment_item_id: yacht,
      starts_at: '2026-07-03T10:00:00Z',
      ends_at: '2026-07-04T10:00:01Z',
    });
    expect(twoDays.statusCode).toBe(400);
    expect(Object.keys(twoDays.json().errors)).toEqual(['ends_at']);
  });

  it('converts offsets to UTC and reads a zone-less datetime as UTC', async () => {
    const kayak = await listingOf(t.db, vendor);
    const res = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T12:00:00+02:00',
      ends_at: '2026-07-01T14:30:00',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      starts_at: '2026-07-01T10:00:00.000Z',
      ends_at: '2026-07-01T14:30:00.000Z',
    });
  });
});

describe('booking request: validation', () => {
  const window = { starts_at: '2026-07-01T10:00:00Z', ends_at: '2026-07-01T12:00:00Z' };

  it('needs exactly one listing id', async () => {
    const kayak = await listingOf(t.db, vendor);
    const tour = await listingOf(t.db, vendor, { kind: 'adventure' });
    const before = await countRows(t.db, 'bookings');
    for (const ids of [
      {},
      { equipment_item_id: kayak, adventure_offering_id: tour },
      { equipment_item_id: null },
    ]) {
      const res = await request(customer.token, { ...ids, ...window });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invalid',
        errors: { equipment_item_id: [expect.any(String)], adventure_offering_id: [expect.any(String)] },
      });
    }
    expect(await countRows(t.db, 'bookings')).toBe(before);
  });

  it('answers 404 for unknown, inactive, archived or wrong-kind listings', async () => {
    const inactive = await listingOf(t.db, vendor, { isActive: false });
    const archived = await listingOf(t.db, vendor, { archived: true });
    const tour = await listingOf(t.db, vendor, { kind: 'adventure' });
    for (const id of [999_999, inactive, archived, tour]) {
      const res = await request(customer.token, { equipment_item_id: id, ...window });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Equipment item not found.', code: 'not_found' });
    }
    const res = await request(customer.token, { adventure_offering_id: inactive, ...window });
    expect(res.json()).toEqual({ detail: 'Adventure offering not found.', code: 'not_found' });
    const huge = await request(customer.token, { equipment_item_id: 2 ** 31, ...window });
    expect(huge.statusCode).toBe(400);
  });

  it('refuses ends_at <= starts_at, a past start and malformed datetimes', async () => {
    const kayak = await listingOf(t.db, vendor);
    const same = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-01T10:00:00Z',
    });
    expect(same.statusCode).toBe(400);
    expect(Object.keys(same.json().errors)).toEqual(['ends_at']);
    const past = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-06-01T11:59:59Z', // the clock says 12:00:00
      ends_at: '2026-06-01T14:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    expect(Object.keys(past.json().errors)).toEqual(['starts_at']);
    const bad = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: 'tomorrow',
      ends_at: '2026-02-30T10:00:00Z',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['ends_at', 'starts_at']);
    const missing = await request(customer.token, { equipment_item_id: kayak });
    expect(missing.statusCode).toBe(400);
    // starting exactly now is not in the past
    const now = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: t.clock.now().toISOString(),
      ends_at: '2026-06-01T13:00:00Z',
    });
    expect(now.statusCode).toBe(201);
  });

  it('lets only customers request: a vendor gets 403, no token 401', async () => {
    const kayak = await listingOf(t.db, vendor);
    const asVendor = await request(vendor.token, { equipment_item_id: kayak, ...window });
    expect(asVendor.statusCode).toBe(403);
    expect(asVendor.json().code).toBe('permission_denied');
    const anonymous = await api({
      method: 'POST',
      url: '/api/v1/booking/bookings/request/',
      payload: { equipment_item_id: kayak, ...window },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('booking request: conflicts', () => {
  it('lets touching windows both succeed and refuses an overlapping one with 409', async () => {
    const kayak = await listingOf(t.db, vendor);
    const first = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-01T12:00:00Z',
    });
    const second = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T12:00:00Z',
      ends_at: '2026-07-01T14:00:00Z',
    });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const other = await registerCustomer(t.app);
    const overlapping = await request(other.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T11:59:00Z',
      ends_at: '2026-07-01T12:01:00Z',
    });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json()).toEqual({
      detail: 'The requested window overlaps another booking.',
      code: 'booking_conflict',
    });
    // the same window on another listing is free
    const elsewhere = await request(other.token, {
      equipment_item_id: await listingOf(t.db, vendor),
      starts_at: '2026-07-01T11:59:00Z',
      ends_at: '2026-07-01T12:01:00Z',
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('frees the window when a booking is declined or cancelled, not while approved or confirmed', async () => {
    const kayak = await listingOf(t.db, vendor);
    const window = {
      equipment_item_id: kayak,
      starts_at: '2026-08-01T10:00:00Z',
      ends_at: '2026-08-01T12:00:00Z',
    };
    const first = (await request(customer.token, window)).json();
    expect((await transition(vendor.token, first.id, 'approve')).statusCode).toBe(200);
    expect((await request(customer.token, window)).statusCode).toBe(409);
    expect((await transition(vendor.token, first.id, 'decline')).statusCode).toBe(200);
    const second = await request(customer.token, window);
    expect(second.statusCode).toBe(201);
    expect((await transition(customer.token, second.json().id, 'cancel')).statusCode).toBe(200);
    expect((await request(customer.token, window)).statusCode).toBe(201);
  });

  it('applies slot coverage and blocking slots, edges included', async () => {
    const kayak = await listingOf(t.db, vendor);
    const slot = async (starts_at: string, ends_at: string, is_available = true) => {
      const res = await api({
        method: 'POST',
        url: '/api/v1/booking/vendor/slots/',
        token: vendor.token,
        payload: { equipment_item_id: kayak, starts_at, ends_at, is_available },
      });
      expect(res.statusCode).toBe(201);
    };
    // without slots: bookable by default
    const free = await request(customer.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-20T08:00:00Z',
      ends_at: '2026-07-20T09:00:00Z',
    });
    expect(free.statusCode).toBe(201);
    await slot('2026-07-01T08:00:00Z', '2026-07-01T18:00:00Z');
    await slot('2026-07-01T13:00:00Z', '2026-07-01T14:00:00Z', false);
    const book = (starts_at: string, ends_at: string) =>
      request(customer.token, { equipment_item_id: kayak, starts_at, ends_at });
    const outside = await book('2026-07-02T08:00:00Z', '2026-07-02T09:00:00Z');
    expect(outside.statusCode).toBe(409);
    expect(outside.json().detail).toBe('No available slot covers the requested window.');
    expect((await book('2026-07-01T07:59:00Z', '2026-07-01T09:00:00Z')).statusCode).toBe(409);
    expect((await book('2026-07-01T17:00:00Z', '2026-07-01T18:00:01Z')).statusCode).toBe(409);
    const blocked = await book('2026-07-01T12:00:00Z', '2026-07-01T13:00:01Z');
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().detail).toBe('The requested window is blocked by an unavailable slot.');
    // exact slot start up to the blocking slot's start, and from its end to the slot's end
    expect((await book('2026-07-01T08:00:00Z', '2026-07-01T13:00:00Z')).statusCode).toBe(201);
    expect((await book('2026-07-01T14:00:00Z', '2026-07-01T18:00:00Z')).statusCode).toBe(201);
  });
});

describe('booking request: attribution', () => {
  const clickAt = async (listingId: number, when: string) => {
    const vendorId = await vendorProfileId(t.db, vendor.id);
    const click = await recordListingClick(t.db, new ManualClock(when), {
      listing: { id: listingId, kind: 'equipment', vendorId },
      source: 'detail_view',
      params: { utm_campaign: 'summer' },
    });
    return click.marketing_click_id;
  };
  let slotHour = 0;
  const book = (listingId: number, marketing_click_id: unknown) => {
    const start = Date.UTC(2026, 9, 1) + slotHour++ * 3_600_000;
    return request(customer.token, {
      equipment_item_id: listingId,
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + 3_600_000).toISOString(),
      marketing_click_id,
    });
  };

  it('attributes a click of the same listing', async () => {
    const kayak = await listingOf(t.db, vendor);
    const click = await clickAt(kayak, '2026-05-20T09:00:00Z');
    const res = await book(kayak, click);
    expect(res.statusCode).toBe(201);
    expect(res.json().listing_click).toBe(click);
  });

  it('creates the booking unattributed for a click of another listing, an unknown or absurd id', async () => {
    const kayak = await listingOf(t.db, vendor);
    const other = await listingOf(t.db, vendor);
    const foreign = await clickAt(other, '2026-05-31T09:00:00Z');
    for (const id of [foreign, 987_654, 0, -5, 2 ** 40, null]) {
      const res = await book(kayak, id);
      expect(res.statusCode).toBe(201);
      expect(res.json().listing_click).toBeNull();
    }
  });

  it('accepts a click exactly 90 days old and refuses one a millisecond older (injected clock)', async () => {
    const kayak = await listingOf(t.db, vendor);
    const now = t.clock.now().getTime();
    const edge = await clickAt(kayak, new Date(now - 90 * DAY).toISOString());
    const stale = await clickAt(kayak, new Date(now - 90 * DAY - 1).toISOString());
    expect((await book(kayak, edge)).json().listing_click).toBe(edge);
    expect((await book(kayak, stale)).json().listing_click).toBeNull();
    // moving the clock on by a millisecond ages the edge click out as well
    t.clock.advance(1);
    try {
      expect((await book(kayak, edge)).json().listing_click).toBeNull();
    } finally {
      t.clock.advance(-1);
    }
  });
});
