import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockGateway } from '../../../src/modules/payments/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import type { Account } from '../../helpers/factories.ts';
import { approvedBooking as approvedBookingOf } from '../../helpers/payment-factories.ts';

// The payment gateway is a network call: it must never run inside a database transaction, which would
// hold a connection (and on SQLite the only write lock) for as long as the gateway takes.

/**
 * The mock gateway, checking at every call that no transaction is open (see `checkNoTransaction`), and
 * able to hold the next intent until the test lets it go.
 */
class CheckingGateway extends MockGateway {
  readonly problems: string[] = [];
  readonly created: string[] = [];
  readonly cancelled: string[] = [];
  /** set by a test: the next createIntent waits for it, after resolving `reached` */
  hold?: { reached: () => void; release: Promise<void> };

  readonly checkNoTransaction: () => Promise<string | null>;

  constructor(checkNoTransaction: () => Promise<string | null>) {
    super(null);
    this.checkNoTransaction = checkNoTransaction;
  }

  override async createIntent() {
    const problem = await this.checkNoTransaction();
    if (problem) this.problems.push(`createIntent: ${problem}`);
    const hold = this.hold;
    this.hold = undefined;
    if (hold) {
      hold.reached();
      await hold.release;
    }
    const intent = await super.createIntent();
    this.created.push(intent.intentId);
    return intent;
  }

  override async cancelIntent(intentId: string): Promise<void> {
    const problem = await this.checkNoTransaction();
    if (problem) this.problems.push(`cancelIntent: ${problem}`);
    this.cancelled.push(intentId);
  }
}

let t: TestApp;
let customer: Account;

/**
 * Null when no transaction is open, else what shows one. A write through the app's own handle must not
 * wait (SQLite: an open transaction holds the one connection and its write lock, so the write would queue
 * behind it until the gateway answered); on PostgreSQL, besides, no pooled connection may be in use.
 */
async function openTransaction(): Promise<string | null> {
  if (t.dialect === 'postgres') {
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1]);
    const busy = gauge('db_pool_connections') - gauge('db_pool_idle_connections');
    if (busy !== 0) return `${busy} database connection(s) in use during the gateway call`;
  }
  const write = t.db
    .updateTable('users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', customer.id)
    .execute();
  return within(write, 'a write waited for the gateway call: a transaction is open').then(
    () => null,
    (error: Error) => error.message,
  );
}

/** `promise`, or a rejection with `message` when it has not settled within two seconds. */
async function within<T>(promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), 2_000);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const gateway = new CheckingGateway(openTransaction);

beforeAll(async () => {
  t = await buildTestApp({ gateway });
});
afterAll(() => t.close());

/** An approved booking, whose customer the transaction check writes to, and the helpers to pay for it. */
async function approvedBooking() {
  const booking = await approvedBookingOf(t);
  customer = booking.customer;
  return booking;
}

describe('the payment gateway', () => {
  it('is called with no transaction open, when opening an intent and when cancelling a superseded one', async () => {
    const b = await approvedBooking();
    const first = await b.intent();
    expect(first.statusCode).toBe(201);
    const firstIntent = first.json().payment.gateway_payment_intent_id;
    await b.event('evt_gw_fail', 'payment_intent.payment_failed', firstIntent);
    const second = (await b.intent()).json().payment;
    // a late success of the first payment closes the second, unpaid one at the gateway
    const late = await b.event('evt_gw_late_ok', 'payment_intent.succeeded', firstIntent);
    expect(late.json()).toMatchObject({ applied: true, payment_status: 'succeeded' });
    expect(gateway.cancelled).toEqual([second.gateway_payment_intent_id]);
    expect((await b.payments()).map((p) => p.status)).toEqual(['succeeded', 'failed']);
    expect(gateway.created).toHaveLength(2);
    expect(gateway.problems).toEqual([]);
  });

  it('opens one payment when another request opened one while the gateway worked, and cancels its own intent', async () => {
    const b = await approvedBooking();
    const createdBefore = gateway.created.length;
    const cancelledBefore = gateway.cancelled.length;
    let reached!: () => void;
    let release!: () => void;
    const atGateway = new Promise<void>((resolve) => {
      reached = resolve;
    });
    gateway.hold = {
      reached,
      release: new Promise<void>((resolve) => {
        release = resolve;
      }),
    };
    const slow = b.intent();
    await atGateway;
    // the second request goes all the way through while the first waits for the gateway
    const fast = await within(b.intent(), "the second request waited for the first one's gateway call");
    expect(fast.statusCode).toBe(201);
    release();
    const late = await slow;
    expect(late.statusCode).toBe(200);
    expect(late.json().payment.id).toBe(fast.json().payment.id);

    const stored = await t.db
      .selectFrom('payments')
      .select(['id', 'gateway_payment_intent_id'])
      .where('booking_id', '=', b.bookingId)
      .execute();
    expect(stored).toEqual([
      {
        id: fast.json().payment.id,
        gateway_payment_intent_id: fast.json().payment.gateway_payment_intent_id,
      },
    ]);
    const created = gateway.created.slice(createdBefore);
    expect(created).toHaveLength(2);
    // the intent the slow request opened is the one not stored, and it is cancelled at the gateway
    const orphan = created.find((id) => id !== stored[0].gateway_payment_intent_id);
    expect(gateway.cancelled.slice(cancelledBefore)).toEqual([orphan]);
    expect(gateway.problems).toEqual([]);
  });
});
