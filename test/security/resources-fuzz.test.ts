import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { injector } from '../helpers/build-test-app.ts';
import { createAdventure, createEquipment } from '../helpers/catalog-factories.ts';
import { registerCustomer, registerVendor } from '../helpers/factories.ts';
import { fieldsOf, fuzzSuite, member } from './refused-cleanly.ts';

// Shared resources under generated input (decisions §22): resource bodies, a listing's `resources`, an
// extra's `resource_id`, usage ranges and requests choosing extras backed by a resource. Every answer is a
// success or a 4xx in the decided body whose `errors` name the member at fault (never a 500), and a
// refused request changes nothing.

const suite = fuzzSuite();
const { refusedCleanly } = suite;
const count = fc.oneof(
  fc.integer({ min: -2, max: 10_002 }),
  fc.constantFrom(0, 1, 1000, 1001, 10_000, 10_001, 2_147_483_648),
  fc.double(),
  fc.string({ maxLength: 5 }),
  fc.constant(null),
);

describe('generated resource bodies', () => {
  it('create and change a resource, or are refused naming name or quantity', async () => {
    const vendor = await registerVendor(suite.t.app);
    const api = injector(suite.t.app);
    const made = await api({
      method: 'POST',
      url: '/api/v1/booking/vendor/resources/',
      token: vendor.token,
      payload: { name: 'Boat', quantity: 2 },
    });
    const id = made.json().id as number;
    const body = fc.oneof(
      fc.record(
        { name: member(fc.oneof(fc.string({ maxLength: 110 }), fc.anything())), quantity: member(count) },
        {
          requiredKeys: [],
        },
      ),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (payload, create) => {
        const before = await suite.changes();
        const res = await api({
          method: create ? 'POST' : 'PATCH',
          url: create ? '/api/v1/booking/vendor/resources/' : `/api/v1/booking/vendor/resources/${id}/`,
          token: vendor.token,
          payload: payload as Record<string, unknown>,
        });
        await refusedCleanly(res, before, create ? [201, 400, 415] : [200, 400, 415]);
        if (res.statusCode === 400)
          for (const field of fieldsOf(res)) expect(field).toMatch(/^(name|quantity|body)$/);
      }),
      { numRuns: 200 },
    );
  });
});

describe('generated resource uses and extras', () => {
  it('are stored when valid and the vendor’s own, else refused under resources.N or extras.N', async () => {
    const vendor = await registerVendor(suite.t.app);
    const other = await registerVendor(suite.t.app);
    const api = injector(suite.t.app);
    const resource = async (token: string) =>
      (
        await api({
          method: 'POST',
          url: '/api/v1/booking/vendor/resources/',
          token,
          payload: { name: 'R', quantity: 3 },
        })
      ).json().id as number;
    const own = await resource(vendor.token);
    const foreign = await resource(other.token);
    const item = await createEquipment(suite.t.app, vendor, { quantity: 4 });
    const id = fc.oneof(
      fc.constantFrom(own, foreign, 0, -1, 2_147_483_648),
      fc.string({ maxLength: 3 }),
      fc.constant(null),
    );
    const use = fc.oneof(
      fc.record(
        {
          resource_id: member(id),
          per: member(
            fc.oneof(fc.constantFrom('booking', 'participant', 'unit', 'departure', 'hour'), fc.anything()),
          ),
          amount: member(count),
        },
        { requiredKeys: [] },
      ),
      fc.anything(),
    );
    const extra = fc.record({
      code: fc.constant('suit'),
      label: fc.constant('Suit'),
      price: fc.constant('5.00'),
      per: fc.constant('booking'),
      max_quantity: fc.constant(5),
      resource_id: member(id),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.array(use, { maxLength: 12 }), fc.anything()),
        member(fc.array(extra, { maxLength: 1 })),
        async (resources, extras) => {
          const before = await suite.changes();
          const res = await api({
            method: 'PATCH',
            url: `/api/v1/equipment/vendor/items/${item.id}/`,
            token: vendor.token,
            payload: { resources, ...(extras === undefined ? {} : { extras }) },
          });
          await refusedCleanly(res, before, [200, 400]);
          if (res.statusCode === 400)
            for (const field of fieldsOf(res)) expect(field).toMatch(/^(resources|extras)(\.|$)/);
          else if (Array.isArray(resources)) expect(res.json().resources).toHaveLength(resources.length);
        },
      ),
      { numRuns: 250 },
    );
  });

  it('requests choosing resource-backed extras are booked, refused 409 naming the resource, or 400 on their member', async () => {
    const vendor = await registerVendor(suite.t.app);
    const customer = await registerCustomer(suite.t.app);
    const api = injector(suite.t.app);
    const suits = (
      await api({
        method: 'POST',
        url: '/api/v1/booking/vendor/resources/',
        token: vendor.token,
        payload: { name: 'wetsuit', quantity: 3 },
      })
    ).json().id as number;
    const tour = await createAdventure(suite.t.app, vendor, {
      booking_mode: 'shared',
      capacity: 20,
      resources: [{ resource_id: suits, per: 'participant', amount: 1 }],
      extras: [
        {
          code: 'spare',
          label: 'Spare suit',
          price: '2.00',
          per: 'booking',
          max_quantity: 4,
          resource_id: suits,
        },
      ],
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: -1, max: 6 }), fc.string({ maxLength: 3 })),
        fc.oneof(fc.integer({ min: -1, max: 6 }), fc.anything()),
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('request', 'quote'),
        async (participants, spare, hour, what) => {
          const before = await suite.changes();
          const res = await api({
            method: 'POST',
            url: what === 'request' ? '/api/v1/booking/bookings/request/' : '/api/v1/booking/quote/',
            token: customer.token,
            payload: {
              adventure_offering_id: tour.id,
              starts_at: `2026-08-0${1 + hour}T09:00:00Z`,
              participants_count: participants,
              extras: { spare },
            },
          });
          await refusedCleanly(res, before, what === 'request' ? [201, 400, 409] : [200, 400]);
          if (res.statusCode === 409) expect(res.json().detail).toMatch(/wetsuit/);
          if (res.statusCode === 400)
            for (const field of fieldsOf(res))
              expect(field).toMatch(/^(participants_count|extras(\.spare)?)$/);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('usage ranges are answered or refused naming from or to', async () => {
    const vendor = await registerVendor(suite.t.app);
    const api = injector(suite.t.app);
    const id = (
      await api({
        method: 'POST',
        url: '/api/v1/booking/vendor/resources/',
        token: vendor.token,
        payload: { name: 'B', quantity: 1 },
      })
    ).json().id as number;
    const instant = fc.oneof(
      fc
        .date({ min: new Date('2026-01-01'), max: new Date('2027-06-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.string({ maxLength: 25 }),
    );
    await fc.assert(
      fc.asyncProperty(member(instant), member(instant), async (from, to) => {
        const query: Record<string, string> = {};
        if (from !== undefined) query.from = from;
        if (to !== undefined) query.to = to;
        const res = await api({
          method: 'GET',
          url: `/api/v1/booking/vendor/resources/${id}/usage/`,
          token: vendor.token,
          query,
        });
        await refusedCleanly(res, await suite.changes(), [200, 400]);
        if (res.statusCode === 400) for (const field of fieldsOf(res)) expect(field).toMatch(/^(from|to)$/);
        else expect(res.json().segments.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });
});
