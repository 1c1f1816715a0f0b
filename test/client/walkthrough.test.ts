import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
import { departuresWalkthrough } from './departures-walkthrough.ts';
import { walkthrough } from './walkthrough.ts';

// The typed client (walkthrough.ts) against a listening server: what typechecks also works.
describe('the typed client walkthrough', () => {
  let t: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    t = await buildTestApp();
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('registers, lists, books, approves, pays and reads the summary', async () => {
    const result = await walkthrough(baseUrl, t.clock.now(), Date.now().toString(36));
    expect(result).toEqual({
      bookingStatus: 'approved',
      totalPrice: '90.00',
      paymentAmount: '90.00',
      paymentStatus: 'requires_payment',
      summary: { clicks: 1, bookingsAttributed: 1 },
    });
  });

  it('schedules a tour, books a departure, changes and cancels it', async () => {
    // the test clock's Monday 2026-06-01: the Saturday after, 18:30 in Lisbon (UTC+1)
    const result = await departuresWalkthrough(baseUrl, Date.now().toString(36), '2026-06-06');
    expect(result).toEqual({
      firstDeparture: { local_time: '18:30', remaining: 12, status: 'available' },
      booked: {
        starts_at: '2026-06-06T17:30:00.000Z',
        ends_at: '2026-06-06T19:30:00.000Z',
        participants_count: 3,
      },
      vendorView: { booked: 3, bookings: 1, remaining: 9 },
      changed: { capacity: 8, remaining: 5 },
      cancelled: [expect.any(Number)],
    });
  });
});
