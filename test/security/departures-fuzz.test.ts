import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { injector } from '../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../helpers/factories.ts';
import { fieldsOf, fuzzSuite, member } from './refused-cleanly.ts';
import { createScheduledTour, TOUR_DEPARTURE } from './world.ts';

// Schedules and departures under generated input (decisions §19): near-valid schedule rules, instants and
// bodies. Every answer is a success or a 4xx in the decided body whose `errors` name the member at fault
// (never a 500), and a refused request changes nothing.

const suite = fuzzSuite();
const { refusedCleanly } = suite;
const weekday = fc.oneof(fc.constantFrom('mon', 'tue', 'sun'), fc.string({ maxLength: 4 }), fc.integer());
const hhmm = fc.oneof(
  fc.constantFrom('09:00', '23:59', '00:00', '24:00', '9:00', '12:60', '', '09:00:00'),
  fc.string({ maxLength: 6 }),
);
const isoDate = fc.oneof(
  fc.constantFrom('2026-06-01', '2026-02-30', '2026-13-01', '26-06-01', null),
  fc.string({ maxLength: 10 }),
);
const ruleArb = fc.oneof(
  fc.record(
    {
      weekdays: member(fc.oneof(fc.array(weekday, { maxLength: 8 }), fc.anything())),
      start_times: member(fc.oneof(fc.array(hhmm, { maxLength: 26 }), fc.anything())),
      from_date: member(isoDate),
      to_date: member(isoDate),
      capacity: member(
        fc.oneof(fc.integer({ min: -2, max: 10_002 }), fc.double(), fc.constant(null), fc.string()),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.anything(),
);
const schedule = fc.oneof(fc.array(ruleArb, { maxLength: 22 }), fc.anything());

describe('generated schedules on an offering', () => {
  it('are stored when valid, else refused with errors under schedule', async () => {
    const vendor = await registerVendor(suite.t.app);
    const tour = await createScheduledTour(suite.t.app, vendor, 'fuzz');
    const api = injector(suite.t.app);
    await fc.assert(
      fc.asyncProperty(schedule, async (value) => {
        const before = await suite.changes();
        const res = await api({
          method: 'PATCH',
          url: `/api/v1/adventrues/vendor/offerings/${tour.id}/`,
          token: vendor.token,
          payload: { schedule: value },
        });
        await refusedCleanly(res, before, [200, 400]);
        if (res.statusCode === 400) {
          expect(res.json().code).toBe('invalid');
          for (const field of fieldsOf(res)) expect(field).toMatch(/^schedule(\.|$)/);
        } else if (value !== undefined) expect(res.json().schedule).toHaveLength((value as unknown[]).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('generated departure instants and bodies', () => {
  it('answer 200, 400 naming the member, 404 or 409; never more', async () => {
    const vendor = await registerVendor(suite.t.app);
    const customer = await registerCustomer(suite.t.app);
    const tour = await createScheduledTour(suite.t.app, vendor, 'fuzz-departures');
    const api = injector(suite.t.app);
    const instant = fc.oneof(
      fc.constant(TOUR_DEPARTURE),
      fc.constant('2026-09-01T10:00:00+01:00'),
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.string({ minLength: 1, maxLength: 40 }),
    );
    const body = fc.record(
      {
        capacity: fc.oneof(fc.integer({ min: -1, max: 10_001 }), fc.constant(null), fc.string(), fc.double()),
        is_closed: fc.oneof(fc.boolean(), fc.string(), fc.integer()),
        note: fc.oneof(fc.string({ maxLength: 30 }), fc.integer()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        instant,
        body,
        fc.constantFrom('PATCH', 'POST cancel', 'request', 'GET'),
        async (at, payload, what) => {
          const before = await suite.changes();
          const path = `/api/v1/adventrues/vendor/offerings/${tour.id}/departures/${encodeURIComponent(at)}/`;
          const res =
            what === 'PATCH'
              ? await api({ method: 'PATCH', url: path, token: vendor.token, payload })
              : what === 'POST cancel'
                ? await api({ method: 'POST', url: `${path}cancel/`, token: vendor.token, payload })
                : what === 'request'
                  ? await api({
                      method: 'POST',
                      url: '/api/v1/booking/bookings/request/',
                      token: customer.token,
                      payload: {
                        adventure_offering_id: tour.id,
                        starts_at: at,
                        participants_count: payload.capacity,
                      },
                    })
                  : await api({
                      method: 'GET',
                      url: `/api/v1/adventrues/offerings/${tour.public_id}/departures/`,
                      query: { from: at, to: TOUR_DEPARTURE },
                    });
          await refusedCleanly(res, before, [200, 201, 400, 404, 409]);
          if (res.statusCode === 400)
            for (const field of fieldsOf(res))
              expect([
                'starts_at',
                'ends_at',
                'capacity',
                'is_closed',
                'note',
                'participants_count',
                'from',
                'to',
                'body',
              ]).toContain(field);
        },
      ),
      { numRuns: 300 },
    );
  });
});
