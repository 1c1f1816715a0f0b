import type { Injector } from '../../helpers/build-test-app.ts';
import type { Account } from '../../helpers/factories.ts';
import { vendorCollection } from './prices-helpers.ts';

// Small shared steps of the shared-resource tests (decisions §22); not a test file.

export function resourcesApi(api: Injector, vendor: Pick<Account, 'token'>) {
  const base = '/api/v1/booking/vendor/resources/';
  return {
    ...vendorCollection(api, vendor, base),
    usage: (id: number, query: Record<string, string>) =>
      api({ method: 'GET', url: `${base}${id}/usage/`, token: vendor.token, query }),
  };
}

/** Creates a resource, failing loudly; its id. */
export async function newResource(
  api: Injector,
  vendor: Pick<Account, 'token'>,
  name: string,
  quantity: number,
) {
  const res = await resourcesApi(api, vendor).create({ name, quantity });
  if (res.statusCode !== 201) throw new Error(`resource creation failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: number }).id;
}
