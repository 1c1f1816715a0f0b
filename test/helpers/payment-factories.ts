import { type Injector, injector, type TestApp } from './build-test-app.ts';
import { createEquipment } from './catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from './factories.ts';

/** A new customer's approved one-day booking of a new vendor's item, and the helpers to pay for it. */
export async function approvedBooking(t: TestApp) {
  const api = injector(t.app);
  const vendor = await registerVendor(t.app);
  const customer = await registerCustomer(t.app);
  const item = await createEquipment(t.app, vendor);
  const starts = t.clock.now().getTime() + 3 * 86_400_000;
  const booking = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: {
      equipment_item_id: item.id,
      starts_at: new Date(starts).toISOString(),
      ends_at: new Date(starts + 86_400_000).toISOString(),
    },
  });
  const bookingId: number = booking.json().id;
  await api({ method: 'POST', url: `/api/v1/booking/bookings/${bookingId}/approve/`, token: vendor.token });
  const intent = () =>
    api({
      method: 'POST',
      url: '/api/v1/payment/intents/',
      token: customer.token,
      payload: { booking_id: bookingId },
    });
  const event = (id: string, type: string, intentId: string) =>
    api({
      method: 'POST',
      url: '/api/v1/payment/webhooks/gateway/',
      payload: { gateway_event_id: id, event_type: type, gateway_payment_intent_id: intentId },
    });
  /** the booking's payments, oldest first */
  const payments = () =>
    t.db
      .selectFrom('payments')
      .select(['id', 'status'])
      .where('booking_id', '=', bookingId)
      .orderBy('id')
      .execute();
  return { bookingId, customer, intent, event, payments };
}

/** The vendor approves the booking and its customer opens a payment intent: the payment object. */
export async function approveWithIntent(
  api: Injector,
  vendor: Pick<Account, 'token'>,
  customer: Pick<Account, 'token'>,
  bookingId: number,
): Promise<{ id: number; gateway_payment_intent_id: string }> {
  await api({ method: 'POST', url: `/api/v1/booking/bookings/${bookingId}/approve/`, token: vendor.token });
  const intent = await api({
    method: 'POST',
    url: '/api/v1/payment/intents/',
    token: customer.token,
    payload: { booking_id: bookingId },
  });
  return intent.json().payment;
}
