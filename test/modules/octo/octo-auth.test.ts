import { zErrorForbidden, zErrorUnauthorized, zSupplier } from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { type Account, registerVendor } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';

// The OCTO API's door (decisions §24): a channel's key as a Bearer token; OCTO's error bodies for every
// refusal (validated with the OCTO project's own schemas); a key sees its own vendor only; GET supplier.

let t: TestApp;
let api: Injector;
let vendor: Account;
let other: Account;
let key: string;
let otherKey: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL: 'https://book.example' } });
  api = injector(t.app);
  vendor = await registerVendor(t.app, {
    business_name: 'Lagos Sea Co',
    contact_email: 'desk@lagos-sea.example',
    contact_phone: '+351 282 000 000',
    city: 'Lagos',
    country: 'Portugal',
    description: 'Boat trips along the Algarve',
  });
  other = await registerVendor(t.app, { business_name: 'Elsewhere Tours' });
  key = (await newChannel(api, vendor)).apiKey;
  otherKey = (await newChannel(api, other)).apiKey;
});
afterAll(() => t?.close());

const channelRoutes = () => t.app.routeTable.filter((r) => r.auth === 'channel' && r.method !== 'HEAD');
const pathOf = (url: string) => url.replace(/^\/octo\/v1\//, '').replace(/:(\w+)/g, 'x');

describe('authentication', () => {
  it('answers 401 UNAUTHORIZED without a Bearer key on every OCTO route', async () => {
    expect(channelRoutes().length).toBeGreaterThanOrEqual(2);
    for (const route of channelRoutes())
      for (const headers of [
        {},
        { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        { authorization: 'Bearer ' },
      ]) {
        const res = await api({
          method: route.method as 'GET',
          url: route.url.replace(/:(\w+)/g, 'x'),
          headers,
        });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(401);
        const body = zErrorUnauthorized.parse(res.json());
        expect(body.error).toBe('UNAUTHORIZED');
        expect(body.errorMessage).toMatch(/API Key/);
      }
  });

  it("answers 403 FORBIDDEN to a key that is no active channel's, and to an account's token", async () => {
    const forged = `wbk_${'A'.repeat(43)}`;
    for (const route of channelRoutes())
      for (const bad of [forged, 'not-a-key', key.slice(0, -1), `${key}x`, vendor.token]) {
        const res = await octo(api, bad)(route.method as 'GET', pathOf(route.url));
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
        expect(zErrorForbidden.parse(res.json()).error).toBe('FORBIDDEN');
      }
  });

  it('answers an unknown OCTO path with an OCTO body, and names no capabilities', async () => {
    const res = await octo(api, key)('GET', 'nothing-here');
    expect(res.statusCode).toBe(404);
    expect(zErrorForbidden.parse(res.json()).error).toBe('NOT_FOUND');
    const caps = await octo(api, key)('GET', 'capabilities');
    expect(caps.json()).toEqual([]);
    expect(caps.headers['octo-capabilities']).toBe('');
  });
});

describe('GET supplier', () => {
  it("describes the key's own vendor, valid against OCTO's schema", async () => {
    const res = await octo(api, key)('GET', 'supplier/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const supplier = zSupplier.parse(res.json());
    const profile = await t.db
      .selectFrom('users')
      .select('vendor_id')
      .where('id', '=', vendor.id)
      .executeTakeFirstOrThrow();
    expect(supplier).toEqual({
      id: String(profile.vendor_id),
      name: 'Lagos Sea Co',
      endpoint: 'https://book.example/octo/v1',
      contact: {
        website: null,
        email: 'desk@lagos-sea.example',
        telephone: '+351 282 000 000',
        address: 'Lagos, Portugal',
      },
      shortDescription: 'Boat trips along the Algarve',
    });
    const theirs = zSupplier.parse((await octo(api, otherKey)('GET', 'supplier')).json());
    expect(theirs.name).toBe('Elsewhere Tours');
    expect(theirs.id).not.toBe(supplier.id);
    expect(theirs.contact.telephone).toBeNull();
  });
});
