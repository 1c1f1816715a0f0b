import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { PASSWORD, registerCustomer, registerVendor } from '../../helpers/factories.ts';
import { expectThrottled, sendInTurn } from '../../helpers/rate-limits.ts';

// The caller's own account (decisions §15): editing the profile and changing the password.

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Harbour-Lights-77';

const me = (token: string) => api({ method: 'GET', url: '/api/v1/accounts/me/', token });
const patchMe = (token: string, payload: object) =>
  api({ method: 'PATCH', url: '/api/v1/accounts/me/', token, payload });
const changePassword = (token: string, payload: object) =>
  api({ method: 'POST', url: '/api/v1/accounts/password/change/', token, payload });
const login = (email: string, password: string) =>
  api({ method: 'POST', url: '/api/v1/accounts/token/', payload: { email, password } });
const refreshWith = (refresh: string) =>
  api({ method: 'POST', url: '/api/v1/accounts/token/refresh/', payload: { refresh } });

describe('PATCH /accounts/me/', () => {
  it('changes the names and phone; GET me reads them back', async () => {
    const customer = await registerCustomer(t.app);
    t.clock.advance(60_000);
    const res = await patchMe(customer.token, {
      first_name: ' Beatriz ',
      last_name: 'Moura',
      phone_number: '+351 912 345 678',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: customer.id,
      email: customer.email,
      first_name: 'Beatriz',
      last_name: 'Moura',
      phone_number: '+351 912 345 678',
      is_customer: true,
      vendor_profile: null,
    });
    const read = (await me(customer.token)).json();
    expect(read).toEqual(res.json());
  });

  it('leaves fields not given as they are; an empty body changes nothing', async () => {
    const customer = await registerCustomer(t.app, { phone_number: '+1 555 0100' });
    const partial = await patchMe(customer.token, { last_name: 'Rivers' });
    expect(partial.json()).toMatchObject({
      first_name: 'Ana',
      last_name: 'Rivers',
      phone_number: '+1 555 0100',
    });
    const before = (await me(customer.token)).json();
    const empty = await patchMe(customer.token, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual(before);
  });

  it('ignores unknown and read-only fields: the email and account kind stay', async () => {
    const customer = await registerCustomer(t.app);
    const res = await patchMe(customer.token, {
      first_name: 'Joana',
      email: 'someone-else@example.com',
      is_vendor: true,
      password: 'whatever-else',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ first_name: 'Joana', email: customer.email, is_vendor: false });
    expect((await login(customer.email, PASSWORD)).statusCode).toBe(200);
  });

  it('answers a vendor with the profile nested', async () => {
    const vendor = await registerVendor(t.app);
    const res = await patchMe(vendor.token, { first_name: 'Rui' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      first_name: 'Rui',
      is_vendor: true,
      vendor_profile: { slug: vendor.vendorSlug },
    });
  });

  it("keeps registration's limits: a field too long is a 400 naming it", async () => {
    const customer = await registerCustomer(t.app);
    const res = await patchMe(customer.token, { first_name: 'x'.repeat(151), phone_number: 'y'.repeat(41) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid');
    expect(Object.keys(res.json().errors).sort()).toEqual(['first_name', 'phone_number']);
    expect((await me(customer.token)).json().first_name).toBe('Ana');
  });

  it('needs an access token', async () => {
    const res = await api({ method: 'PATCH', url: '/api/v1/accounts/me/', payload: { first_name: 'X' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('not_authenticated');
  });
});

describe('POST /accounts/password/change/', () => {
  it('sets the new password and ends every session of the user', async () => {
    const customer = await registerCustomer(t.app);
    const other = (await login(customer.email, PASSWORD)).json(); // a second session
    const res = await changePassword(customer.token, {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    expect((await login(customer.email, PASSWORD)).statusCode).toBe(401);
    const fresh = await login(customer.email, NEW_PASSWORD);
    expect(fresh.statusCode).toBe(200);
    // the session made after the change works (checked first: showing a revoked token ends every session)
    expect((await refreshWith(fresh.json().refresh)).statusCode).toBe(200);
    for (const refresh of [customer.refresh, other.refresh]) {
      const refreshed = await refreshWith(refresh);
      expect(refreshed.statusCode).toBe(401);
      expect(refreshed.json().code).toBe('token_not_valid');
    }
  });

  it('ends the web session too: its cookie is a refresh token', async () => {
    const customer = await registerCustomer(t.app);
    const WEB = { 'x-waterbook-web': '1' };
    const web = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/',
      headers: WEB,
      payload: { email: customer.email, password: PASSWORD },
    });
    const cookie = web.cookies.find((c) => c.name === 'waterbook_refresh')!.value;
    await changePassword(web.json().access, { current_password: PASSWORD, new_password: NEW_PASSWORD });
    const refreshed = await api({
      method: 'POST',
      url: '/api/v1/accounts/web-session/refresh/',
      headers: WEB,
      cookies: { waterbook_refresh: cookie },
    });
    expect(refreshed.statusCode).toBe(401);
  });

  it('refuses a wrong current password with a 400 on current_password and changes nothing', async () => {
    const customer = await registerCustomer(t.app);
    const res = await changePassword(customer.token, {
      current_password: 'not-my-password',
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail: 'Invalid input.',
      code: 'invalid',
      errors: { current_password: ['The current password is not correct.'] },
    });
    expect((await login(customer.email, PASSWORD)).statusCode).toBe(200);
    expect((await refreshWith(customer.refresh)).statusCode).toBe(200);
  });

  it("checks the new password by registration's rules, naming new_password", async () => {
    const customer = await registerCustomer(t.app);
    const numeric = await changePassword(customer.token, {
      current_password: PASSWORD,
      new_password: '1234567890',
    });
    expect(numeric.statusCode).toBe(400);
    expect(numeric.json().errors).toEqual({ new_password: ['Password must not be entirely numeric.'] });
    const email = await changePassword(customer.token, {
      current_password: PASSWORD,
      new_password: customer.email.toUpperCase(),
    });
    expect(email.json().errors).toEqual({ new_password: ['Password must differ from the email.'] });
    const missing = await changePassword(customer.token, { current_password: PASSWORD });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors)).toEqual(['new_password']);
    expect((await login(customer.email, PASSWORD)).statusCode).toBe(200);
  });

  it('needs an access token', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/v1/accounts/password/change/',
      payload: { current_password: PASSWORD, new_password: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });

  it('is rate limited like login, with 429 in the decided body', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_LOGIN: '2' } });
    try {
      const customer = await registerCustomer(limited.app);
      const replies = await sendInTurn(3, (i) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/accounts/password/change/',
          headers: { authorization: `Bearer ${customer.token}` },
          payload: { current_password: `guess-${i}-wrong`, new_password: NEW_PASSWORD },
        }),
      );
      expect(replies.map((r) => r.statusCode)).toEqual([400, 400, 429]);
      expectThrottled(replies[2]);
    } finally {
      await limited.close();
    }
  });
});
