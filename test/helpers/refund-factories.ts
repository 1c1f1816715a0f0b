import { type Injector, injector, type TestApp } from './build-test-app.ts';
import { createEquipment } from './catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from './factories.ts';
import { approveWithIntent } from './payment-factories.ts';

const HOUR = 3_600_000;
let eventCounter = 0;

export interface BookingSetup {
  /** price_per_day of the item: the one-day booking's total */
  price?: string;
  policy?: { free_cancellation_hours?: number; late_refund_percent?: number };
  /** hours from the clock's now to the booking's start (default 72) */
  startsInHours?: number;
  /** how far to take it: requested, approved (with an open intent) or paid (default) */
  until?: 'requested' | 'approved' | 'paid';
  /** the item's vendor (default: a new one) */
  vendor?: Account;
}

export interface BookedFixture {
  api: Injector;
  vendor: Account;
  customer: Account;
  bookingId: number;
  paymentId: number | null;
  intentId: string | null;
  startsAt: number;
  /** sends one gateway event for the booking's intent */
  event: (type: string) => ReturnType<Injector>;
  /** the payment as its status endpoint shows it to the customer */
  payment: () => Promise<Record<string, unknown> & { refunds: Record<string, unknown>[] }>;
}

/** A new vendor's one-day item, a new customer's booking of it, taken as far as `until` says. */
export async function bookedFixture(t: TestApp, setup: BookingSetup = {}): Promise<BookedFixture> {
  const api = injector(t.app);
  const vendor = setup.vendor ?? (await registerVendor(t.app));
  const customer = await registerCustomer(t.app);
  const item = await createEquipment(t.app, vendor, {
    price_per_day: setup.price ?? '50.00',
    ...(setup.policy ? { cancellation_policy: setup.policy } : {}),
  });
  const startsAt = t.clock.now().getTime() + (setup.startsInHours ?? 72) * HOUR;
  const requested = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: {
      equipment_item_id: item.id,
      starts_at: new Date(startsAt).toISOString(),
      ends_at: new Date(startsAt + 24 * HOUR).toISOString(),
    },
  });
  if (requested.statusCode !== 201) throw new Error(`booking request: ${requested.body}`);
  const bookingId: number = requested.json().id;
  let paymentId: number | null = null;
  let intentId: string | null = null;
  const until = setup.until ?? 'paid';
  if (until !== 'requested') {
    const payment = await approveWithIntent(api, vendor, customer, bookingId);
    paymentId = payment.id;
    intentId = payment.gateway_payment_intent_id;
  }
  const event = (type: string) =>
    api({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      payload: {
        gateway_event_id: `evt_refund_${eventCounter++}`,
        event_type: type,
        gateway_payment_intent_id: intentId,
      },
    });
  if (until === 'paid') {
    const paid = await event('payment_intent.succeeded');
    if (paid.json().payment_status !== 'succeeded') throw new Error(`payment: ${paid.body}`);
  }
  const payment = async () =>
    (await api({ method: 'GET', url: `/api/v1/payment/${paymentId}/status/`, token: customer.token })).json();
  return { api, vendor, customer, bookingId, paymentId, intentId, startsAt, event, payment };
}
