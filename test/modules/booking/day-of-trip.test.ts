import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, freshToken, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { attendance, confirm, DIVE_QUESTIONS, WAIVER } from './day-of-trip-helpers.ts';

// The day of the trip (decisions §23) through the API: questions and answers, the waiver and its
// evidence, and attendance with its history. The manifest has its own file.

let t: TestApp;
let api: Injector;
let vendor: Account;
let customer: Account;
let dive: ListingOut;
let kayak: ListingOut;

// the test clock starts 2026-06-01T12:00Z; the dive leaves on 3 June at 09:00 in Lisbon (08:00Z)
const DIVE_AT = '2026-06-03T08:00:00.000Z';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const request = (payload: Record<string, unknown>, who: Account = customer, headers = {}) =>
  api({ method: 'POST', url: '/api/v1/booking/bookings/request/', token: who.token, payload, headers });
const quote = (payload: Record<string, unknown>) =>
  api({ method: 'POST', url: '/api/v1/booking/quote/', payload });
const setWaiver = (text: string) =>
  api({
    method: 'PATCH',
    url: '/api/v1/accounts/vendor-profile/me/',
    token: vendor.token,
    payload: { waiver_text: text },
  });
const getBooking = (id: number, who: Account) =>
  api({ method: 'GET', url: `/api/v1/booking/bookings/${id}/`, token: who.token });

/** Moves the clock, with fresh tokens for both parties (access tokens expire with time). */
async function at(instant: string) {
  t.clock.set(instant);
  vendor.token = await freshToken(t.app, vendor);
  customer.token = await freshToken(t.app, customer);
}

const diveBody = (extra: Record<string, unknown> = {}) => ({
  adventure_offering_id: dive.id,
  starts_at: DIVE_AT,
  participants_count: 2,
  answers: { cert: ['Open Water', 'Advanced'], wetsuit: ['M', ''], allergies: 'none' },
  waiver_acceptance: { accepted: true, name: 'Sam Rivera' },
  ...extra,
});

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app, { time_zone: 'Europe/Lisbon', waiver_text: WAIVER });
  customer = await registerCustomer(t.app);
  dive = await createAdventure(t.app, vendor, {
    booking_mode: 'shared',
    capacity: 40,
    questions: DIVE_QUESTIONS,
  });
  kayak = await createEquipment(t.app, vendor, {
    quantity: 4,
    questions: [
      { code: 'paddle', label: 'Paddle length', kind: 'number', required: true, per: 'participant' },
    ],
  });
});
afterAll(() => t.close());

describe('questions', () => {
  it('are shown on the listing, publicly, with their defaults', async () => {
    expect(dive.questions).toEqual(DIVE_QUESTIONS);
    const pub = await api({ method: 'GET', url: `/api/v1/equipment/items/${kayak.public_id}/` });
    expect(pub.json().questions).toEqual([
      {
        code: 'paddle',
        label: 'Paddle length',
        kind: 'number',
        choices: [],
        required: true,
        per: 'participant',
      },
    ]);
  });

  it('refuse a bad list with a 400 naming each member, changing nothing', async () => {
    const res = await api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${dive.id}/`,
      token: vendor.token,
      payload: {
        questions: [
          { code: 'cert', label: 'Cert', kind: 'choice', choices: [] },
          { code: 'cert', label: 'Again', kind: 'text', choices: ['x'] },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'questions.0.choices': ['Enter 1 to 50 choices.'],
      'questions.1.code': ['Another question already has the code cert.'],
      'questions.1.choices': ['Only a choice question has choices.'],
    });
    const again = await api({ method: 'GET', url: `/api/v1/adventrues/offerings/${dive.public_id}/` });
    expect(again.json().questions).toEqual(DIVE_QUESTIONS);
  });
});

describe('answers and the waiver on a request', () => {
  it('refuse missing, wrong and miscounted answers and a missing acceptance on the request and the quote alike', async () => {
    const before = await countRows(t.db, 'bookings');
    const bad = diveBody({
      answers: { cert: ['Open Water', 'Expert'], wetsuit: ['M'], allergies: 7, shoe: 42 },
      waiver_acceptance: { accepted: true, name: '  ' },
    });
    const errors = {
      'answers.cert': ['Enter one of: None, Open Water, Advanced for participant 2.'],
      'answers.wetsuit': ['Enter a list of 2 answers, one per participant.'],
      'answers.allergies': ['Enter a text.'],
      'answers.shoe': ['The listing asks no question with this code.'],
      waiver_acceptance: ['Enter the full name of who accepts the waiver (1 to 200 characters).'],
    };
    for (const res of [await request(bad), await quote(bad)]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual(errors);
    }
    const bare = { adventure_offering_id: dive.id, starts_at: DIVE_AT, participants_count: 1 };
    for (const res of [await request(bare), await quote(bare)]) {
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors).sort()).toEqual(['answers.cert', 'waiver_acceptance']);
    }
    // equipment: one answer per unit
    const kayakRes = await request({
      equipment_item_id: kayak.id,
      starts_at: DIVE_AT,
      ends_at: '2026-06-03T16:00:00Z',
      quantity: 2,
      answers: { paddle: [210] },
      waiver_acceptance: { accepted: true, name: 'Sam' },
    });
    expect(kayakRes.json().errors).toEqual({
      'answers.paddle': ['Enter a list of 2 answers, one per participant.'],
    });
    expect(await countRows(t.db, 'bookings')).toBe(before);
  });

  it('store the answers and the acceptance: the text’s SHA-256, and where it came from for the vendor only', async () => {
    const res = await request(diveBody(), customer, { 'user-agent': 'DiveApp/2.1 (iPhone)' });
    expect(res.statusCode, res.body).toBe(201);
    const booking = res.json();
    expect(booking.answers).toEqual({
      cert: ['Open Water', 'Advanced'],
      wetsuit: ['M', null],
      allergies: 'none',
    });
    expect(booking.attendance).toBe('pending');
    expect(booking.attendance_updated_at).toBeNull();
    const accepted = {
      name: 'Sam Rivera',
      accepted_at: '2026-06-01T12:00:00.000Z',
      text_sha256: sha256(WAIVER),
    };
    expect(booking.waiver).toEqual(accepted);
    expect((await getBooking(booking.id, customer)).json().waiver).toEqual(accepted);
    const listed = await api({ method: 'GET', url: '/api/v1/booking/bookings/', token: customer.token });
    expect(listed.json().results[0].waiver).toEqual(accepted);
    const seen = (await getBooking(booking.id, vendor)).json();
    expect(seen.waiver).toEqual({ ...accepted, client_ip: '127.0.0.1', user_agent: 'DiveApp/2.1 (iPhone)' });
    expect(seen.answers).toEqual(booking.answers);
    const vendorList = await api({ method: 'GET', url: '/api/v1/booking/bookings/', token: vendor.token });
    expect(vendorList.json().results[0].waiver.user_agent).toBe('DiveApp/2.1 (iPhone)');
  });

  it('keeps what was accepted when the text changes, and asks nothing once it is removed', async () => {
    const first = (await request(diveBody())).json();
    const edited = `${WAIVER}\nAmended.`;
    expect((await setWaiver(edited)).json().waiver_text).toBe(edited);
    const store = await api({ method: 'GET', url: `/api/v1/adventrues/storefront/${vendor.vendorSlug}/` });
    expect(store.json().vendor.waiver_text).toBe(edited);
    const second = (await request(diveBody())).json();
    expect(second.waiver.text_sha256).toBe(sha256(edited));
    expect((await getBooking(first.id, customer)).json().waiver.text_sha256).toBe(sha256(WAIVER));

    expect((await setWaiver('')).statusCode).toBe(200);
    const none = await request(diveBody({ waiver_acceptance: undefined }));
    expect(none.statusCode, none.body).toBe(201);
    expect(none.json().waiver).toBeNull();
    const ignored = await request(diveBody());
    expect(ignored.json().waiver).toBeNull();
    await setWaiver(WAIVER);
  });

  it('refuses a waiver over 20,000 characters, naming the field', async () => {
    const res = await setWaiver('x'.repeat(20_001));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['waiver_text']);
  });
});

describe('attendance', () => {
  it('follows the rules, records each change in the history, and only for the vendor', async () => {
    const made = await request(diveBody());
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as number;
    let res = await attendance(api, vendor.token, id, 'checked_in');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'invalid_state',
      detail: 'Attendance is recorded for confirmed bookings; this one is requested.',
    });
    await confirm(api, vendor, customer, id);

    res = await attendance(api, vendor.token, id, 'checked_in');
    expect(res.json()).toMatchObject({
      code: 'invalid_state',
      detail: 'Check-in opens 24 hours before the start.',
    });
    await at('2026-06-02T08:00:00.000Z');
    res = await attendance(api, vendor.token, id, 'checked_in');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'confirmed',
      attendance: 'checked_in',
      attendance_updated_at: '2026-06-02T08:00:00.000Z',
    });
    expect(res.json().status_history.at(-1)).toEqual({
      from_status: 'confirmed',
      to_status: 'confirmed',
      note: 'attendance: pending → checked_in',
      actor_id: vendor.id,
      created_at: '2026-06-02T08:00:00.000Z',
    });
    const entries = res.json().status_history.length;
    // a second tap changes nothing
    res = await attendance(api, vendor.token, id, 'checked_in');
    expect(res.json().status_history.length).toBe(entries);

    res = await attendance(api, vendor.token, id, 'no_show');
    expect(res.json().detail).toBe('A booking can be marked a no-show only from its start.');
    res = await attendance(api, vendor.token, id, 'returned');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      status: ['Only equipment is returned; an adventure booking is checked in.'],
    });
    res = await attendance(api, vendor.token, id, 'bogus');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['status']);

    expect((await attendance(api, customer.token, id, 'pending')).statusCode).toBe(403);
    const stranger = await registerVendor(t.app);
    expect((await attendance(api, stranger.token, id, 'pending')).statusCode).toBe(404);
    expect((await attendance(api, vendor.token, 999_999, 'pending')).statusCode).toBe(404);

    await at(DIVE_AT);
    res = await attendance(api, vendor.token, id, 'no_show');
    expect(res.json().attendance).toBe('no_show');
    res = await attendance(api, vendor.token, id, 'pending');
    expect(res.json().attendance).toBe('pending');
    expect(
      res
        .json()
        .status_history.slice(-2)
        .map((h: { note: string }) => h.note),
    ).toEqual(['attendance: checked_in → no_show', 'attendance: no_show → pending']);
    await at('2026-06-01T12:00:00.000Z');
  });

  it('returns equipment only after its check-in', async () => {
    const res = await request({
      equipment_item_id: kayak.id,
      starts_at: '2026-06-02T09:00:00Z',
      ends_at: '2026-06-02T17:00:00Z',
      quantity: 2,
      answers: { paddle: [210, 220] },
      waiver_acceptance: { accepted: true, name: 'Sam' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id;
    expect(res.json().answers).toEqual({ paddle: [210, 220] });
    await confirm(api, vendor, customer, id);
    expect((await attendance(api, vendor.token, id, 'returned')).json().detail).toBe(
      'Equipment can be returned only once it has been checked in.',
    );
    expect((await attendance(api, vendor.token, id, 'checked_in')).json().attendance).toBe('checked_in');
    expect((await attendance(api, vendor.token, id, 'returned')).json().attendance).toBe('returned');
  });
});
