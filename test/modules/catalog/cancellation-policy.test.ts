import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { KIND_CASES, publicPath, vendorPath } from './kind-cases.ts';

// A listing's cancellation policy (decisions §12): writable on create, PUT and PATCH, shown publicly, each
// member kept when a PATCH sets only the other, and errors naming the member.

let t: TestApp;
let api: Injector;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
});
afterAll(() => t.close());

describe.each(KIND_CASES)('cancellation policy ($kind)', (k) => {
  it('defaults to 24 hours free and no late refund, shown publicly', async () => {
    const vendor = await registerVendor(t.app);
    const listing = await k.create(t.app, vendor);
    expect(listing.cancellation_policy).toEqual({ free_cancellation_hours: 24, late_refund_percent: 0 });
    const detail = await api({ method: 'GET', url: publicPath(k, listing.public_id) });
    expect(detail.json().cancellation_policy).toEqual({
      free_cancellation_hours: 24,
      late_refund_percent: 0,
    });
  });

  it('is set on create, PATCH of one member keeps the other, PUT may leave it out', async () => {
    const vendor = await registerVendor(t.app);
    const listing = await k.create(t.app, vendor, {
      cancellation_policy: { free_cancellation_hours: 72, late_refund_percent: 40 },
    });
    expect(listing.cancellation_policy).toEqual({ free_cancellation_hours: 72, late_refund_percent: 40 });
    const patched = await api({
      method: 'PATCH',
      url: vendorPath(k, listing.id),
      token: vendor.token,
      payload: { cancellation_policy: { late_refund_percent: 100 } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().cancellation_policy).toEqual({
      free_cancellation_hours: 72,
      late_refund_percent: 100,
    });
    const {
      id,
      currency,
      category,
      vendor: _v,
      created_at,
      updated_at,
      cancellation_policy,
      ...rest
    } = patched.json();
    const replaced = await api({
      method: 'PUT',
      url: vendorPath(k, listing.id),
      token: vendor.token,
      payload: { ...rest, title: 'Replaced' },
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().cancellation_policy).toEqual({
      free_cancellation_hours: 72,
      late_refund_percent: 100,
    });
    const list = await api({ method: 'GET', url: `${publicPath(k)}?vendor_slug=${vendor.vendorSlug}` });
    expect(list.json().results[0].cancellation_policy).toEqual({
      free_cancellation_hours: 72,
      late_refund_percent: 100,
    });
  });

  it('refuses out-of-range members, naming them', async () => {
    const vendor = await registerVendor(t.app);
    const listing = await k.create(t.app, vendor);
    for (const [policy, field] of [
      [{ late_refund_percent: 101 }, 'cancellation_policy.late_refund_percent'],
      [{ late_refund_percent: -1 }, 'cancellation_policy.late_refund_percent'],
      [{ free_cancellation_hours: 8761 }, 'cancellation_policy.free_cancellation_hours'],
      [{ free_cancellation_hours: 1.5 }, 'cancellation_policy.free_cancellation_hours'],
    ] as const) {
      const res = await api({
        method: 'PATCH',
        url: vendorPath(k, listing.id),
        token: vendor.token,
        payload: { cancellation_policy: policy },
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
    const edges = await api({
      method: 'PATCH',
      url: vendorPath(k, listing.id),
      token: vendor.token,
      payload: { cancellation_policy: { free_cancellation_hours: 8760, late_refund_percent: 100 } },
    });
    expect(edges.json().cancellation_policy).toEqual({
      free_cancellation_hours: 8760,
      late_refund_percent: 100,
    });
  });
});
