import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { createEquipment } from '../../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../../helpers/factories.ts';

// Each app instance makes its own caches (the catalog's and the accounts deps builders): two apps in one
// process on different databases never answer from each other's entries, even where ids, public ids and
// cache versions coincide.
describe('caches of two apps on different databases', () => {
  let first: TestApp;
  let second: TestApp;
  let vendor: Account;
  let otherVendor: Account;
  let customer: Account;

  /** Both databases at the same catalog and accounts versions, so only separate caches tell them apart. */
  const alignVersions = async () => {
    for (const t of [first, second])
      await t.db.updateTable('cache_versions').set({ version: 1_000_000 }).execute();
  };

  beforeAll(async () => {
    first = await buildTestApp();
    second = await buildTestApp();
    vendor = await registerVendor(first.app, { business_name: 'First Kayaks' });
    customer = await registerCustomer(second.app);
    otherVendor = await registerVendor(second.app, { business_name: 'Second Kayaks' });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('show each database its own listing under the same public id', async () => {
    await createEquipment(first.app, vendor, { public_id: 'twin', title: 'First kayak' });
    await createEquipment(second.app, otherVendor, { public_id: 'twin', title: 'Second kayak' });
    await alignVersions();
    const view = async (t: TestApp) =>
      (await t.app.inject({ method: 'GET', url: '/api/v1/equipment/items/twin/' })).json().title;
    expect(await view(first)).toBe('First kayak');
    expect(await view(second)).toBe('Second kayak');
  });

  it('authenticate each database its own user under the same id', async () => {
    expect(customer.id).toBe(vendor.id); // the same id: a shared user cache would mix them up
    await alignVersions();
    const ownItems = (t: TestApp, account: Account) =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/equipment/vendor/items/',
        headers: { authorization: `Bearer ${account.token}` },
      });
    expect((await ownItems(first, vendor)).statusCode).toBe(200);
    expect((await ownItems(second, customer)).statusCode).toBe(403);
  });
});
