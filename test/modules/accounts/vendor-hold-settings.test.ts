import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { PASSWORD, registerVendor } from '../../helpers/factories.ts';

// A vendor's request_ttl_minutes and payment_ttl_minutes (decisions §11): integers 1–10080, default 1440,
// accepted at registration and by PATCH, refused with a 400 naming the field, shown on the profile.

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
      email: `ttl-${n++}@example.com`,
      password: PASSWORD,
      business_name: `Ttl Boats ${n}`,
      ...fields,
    },
  });
const patch = (token: string, payload: Record<string, unknown>) =>
  api({ method: 'PATCH', url: '/api/v1/accounts/vendor-profile/me/', token, payload });
const ownProfile = async (token: string) =>
  (await api({ method: 'GET', url: '/api/v1/accounts/vendor-profile/me/', token })).json();

describe('hold settings', () => {
  it('default to 1440 minutes each and are shown on the own profile', async () => {
    const res = await register({});
    expect(res.statusCode).toBe(201);
    expect(res.json().vendor_profile).toMatchObject({ request_ttl_minutes: 1440, payment_ttl_minutes: 1440 });
  });

  it('are accepted at registration at both ends of their range', async () => {
    const res = await register({ request_ttl_minutes: 1, payment_ttl_minutes: 10080 });
    expect(res.statusCode).toBe(201);
    expect(res.json().vendor_profile).toMatchObject({ request_ttl_minutes: 1, payment_ttl_minutes: 10080 });
  });

  for (const [field, value] of [
    ['request_ttl_minutes', 0],
    ['request_ttl_minutes', 10081],
    ['payment_ttl_minutes', 1.5],
    ['payment_ttl_minutes', 'soon'],
  ] as const) {
    it(`refuses ${field} ${JSON.stringify(value)} with a 400 naming it, at registration and by PATCH`, async () => {
      const res = await register({ [field]: value });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
      const vendor = await registerVendor(t.app);
      const patched = await patch(vendor.token, { [field]: value });
      expect(patched.statusCode).toBe(400);
      expect(Object.keys(patched.json().errors)).toEqual([field]);
      expect(await ownProfile(vendor.token)).toMatchObject({
        request_ttl_minutes: 1440,
        payment_ttl_minutes: 1440,
      });
    });
  }

  it('PATCH of one keeps the other', async () => {
    const vendor = await registerVendor(t.app);
    const res = await patch(vendor.token, { payment_ttl_minutes: 30 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ request_ttl_minutes: 1440, payment_ttl_minutes: 30 });
    expect(await ownProfile(vendor.token)).toMatchObject({
      request_ttl_minutes: 1440,
      payment_ttl_minutes: 30,
    });
  });
});
