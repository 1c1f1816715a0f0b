import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Injector, injector } from '../helpers/build-test-app.ts';
import { createAdventure } from '../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../helpers/factories.ts';
import { TOUR_PRICES } from '../modules/booking/prices-helpers.ts';
import { fieldsOf, fuzzSuite, member } from './refused-cleanly.ts';

// Prices under generated input (decisions §21): near-valid price categories, extras, participants, extras
// chosen, promo codes and promo-code bodies. Every answer is a success or a 4xx in the decided body whose
// `errors` name the member at fault (never a 500), and a refused request changes nothing.

let api: Injector;
let vendor: Account;
let customer: Account;
let tourId: number;
const suite = fuzzSuite();
beforeAll(async () => {
  api = injector(suite.t.app);
  vendor = await registerVendor(suite.t.app);
  customer = await registerCustomer(suite.t.app);
  tourId = (
    await createAdventure(suite.t.app, vendor, { ...TOUR_PRICES, capacity: 50, booking_mode: 'shared' })
  ).id;
  const made = await api({
    method: 'POST',
    url: '/api/v1/booking/vendor/promo-codes/',
    token: vendor.token,
    payload: { code: 'FUZZ10', percent_off: 10 },
  });
  expect(made.statusCode).toBe(201);
});

const code = fc.oneof(
  fc.constantFrom('adult', 'child', 'wetsuit', 'gopro', 'teen', 'A B', ''),
  fc.string({ maxLength: 34 }),
);
const money = fc.oneof(
  fc.constantFrom('5.00', '0', '1.999', '-1', '100000000.00', 'abc', ''),
  fc.double(),
  fc.integer({ min: -5, max: 10 ** 9 }),
  fc.constant(null),
);
const counts = fc.oneof(
  fc.dictionary(
    code,
    fc.oneof(fc.integer({ min: -2, max: 2000 }), fc.double(), fc.string(), fc.constant(null)),
    {
      maxKeys: 4,
    },
  ),
  fc.anything(),
);
const setting = fc.record(
  {
    code: member(code),
    label: member(fc.oneof(fc.string({ maxLength: 120 }), fc.integer())),
    price: member(money),
    per: member(fc.oneof(fc.constantFrom('booking', 'day', 'week'), fc.anything())),
    max_quantity: member(fc.oneof(fc.integer({ min: -1, max: 1002 }), fc.double())),
    resource_id: member(fc.oneof(fc.constant(null), fc.integer())),
  },
  { requiredKeys: [] },
);
const list = fc.oneof(fc.array(fc.oneof(setting, fc.anything()), { maxLength: 22 }), fc.anything());

/** The answer is a success, or a refusal of the decided shape that changed nothing, naming `fields`. */
async function refusedCleanly(
  res: Awaited<ReturnType<Injector>>,
  before: number,
  allowed: number[],
  fields: RegExp,
) {
  await suite.refusedCleanly(res, before, allowed);
  if (res.statusCode === 400) for (const field of fieldsOf(res)) expect(field).toMatch(fields);
}

describe('generated price settings on a listing', () => {
  it('are stored when valid, else refused with errors under price_categories or extras', async () => {
    const tour = await createAdventure(suite.t.app, vendor);
    await fc.assert(
      fc.asyncProperty(list, list, async (priceCategories, extras) => {
        const before = await suite.changes();
        const res = await api({
          method: 'PATCH',
          url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
          token: vendor.token,
          payload: { price_categories: priceCategories, extras },
        });
        await refusedCleanly(res, before, [200, 400], /^(price_categories|extras|body)(\.|$)/);
      }),
      { numRuns: 200 },
    );
  });
});

describe('generated choices in requests and quotes', () => {
  it('answer 200/201, 400 naming the member, or 409; never more', async () => {
    const promo = fc.oneof(
      fc.constantFrom('FUZZ10', 'fuzz10', 'NOPE', '', null),
      fc.string({ maxLength: 70 }),
    );
    await fc.assert(
      fc.asyncProperty(
        member(counts),
        member(counts),
        member(promo),
        member(fc.oneof(fc.integer({ min: -1, max: 60 }), fc.constant(null))),
        fc.boolean(),
        async (participants, extras, promo_code, participants_count, asRequest) => {
          const before = await suite.changes();
          const payload = {
            adventure_offering_id: tourId,
            starts_at: '2026-09-01T09:00:00Z',
            participants,
            extras,
            promo_code,
            participants_count,
          };
          const res = asRequest
            ? await api({
                method: 'POST',
                url: '/api/v1/booking/bookings/request/',
                token: customer.token,
                payload,
              })
            : await api({ method: 'POST', url: '/api/v1/booking/quote/', payload });
          await refusedCleanly(
            res,
            before,
            [200, 201, 400, 409],
            /^(participants|extras|promo_code|participants_count|body)(\.|$)/,
          );
          if (res.statusCode === 200 || res.statusCode === 201) {
            const { price_lines, total_price } = res.json();
            const sum = price_lines.reduce(
              (s: number, l: { amount: string }) => s + Math.round(Number(l.amount) * 100),
              0,
            );
            expect(sum).toBe(Math.round(Number(total_price) * 100));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('generated promo-code bodies', () => {
  it('are created or changed when valid, else refused naming the member', async () => {
    const [existing] = (
      await api({ method: 'GET', url: '/api/v1/booking/vendor/promo-codes/', token: vendor.token })
    ).json().results;
    const body = fc.record(
      {
        code: member(
          fc.oneof(fc.constantFrom('SPRING-10', 'ab', 'fuzz10', 'HAS SPACE'), fc.string({ maxLength: 34 })),
        ),
        percent_off: member(fc.oneof(fc.integer({ min: -1, max: 101 }), fc.constant(null), fc.double())),
        amount_off: member(money),
        valid_from: member(
          fc.oneof(fc.constantFrom('2026-01-01T00:00:00Z', 'soon', null), fc.string({ maxLength: 30 })),
        ),
        valid_until: member(
          fc.oneof(fc.constantFrom('2025-01-01T00:00:00Z', '2027-01-01T00:00:00Z', null), fc.string()),
        ),
        max_redemptions: member(fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant(null))),
        listing_ids: member(
          fc.oneof(
            fc.constant(null),
            fc.array(
              fc.record({
                kind: fc.constantFrom('equipment', 'adventure', 'boat'),
                id: fc.oneof(fc.constant(tourId), fc.integer()),
              }),
              {
                maxLength: 3,
              },
            ),
            fc.anything(),
          ),
        ),
        is_active: member(fc.oneof(fc.boolean(), fc.string())),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (payload, create) => {
        const before = await suite.changes();
        const res = create
          ? await api({
              method: 'POST',
              url: '/api/v1/booking/vendor/promo-codes/',
              token: vendor.token,
              payload,
            })
          : await api({
              method: 'PATCH',
              url: `/api/v1/booking/vendor/promo-codes/${existing.id}/`,
              token: vendor.token,
              payload,
            });
        await refusedCleanly(
          res,
          before,
          [200, 201, 400],
          /^(code|percent_off|amount_off|valid_from|valid_until|max_redemptions|listing_ids|is_active|body)(\.|$)/,
        );
      }),
      { numRuns: 300 },
    );
  });
});
