import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Injector, injector } from '../helpers/build-test-app.ts';
import { createAdventure } from '../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../helpers/factories.ts';
import { DIVE_QUESTIONS } from '../modules/booking/day-of-trip-helpers.ts';
import { fieldsOf, fuzzSuite, member } from './refused-cleanly.ts';

// The day of the trip under generated input (decisions §23): near-valid question lists, answers, waiver
// acceptances, waiver texts, attendance bodies and manifest dates. Every answer is a success or a 4xx in
// the decided body whose `errors` name the member at fault (never a 500), and a refusal changes nothing.

let api: Injector;
let vendor: Account;
let customer: Account;
let diveId: number;

const suite = fuzzSuite();
const { refusedCleanly } = suite;
beforeAll(async () => {
  api = injector(suite.t.app);
  vendor = await registerVendor(suite.t.app, { waiver_text: 'At my own risk.' });
  customer = await registerCustomer(suite.t.app);
  diveId = (
    await createAdventure(suite.t.app, vendor, {
      booking_mode: 'shared',
      capacity: 10_000,
      questions: DIVE_QUESTIONS,
    })
  ).id;
});

const scalar = fc.oneof(
  fc.constantFrom('None', 'Open Water', 'Advanced', '', ' ', 'x'.repeat(501), 0, -1, 1.5, true, false, null),
  fc.string({ maxLength: 8 }),
  fc.double(),
);
const answerValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.anything());

const questionArb = fc.oneof(
  fc.record(
    {
      code: member(
        fc.oneof(fc.constantFrom('cert', 'size', 'constructor', '__proto__', 'A B', ''), fc.string()),
      ),
      label: member(fc.oneof(fc.string({ maxLength: 4 }), fc.constant('x'.repeat(201)))),
      kind: member(fc.oneof(fc.constantFrom('text', 'number', 'choice', 'boolean', 'essay'), fc.anything())),
      choices: member(
        fc.oneof(
          fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 52 }),
          fc.anything(),
        ),
      ),
      required: member(fc.oneof(fc.boolean(), fc.anything())),
      per: member(fc.oneof(fc.constantFrom('booking', 'participant', 'unit'), fc.anything())),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

describe('generated questions on a listing', () => {
  it('are stored when valid, else refused with errors under questions', async () => {
    const tour = await createAdventure(suite.t.app, vendor);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(questionArb, { maxLength: 22 }), fc.anything()), async (value) => {
        const before = await suite.changes();
        const res = await api({
          method: 'PATCH',
          url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
          token: vendor.token,
          payload: { questions: value },
        });
        await refusedCleanly(res, before, [200, 400]);
        if (res.statusCode === 400)
          for (const field of fieldsOf(res)) expect(field).toMatch(/^questions(\.|$)/);
        else if (value !== undefined) expect(res.json().questions).toHaveLength((value as unknown[]).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('generated answers and waiver acceptances on a request and a quote', () => {
  it('answer 201 (or 200 for a quote), or 400 naming answers.<code> or waiver_acceptance', async () => {
    const answers = fc.oneof(
      fc.dictionary(fc.constantFrom('cert', 'wetsuit', 'allergies', 'shoe', 'constructor'), answerValue, {
        maxKeys: 5,
      }),
      fc.anything(),
    );
    const acceptance = fc.oneof(
      fc.record(
        {
          accepted: member(fc.oneof(fc.boolean(), fc.anything())),
          name: member(fc.oneof(fc.string(), fc.anything())),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(
        member(answers),
        member(acceptance),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        async (given, accepted, count, asQuote) => {
          const before = await suite.changes();
          const res = await api({
            method: 'POST',
            url: asQuote ? '/api/v1/booking/quote/' : '/api/v1/booking/bookings/request/',
            token: customer.token,
            payload: {
              adventure_offering_id: diveId,
              starts_at: '2026-07-01T09:00:00Z',
              participants_count: count,
              answers: given,
              waiver_acceptance: accepted,
            },
          });
          await refusedCleanly(res, before, asQuote ? [200, 400] : [201, 400]);
          if (res.statusCode === 400)
            for (const field of fieldsOf(res))
              expect(field).toMatch(/^(answers(\.|$)|waiver_acceptance(\.|$))/);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('generated waiver texts, attendance bodies and manifest dates', () => {
  it('answer a success or a 4xx naming the member', async () => {
    const other = await registerVendor(suite.t.app);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.constant('x'.repeat(20_001)), fc.anything()),
        fc.oneof(
          fc.constantFrom('pending', 'checked_in', 'no_show', 'returned', 'CHECKED_IN'),
          fc.anything(),
        ),
        fc.oneof(
          fc.constantFrom('2026-06-01', '2026-02-29', '2028-02-29', '2026-6-1', ''),
          fc.string({ maxLength: 12 }),
        ),
        async (text, status, date) => {
          let before = await suite.changes();
          const profile = await api({
            method: 'PATCH',
            url: '/api/v1/accounts/vendor-profile/me/',
            token: other.token,
            payload: { waiver_text: text },
          });
          await refusedCleanly(profile, before, [200, 400]);
          if (profile.statusCode === 400) for (const f of fieldsOf(profile)) expect(f).toBe('waiver_text');
          before = await suite.changes();
          const marked = await api({
            method: 'POST',
            url: '/api/v1/booking/bookings/1/attendance/',
            token: vendor.token,
            payload: { status },
          });
          await refusedCleanly(marked, before, [400, 404, 409]);
          if (marked.statusCode === 400) for (const f of fieldsOf(marked)) expect(f).toBe('status');
          const manifest = await api({
            method: 'GET',
            url: '/api/v1/booking/vendor/manifest/',
            token: vendor.token,
            query: { date },
          });
          expect([200, 400]).toContain(manifest.statusCode);
          if (manifest.statusCode === 400) expect(fieldsOf(manifest)).toEqual(['date']);
        },
      ),
      { numRuns: 200 },
    );
  });
});
