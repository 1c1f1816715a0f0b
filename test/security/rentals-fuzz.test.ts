import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { injector } from '../helpers/build-test-app.ts';
import { createEquipment } from '../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../helpers/factories.ts';
import { fieldsOf, fuzzSuite, member } from './refused-cleanly.ts';

// Rental terms under generated input (decisions §20): near-valid rates, duration limits, buffers, opening
// hours and windows. Every answer is a success or a 4xx in the decided body whose `errors` name the member
// at fault (never a 500), and a refused request changes nothing.

const suite = fuzzSuite();
const { refusedCleanly } = suite;
const minutes = fc.oneof(
  fc.integer({ min: -1, max: 525_602 }),
  fc.constantFrom(0, 14, 15, 43_200, 43_201, 1440, 1441, 525_600),
  fc.double(),
  fc.string({ maxLength: 6 }),
  fc.constant(null),
);
const money = fc.oneof(
  fc.constantFrom('15.00', '0', '25', '1.234', '-1', '99999999.99', '100000000.00', ''),
  fc.double(),
  fc.string({ maxLength: 8 }),
);
const rateArb = fc.oneof(
  fc.record({ duration_minutes: member(minutes), price: member(money) }, { requiredKeys: [] }),
  fc.anything(),
);
const termsArb = fc.record(
  {
    rates: fc.oneof(fc.array(rateArb, { maxLength: 22 }), fc.anything()),
    min_duration_minutes: minutes,
    max_duration_minutes: minutes,
    buffer_minutes: minutes,
  },
  { requiredKeys: [] },
);
const TERM_FIELD = /^(rates|min_duration_minutes|max_duration_minutes|buffer_minutes)(\.|$)/;

const hhmm = fc.oneof(
  fc.constantFrom('09:00', '18:00', '00:00', '24:00', '23:59', '24:01', '9:00', '12:60', ''),
  fc.string({ maxLength: 6 }),
);
const dayArb = fc.oneof(
  fc.array(fc.oneof(fc.tuple(hhmm, hhmm), fc.array(hhmm, { maxLength: 3 }), fc.anything()), { maxLength: 4 }),
  fc.anything(),
);
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const hoursArb = fc.oneof(
  fc.constant(null),
  fc.record(Object.fromEntries([...DAYS, 'holiday'].map((d) => [d, dayArb])), {
    requiredKeys: [],
  }),
  fc.record(Object.fromEntries(DAYS.map((d) => [d, dayArb]))),
  fc.anything(),
);

describe('generated rental terms on an item', () => {
  it('are stored when valid, else refused with errors under their own fields', async () => {
    const vendor = await registerVendor(suite.t.app);
    const item = await createEquipment(suite.t.app, vendor);
    const api = injector(suite.t.app);
    await fc.assert(
      fc.asyncProperty(termsArb, async (payload) => {
        const before = await suite.changes();
        const res = await api({
          method: 'PATCH',
          url: `/api/v1/equipment/vendor/items/${item.id}/`,
          token: vendor.token,
          payload,
        });
        await refusedCleanly(res, before, [200, 400]);
        if (res.statusCode === 400) for (const field of fieldsOf(res)) expect(field).toMatch(TERM_FIELD);
        else if (Array.isArray(payload.rates)) expect(res.json().rates).toHaveLength(payload.rates.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('generated opening hours and windows', () => {
  it('hours are stored or refused naming the day; windows are booked, quoted or refused on their field', async () => {
    const vendor = await registerVendor(suite.t.app, { time_zone: 'Asia/Kathmandu' });
    const customer = await registerCustomer(suite.t.app);
    const item = await createEquipment(suite.t.app, vendor, {
      quantity: 3,
      rates: [{ duration_minutes: 60, price: '15.00' }],
      min_duration_minutes: 60,
      max_duration_minutes: 2880,
      buffer_minutes: 30,
    });
    const api = injector(suite.t.app);
    const instant = fc.oneof(
      fc
        .date({ min: new Date('2026-06-01'), max: new Date('2026-09-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom('2026-07-01T03:15:00Z', '2026-07-01T12:15:00+05:45', '2026-07-05T09:00:00'),
      fc.string({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(
        hoursArb,
        instant,
        instant,
        fc.constantFrom('request', 'quote'),
        async (hours, from, to, what) => {
          let before = await suite.changes();
          const profile = await api({
            method: 'PATCH',
            url: '/api/v1/accounts/vendor-profile/me/',
            token: vendor.token,
            payload: { opening_hours: hours },
          });
          await refusedCleanly(profile, before, [200, 400]);
          if (profile.statusCode === 400)
            for (const field of fieldsOf(profile)) expect(field).toMatch(/^opening_hours(\.|$)/);
          before = await suite.changes();
          const res = await api({
            method: 'POST',
            url: what === 'request' ? '/api/v1/booking/bookings/request/' : '/api/v1/booking/quote/',
            token: customer.token,
            payload: { equipment_item_id: item.id, starts_at: from, ends_at: to },
          });
          await refusedCleanly(res, before, what === 'request' ? [201, 400, 409] : [200, 400]);
          if (res.statusCode === 400)
            for (const field of fieldsOf(res)) expect(['starts_at', 'ends_at', 'quantity']).toContain(field);
        },
      ),
      { numRuns: 200 },
    );
  });
});
