import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { confirm } from './day-of-trip-helpers.ts';
import { departurePath } from './departures-helpers.ts';

// The day's manifest (decisions §23) through the API: a local date of the vendor's zone (New York, four or
// five hours behind UTC), departures grouped by listing and start, pick-ups and returns, payment status,
// and the CSV with its formula guard.

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
let dolphins: ListingOut;
let sail: ListingOut;
let kayak: ListingOut;
const ids: Record<string, number> = {};

type Row = { id: number };
type DepartureOut = {
  listing: { title: string };
  starts_at: string;
  capacity: number;
  participants: number;
  bookings: Row[];
};

const request = async (name: string, payload: Record<string, unknown>) => {
  const res = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`${name}: ${res.body}`);
  ids[name] = res.json().id;
};
const manifest = (query: Record<string, string> = {}, token = vendor.token) =>
  api({ method: 'GET', url: '/api/v1/booking/vendor/manifest/', token, query });

beforeAll(async () => {
  t = await buildTestApp(); // the clock: 2026-06-01T12:00Z, 08:00 in New York
  api = injector(t.app);
  vendor = await registerVendor(t.app, { time_zone: 'America/New_York' });
  customer = await registerCustomer(t.app, {
    first_name: 'Ana',
    last_name: 'Lopes',
    phone_number: '+351 912',
  });
  dolphins = await createAdventure(t.app, vendor, {
    title: 'Dolphin tour',
    booking_mode: 'shared',
    capacity: 12,
    schedule: [
      { weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_times: ['09:00'], capacity: 6 },
    ],
    questions: [{ code: 'allergies', label: 'Allergies', kind: 'text' }],
  });
  sail = await createAdventure(t.app, vendor, { title: 'Anchor sail', capacity: 4 });
  kayak = await createEquipment(t.app, vendor, { title: 'Sea kayak', quantity: 5 });
  // 2 June, 09:00 in New York is 13:00Z
  await request('A', {
    adventure_offering_id: dolphins.id,
    starts_at: '2026-06-02T13:00:00Z',
    participants_count: 2,
    answers: { allergies: '=HYPERLINK("http://evil.example")' },
    customer_notes: '=1+2',
  });
  await request('B', { adventure_offering_id: dolphins.id, starts_at: '2026-06-02T13:00:00Z' });
  await request('next day', { adventure_offering_id: dolphins.id, starts_at: '2026-06-03T13:00:00Z' });
  await request('C', { adventure_offering_id: sail.id, starts_at: '2026-06-02T13:00:00Z' });
  // 23:30 on 2 June in New York is already 3 June in UTC
  await request('D', { adventure_offering_id: sail.id, starts_at: '2026-06-03T03:30:00Z' });
  await request('cancelled', { adventure_offering_id: sail.id, starts_at: '2026-06-02T20:00:00Z' });
  const kayakFor = (starts: string, ends: string) => ({
    equipment_item_id: kayak.id,
    starts_at: starts,
    ends_at: ends,
  });
  await request('K1', kayakFor('2026-06-01T14:00:00Z', '2026-06-02T20:00:00Z'));
  await request('K2', kayakFor('2026-06-02T14:00:00Z', '2026-06-04T14:00:00Z'));
  await request('K3', kayakFor('2026-06-02T15:00:00Z', '2026-06-02T21:00:00Z'));
  await api({
    method: 'POST',
    url: `/api/v1/booking/bookings/${ids.cancelled}/cancel/`,
    token: customer.token,
  });
  await confirm(api, vendor, customer, ids.A);
  // the vendor lowered that one departure's seats
  const patched = await api({
    method: 'PATCH',
    url: departurePath(dolphins.id, '2026-06-02T13:00:00.000Z'),
    token: vendor.token,
    payload: { capacity: 5 },
  });
  if (patched.statusCode !== 200) throw new Error(patched.body);
});
afterAll(() => t.close());

describe('the manifest', () => {
  it('groups a local date’s bookings: departures by listing and start, then pick-ups and returns', async () => {
    const res = await manifest({ date: '2026-06-02' });
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json();
    expect([m.date, m.time_zone]).toEqual(['2026-06-02', 'America/New_York']);
    expect(
      m.departures.map((d: DepartureOut) => [
        d.listing.title,
        d.starts_at,
        d.capacity,
        d.participants,
        d.bookings.map((b: Row) => b.id),
      ]),
    ).toEqual([
      ['Anchor sail', '2026-06-02T13:00:00.000Z', 4, 1, [ids.C]],
      ['Dolphin tour', '2026-06-02T13:00:00.000Z', 5, 3, [ids.A, ids.B]],
      ['Anchor sail', '2026-06-03T03:30:00.000Z', 4, 1, [ids.D]],
    ]);
    expect(m.departures[1].listing).toEqual({
      kind: 'adventure',
      id: dolphins.id,
      public_id: dolphins.public_id,
      title: 'Dolphin tour',
    });
    expect(m.departures[1].ends_at).toBe('2026-06-02T15:00:00.000Z');
    expect(m.pickups.map((b: Row) => b.id)).toEqual([ids.K2, ids.K3]);
    expect(m.returns.map((b: Row) => b.id)).toEqual([ids.K1, ids.K3]);
    const [a, b] = m.departures[1].bookings;
    expect([a.status, a.payment_status, b.status, b.payment_status]).toEqual([
      'confirmed',
      'succeeded',
      'requested',
      null,
    ]);
    expect(a).toMatchObject({
      answers: { allergies: '=HYPERLINK("http://evil.example")' },
      attendance: 'pending',
      waiver: null,
    });
    expect(a.customer).toMatchObject({ first_name: 'Ana', last_name: 'Lopes', phone_number: '+351 912' });
  });

  it('defaults to today in the vendor’s zone, and refuses a date that is not one', async () => {
    const today = (await manifest()).json();
    expect(today.date).toBe('2026-06-01');
    expect(today.pickups.map((b: Row) => b.id)).toEqual([ids.K1]);
    expect(today.departures).toEqual([]);
    for (const date of ['2026-02-30', 'tomorrow', '2026-6-2']) {
      const res = await manifest({ date });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['date']);
    }
    expect((await manifest({}, customer.token)).statusCode).toBe(403);
    expect((await api({ method: 'GET', url: '/api/v1/booking/vendor/manifest/' })).statusCode).toBe(401);
  });

  it('is exported as CSV, one row per booking, formulas shown as text', async () => {
    const res = await api({
      method: 'GET',
      url: '/api/v1/booking/vendor/manifest/export/',
      token: vendor.token,
      query: { date: '2026-06-02' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="manifest-2026-06-02.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'section,local_time,listing_title,booking_id,status,attendance,customer_name,customer_email,customer_phone,' +
        'participants_count,quantity,starts_at,ends_at,answers,waiver_name,waiver_accepted_at,payment_status,' +
        'total_price,currency,customer_notes',
    );
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => [r[0], r[1], r[2], Number(r[3])])).toEqual([
      ['departure', '09:00', 'Anchor sail', ids.C],
      ['departure', '09:00', 'Dolphin tour', ids.A],
      ['departure', '09:00', 'Dolphin tour', ids.B],
      ['departure', '23:30', 'Anchor sail', ids.D],
      ['pickup', '10:00', 'Sea kayak', ids.K2],
      ['pickup+return', '11:00', 'Sea kayak', ids.K3],
      ['return', '16:00', 'Sea kayak', ids.K1],
    ]);
    // a cell a spreadsheet would run starts with an apostrophe; the answers cell starts with its code
    expect(lines[2].split(',').slice(6, 9)).toEqual(['Ana Lopes', customer.email, "'+351 912"]);
    expect(lines[2]).toContain(
      ',"allergies==HYPERLINK(""http://evil.example"")",,,succeeded,70.00,usd,\'=1+2',
    );
  });
});
