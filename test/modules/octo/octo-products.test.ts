import { zErrorInvalidProductId, zProduct } from '@octocloud/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import { type Account, registerVendor } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';

// GET products and products/{id} (decisions §24): every visible listing of the channel's vendor is a
// product with one option DEFAULT; scheduled adventures START_TIME, the rest OPENING_HOURS; units from the
// price categories, else `person`; equipment `unit`. Every answer parsed with OCTO's own schemas.

let t: TestApp;
let api: Injector;
let vendor: Account;
let call: ReturnType<typeof octo>;
let otherCall: ReturnType<typeof octo>;
let tour: ListingOut;
let charter: ListingOut;
let kayak: ListingOut;
let foreign: ListingOut;
let hidden: ListingOut;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  vendor = await registerVendor(t.app, { time_zone: 'Europe/Lisbon', currency: 'eur' });
  tour = await createAdventure(t.app, vendor, {
    public_id: 'caves-tour',
    title: 'Benagil caves',
    booking_mode: 'shared',
    capacity: 12,
    duration_minutes: 120,
    schedule: [
      { weekdays: ['sat'], start_times: ['14:30', '09:00'] },
      { weekdays: ['sun'], start_times: ['09:00'], capacity: 20 },
    ],
    price_categories: [
      { code: 'adult', label: 'Adult', price: '30.00' },
      { code: 'child', label: 'Child (4-11)', price: '15.00' },
    ],
    cancellation_policy: { free_cancellation_hours: 48 },
  });
  charter = await createAdventure(t.app, vendor, { public_id: 'charter', title: 'Private charter' });
  kayak = await createEquipment(t.app, vendor, { public_id: 'kayak', title: 'Sea kayak', quantity: 3 });
  hidden = await createEquipment(t.app, vendor, { public_id: 'hidden-sup', is_active: false });
  const archived = await createEquipment(t.app, vendor, { public_id: 'old-boat' });
  const gone = await api({
    method: 'DELETE',
    url: `/api/v1/equipment/vendor/items/${archived.id}/`,
    token: vendor.token,
  });
  expect(gone.statusCode).toBe(204);
  const other = await registerVendor(t.app);
  foreign = await createEquipment(t.app, other, { public_id: 'their-kayak' });
  call = octo(api, (await newChannel(api, vendor)).apiKey);
  otherCall = octo(api, (await newChannel(api, other)).apiKey);
});
afterAll(() => t?.close());

describe('GET products', () => {
  it("lists the vendor's visible listings, oldest first, valid against OCTO's schema", async () => {
    const res = await call('GET', 'products');
    expect(res.statusCode, res.body).toBe(200);
    const products = zProduct.array().parse(res.json());
    expect(products.map((p) => [p.id, p.availabilityType])).toEqual([
      ['caves-tour', 'START_TIME'],
      ['charter', 'OPENING_HOURS'],
      ['kayak', 'OPENING_HOURS'],
    ]);
    expect(res.body).not.toContain(hidden.public_id);
    expect(res.body).not.toContain('old-boat');
    expect(res.body).not.toContain(foreign.public_id);
    for (const p of products) {
      expect([p.timeZone, p.allowFreesale, p.instantConfirmation]).toEqual(['Europe/Lisbon', false, true]);
      expect([p.deliveryMethods, p.deliveryFormats, p.redemptionMethod]).toEqual([
        ['VOUCHER'],
        ['QRCODE'],
        'MANIFEST',
      ]);
      expect(p.options.map((o) => [o.id, o.default])).toEqual([['DEFAULT', true]]);
    }
  });

  it('shows a scheduled tour as its start times, price categories as units, and its cancellation cutoff', async () => {
    const product = zProduct.parse((await call('GET', `products/${tour.public_id}`)).json());
    expect(product).toMatchObject({
      id: 'caves-tour',
      internalName: 'Benagil caves',
      durationMinutesFrom: 120,
    });
    const [option] = product.options;
    expect(option.availabilityLocalStartTimes).toEqual(['09:00', '14:30']);
    expect([
      option.cancellationCutoff,
      option.cancellationCutoffAmount,
      option.cancellationCutoffUnit,
    ]).toEqual(['48 hours', 48, 'hour']);
    expect(option.restrictions).toEqual({ minUnits: 1, maxUnits: 20 });
    expect(option.units.map((u) => [u.id, u.internalName, u.type])).toEqual([
      ['adult', 'Adult', 'ADULT'],
      ['child', 'Child (4-11)', 'CHILD'],
    ]);
  });

  it('gives an adventure without categories one unit `person`, equipment one unit `unit`', async () => {
    const charterProduct = zProduct.parse((await call('GET', `products/${charter.public_id}`)).json());
    expect(charterProduct.options[0].units.map((u) => [u.id, u.type])).toEqual([['person', 'ADULT']]);
    expect(charterProduct.options[0].availabilityLocalStartTimes).toEqual(['00:00']);
    const kayakProduct = zProduct.parse((await call('GET', `products/${kayak.public_id}`)).json());
    expect(kayakProduct.options[0].units.map((u) => [u.id, u.type])).toEqual([['unit', 'OTHER']]);
    expect(kayakProduct.options[0].restrictions.maxUnits).toBe(3);
    expect(kayakProduct.durationMinutesFrom).toBeUndefined();
  });
});

describe('GET products/{id}', () => {
  it("answers INVALID_PRODUCT_ID for an unknown, hidden, archived or another vendor's listing", async () => {
    for (const id of ['nope', hidden.public_id, 'old-boat', foreign.public_id, 'a%20b', 'boat:kayak']) {
      const res = await call('GET', `products/${id}`);
      expect(res.statusCode, id).toBe(400);
      const body = zErrorInvalidProductId.parse(res.json());
      expect(body.error).toBe('INVALID_PRODUCT_ID');
      expect(body.productId).toBe(decodeURIComponent(id));
    }
    expect((await otherCall('GET', `products/${foreign.public_id}`)).statusCode).toBe(200);
  });

  it('names an item and an offering that share a public id by their kinds', async () => {
    const v = await registerVendor(t.app);
    await createEquipment(t.app, v, { public_id: 'sunset' });
    await createAdventure(t.app, v, { public_id: 'sunset' });
    const both = octo(api, (await newChannel(api, v)).apiKey);
    const ids = zProduct
      .array()
      .parse((await both('GET', 'products')).json())
      .map((p) => p.id);
    expect(ids).toEqual(['equipment:sunset', 'adventure:sunset']);
    expect((await both('GET', 'products/sunset')).json().error).toBe('INVALID_PRODUCT_ID');
    const item = zProduct.parse((await both('GET', 'products/equipment:sunset')).json());
    expect(item.options[0].units[0].id).toBe('unit');
  });
});
