import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTwoServers } from './two-servers.ts';

// Promo codes under real concurrency (decisions §21): two server processes on one database (a SQLite
// file, or PostgreSQL with TEST_DATABASE_URL), simultaneous HTTP requests spread over both. A code with N
// redemptions left is carried by exactly N bookings, across several listings of the vendor (each request
// locks its listing, then the code: one lock order, no deadlock); a declined or cancelled booking gives
// its redemption back to the next request.

const world = useTwoServers();
const { send, account } = world;

async function tours(vendorToken: string, count: number) {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const made = await send(
      'POST',
      '/api/v1/adventrues/vendor/offerings/',
      {
        public_id: `promo-race-${randomBytes(4).toString('hex')}`,
        title: 'Race tour',
        price_per_person: '35.00',
        price_categories: [
          { code: 'adult', label: 'Adult', price: '35.00' },
          { code: 'child', label: 'Child', price: '20.00' },
        ],
        duration_minutes: 120,
        capacity: 100,
        booking_mode: 'shared',
        category_id: 1,
      },
      vendorToken,
    );
    expect(made.status).toBe(201);
    ids.push(made.json.id);
  }
  return ids;
}

const STARTS = '2031-03-03T09:00:00.000Z';
const request = (tourId: number, token: string, code: string) =>
  send(
    'POST',
    '/api/v1/booking/bookings/request/',
    {
      adventure_offering_id: tourId,
      starts_at: STARTS,
      participants: { adult: 1, child: 1 },
      promo_code: code,
    },
    token,
  );

async function carriers(codeId: number) {
  const rows = await world.handle.db
    .selectFrom('bookings')
    .select(['id', 'total_price_cents'])
    .where('promo_code_id', '=', codeId)
    .where('status', 'in', ['requested', 'approved', 'confirmed'])
    .execute();
  return rows;
}

describe('a promo code with N redemptions left, requested at once through two server processes', () => {
  it('is carried by exactly N bookings, across listings, each discounted; the rest get a 400 on promo_code', async () => {
    const vendor = await account('vendor', { business_name: `Promo race ${randomBytes(3).toString('hex')}` });
    const ids = await tours(vendor.token, 3);
    const made = await send(
      'POST',
      '/api/v1/booking/vendor/promo-codes/',
      { code: 'RACE5', percent_off: 10, max_redemptions: 5 },
      vendor.token,
    );
    expect(made.status).toBe(201);
    const customer = await account('customer');
    const answers = await Promise.all(
      Array.from({ length: 18 }, (_, i) => request(ids[i % 3], customer.token, 'race5')),
    );
    const ok = answers.filter((a) => a.status === 201);
    expect(ok).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 400);
    expect(refused).toHaveLength(13);
    for (const r of refused)
      expect(r.json.errors).toEqual({ promo_code: ['This promo code has no redemptions left.'] });
    // 35.00 + 20.00, less 10 %
    for (const o of ok) expect(o.json.total_price).toBe('49.50');
    const held = await carriers(made.json.id);
    expect(held).toHaveLength(5);
    expect(held.every((b) => Number(b.total_price_cents) === 4950)).toBe(true);
    expect(
      (await send('GET', `/api/v1/booking/vendor/promo-codes/${made.json.id}/`, undefined, vendor.token)).json
        .redemptions,
    ).toBe(5);
  });

  it('gives a declined or cancelled booking’s redemption back: exactly that many more succeed at once', async () => {
    const vendor = await account('vendor', { business_name: `Promo back ${randomBytes(3).toString('hex')}` });
    const [id] = await tours(vendor.token, 1);
    const made = await send(
      'POST',
      '/api/v1/booking/vendor/promo-codes/',
      { code: 'BACK2', amount_off: '5.00', max_redemptions: 2 },
      vendor.token,
    );
    const customer = await account('customer');
    const first = await request(id, customer.token, 'BACK2');
    const second = await request(id, customer.token, 'BACK2');
    expect([first.status, second.status]).toEqual([201, 201]);
    const [declined, cancelled] = await Promise.all([
      send('POST', `/api/v1/booking/bookings/${first.json.id}/decline/`, {}, vendor.token),
      send('POST', `/api/v1/booking/bookings/${second.json.id}/cancel/`, {}, customer.token),
    ]);
    expect([declined.status, cancelled.status]).toEqual([200, 200]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(id, customer.token, 'back2')));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(8);
    expect(await carriers(made.json.id)).toHaveLength(2);
  });
});
