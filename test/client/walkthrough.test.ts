import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.ts';
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
});
