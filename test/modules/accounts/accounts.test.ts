import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  type Injector,
  injector,
  type TestApp,
} from '../../helpers/build-test-app.ts';
import { PASSWORD, registerCustomer, registerVendor } from '../../helpers/factories.ts';

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

const registerVendorBody = (overrides: Record<string, unknown> = {}) => ({
  email: `v${Math.random().toString(36).slice(2)}@example.com`,
  password: PASSWORD,
  first_name: 'Rita',
  last_name: 'Costa',
  phone_number: '+351 900 000 000',
  business_name: 'Algarve Kayaks',
  description: 'Sea caves by kayak',
  contact_phone: '+351 911 111 111',
  contact_email: 'hello@algarve-kayaks.example',
  address_line1: 'Marina de Lagos',
  city: 'Lagos',
  state: 'Faro',
  postal_code: '8600-780',
  country: 'PT',
  ...overrides,
});

describe('vendor registration', () => {
  it('creates a vendor with a nested profile and a slug derived from the business name', async () => {
    const body = registerVendorBody({
      email: 'Owner@Algarve.example',
      business_name: 'Algarve Kayaks & Co.',
    });
    const res = await api({ method: 'POST', url: '/api/v1/accounts/register/vendor/', payload: body });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      email: 'owner@algarve.example',
      first_name: 'Rita',
      is_vendor: true,
      is_customer: false,
      vendor_profile: {
        business_name: 'Algarve Kayaks & Co.',
        slug: 'algarve-kayaks-co',
        city: 'Lagos',
        address_line2: '',
        contact_email: 'hello@algarve-kayaks.example',
      },
    });
    expect(user.password).toBeUndefined();
    expect(user.vendor_profile.created_at).toBe(t.clock.now().toISOString());
    expect(JSON.stringify(user)).not.toContain('argon2');
  });

  it('gives colliding slugs -2, -3 suffixes', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api({
        method: 'POST',
        url: '/api/v1/accounts/register/vendor',
        payload: registerVendorBody({ business_name: 'Ría Formosa Boats' }),
      });
      expect(res.statusCode).toBe(201);
      slugs.push(res.json().vendor_profile.slug);
    }
    expect(slugs).toEqual(['ria-formosa-boats', 'ria-formosa-boats-2', 'ria-formosa-boats-3']);
  });

  it('needs only email, password and business_name; the rest defaults to ""', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/vendor/',
      payload: { email: 'minimal@example.com', password: PASSWORD, business_name: 'Minimal Surf' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().vendor_profile).toMatchObject({
      description: '',
      city: '',
      country: '',
      contact_email: '',
      currency: 'usd',
      time_zone: 'UTC',
    });
  });

  it('rejects a duplicate email case-insensitively, naming the field', async () => {
    const email = 'dup@example.com';
    expect(
      (
        await api({
          method: 'POST',
          url: '/api/v1/accounts/register/vendor/',
          payload: registerVendorBody({ email }),
        })
      ).statusCode,
    ).toBe(201);
    const before = await countRows(t.db, 'vendor_profiles');
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/vendor/',
      payload: registerVendorBody({ email: 'DUP@example.com' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid',
      errors: { email: [expect.stringContaining('already exists')] },
    });
    expect(await countRows(t.db, 'vendor_profiles')).toBe(before);
  });

  it.each([
    ['short', ['Password must be at least 8 characters long.']],
    ['12345678901', ['Password must not be entirely numeric.']],
  ])('rejects the password %s', async (password, messages) => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/vendor/',
      payload: registerVendorBody({ password }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.password).toEqual(messages);
  });

  it('rejects a password equal to the email', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      payload: { email: 'same-as-pass@example.com', password: 'Same-As-Pass@example.com' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.password).toEqual(['Password must differ from the email.']);
  });

  it('names every missing or malformed field', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/vendor/',
      payload: { email: 'not-an-email', contact_email: 'nope', password: 12 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('invalid');
    expect(Object.keys(body.errors).sort()).toEqual(['business_name', 'contact_email', 'email', 'password']);
  });

  it('rejects a blank business name', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/vendor/',
      payload: registerVendorBody({ business_name: '   ' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.business_name).toBeDefined();
  });
});

describe('customer registration', () => {
  it('creates a customer without a vendor profile', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      payload: {
        email: 'Maria@Example.com',
        password: PASSWORD,
        first_name: 'Maria',
        last_name: 'Lopes',
        phone_number: '123',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: 'maria@example.com',
      first_name: 'Maria',
      last_name: 'Lopes',
      phone_number: '123',
      is_vendor: false,
      is_customer: true,
      vendor_profile: null,
    });
  });

  it('ignores read-only fields such as is_vendor and is_staff', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/register/customer/',
      payload: { email: 'sneaky@example.com', password: PASSWORD, is_vendor: true, is_staff: true, id: 999 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().is_vendor).toBe(false);
    expect(res.json().id).not.toBe(999);
    const row = await t.db
      .selectFrom('users')
      .select(['is_staff', 'is_vendor'])
      .where('email', '=', 'sneaky@example.com')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_staff: 0, is_vendor: 0 });
  });
});

describe('login and tokens', () => {
  it('returns a token pair for the right password, case-insensitive email', async () => {
    const customer = await registerCustomer(t.app);
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      payload: { email: customer.email.toUpperCase(), password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const { access, refresh } = res.json();
    const claims = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ sub: String(customer.id), token_type: 'access' });
    expect(claims.exp - claims.iat).toBe(15 * 60);
    expect(typeof claims.jti).toBe('string');
    const refreshClaims = JSON.parse(Buffer.from(refresh.split('.')[1], 'base64url').toString());
    expect(refreshClaims.token_type).toBe('refresh');
    expect(refreshClaims.exp - refreshClaims.iat).toBe(7 * 24 * 3600);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const customer = await registerCustomer(t.app);
    const wrong = await api({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      payload: { email: customer.email, password: 'wrong-password' },
    });
    const unknown = await api({
      method: 'POST',
      url: '/api/v1/accounts/token/',
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        detail: 'No active account found with the given credentials',
        code: 'not_authenticated',
      });
    }
  });

  it('rotates refresh tokens and detects reuse', async () => {
    const customer = await registerCustomer(t.app);
    const first = await api({
      method: 'POST',
      url: '/api/v1/accounts/token/refresh/',
      payload: { refresh: customer.refresh },
    });
    expect(first.statusCode).toBe(200);
    const pair = first.json();
    expect(pair.refresh).not.toBe(customer.refresh);
    const me = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: pair.access });
    expect(me.json().id).toBe(customer.id);

    // The rotated-out token comes back: it leaked, so every refresh token of the user dies.
    const reuse = await api({
      method: 'POST',
      url: '/api/v1/accounts/token/refresh/',
      payload: { refresh: customer.refresh },
    });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('token_not_valid');
    const afterReuse = await api({
      method: 'POST',
      url: '/api/v1/accounts/token/refresh/',
      payload: { refresh: pair.refresh },
    });
    expect(afterReuse.statusCode).toBe(401);
    const live = await t.db
      .selectFrom('refresh_tokens')
      .select('jti')
      .where('user_id', '=', customer.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
  });

  it('refuses an access token as refresh and a refresh token as access, also after their first use', async () => {
    const customer = await registerCustomer(t.app);
    for (const used of [false, true]) {
      if (used) {
        // Each used once in its own role: the server now remembers both signatures as verified.
        const me = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: customer.token });
        expect(me.statusCode).toBe(200);
        const rotated = await api({
          method: 'POST',
          url: '/api/v1/accounts/token/refresh/',
          payload: { refresh: customer.refresh },
        });
        expect(rotated.statusCode).toBe(200);
      }
      const asRefresh = await api({
        method: 'POST',
        url: '/api/v1/accounts/token/refresh/',
        payload: { refresh: customer.token },
      });
      expect(asRefresh.statusCode).toBe(401);
      expect(asRefresh.json()).toEqual({
        detail: 'Token is not a valid refresh token.',
        code: 'token_not_valid',
      });
      const asAccess = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: customer.refresh });
      expect(asAccess.statusCode).toBe(401);
      expect(asAccess.json()).toEqual({
        detail: 'Token is not a valid access token.',
        code: 'token_not_valid',
      });
    }
  });

  it('expires access tokens after ACCESS_TOKEN_TTL, also a token already used', async () => {
    const customer = await registerCustomer(t.app);
    const me = () => api({ method: 'GET', url: '/api/v1/accounts/me/', token: customer.token });
    expect((await me()).statusCode).toBe(200); // verified once: remembered by the server
    const { exp } = JSON.parse(Buffer.from(customer.token.split('.')[1], 'base64url').toString());
    const toExpiry = exp * 1000 - t.clock.now().getTime();
    expect(toExpiry).toBeGreaterThan(14 * 60 * 1000);
    t.clock.advance(toExpiry - 1);
    try {
      expect((await me()).statusCode).toBe(200);
      t.clock.advance(1);
      const res = await me();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Token has expired.', code: 'token_not_valid' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    } finally {
      t.clock.advance(-toExpiry);
    }
    // A fresh token that was never used expires the same way.
    const other = await registerCustomer(t.app);
    t.clock.advance(15 * 60 * 1000 + 1000);
    try {
      const res = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: other.token });
      expect(res.json()).toEqual({ detail: 'Token has expired.', code: 'token_not_valid' });
    } finally {
      t.clock.advance(-(15 * 60 * 1000 + 1000));
    }
  });

  it('rejects tampered and unsigned tokens', async () => {
    const customer = await registerCustomer(t.app);
    const [header, payload] = customer.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const token of [`${header}.${forged}.${customer.token.split('.')[2]}`, none, 'garbage']) {
      const res = await api({ method: 'GET', url: '/api/v1/accounts/me/', token });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_not_valid');
    }
  });
});

describe('me and vendor profile', () => {
  it('needs a token for me, with WWW-Authenticate', async () => {
    const res = await api({ method: 'GET', url: '/api/v1/accounts/me' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({
      detail: 'Authentication credentials were not provided.',
      code: 'not_authenticated',
    });
  });

  it('returns the vendor with its profile from me', async () => {
    const vendor = await registerVendor(t.app, { business_name: 'Me Kayaks' });
    const res = await api({ method: 'GET', url: '/api/v1/accounts/me/', token: vendor.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: vendor.id,
      is_vendor: true,
      vendor_profile: { slug: vendor.vendorSlug },
    });
  });

  it('forbids the vendor profile to a customer (403, not 401)', async () => {
    const customer = await registerCustomer(t.app);
    const res = await api({
      method: 'GET',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: customer.token,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('permission_denied');
  });

  it('patches a subset of fields and re-derives the slug from a new business name', async () => {
    await registerVendor(t.app, { business_name: 'Tidal Tours' });
    const vendor = await registerVendor(t.app, { business_name: 'Old Name Surf' });
    t.clock.advance(60_000);
    const res = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      payload: {
        business_name: 'Tidal Tours',
        city: 'Faro',
        slug: 'hacked',
        created_at: '2000-01-01T00:00:00Z',
      },
    });
    expect(res.statusCode).toBe(200);
    const profile = res.json();
    expect(profile).toMatchObject({ business_name: 'Tidal Tours', slug: 'tidal-tours-2', city: 'Faro' });
    expect(profile.updated_at).toBe(t.clock.now().toISOString());
    expect(profile.created_at).not.toBe('2000-01-01T00:00:00.000Z');
    const again = await api({
      method: 'GET',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
    });
    expect(again.json().slug).toBe('tidal-tours-2');

    // Keeping the same name keeps the slug.
    const same = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me',
      token: vendor.token,
      payload: { description: 'New' },
    });
    expect(same.json()).toMatchObject({ slug: 'tidal-tours-2', description: 'New' });
  });

  it('rejects a bad contact email on patch', async () => {
    const vendor = await registerVendor(t.app);
    const res = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      payload: { contact_email: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.contact_email).toBeDefined();
  });
});
