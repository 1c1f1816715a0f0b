// A client of the served OpenAPI document: its types are generated from the document
// (`npm run check:client`), and it walks a vendor and a customer through one booking. Typechecking it
// proves the document describes what a client needs; walkthrough.test.ts runs it against a server.
import createClient from 'openapi-fetch';
import type { paths } from '../../web/src/generated/api.d.ts';

type Client = ReturnType<typeof createClient<paths>>;

/** The data of a successful answer; an error answer throws with its status and body. */
export function need<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined)
    throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const DAY_MS = 24 * 60 * 60 * 1000;

async function accessToken(client: Client, email: string, password: string): Promise<string> {
  const pair = need('log in', await client.POST('/api/v1/accounts/token/', { body: { email, password } }));
  return pair.access;
}

export interface Walkthrough {
  bookingStatus: string;
  totalPrice: string;
  paymentAmount: string;
  paymentStatus: string;
  summary: { clicks: number; bookingsAttributed: number };
}

/**
 * Register a vendor, log in, create an equipment item; register a customer, log in, find the item in the
 * public list, view it, book it for two days; the vendor approves; the customer opens a payment intent;
 * the vendor reads its summary. `now` is the server's clock; `tag` keeps emails and ids unique.
 */
export async function walkthrough(baseUrl: string, now: Date, tag: string): Promise<Walkthrough> {
  const client = createClient<paths>({ baseUrl });
  const password = 'correct-horse-battery';

  const vendorEmail = `vendor-${tag}@example.com`;
  const vendor = need(
    'register the vendor',
    await client.POST('/api/v1/accounts/register/vendor/', {
      body: { email: vendorEmail, password, business_name: `Walkthrough Watersports ${tag}` },
    }),
  );
  const vendorToken = await accessToken(client, vendorEmail, password);

  const categories = need('list the categories', await client.GET('/api/v1/categories/'));
  const category = categories.results[0];
  if (!category) throw new Error('there is no category to list the item in');
  const item = need(
    'create an equipment item',
    await client.POST('/api/v1/equipment/vendor/items/', {
      headers: bearer(vendorToken),
      body: {
        public_id: `kayak-${tag}`,
        title: 'Touring kayak',
        category_id: category.id,
        price_per_day: '45.00',
        location: 'North dock',
      },
    }),
  );

  const customerEmail = `customer-${tag}@example.com`;
  need(
    'register the customer',
    await client.POST('/api/v1/accounts/register/customer/', { body: { email: customerEmail, password } }),
  );
  const customerToken = await accessToken(client, customerEmail, password);

  const list = need(
    'list the vendor’s items',
    await client.GET('/api/v1/equipment/items/', {
      params: { query: { vendor_slug: vendor.vendor_profile.slug, ordering: 'price' } },
    }),
  );
  const listed = list.results.find((result) => result.public_id === item.public_id);
  if (!listed) throw new Error('the new item is not in the public list');
  const detail = need(
    'view the item',
    await client.GET('/api/v1/equipment/items/{public_id}/', {
      params: { path: { public_id: listed.public_id } },
      headers: bearer(customerToken),
    }),
  );

  const start = new Date(Math.ceil(now.getTime() / DAY_MS) * DAY_MS + 7 * DAY_MS);
  const booking = need(
    'request a booking',
    await client.POST('/api/v1/booking/bookings/request/', {
      headers: bearer(customerToken),
      body: {
        equipment_item_id: detail.id,
        starts_at: start.toISOString(),
        ends_at: new Date(start.getTime() + 2 * DAY_MS).toISOString(),
        marketing_click_id: detail.marketing_click_id,
      },
    }),
  );
  const approved = need(
    'approve the booking',
    await client.POST('/api/v1/booking/bookings/{id}/approve/', {
      params: { path: { id: booking.id } },
      headers: bearer(vendorToken),
    }),
  );

  const intent = need(
    'create a payment intent',
    await client.POST('/api/v1/payment/intents/', {
      headers: bearer(customerToken),
      body: { booking_id: approved.id },
    }),
  );

  const summary = need(
    'read the vendor summary',
    await client.GET('/api/v1/marketing/vendor/summary/', {
      params: {
        query: {
          from: new Date(now.getTime() - DAY_MS).toISOString(),
          to: new Date(now.getTime() + DAY_MS).toISOString(),
        },
      },
      headers: bearer(vendorToken),
    }),
  );

  return {
    bookingStatus: approved.status,
    totalPrice: approved.total_price,
    paymentAmount: intent.payment.amount,
    paymentStatus: intent.payment.status,
    summary: {
      clicks: summary.clicks.total,
      bookingsAttributed: summary.bookings_attributed.organic + summary.bookings_attributed.marketing,
    },
  };
}
