import type { AutocannonRequest } from 'autocannon';
import { createDb } from '../src/db/create-db.ts';
import { localDay } from '../src/lib/local-days.ts';
import { BENCH_PASSWORD } from '../src/tools/seed-bench.ts';
import { bookingRequests, DAY, HOUR, jsonBody } from './server-process.ts';

// The day of the trip under load (decisions §23), for bench/run.ts: a vendor with a waiver whose listings
// ask three questions, made through the public API as any client would (kept across runs of a kept
// database), and a busy day of its: 200 bookings on one local date, written straight to the database.

const TRIP_VENDOR_EMAIL = 'bench-trip-vendor@example.com';
const ZONE = 'Europe/Lisbon';
const TIMES = ['09:00', '11:00', '13:00', '15:00'];
const WAIVER = 'I understand that water sports carry risks, that I follow the instructions of the crew, '
  .repeat(20)
  .trim();
const QUESTIONS = [
  {
    code: 'cert',
    label: 'Certification level',
    kind: 'choice',
    choices: ['None', 'Open Water', 'Advanced', 'Rescue', 'Divemaster'],
    required: true,
    per: 'participant',
  },
  { code: 'size', label: 'Wetsuit size', kind: 'text', required: false, per: 'participant' },
  { code: 'allergies', label: 'Allergies', kind: 'text', required: false, per: 'booking' },
];
/** One participant's (or unit's) answers, as a request and a stored booking carry them. */
const ANSWERS = { cert: ['Open Water'], size: ['M'], allergies: 'none' };
const ACCEPTANCE = { accepted: true, name: 'Bench Customer' };
const ITEMS = 4;
const TOURS = 2;
/** the busy day: bookings per departure of each tour, pick-ups and returns */
const PER_DEPARTURE = 20;
const PICKUPS = 20;
const RETURNS = 20;

export interface TripFixtures {
  vendorToken: string;
  items: { id: number }[];
  /** the busy day, a local date of the vendor's zone */
  manifestDate: string;
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** The trip vendor's token, registering it on first use. */
async function tripVendor(base: string): Promise<string> {
  const credentials = { email: TRIP_VENDOR_EMAIL, password: BENCH_PASSWORD };
  const registered = await call(base, 'POST', '/api/v1/accounts/register/vendor/', {
    ...credentials,
    business_name: 'Bench Trip Divers',
    time_zone: ZONE,
    waiver_text: WAIVER,
  });
  if (registered.status !== 201 && registered.status !== 400)
    throw new Error(`trip vendor: ${registered.status} ${JSON.stringify(registered.json)}`);
  const tokens = await call(base, 'POST', '/api/v1/accounts/token/', credentials);
  if (tokens.status !== 200) throw new Error(`trip vendor login: ${tokens.status}`);
  return tokens.json.access as string;
}

/** The vendor's listings by public id, creating those missing. */
async function tripListings(base: string, token: string) {
  const category = ((await call(base, 'GET', '/api/v1/categories/')).json.results as { id: number }[])[0].id;
  const ensure = async (path: string, publicId: string, fields: Record<string, unknown>) => {
    const mine = (await call(base, 'GET', `${path}?page_size=100`, undefined, token)).json.results as {
      id: number;
      public_id: string;
    }[];
    const found = mine.find((l) => l.public_id === publicId);
    if (found) return found.id;
    const body = { public_id: publicId, description: '', is_active: true, category_id: category, ...fields };
    const made = await call(base, 'POST', path, { ...body, questions: QUESTIONS }, token);
    if (made.status !== 201) throw new Error(`${publicId}: ${made.status} ${JSON.stringify(made.json)}`);
    return made.json.id as number;
  };
  const items: number[] = [];
  for (let i = 1; i <= ITEMS; i++)
    items.push(
      await ensure('/api/v1/equipment/vendor/items/', `bench-trip-item-${i}`, {
        title: `Bench dive kit ${i}`,
        location: 'Lisbon',
        price_per_day: '30.00',
        quantity: 1000,
      }),
    );
  const tours: number[] = [];
  for (let i = 1; i <= TOURS; i++)
    tours.push(
      await ensure('/api/v1/adventrues/vendor/offerings/', `bench-trip-tour-${i}`, {
        title: `Bench reef dive ${i}`,
        meeting_point: 'Lisbon',
        price_per_person: '60.00',
        duration_minutes: 90,
        capacity: 10_000,
        booking_mode: 'shared',
        schedule: [{ weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], start_times: TIMES }],
      }),
    );
  return { items, tours };
}

/**
 * The busy day `date` of the vendor: 200 confirmed bookings with answers and an accepted waiver (each
 * departure of each tour 20, 20 pick-ups, 20 returns), written once for that date, each with its first
 * history entry.
 */
async function seedBusyDay(url: string, listings: { items: number[]; tours: number[] }, date: string) {
  const { db, close } = createDb(url);
  try {
    // the vendor's profile, as its listing names it
    const vendor = await db
      .selectFrom('listings')
      .select('vendor_id as id')
      .where('id', '=', listings.items[0])
      .executeTakeFirstOrThrow();
    const day = localDay(date, ZONE);
    if (!day) throw new Error(`not a date: ${date}`);
    const existing = await db
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('vendor_id', '=', vendor.id)
      .where('starts_at', '>=', day.from)
      .where('starts_at', '<', day.to)
      .executeTakeFirstOrThrow();
    if (Number(existing.n) > 0) return;
    const customers = await db
      .selectFrom('users')
      .select('id')
      .where('email', 'like', 'bench-customer-%')
      .limit(50)
      .execute();
    const now = Date.now();
    const rows: { listing: number; kind: 'equipment' | 'adventure'; starts: number; ends: number }[] = [];
    for (const tour of listings.tours)
      for (const time of TIMES) {
        const starts = day.from + Number(time.slice(0, 2)) * HOUR;
        for (let i = 0; i < PER_DEPARTURE; i++)
          rows.push({ listing: tour, kind: 'adventure', starts, ends: starts + 90 * 60_000 });
      }
    for (let i = 0; i < PICKUPS; i++) {
      const starts = day.from + (9 + (i % 8)) * HOUR;
      rows.push({ listing: listings.items[i % ITEMS], kind: 'equipment', starts, ends: starts + DAY });
    }
    for (let i = 0; i < RETURNS; i++) {
      const ends = day.from + (10 + (i % 8)) * HOUR;
      rows.push({ listing: listings.items[i % ITEMS], kind: 'equipment', starts: ends - DAY, ends });
    }
    await db.transaction().execute(async (trx) => {
      for (const [n, r] of rows.entries()) {
        const { id } = await trx
          .insertInto('bookings')
          .values({
            listing_id: r.listing,
            listing_kind: r.kind,
            vendor_id: vendor.id,
            customer_id: customers[n % customers.length].id,
            status: 'confirmed',
            starts_at: r.starts,
            ends_at: r.ends,
            participants_count: r.kind === 'adventure' ? 1 : null,
            quantity: r.kind === 'equipment' ? 1 : null,
            customer_notes: '',
            vendor_notes: '',
            total_price_cents: 6000,
            currency: 'usd',
            listing_click_id: null,
            expires_at: null,
            answers: JSON.stringify(ANSWERS),
            waiver_name: ACCEPTANCE.name,
            waiver_accepted_at: now,
            waiver_text_sha256: 'b'.repeat(64),
            waiver_client_ip: '127.0.0.1',
            waiver_user_agent: 'bench',
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('booking_status_history')
          .values({
            booking_id: id,
            from_status: null,
            to_status: 'confirmed',
            note: '',
            actor_id: null,
            created_at: now,
          })
          .execute();
      }
    });
  } finally {
    await close();
  }
}

/** The trip vendor, its listings and its busy day (three days after `dayStart`, a UTC midnight). */
export async function prepareTrip(base: string, url: string, dayStart: number): Promise<TripFixtures> {
  const vendorToken = await tripVendor(base);
  const listings = await tripListings(base, vendorToken);
  const manifestDate = new Date(dayStart + 3 * DAY).toISOString().slice(0, 10);
  await seedBusyDay(url, listings, manifestDate);
  return { vendorToken, items: listings.items.map((id) => ({ id })), manifestDate };
}

/** Scenario t: the busy day's manifest, as the Today page asks for it. */
export const manifestRequest = (trip: TripFixtures) => (): AutocannonRequest => ({
  method: 'GET',
  path: `/api/v1/booking/vendor/manifest/?date=${trip.manifestDate}`,
  headers: { authorization: `Bearer ${trip.vendorToken}` },
});

/** Scenario w: booking requests like scenario e's, answering three questions and accepting the waiver. */
export const tripBookingRequests = (
  trip: TripFixtures,
  customerTokens: readonly string[],
  latestEnd: number,
) => {
  const request = bookingRequests(trip.items, customerTokens, latestEnd);
  return (n: number): AutocannonRequest => {
    const made = request(n);
    const body = { ...JSON.parse(String(made.body)), answers: ANSWERS, waiver_acceptance: ACCEPTANCE };
    return { ...made, ...jsonBody(body, customerTokens[n % customerTokens.length]) };
  };
};
