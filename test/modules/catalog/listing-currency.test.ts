import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { KIND_CASES, publicPath, vendorPath } from './kind-cases.ts';

// Every listing shows its vendor's currency, read-only (decisions §10), on every path; the public answers
// are cached (list pages, detail JSON, lookups), so a vendor's change of currency must reach them at once.

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

describe.each(KIND_CASES)('listing currency ($kind)', (k) => {
  it('is the vendor’s on every path, ignored in bodies, and follows a change at once', async () => {
    const vendor = await registerVendor(t.app, { currency: 'JPY' });
    const listing = await k.create(t.app, vendor, { currency: 'eur' });
    expect(listing.currency).toBe('jpy');
    const patched = await api({
      method: 'PATCH',
      url: vendorPath(k, listing.id),
      token: vendor.token,
      payload: { currency: 'gbp', title: 'Renamed' },
    });
    expect(patched.json()).toMatchObject({ title: 'Renamed', currency: 'jpy' });

    const listUrl = `${publicPath(k)}?vendor_slug=${vendor.vendorSlug}`;
    const everywhere = async () => {
      const list = await api({ method: 'GET', url: listUrl });
      const detail = await api({ method: 'GET', url: publicPath(k, listing.public_id) });
      const storefront = await api({ method: 'GET', url: `${k.base}/storefront/${vendor.vendorSlug}/` });
      const own = await api({ method: 'GET', url: vendorPath(k, listing.id), token: vendor.token });
      const ownList = await api({ method: 'GET', url: vendorPath(k), token: vendor.token });
      return {
        list: list.json().results.map((l: { currency: string }) => l.currency),
        detail: detail.json().currency,
        storefront: storefront.json().results.map((l: { currency: string }) => l.currency),
        storefrontVendor: storefront.json().vendor.currency,
        own: own.json().currency,
        ownList: ownList.json().results.map((l: { currency: string }) => l.currency),
      };
    };
    const jpy = {
      list: ['jpy'],
      detail: 'jpy',
      storefront: ['jpy'],
      storefrontVendor: 'jpy',
      own: 'jpy',
      ownList: ['jpy'],
    };
    // twice: the second answers come from the caches
    expect(await everywhere()).toEqual(jpy);
    expect(await everywhere()).toEqual(jpy);

    const change = await api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      payload: { currency: 'EUR' },
    });
    expect(change.statusCode).toBe(200);
    expect(await everywhere()).toEqual({
      list: ['eur'],
      detail: 'eur',
      storefront: ['eur'],
      storefrontVendor: 'eur',
      own: 'eur',
      ownList: ['eur'],
    });
  });
});
