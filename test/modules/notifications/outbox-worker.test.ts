import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryChannel as ChannelName } from '../../../src/db/database.ts';
import type {
  AttemptOutcome,
  DeliveryAttempt,
  DeliveryChannel,
} from '../../../src/modules/notifications/channel.ts';
import {
  createOutboxWorker,
  type OutboxWorkerDeps,
} from '../../../src/modules/notifications/outbox-worker.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import { type BookedFixture, bookedFixture } from '../../helpers/refund-factories.ts';

// The outbox worker's rules with channels the test controls: the fan-out (endpoints by their event
// types, mail by role), retries on the schedule with jitter, the final failure, a 410, and claims that
// keep two passes from sending one attempt twice. The real channels and real processes: webhooks.test.ts,
// mail tests and test/reliability/outbox.test.ts.

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

/** A channel that answers from a script (one outcome per call, the last repeated) and records each call. */
function scriptedChannel(...script: AttemptOutcome[]) {
  const calls: DeliveryAttempt[] = [];
  const channel: DeliveryChannel & { calls: DeliveryAttempt[] } = {
    calls,
    async send(attempt) {
      calls.push(attempt);
      return script[Math.min(calls.length - 1, script.length - 1)];
    },
  };
  return channel;
}

const OK: AttemptOutcome = { delivered: true, statusCode: 200, error: null };
const HTTP_500: AttemptOutcome = { delivered: false, statusCode: 500, error: 'HTTP 500' };

function worker(channels: Record<ChannelName, DeliveryChannel>, overrides: Partial<OutboxWorkerDeps> = {}) {
  return createOutboxWorker({
    db: t.db,
    clock: t.clock,
    channels,
    mailRecipients: (type) => (type === 'booking.requested' ? ['customer', 'vendor'] : []),
    issueResetToken: async () => undefined,
    issueInvitationToken: async () => undefined,
    retrySchedule: [5, 300],
    claimTimeoutMs: 60_000,
    random: () => 0.5,
    ...overrides,
  });
}

async function addEndpoint(vendorId: number, eventTypes: string[], isActive: 0 | 1 = 1) {
  const now = t.clock.now().getTime();
  const row = await t.db
    .insertInto('notification_endpoints')
    .values({
      vendor_id: vendorId,
      url: `https://hooks.example.com/${eventTypes.join('-')}`,
      event_types: JSON.stringify(eventTypes),
      secret: 'whsec_dGVzdC1zZWNyZXQtb2YtdHdlbnR5LWZvdXI=',
      previous_secret: null,
      previous_secret_expires_at: null,
      is_active: isActive,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function vendorIdOf(f: BookedFixture) {
  const row = await t.db
    .selectFrom('bookings')
    .select('vendor_id')
    .where('id', '=', f.bookingId)
    .executeTakeFirstOrThrow();
  return row.vendor_id;
}

const deliveries = () => t.db.selectFrom('notification_deliveries').selectAll().orderBy('id').execute();

describe('fan-out', () => {
  it('one delivery per subscribed active endpoint and per mail recipient, once', async () => {
    const vendor = await registerVendor(t.app, { contact_email: 'bookings@contact.example.com' });
    const f = await bookedFixture(t, { until: 'requested', vendor });
    const vendorId = await vendorIdOf(f);
    const all = await addEndpoint(vendorId, ['*']);
    const requestedOnly = await addEndpoint(vendorId, ['booking.requested']);
    await addEndpoint(vendorId, ['payment.succeeded']);
    await addEndpoint(vendorId, ['*'], 0);
    const webhook = scriptedChannel(OK);
    const email = scriptedChannel(OK);
    const w = worker({ webhook, email });
    expect(await w.runOnce()).toEqual({ dispatched: 1, attempted: 4 });
    expect(await w.runOnce()).toEqual({ dispatched: 0, attempted: 0 });
    const rows = await deliveries();
    expect(
      rows.map((r) => [r.channel, r.endpoint_id, r.recipient, r.recipient_role, r.status, r.attempts]),
    ).toEqual([
      ['webhook', all, null, null, 'succeeded', 1],
      ['webhook', requestedOnly, null, null, 'succeeded', 1],
      ['email', null, f.customer.email, 'customer', 'succeeded', 1],
      ['email', null, 'bookings@contact.example.com', 'vendor', 'succeeded', 1],
    ]);
    const event = await t.db.selectFrom('notification_events').selectAll().executeTakeFirstOrThrow();
    expect(event.dispatched_at).toBe(t.clock.now().getTime());
    // sent at once, so in any order
    expect(webhook.calls.map((c) => c.endpoint?.id).sort()).toEqual([all, requestedOnly].sort());
    expect(webhook.calls[0].event).toEqual({
      publicId: event.public_id,
      type: 'booking.requested',
      payload: event.payload,
      createdAt: event.created_at,
    });
  });

  it('a vendor without a contact address gets mail at the login email', async () => {
    const f = await bookedFixture(t, { until: 'requested' });
    await worker({ webhook: scriptedChannel(OK), email: scriptedChannel(OK) }).runOnce();
    expect((await deliveries()).map((r) => r.recipient)).toEqual([f.customer.email, f.vendor.email]);
  });
});

describe('retries', () => {
  it('fails, waits the scheduled delay with jitter, then succeeds', async () => {
    const f = await bookedFixture(t, { until: 'requested' });
    await addEndpoint(await vendorIdOf(f), ['booking.requested']);
    const webhook = scriptedChannel(HTTP_500, OK);
    const w = worker({ webhook, email: scriptedChannel(OK) }, { mailRecipients: () => [] });
    const start = t.clock.now().getTime();
    await w.runOnce();
    let [row] = await deliveries();
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: 'HTTP 500',
    });
    // 5 s and half of the 10 % jitter
    expect(row.next_attempt_at).toBe(start + 5250);
    t.clock.advance(5000);
    expect((await w.runOnce()).attempted).toBe(0);
    t.clock.advance(250);
    expect((await w.runOnce()).attempted).toBe(1);
    [row] = await deliveries();
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200, last_error: null });
    expect(row.next_attempt_at).toBeNull();
    expect(webhook.calls).toHaveLength(2);
  });

  it('one attempt more than the schedule has delays, then failed for good', async () => {
    const f = await bookedFixture(t, { until: 'requested' });
    await addEndpoint(await vendorIdOf(f), ['*']);
    const webhook = scriptedChannel(HTTP_500);
    const w = worker({ webhook, email: scriptedChannel(OK) }, { mailRecipients: () => [], random: () => 0 });
    await w.runOnce();
    t.clock.advance(5000);
    await w.runOnce();
    t.clock.advance(300_000);
    await w.runOnce();
    t.clock.advance(10_000_000);
    await w.runOnce();
    expect(webhook.calls).toHaveLength(3);
    const [row] = await deliveries();
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'HTTP 500',
      next_attempt_at: null,
    });
  });

  it('a 410 disables the endpoint and fails its other pending deliveries', async () => {
    const f = await bookedFixture(t, { until: 'approved' });
    const endpoint = await addEndpoint(await vendorIdOf(f), ['*']);
    const gone: AttemptOutcome = {
      delivered: false,
      statusCode: 410,
      error: 'HTTP 410',
      disableEndpoint: true,
    };
    // only the first delivery is sent: the others are failed with the endpoint
    const webhook: DeliveryChannel & { calls: number } = {
      calls: 0,
      async send() {
        this.calls++;
        return gone;
      },
    };
    await worker({ webhook, email: scriptedChannel(OK) }, { mailRecipients: () => [] }).runOnce();
    const rows = await deliveries();
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
    // both were claimed at once: each either got the 410 itself or was failed with the endpoint
    expect(rows.filter((r) => r.last_status_code === 410).length).toBeGreaterThanOrEqual(1);
    for (const row of rows) expect(row.last_error).toMatch(/410/);
    const stored = await t.db
      .selectFrom('notification_endpoints')
      .select('is_active')
      .where('id', '=', endpoint)
      .executeTakeFirstOrThrow();
    expect(stored.is_active).toBe(0);
    // a later event is not fanned out to the disabled endpoint
    await f.event('payment_intent.succeeded');
    await worker({ webhook, email: scriptedChannel(OK) }, { mailRecipients: () => [] }).runOnce();
    expect(await deliveries()).toHaveLength(2);
  });
});

describe('claims', () => {
  it("an attempt whose claim ran out cannot overwrite the newer attempt's outcome", async () => {
    const f = await bookedFixture(t, { until: 'requested' });
    await addEndpoint(await vendorIdOf(f), ['*']);
    let release: (outcome: AttemptOutcome) => void = () => {};
    const slow: DeliveryChannel = {
      send: () =>
        new Promise<AttemptOutcome>((resolve) => {
          release = resolve;
        }),
    };
    const first = worker({ webhook: slow, email: scriptedChannel(OK) }, { mailRecipients: () => [] });
    const stuck = first.runOnce();
    // wait until the first pass has claimed and is sending
    while ((await deliveries())[0]?.attempts !== 1) await new Promise((r) => setTimeout(r, 5));
    const second = worker(
      { webhook: scriptedChannel(OK), email: scriptedChannel(OK) },
      { mailRecipients: () => [] },
    );
    expect((await second.runOnce()).attempted).toBe(0);
    t.clock.advance(60_000);
    expect((await second.runOnce()).attempted).toBe(1);
    release(HTTP_500);
    await stuck;
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
  });

  it('two workers passing at once send each delivery once', async () => {
    const f = await bookedFixture(t, { until: 'requested' });
    const vendorId = await vendorIdOf(f);
    for (let i = 0; i < 30; i++) await addEndpoint(vendorId, ['*']);
    const sent: number[] = [];
    const slowOk: DeliveryChannel = {
      async send(attempt) {
        sent.push(attempt.delivery.id);
        await new Promise((r) => setTimeout(r, 10));
        return OK;
      },
    };
    const a = worker({ webhook: slowOk, email: scriptedChannel(OK) }, { mailRecipients: () => [] });
    const b = worker({ webhook: slowOk, email: scriptedChannel(OK) }, { mailRecipients: () => [] });
    await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    const rows = await deliveries();
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);
    expect(sent.sort((x, y) => x - y)).toEqual(rows.map((r) => r.id));
  });
});

describe('pacing', () => {
  it('the started loop paces after every batch with its duration; runOnce never waits', async () => {
    const f = await bookedFixture(t, { until: 'requested' });
    const vendorId = await vendorIdOf(f);
    await addEndpoint(vendorId, ['*']);
    const paced: number[] = [];
    const pace = async (batchMs: number) => {
      paced.push(batchMs);
    };
    const once = worker({ webhook: scriptedChannel(OK), email: scriptedChannel(OK) }, { pace });
    await once.runOnce();
    expect(paced).toEqual([]);
    expect((await deliveries()).map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);

    // a new event for the started loop: one batch fans it out, one attempts its three deliveries
    await t.db.updateTable('notification_events').set({ dispatched_at: null }).execute();
    await t.db.deleteFrom('notification_deliveries').execute();
    const looping = worker({ webhook: scriptedChannel(OK), email: scriptedChannel(OK) }, { pace });
    looping.start(5, t.app.log);
    await expect
      .poll(async () => (await deliveries()).filter((d) => d.status === 'succeeded').length)
      .toBe(3);
    await looping.stop();
    expect(paced).toHaveLength(2);
    for (const ms of paced) expect(ms).toBeGreaterThan(0);
  });
});
