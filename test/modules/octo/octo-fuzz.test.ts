import { zAvailability, zAvailabilityCalendar, zBaseError } from '@octocloud/types';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Injector, injector, type TestApp } from '../../helpers/build-test-app.ts';
import { createAdventure, createEquipment } from '../../helpers/catalog-factories.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { newChannel, octo } from '../channels/channels-helpers.ts';

// Bad input on the OCTO API never gets a 500 nor the platform's error body (decisions §1, §24): random
// availability and calendar bodies, near-valid and not, answer 200 with answers OCTO's schemas accept or
// 400 with one of OCTO's errors; random text sent as JSON is BAD_REQUEST.

let t: TestApp;
let api: Injector;
let call: ReturnType<typeof octo>;

beforeAll(async () => {
  t = await buildTestApp();
  api = injector(t.app);
  const vendor = await registerVendor(t.app, { time_zone: 'Asia/Kathmandu' });
  await createAdventure(t.app, vendor, {
    public_id: 'tour',
    booking_mode: 'shared',
    capacity: 10,
    schedule: [{ weekdays: ['mon', 'thu'], start_times: ['06:00', '23:30'] }],
    price_categories: [{ code: 'adult', label: 'Adult', price: '20.00' }],
  });
  await createEquipment(t.app, vendor, { public_id: 'board', quantity: 2 });
  call = octo(api, (await newChannel(api, vendor)).apiKey);
});
afterAll(() => t?.close());

const OCTO_ERRORS = [
  'BAD_REQUEST',
  'INVALID_PRODUCT_ID',
  'INVALID_OPTION_ID',
  'INVALID_UNIT_ID',
  'INVALID_AVAILABILITY_ID',
];

const junk = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.object());
const date = fc
  .date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(fc.oneof(arb, junk), { nil: undefined, freq: 3 });
/** A body that asks rightly (a product, DEFAULT, a range of up to 10 days), for the answers' sake. */
const validBody = fc
  .record({
    productId: fc.constantFrom('tour', 'board'),
    start: date,
    days: fc.integer({ min: 0, max: 10 }),
  })
  .map(({ productId, start, days }) => ({
    productId,
    optionId: 'DEFAULT',
    localDateStart: start,
    localDateEnd: new Date(Date.parse(start) + days * 86_400_000).toISOString().slice(0, 10),
  }));
const anyBody = fc.record(
  {
    productId: maybe(fc.constantFrom('tour', 'board', 'nope', 'equipment:board', '')),
    optionId: maybe(fc.constantFrom('DEFAULT', 'OTHER')),
    localDate: maybe(date),
    localDateStart: maybe(date),
    localDateEnd: maybe(date),
    availabilityIds: maybe(
      fc.array(fc.oneof(fc.constantFrom('tour@2026-06-11T06:00:00+05:45', 'board@2026-06-11'), fc.string()), {
        maxLength: 3,
      }),
    ),
    units: maybe(
      fc.array(
        fc.record({ id: fc.constantFrom('adult', 'unit', 'x'), quantity: fc.integer({ min: -2, max: 20 }) }),
        {
          maxLength: 3,
        },
      ),
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  validBody,
  anyBody,
  fc.tuple(validBody, anyBody).map(([v, a]) => ({ ...v, ...a })),
);

describe('random bodies on the OCTO API', () => {
  it.each([
    ['availability', zAvailability],
    ['availability/calendar', zAvailabilityCalendar],
  ] as const)('POST %s answers 200 valid or 400 in OCTO’s body, never a 500', async (path, schema) => {
    let ok = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await call('POST', path, b);
        if (res.statusCode === 200) {
          schema.array().parse(res.json());
          ok++;
          return;
        }
        expect(res.statusCode, res.body).toBe(400);
        const error = zBaseError.parse(res.json());
        expect(OCTO_ERRORS, res.body).toContain(error.error);
        expect(res.json()).not.toHaveProperty('detail');
      }),
      { numRuns: 150 },
    );
    // the generator reaches valid bodies too, not only refusals
    expect(ok).toBeGreaterThan(0);
  });

  it('answers BAD_REQUEST to any text sent as JSON that is no object', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        const res = await api({
          method: 'POST',
          url: '/octo/v1/availability',
          headers: { authorization: call.authorization, 'content-type': 'application/json' },
          payload: text,
        });
        expect(res.statusCode, text).toBe(400);
        expect(zBaseError.parse(res.json()).error).toBe('BAD_REQUEST');
      }),
      { numRuns: 60 },
    );
  });
});
