import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { priceLine, promoCodes, quoter, TOUR_PRICES } from './prices-helpers.ts';
import { bookingRequester, transitioner } from './setup.ts';

// Prices the way tours are sold (decisions §21), end to end through the API: categories, extras, promo
// codes, the stored price lines, the quote, and the payment amount.

let t: TestApp;
let api: Injector;
let request: ReturnType<typeof bookingRequester>;
let transition: ReturnType<typeof transitioner>;
let quote: ReturnType<typeof quoter>;
let vendor: Account;
let customer: Account;
let codes: ReturnType<typeof promoCodes>;
let tour: ListingOut;

const STARTS = '2026-07-01T09:00:00Z';

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  request = bookingRequester(api);
  transition = transitioner(api);
  quote = quoter(api);
  vendor = await registerVendor(t.app, { business_name: 'Benagil Boats' });
  customer = await registerCustomer(t.app);
  codes = promoCodes(api, vendor);
  tour = await createAdventure(t.app, vendor, { ...TOUR_PRICES, booking_mode: 'shared', capacity: 20 });
});
afterAll(() => t.close());

const tourBody = (extra: Record<string, unknown> = {}) => ({
  adventure_offering_id: tour.id,
  starts_at: STARTS,
  participants: { adult: 2, child: 1 },
  extras: { wetsuit: 3, gopro: 1 },
  ...extra,
});

async function newCode(payload: Record<string, unknown>) {
  const res = await codes.create(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; code: string; redemptions: number };
}

const redemptions = async (id: number) => (await codes.get(id)).json().redemptions as number;

describe('listing price settings', () => {
  it('are shown as given, prices as money strings and resource_id null', () => {
    expect(tour.price_categories).toEqual(TOUR_PRICES.price_categories);
    expect(tour.extras).toEqual([
      { ...TOUR_PRICES.extras[0], resource_id: null },
      { ...TOUR_PRICES.extras[1], resource_id: null },
    ]);
    expect(tour.price_per_person).toBe('35.00');
  });

  it('refuse bad members with a 400 naming each', async () => {
    const res = await api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
      token: vendor.token,
      payload: {
        price_categories: [
          { code: 'adult', label: 'Adult', price: '35.00' },
          { code: 'adult', label: 'Again', price: '1.999' },
        ],
        extras: [{ code: 'boat', label: 'Boat', price: '5.00', per: 'day', max_quantity: 1, resource_id: 3 }],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'extras.0.resource_id',
      'price_categories.1.code',
      'price_categories.1.price',
    ]);
  });
});

describe('a request priced by categories, extras and a promo code', () => {
  it('stores the lines, which add up to the total, and the code', async () => {
    const spring = await newCode({ code: 'spring10', percent_off: 10, max_redemptions: 50 });
    expect(spring.code).toBe('SPRING10');
    const res = await request(customer.token, tourBody({ promo_code: 'Spring10' }));
    expect(res.statusCode, res.body).toBe(201);
    const booking = res.json();
    expect(booking.participants_count).toBe(3);
    expect(booking.promo_code).toBe('SPRING10');
    expect(booking.price_lines).toEqual([
      priceLine('category', 'adult', 'Adult', 2, '35.00', '70.00'),
      priceLine('category', 'child', 'Child', 1, '20.00', '20.00'),
      priceLine('extra', 'wetsuit', 'Wetsuit (1 day)', 3, '5.00', '15.00'),
      priceLine('extra', 'gopro', 'GoPro', 1, '15.00', '15.00'),
      priceLine('discount', 'SPRING10', 'Promo code SPRING10 (10% off)', 1, '-12.00', '-12.00'),
    ]);
    expect(booking.total_price).toBe('108.00');
    expect(await redemptions(spring.id)).toBe(1);

    // a later price change never changes the booking
    const patched = await api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
      token: vendor.token,
      payload: { price_categories: [{ code: 'adult', label: 'Adult', price: '99.00' }], extras: [] },
    });
    expect(patched.statusCode).toBe(200);
    const again = await api({
      method: 'GET',
      url: `/api/v1/booking/bookings/${booking.id}/`,
      token: customer.token,
    });
    expect(again.json().price_lines).toEqual(booking.price_lines);
    expect(again.json().total_price).toBe('108.00');
    await api({
      method: 'PATCH',
      url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
      token: vendor.token,
      payload: TOUR_PRICES,
    });

    // the payment is of the discounted total
    expect((await transition(vendor.token, booking.id, 'approve')).statusCode).toBe(200);
    const intent = await api({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      token: customer.token,
      payload: { booking_id: booking.id },
    });
    expect(intent.statusCode).toBe(201);
    expect(intent.json().payment.amount).toBe('108.00');
  });

  it('prices per-day extras by the rental days and rounds a percentage down to the cent', async () => {
    const item = await createEquipment(t.app, vendor, {
      price_per_day: '10.01',
      extras: [{ code: 'wetsuit', label: 'Wetsuit', price: '5.00', per: 'day', max_quantity: 4 }],
    });
    const third = await newCode({ code: 'THIRD-OFF', percent_off: 33 });
    const oneDay = await quote({
      equipment_item_id: item.id,
      starts_at: STARTS,
      ends_at: '2026-07-01T17:00:00Z',
      promo_code: 'third-off',
    });
    expect(oneDay.statusCode, oneDay.body).toBe(200);
    // 33 % of 10.01 is 3.30
    expect(oneDay.json().price_lines).toEqual([
      priceLine('base', null, 'Sea kayak, 8 h', 1, '10.01', '10.01'),
      priceLine('discount', 'THIRD-OFF', 'Promo code THIRD-OFF (33% off)', 1, '-3.30', '-3.30'),
    ]);
    expect(oneDay.json().total_price).toBe('6.71');
    const fiftyHours = await quote({
      equipment_item_id: item.id,
      starts_at: STARTS,
      ends_at: '2026-07-03T11:00:00Z',
      quantity: 1,
      extras: { wetsuit: 2 },
    });
    expect(fiftyHours.json().price_lines).toEqual([
      priceLine('base', null, 'Sea kayak, 50 h', 1, '30.03', '30.03'),
      priceLine('extra', 'wetsuit', 'Wetsuit (3 days)', 2, '15.00', '30.00'),
    ]);
    expect(fiftyHours.json().total_price).toBe('60.03');
    expect(third.redemptions).toBe(0);
  });

  it('caps an amount off at the subtotal: never a negative total', async () => {
    await newCode({ code: 'BIG', amount_off: '500.00' });
    const res = await quote(tourBody({ promo_code: 'big' }));
    expect(res.json().total_price).toBe('0.00');
    expect(res.json().price_lines.at(-1)).toEqual(
      priceLine('discount', 'BIG', 'Promo code BIG (amount off)', 1, '-120.00', '-120.00'),
    );
  });
});

describe('the quote', () => {
  it('prices exactly as the request does and creates nothing', async () => {
    const code = await newCode({ code: 'QUOTE5', amount_off: '5.00', max_redemptions: 3 });
    const before = await Promise.all([countRows(t.db, 'bookings'), countRows(t.db, 'listing_clicks')]);
    const body = tourBody({ promo_code: 'QUOTE5', participants: { adult: 1, child: 2 } });
    const quoted = await quote(body, customer.token);
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(quoted.json()).toMatchObject({ currency: 'usd', total_price: '100.00', is_available: true });
    expect(await Promise.all([countRows(t.db, 'bookings'), countRows(t.db, 'listing_clicks')])).toEqual(
      before,
    );
    expect(await redemptions(code.id)).toBe(0);
    const made = await request(customer.token, body);
    expect(made.json().price_lines).toEqual(quoted.json().price_lines);
    expect(made.json().total_price).toBe(quoted.json().total_price);
  });

  it('answers the same 400s and 404s as a request, and is_available false where a request gets 409', async () => {
    const bodies = [
      tourBody({ participants: undefined, participants_count: 2 }),
      tourBody({ participants: { adult: 1, teen: 1 } }),
      tourBody({ extras: { snorkel: 1, wetsuit: 11 } }),
      tourBody({ promo_code: 'NOPE' }),
      tourBody({ adventure_offering_id: 999_999 }),
      tourBody({ participants: { adult: 0 } }),
    ];
    for (const body of bodies) {
      const [q, r] = [await quote(body), await request(customer.token, body)];
      expect(q.statusCode).toBe(r.statusCode);
      expect(q.json()).toEqual(r.json());
    }
    const errors = async (body: Record<string, unknown>) => (await quote(body)).json().errors;
    expect(await errors(bodies[0])).toHaveProperty('participants');
    expect(Object.keys(await errors(bodies[1]))).toEqual(['participants.teen']);
    expect(Object.keys(await errors(bodies[2])).sort()).toEqual(['extras.snorkel', 'extras.wetsuit']);
    expect(await errors(bodies[3])).toEqual({ promo_code: ['Unknown promo code.'] });
    expect((await quote(bodies[4])).statusCode).toBe(404);
    const full = await quote(tourBody({ participants: { adult: 20 } }));
    expect(full.statusCode).toBe(200);
    expect(full.json().is_available).toBe(false);
    expect((await request(customer.token, tourBody({ participants: { adult: 20 } }))).statusCode).toBe(409);
  });
});

describe('promo code refusals', () => {
  it('name promo_code with the reason', async () => {
    const other = await registerVendor(t.app, { business_name: 'Other Boats' });
    const otherCodes = promoCodes(api, other);
    expect((await otherCodes.create({ code: 'ELSEWHERE', percent_off: 5 })).statusCode).toBe(201);
    const item = await createEquipment(t.app, vendor);
    await newCode({ code: 'INACTIVE', percent_off: 5, is_active: false });
    await newCode({ code: 'ITEM-ONLY', percent_off: 5, listing_ids: [{ kind: 'equipment', id: item.id }] });
    await newCode({ code: 'LATER', percent_off: 5, valid_from: '2026-12-01T00:00:00Z' });
    await newCode({ code: 'OVER', percent_off: 5, valid_until: '2026-01-01T00:00:00Z' });
    const reason = async (code: string) =>
      (await quote(tourBody({ promo_code: code }))).json().errors?.promo_code;
    expect(await reason('elsewhere')).toEqual(['This promo code is not valid for this vendor.']);
    expect(await reason('inactive')).toEqual(['This promo code is no longer active.']);
    expect(await reason('item-only')).toEqual(['This promo code is not valid for this listing.']);
    expect(await reason('later')).toEqual(['This promo code is valid from 2026-12-01T00:00:00.000Z.']);
    expect(await reason('over')).toEqual(['This promo code expired at 2026-01-01T00:00:00.000Z.']);
  });
});

describe('promo codes CRUD', () => {
  it('validates, keeps codes unique per vendor without regard to case, and hides other vendors’ codes', async () => {
    const made = await newCode({ code: 'Summer-25', amount_off: '25', valid_until: '2026-09-01T00:00:00Z' });
    expect(made).toMatchObject({
      code: 'SUMMER-25',
      percent_off: null,
      amount_off: '25.00',
      valid_from: null,
      valid_until: '2026-09-01T00:00:00.000Z',
      max_redemptions: null,
      redemptions: 0,
      listing_ids: null,
      is_active: true,
    });
    const errors = async (payload: Record<string, unknown>) => (await codes.create(payload)).json().errors;
    expect(await errors({ code: 'summer-25', percent_off: 5 })).toHaveProperty('code');
    expect(Object.keys(await errors({ code: 'BOTH', percent_off: 5, amount_off: '1.00' })).sort()).toEqual([
      'amount_off',
      'percent_off',
    ]);
    expect(Object.keys(await errors({ code: 'NONE' })).sort()).toEqual(['amount_off', 'percent_off']);
    expect(await errors({ code: 'ab', percent_off: 5 })).toHaveProperty('code');
    expect(await errors({ code: 'PCT', percent_off: 101 })).toHaveProperty('percent_off');
    expect(
      await errors({
        code: 'DATES',
        percent_off: 5,
        valid_from: '2026-09-01T00:00:00Z',
        valid_until: '2026-08-01T00:00:00Z',
      }),
    ).toHaveProperty('valid_until');
    expect(
      await errors({ code: 'ELSE', percent_off: 5, listing_ids: [{ kind: 'adventure', id: 999_999 }] }),
    ).toHaveProperty(['listing_ids.0']);

    const patched = await codes.patch(made.id, { amount_off: null, percent_off: 15, is_active: false });
    expect(patched.json()).toMatchObject({ percent_off: 15, amount_off: null, is_active: false });
    const other = promoCodes(api, await registerVendor(t.app, { business_name: 'Third Boats' }));
    expect((await other.get(made.id)).statusCode).toBe(404);
    expect((await other.patch(made.id, { is_active: true })).statusCode).toBe(404);
    expect((await other.remove(made.id)).statusCode).toBe(404);
    expect((await codes.list()).json().results.map((c: { code: string }) => c.code)).toContain('SUMMER-25');
    expect((await codes.remove(made.id)).statusCode).toBe(204);
    expect((await codes.get(made.id)).statusCode).toBe(404);
  });
});

// last: it moves the clock past the holds (and the tokens)
describe('redemptions', () => {
  it('counts redemptions from holding bookings: decline, cancel and expiry give them back', async () => {
    const code = await newCode({ code: 'TWICE', percent_off: 50, max_redemptions: 2 });
    const book = () => request(customer.token, tourBody({ promo_code: 'TWICE' }));
    const first = (await book()).json();
    const second = (await book()).json();
    expect(await redemptions(code.id)).toBe(2);
    const third = await book();
    expect(third.statusCode).toBe(400);
    expect(third.json().errors).toEqual({ promo_code: ['This promo code has no redemptions left.'] });
    expect((await transition(vendor.token, first.id, 'decline')).statusCode).toBe(200);
    expect(await redemptions(code.id)).toBe(1);
    expect((await transition(customer.token, second.id, 'cancel')).statusCode).toBe(200);
    expect(await redemptions(code.id)).toBe(0);
    const fourth = (await book()).json();
    const fifth = (await book()).json();
    expect(await redemptions(code.id)).toBe(2);
    const quoted = () => quote(tourBody({ promo_code: 'TWICE' }));
    expect((await quoted()).statusCode).toBe(400);
    // the holds lapse (no sweep has run): the redemptions are free again; tokens have expired by then,
    // so the public quote shows it
    t.clock.set(new Date(Math.max(Date.parse(fourth.expires_at), Date.parse(fifth.expires_at)) + 1));
    const after = await quoted();
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().total_price).toBe('60.00');
  });
});
