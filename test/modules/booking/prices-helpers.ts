import type { Injector } from '../../helpers/build-test-app.ts';
import type { Account } from '../../helpers/factories.ts';

// Small shared steps of the price tests (decisions §21); not a test file.

/** The boat tour of the issue: adults 35.00, children 20.00, a wetsuit 5.00 a day, a GoPro 15.00 a booking. */
export const TOUR_PRICES = {
  price_per_person: '35.00',
  price_categories: [
    { code: 'adult', label: 'Adult', price: '35.00' },
    { code: 'child', label: 'Child', price: '20.00' },
  ],
  extras: [
    { code: 'wetsuit', label: 'Wetsuit', price: '5.00', per: 'day', max_quantity: 10 },
    { code: 'gopro', label: 'GoPro', price: '15.00', per: 'booking', max_quantity: 1 },
  ],
};

/** The five calls of a vendor's collection at `base` (promo codes, resources). */
export function vendorCollection(api: Injector, vendor: Pick<Account, 'token'>, base: string) {
  return {
    create: (payload: Record<string, unknown>) =>
      api({ method: 'POST', url: base, token: vendor.token, payload }),
    get: (id: number) => api({ method: 'GET', url: `${base}${id}/`, token: vendor.token }),
    patch: (id: number, payload: Record<string, unknown>) =>
      api({ method: 'PATCH', url: `${base}${id}/`, token: vendor.token, payload }),
    remove: (id: number) => api({ method: 'DELETE', url: `${base}${id}/`, token: vendor.token }),
    list: () => api({ method: 'GET', url: base, token: vendor.token }),
  };
}

export const promoCodes = (api: Injector, vendor: Account) =>
  vendorCollection(api, vendor, '/api/v1/booking/vendor/promo-codes/');

export const quoter = (api: Injector) => (payload: Record<string, unknown>, token?: string) =>
  api({ method: 'POST', url: '/api/v1/booking/quote/', payload, token });

/** A line as the API shows it. */
export const priceLine = (
  kind: string,
  code: string | null,
  label: string,
  quantity: number,
  unit_price: string,
  amount: string,
) => ({ kind, code, label, quantity, unit_price, amount });
