import { zBooking } from '@octocloud/types';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import type { Json } from '../../reliability/http-turns.ts';
import { departureOn, type OctoWorld, octoWorld, units } from './octo-fixtures.ts';

// The OCTO booking suites' set-up (not a test file): an app, the Lisbon vendor's world, and the requests
// they all make: a reserve of the tour (validated with @octocloud/types) and the platform's view of it.

export interface OctoSuite {
  readonly t: TestApp;
  readonly api: Injector;
  readonly w: OctoWorld;
  /** the tour's 09:00 departure on that day of June 2026, as its availability id */
  departureOn(day: number): string;
  reserveBody(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** a reserve that must succeed: its OCTO booking */
  reserve(overrides?: Record<string, unknown>): Promise<ReturnType<typeof zBooking.parse>>;
  /** the booking as the vendor reads it on the platform's API */
  platformView(id: string): Promise<Json>;
}

export function useOctoSuite(): OctoSuite {
  const made = {} as { t: TestApp; api: Injector; w: OctoWorld };
  beforeAll(async () => {
    made.t = await buildTestApp({ env: { PUBLIC_URL: 'https://book.example' } });
    made.api = injector(made.t.app);
    made.w = await octoWorld(made.t, made.api);
  });
  afterAll(() => made.t?.close());
  const suite: OctoSuite = {
    get t() {
      return made.t;
    },
    get api() {
      return made.api;
    },
    get w() {
      return made.w;
    },
    departureOn: (day) => departureOn(made.w, day),
    reserveBody: (overrides = {}) => ({
      productId: made.w.tour.public_id,
      optionId: 'DEFAULT',
      availabilityId: departureOn(made.w, 10),
      unitItems: units('adult', 'adult', 'child'),
      ...overrides,
    }),
    async reserve(overrides = {}) {
      const res = await made.w.call('POST', 'bookings', suite.reserveBody(overrides));
      expect(res.statusCode, res.body).toBe(200);
      return zBooking.parse(res.json());
    },
    platformView: async (id) =>
      (
        await made.api({
          method: 'GET',
          url: `/api/v1/booking/bookings/${id}/`,
          token: made.w.vendor.token,
        })
      ).json(),
  };
  return suite;
}
