import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDownThrough, migrateToLatest } from '../../../src/db/migrate.ts';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { PASSWORD, registerVendor } from '../../helpers/factories.ts';

// A vendor's currency and time zone (decisions §10): accepted at registration and by PATCH, normalised,
// refused with a 400 naming the field, and shown wherever the profile is.

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

let n = 0;
const register = (fields: Record<string, unknown>) =>
  api({
    method: 'POST',
    url: '/api/v1/accounts/register/vendor/',
    payload: {
      email: `locale-${n++}-${Date.now()}@example.com`,
      password: PASSWORD,
      business_name: `Locale Boats ${n}`,
      ...fields,
    },
  });

const patch = (token: string, payload: Record<string, unknown>) =>
  api({ method: 'PATCH', url: '/api/v1/accounts/vendor-profile/me/', token, payload });

describe('at registration', () => {
  it('stores the currency lower-case and the zone in the platform spelling', async () => {
    const cases = [
      [
        { currency: 'JPY', time_zone: 'Asia/Tokyo' },
        { currency: 'jpy', time_zone: 'Asia/Tokyo' },
      ],
      [
        { currency: ' eur ', time_zone: 'europe/lisbon' },
        { currency: 'eur', time_zone: 'Europe/Lisbon' },
      ],
      [
        { currency: 'Gbp', time_zone: 'utc' },
        { currency: 'gbp', time_zone: 'UTC' },
      ],
      [{ time_zone: 'US/Pacific' }, { currency: 'usd', time_zone: 'America/Los_Angeles' }],
      [{ time_zone: 'Etc/UTC' }, { currency: 'usd', time_zone: 'UTC' }],
      [{ time_zone: 'Pacific/Kiritimati' }, { currency: 'usd', time_zone: 'Pacific/Kiritimati' }],
    ] as const;
    for (const [given, stored] of cases) {
      const res = await register(given);
      expect(res.statusCode, JSON.stringify(given)).toBe(201);
      expect(res.json().vendor_profile).toMatchObject(stored);
    }
  });

  it('refuses unknown codes and zones, naming each field, and stores nothing', async () => {
    const bad = await register({
      currency: 'ABC',
      time_zone: 'Mars/Olympus_Mons',
      business_name: 'Nope Ltd',
    });
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(body.code).toBe('invalid');
    expect(Object.keys(body.errors).sort()).toEqual(['currency', 'time_zone']);
    expect(body.errors.currency[0]).toContain('ABC');
    expect(body.errors.time_zone[0]).toContain('Mars/Olympus_Mons');
    const stored = await t.db
      .selectFrom('vendor_profiles')
      .select('id')
      .where('business_name', '=', 'Nope Ltd')
      .execute();
    expect(stored).toEqual([]);
  });

  it('refuses offsets, abbreviations that are not zones and malformed codes', async () => {
    for (const time_zone of ['+01:00', '-05', 'Z', '', 'Europe/']) {
      const res = await register({ time_zone });
      expect(res.statusCode, time_zone).toBe(400);
      expect(Object.keys(res.json().errors), time_zone).toEqual(['time_zone']);
    }
    for (const currency of ['us', 'usdd', '€€€', '', 'XXX', 123]) {
      const res = await register({ currency });
      expect(res.statusCode, String(currency)).toBe(400);
      expect(Object.keys(res.json().errors), String(currency)).toEqual(['currency']);
    }
  });
});

describe('PATCH vendor-profile/me/', () => {
  it('changes both, shows them on the profile, me and the storefront', async () => {
    const vendor = await registerVendor(t.app);
    const res = await patch(vendor.token, { currency: 'chf', time_zone: 'europe/zurich' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ currency: 'chf', time_zone: 'Europe/Zurich' });

    const profile = await api({
      method: 'GET',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
    });
    expect(profile.json()).toMatchObject({ currency: 'chf', time_zone: 'Europe/Zurich' });
    const me = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: vendor.token });
    expect(me.json().vendor_profile).toMatchObject({ currency: 'chf', time_zone: 'Europe/Zurich' });
    const storefront = await api({
      method: 'GET',
      url: `/api/v1/equipment/storefront/${vendor.vendorSlug}/`,
    });
    expect(storefront.statusCode).toBe(200);
    expect(storefront.json().vendor).toMatchObject({ currency: 'chf', time_zone: 'Europe/Zurich' });
  });

  it('leaves what the body does not name, and refuses bad values without changing anything', async () => {
    const vendor = await registerVendor(t.app, { currency: 'EUR', time_zone: 'Europe/Lisbon' });
    const other = await patch(vendor.token, { city: 'Porto' });
    expect(other.json()).toMatchObject({ city: 'Porto', currency: 'eur', time_zone: 'Europe/Lisbon' });

    const bad = await patch(vendor.token, { currency: 'eurr', time_zone: 'Lisbon', city: 'Faro' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['currency', 'time_zone']);
    const onlyZone = await patch(vendor.token, { time_zone: 'Not/AZone' });
    expect(onlyZone.statusCode).toBe(400);
    expect(Object.keys(onlyZone.json().errors)).toEqual(['time_zone']);
    const after = await api({
      method: 'GET',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
    });
    expect(after.json()).toMatchObject({ city: 'Porto', currency: 'eur', time_zone: 'Europe/Lisbon' });
  });
});

describe('the migration', () => {
  it('gives existing vendor profiles usd and UTC', async () => {
    const own = await buildTestApp();
    try {
      const down = await migrateDownThrough(own.db, '2026112501-vendor-money');
      expect(down.at(-1)).toEqual('Down 2026112501-vendor-money: Success');
      const at = Date.UTC(2026, 0, 1);
      const user = await own.db
        .insertInto('users')
        .values({
          email: 'before@example.com',
          password_hash: 'x',
          first_name: '',
          last_name: '',
          phone_number: '',
          is_vendor: 1,
          is_staff: 0,
          date_joined: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await own.db
        .insertInto('vendor_profiles')
        // the columns as they were before the migration
        .values({
          user_id: user.id,
          business_name: 'Before',
          slug: 'before',
          description: '',
          contact_phone: '',
          contact_email: '',
          address_line1: '',
          address_line2: '',
          city: '',
          state: '',
          postal_code: '',
          country: '',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await migrateToLatest(own.db);
      const row = await own.db
        .selectFrom('vendor_profiles')
        .select(['currency', 'time_zone'])
        .where('slug', '=', 'before')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ currency: 'usd', time_zone: 'UTC' });
    } finally {
      await own.close();
    }
  });
});
