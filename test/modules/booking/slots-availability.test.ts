import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
let otherVendor: Account;
let customer: Account;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  [vendor, otherVendor, customer] = await Promise.all([
    registerVendor(t.app),
    registerVendor(t.app),
    registerCustomer(t.app),
  ]);
});
afterAll(() => t.close());

const SLOTS = '/api/v1/booking/vendor/slots/';
const createSlot = (token: string, payload: Record<string, unknown>) =>
  api({ method: 'POST', url: SLOTS, token, payload });

describe('vendor slots', () => {
  it('creates a slot on an own listing (is_available defaults to true)', async () => {
    const kayak = await listingOf(t.db, vendor);
    const res = await createSlot(vendor.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T08:00:00+01:00',
      ends_at: '2026-07-01T18:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      equipment_item_id: kayak,
      adventure_offering_id: null,
      starts_at: '2026-07-01T07:00:00.000Z',
      ends_at: '2026-07-01T18:00:00.000Z',
      is_available: true,
      created_at: t.clock.now().toISOString(),
    });
    const tour = await listingOf(t.db, vendor, { kind: 'adventure', isActive: false });
    const blocking = await createSlot(vendor.token, {
      adventure_offering_id: tour,
      starts_at: '2026-07-02T08:00:00Z',
      ends_at: '2026-07-02T09:00:00Z',
      is_available: false,
    });
    expect(blocking.statusCode).toBe(201);
    expect(blocking.json()).toMatchObject({
      equipment_item_id: null,
      adventure_offering_id: tour,
      is_available: false,
    });
  });

  it('refuses other vendors’ and archived listings (404), bad windows and listing ids (400), customers (403)', async () => {
    const theirs = await listingOf(t.db, otherVendor);
    const archived = await listingOf(t.db, vendor, { archived: true });
    const mine = await listingOf(t.db, vendor);
    const window = { starts_at: '2026-07-01T08:00:00Z', ends_at: '2026-07-01T10:00:00Z' };
    const before = await countRows(t.db, 'availability_slots');
    for (const id of [theirs, archived, 999_999]) {
      const res = await createSlot(vendor.token, { equipment_item_id: id, ...window });
      expect(res.statusCode).toBe(404);
    }
    expect((await createSlot(vendor.token, { adventure_offering_id: mine, ...window })).statusCode).toBe(404);
    const both = await createSlot(vendor.token, {
      equipment_item_id: mine,
      adventure_offering_id: mine,
      ...window,
    });
    expect(both.statusCode).toBe(400);
    expect(Object.keys(both.json().errors).sort()).toEqual(['adventure_offering_id', 'equipment_item_id']);
    const reversed = await createSlot(vendor.token, {
      equipment_item_id: mine,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-01T10:00:00Z',
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().errors).toEqual({ ends_at: ['ends_at must be after starts_at.'] });
    expect((await createSlot(customer.token, { equipment_item_id: mine, ...window })).statusCode).toBe(403);
    expect(await countRows(t.db, 'availability_slots')).toBe(before);
  });

  it('lists only own slots by starts_at, filterable by listing, paginated', async () => {
    const v = await registerVendor(t.app);
    const a = await listingOf(t.db, v);
    const b = await listingOf(t.db, v, { kind: 'adventure' });
    await listingOf(t.db, otherVendor).then((id) =>
      createSlot(otherVendor.token, {
        equipment_item_id: id,
        starts_at: '2026-07-01T00:00:00Z',
        ends_at: '2026-07-02T00:00:00Z',
      }),
    );
    const made: Record<string, number> = {};
    for (const [name, ids, day] of [
      ['a3', { equipment_item_id: a }, 3],
      ['b1', { adventure_offering_id: b }, 1],
      ['a2', { equipment_item_id: a }, 2],
    ] as const) {
      const res = await createSlot(v.token, {
        ...ids,
        starts_at: `2026-07-0${day}T08:00:00Z`,
        ends_at: `2026-07-0${day}T12:00:00Z`,
      });
      made[name] = res.json().id;
    }
    const all = (await api({ method: 'GET', url: SLOTS, token: v.token })).json();
    expect(all.count).toBe(3);
    expect(all.results.map((s: { id: number }) => s.id)).toEqual([made.b1, made.a2, made.a3]);
    const ofA = (await api({ method: 'GET', url: `${SLOTS}?equipment_item_id=${a}`, token: v.token })).json();
    expect(ofA.results.map((s: { id: number }) => s.id)).toEqual([made.a2, made.a3]);
    const ofB = (
      await api({ method: 'GET', url: `${SLOTS}?adventure_offering_id=${b}`, token: v.token })
    ).json();
    expect(ofB.results.map((s: { id: number }) => s.id)).toEqual([made.b1]);
    // a wrong-kind filter finds nothing
    expect(
      (await api({ method: 'GET', url: `${SLOTS}?adventure_offering_id=${a}`, token: v.token })).json().count,
    ).toBe(0);
    const page2 = (await api({ method: 'GET', url: `${SLOTS}?page_size=2&page=2`, token: v.token })).json();
    expect(page2).toMatchObject({ count: 3, next: null });
    expect(page2.results.map((s: { id: number }) => s.id)).toEqual([made.a3]);
    expect(page2.previous).toMatch(/page=1/);
  });

  it('reads, patches and deletes own slots; other vendors get 404', async () => {
    const kayak = await listingOf(t.db, vendor);
    const slot = (
      await createSlot(vendor.token, {
        equipment_item_id: kayak,
        starts_at: '2026-07-01T08:00:00Z',
        ends_at: '2026-07-01T18:00:00Z',
      })
    ).json();
    const url = `${SLOTS}${slot.id}/`;
    expect((await api({ method: 'GET', url, token: vendor.token })).json()).toEqual(slot);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await api({
        method,
        url,
        token: otherVendor.token,
        payload: method === 'PATCH' ? {} : undefined,
      });
      expect(res.statusCode).toBe(404);
    }
    const patched = await api({
      method: 'PATCH',
      url,
      token: vendor.token,
      payload: { ends_at: '2026-07-01T20:00:00Z', is_available: false, equipment_item_id: 1 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual({ ...slot, ends_at: '2026-07-01T20:00:00.000Z', is_available: false });
    const inverted = await api({
      method: 'PATCH',
      url,
      token: vendor.token,
      payload: { starts_at: '2026-07-01T21:00:00Z' },
    });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().errors.ends_at).toBeDefined();
    const empty = await api({ method: 'PATCH', url, token: vendor.token });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().ends_at).toBe('2026-07-01T20:00:00.000Z');
    const deleted = await api({ method: 'DELETE', url, token: vendor.token });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await api({ method: 'GET', url, token: vendor.token })).statusCode).toBe(404);
    expect((await api({ method: 'DELETE', url, token: vendor.token })).statusCode).toBe(404);
  });

  it('never changes existing bookings when slots come and go', async () => {
    const kayak = await listingOf(t.db, vendor);
    const slot = (
      await createSlot(vendor.token, {
        equipment_item_id: kayak,
        starts_at: '2026-07-01T08:00:00Z',
        ends_at: '2026-07-01T18:00:00Z',
      })
    ).json();
    const booking = (
      await request(customer.token, {
        equipment_item_id: kayak,
        starts_at: '2026-07-01T09:00:00Z',
        ends_at: '2026-07-01T10:00:00Z',
      })
    ).json();
    await createSlot(vendor.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T08:00:00Z',
      ends_at: '2026-07-01T18:00:00Z',
      is_available: false,
    });
    await api({ method: 'DELETE', url: `${SLOTS}${slot.id}/`, token: vendor.token });
    const after = await api({
      method: 'GET',
      url: `/api/v1/booking/bookings/${booking.id}/`,
      token: customer.token,
    });
    expect(after.json()).toEqual(booking);
    expect((await transition(vendor.token, booking.id, 'approve')).json().status).toBe('approved');
  });
});

describe('public slots', () => {
  it('lists a visible listing’s slots by starts_at, optionally overlapping [from, to)', async () => {
    const kayak = await listingOf(t.db, vendor);
    const ids: number[] = [];
    for (const [s, e] of [
      ['2026-07-03T08:00:00Z', '2026-07-03T12:00:00Z'],
      ['2026-07-01T08:00:00Z', '2026-07-01T12:00:00Z'],
      ['2026-07-02T08:00:00Z', '2026-07-02T12:00:00Z'],
    ])
      ids.push(
        (await createSlot(vendor.token, { equipment_item_id: kayak, starts_at: s, ends_at: e })).json().id,
      );
    const url = `/api/v1/booking/slots/?equipment_item_id=${kayak}`;
    const all = await api({ method: 'GET', url });
    expect(all.statusCode).toBe(200);
    expect(all.json().results.map((s: { id: number }) => s.id)).toEqual([ids[1], ids[2], ids[0]]);
    // [from, to) half-open: a slot ending at `from` or starting at `to` is left out
    const range = await api({
      method: 'GET',
      url: `${url}&from=2026-07-01T12:00:00Z&to=2026-07-03T08:00:00Z`,
    });
    expect(range.json()).toMatchObject({ count: 1 });
    expect(range.json().results[0].id).toBe(ids[2]);
    const fromOnly = await api({ method: 'GET', url: `${url}&from=2026-07-02T11:59:00Z` });
    expect(fromOnly.json().results.map((s: { id: number }) => s.id)).toEqual([ids[2], ids[0]]);
  });

  it('needs exactly one listing id and a visible listing; from < to', async () => {
    const hidden = await listingOf(t.db, vendor, { isActive: false });
    expect((await api({ method: 'GET', url: '/api/v1/booking/slots/' })).statusCode).toBe(400);
    expect(
      (await api({ method: 'GET', url: `/api/v1/booking/slots/?equipment_item_id=${hidden}` })).statusCode,
    ).toBe(404);
    const kayak = await listingOf(t.db, vendor);
    const inverted = await api({
      method: 'GET',
      url: `/api/v1/booking/slots/?equipment_item_id=${kayak}&from=2026-07-02T00:00:00Z&to=2026-07-01T00:00:00Z`,
    });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().errors.to).toBeDefined();
    const bad = await api({
      method: 'GET',
      url: `/api/v1/booking/slots/?equipment_item_id=${kayak}&from=soon`,
    });
    expect(bad.json().errors).toEqual({ from: ['Enter a valid ISO 8601 datetime.'] });
  });
});

describe('availability check', () => {
  const check = (query: string) => api({ method: 'GET', url: `/api/v1/booking/availability/?${query}` });

  it('answers the spec’s object for a free window (no token needed)', async () => {
    const kayak = await listingOf(t.db, vendor);
    const res = await check(
      `equipment_item_id=${kayak}&starts_at=2026-07-01T10:00:00Z&ends_at=2026-07-01T12:00:00Z`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      equipment_item_id: kayak,
      adventure_offering_id: null,
      starts_at: '2026-07-01T10:00:00.000Z',
      ends_at: '2026-07-01T12:00:00.000Z',
      is_available: true,
      conflicts: 0,
      remaining: 1,
    });
  });

  it('counts overlapping active bookings and blocking slots; touching windows are free', async () => {
    const tour = await listingOf(t.db, vendor, { kind: 'adventure' });
    const q = (s: string, e: string) => check(`adventure_offering_id=${tour}&starts_at=${s}&ends_at=${e}`);
    await request(customer.token, {
      adventure_offering_id: tour,
      starts_at: '2026-07-01T10:00:00Z',
      ends_at: '2026-07-01T12:00:00Z',
    });
    const declined = (
      await request(customer.token, {
        adventure_offering_id: tour,
        starts_at: '2026-07-01T14:00:00Z',
        ends_at: '2026-07-01T15:00:00Z',
      })
    ).json();
    await transition(vendor.token, declined.id, 'decline');
    await createSlot(vendor.token, {
      adventure_offering_id: tour,
      starts_at: '2026-07-01T11:30:00Z',
      ends_at: '2026-07-01T13:00:00Z',
      is_available: false,
    });
    expect((await q('2026-07-01T08:00:00Z', '2026-07-01T10:00:00Z')).json()).toMatchObject({
      adventure_offering_id: tour,
      equipment_item_id: null,
      is_available: true,
      conflicts: 0,
    });
    expect((await q('2026-07-01T11:00:00Z', '2026-07-01T11:30:00Z')).json()).toMatchObject({
      is_available: false,
      conflicts: 1,
    });
    expect((await q('2026-07-01T11:00:00Z', '2026-07-01T12:30:00Z')).json()).toMatchObject({
      is_available: false,
      conflicts: 2,
    });
    expect((await q('2026-07-01T12:00:00Z', '2026-07-01T13:00:00Z')).json()).toMatchObject({
      is_available: false,
      conflicts: 1,
    });
    // the declined booking no longer holds its window
    expect((await q('2026-07-01T13:00:00Z', '2026-07-01T15:00:00Z')).json()).toMatchObject({
      is_available: true,
      conflicts: 0,
    });
  });

  it('is unavailable with 0 conflicts when available slots exist but none covers the window', async () => {
    const kayak = await listingOf(t.db, vendor);
    await createSlot(vendor.token, {
      equipment_item_id: kayak,
      starts_at: '2026-07-01T08:00:00Z',
      ends_at: '2026-07-01T12:00:00Z',
    });
    const q = (s: string, e: string) => check(`equipment_item_id=${kayak}&starts_at=${s}&ends_at=${e}`);
    expect((await q('2026-07-01T08:00:00Z', '2026-07-01T12:00:00Z')).json()).toMatchObject({
      is_available: true,
    });
    expect((await q('2026-07-01T11:00:00Z', '2026-07-01T12:00:01Z')).json()).toMatchObject({
      is_available: false,
      conflicts: 0,
    });
    expect((await q('2026-07-05T08:00:00Z', '2026-07-05T09:00:00Z')).json()).toMatchObject({
      is_available: false,
      conflicts: 0,
    });
  });

  it('reads an unencoded "+" offset (a space in the query) as "+", and %2B too', async () => {
    const kayak = await listingOf(t.db, vendor);
    const spaced = await check(
      `equipment_item_id=${kayak}&starts_at=2026-07-01T12:00:00+02:00&ends_at=2026-07-01T14:00:00%2B02:00`,
    );
    expect(spaced.statusCode).toBe(200);
    expect(spaced.json()).toMatchObject({
      starts_at: '2026-07-01T10:00:00.000Z',
      ends_at: '2026-07-01T12:00:00.000Z',
    });
  });

  it('says a window starting in the past is not available', async () => {
    const kayak = await listingOf(t.db, vendor);
    const res = await check(
      `equipment_item_id=${kayak}&starts_at=2026-05-01T10:00:00Z&ends_at=2026-05-01T12:00:00Z`,
    );
    expect(res.json()).toMatchObject({ is_available: false, conflicts: 0 });
  });

  it('validates its query', async () => {
    const kayak = await listingOf(t.db, vendor);
    const tour = await listingOf(t.db, vendor, { kind: 'adventure' });
    const w = 'starts_at=2026-07-01T10:00:00Z&ends_at=2026-07-01T12:00:00Z';
    const neither = await check(w);
    expect(neither.statusCode).toBe(400);
    expect(Object.keys(neither.json().errors).sort()).toEqual(['adventure_offering_id', 'equipment_item_id']);
    expect((await check(`equipment_item_id=${kayak}&adventure_offering_id=${tour}&${w}`)).statusCode).toBe(
      400,
    );
    const missing = await check(`equipment_item_id=${kayak}&starts_at=2026-07-01T10:00:00Z`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.ends_at).toBeDefined();
    const inverted = await check(
      `equipment_item_id=${kayak}&starts_at=2026-07-01T12:00:00Z&ends_at=2026-07-01T12:00:00Z`,
    );
    expect(inverted.json()).toMatchObject({
      code: 'invalid',
      errors: { ends_at: ['ends_at must be after starts_at.'] },
    });
    expect((await check(`equipment_item_id=abc&${w}`)).statusCode).toBe(400);
    expect((await check(`equipment_item_id=${tour}&${w}`)).statusCode).toBe(404);
    expect((await check(`equipment_item_id=999999&${w}`)).json()).toEqual({
      detail: 'Equipment item not found.',
      code: 'not_found',
    });
    // a bad token on a public endpoint is ignored
    const withBadToken = await api({
      method: 'GET',
      url: `/api/v1/booking/availability/?equipment_item_id=${kayak}&${w}`,
      token: 'not-a-jwt',
    });
    expect(withBadToken.statusCode).toBe(200);
  });
});
