import Fastify, { type FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type RouteEntry, registerRouteConventions } from '../../src/http/openapi.ts';
import {
  createAdventure,
  createCategory,
  createEquipment,
  uniquePublicId,
} from '../helpers/catalog-factories.ts';
import { PASSWORD } from '../helpers/factories.ts';
import { multipartBody, TINY_PNG } from '../helpers/multipart.ts';
import { createEndpoint, insertWebhookDelivery, PUBLIC_HOOK_URL } from '../helpers/notification-factories.ts';
import { addTeamMember, inviteMember, restoreOwner } from '../helpers/team-factories.ts';
import {
  createScheduledTour,
  fillPath,
  freshWindow,
  type Party,
  pathParams,
  uploadPhoto,
  type World,
} from './world.ts';

// What the security suites know about routes in general, keyed by URL patterns, never by a hand list of
// routes: the route table (src/http/openapi.ts) says which routes exist, and a test fails when a route
// appears that these tables cannot serve (a path parameter nobody owns, a body without a sample).

/**
 * Starts an app with the route conventions and one route declaring `config` (which the types may refuse):
 * whether the declaration lets the server start. The app is closed again either way.
 */
export async function startWithRoute(config: object): Promise<void> {
  const app = Fastify();
  registerRouteConventions(app);
  try {
    await app.register(async (scope) => {
      // biome-ignore lint/suspicious/noExplicitAny: the point is a declaration the types would refuse
      scope.get('/api/v1/forgotten/', { config: config as any }, async () => ({}));
    });
    await app.ready();
  } finally {
    await app.close().catch(() => {});
  }
}

/**
 * The module routes (no plugin pages, no HEAD twins), as registered. The OCTO API's routes (auth
 * `channel`) are not among them: they answer OCTO's error body to a reseller's key, not the platform's to
 * a token, and test/modules/octo tries each of them the same way (octo-auth.test.ts).
 */
export function apiRoutes(app: FastifyInstance): RouteEntry[] {
  return app.routeTable.filter((r) => !r.internal && r.method !== 'HEAD' && r.auth !== 'channel');
}

export const routeName = (r: Pick<RouteEntry, 'method' | 'url'>) => `${r.method} ${r.url}`;

type ResourceKind =
  | 'listing'
  | 'photo'
  | 'slot'
  | 'booking'
  | 'payment'
  | 'endpoint'
  | 'delivery'
  | 'invitation'
  | 'member'
  | 'promo_code'
  | 'resource'
  | 'channel';

interface OwnedResource {
  kind: ResourceKind;
  /** a booking or payment has two parties (customer and vendor); listings and slots one (the vendor) */
  twoParty: boolean;
  /** the party's existing resource */
  idOf(party: Party, url: string): number;
  /** a new resource of the party (for requests that change or consume it) */
  fresh(world: World, party: Party, url: string): Promise<number>;
  /** the values of the path's other parameters (the listing of a photo), when it has more than one */
  parentOf?(party: Party, url: string): Record<string, string | number>;
}

const kindOfUrl = (url: string) => (/\/equipment\//.test(url) ? 'equipment' : 'adventure');
const listingOf = (p: Party, url: string) => (kindOfUrl(url) === 'equipment' ? p.equipment : p.adventure);
const freshListing = async (w: World, p: Party, url: string) =>
  (kindOfUrl(url) === 'equipment'
    ? await createEquipment(w.t.app, p.vendor)
    : await createAdventure(w.t.app, p.vendor)
  ).id;

async function freshBooking(world: World, party: Party): Promise<number> {
  const res = await world.api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: party.customer.token,
    payload: { equipment_item_id: party.equipment.id, ...freshWindow(world.t) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function freshPayment(world: World, party: Party): Promise<number> {
  const id = await freshBooking(world, party);
  const approved = await world.api({
    method: 'POST',
    url: `/api/v1/booking/bookings/${id}/approve/`,
    token: party.vendor.token,
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const intent = await world.api({
    method: 'POST',
    url: '/api/v1/payment/intents/',
    token: party.customer.token,
    payload: { booking_id: id },
  });
  expect(intent.statusCode, intent.body).toBe(201);
  return intent.json().payment.id;
}

/** A fresh payment that succeeded (the refund route needs money to refund). */
async function freshPaidPayment(world: World, party: Party): Promise<number> {
  const id = await freshPayment(world, party);
  const status = await world.api({
    method: 'GET',
    url: `/api/v1/payment/${id}/status/`,
    token: party.customer.token,
  });
  const paid = await world.api({
    method: 'POST',
    url: '/api/v1/payment/webhooks/gateway/',
    payload: {
      gateway_event_id: `evt_${unique()}`,
      event_type: 'payment_intent.succeeded',
      gateway_payment_intent_id: status.json().gateway_payment_intent_id,
    },
  });
  expect(paid.json().payment_status, paid.body).toBe('succeeded');
  return id;
}

/** A fresh confirmed booking (paid). */
async function freshConfirmedBooking(world: World, party: Party): Promise<number> {
  const paymentId = await freshPaidPayment(world, party);
  const status = await world.api({
    method: 'GET',
    url: `/api/v1/payment/${paymentId}/status/`,
    token: party.customer.token,
  });
  return status.json().booking_id;
}

/** Resources reached by a path parameter, and who owns them. */
export const OWNED: { match: RegExp; resource: OwnedResource }[] = [
  {
    // a listing, and the photos of a listing (a new listing has room for every upload)
    match: /\/vendor\/(items|offerings)\/:id\/(photos\/)?$/,
    resource: {
      kind: 'listing',
      twoParty: false,
      idOf: (p, url) => listingOf(p, url).id,
      fresh: freshListing,
    },
  },
  {
    match: /\/vendor\/(items|offerings)\/:id\/photos\/:photo_id\/$/,
    resource: {
      kind: 'photo',
      twoParty: false,
      idOf: (p, url) => (kindOfUrl(url) === 'equipment' ? p.equipmentPhoto.id : p.adventurePhoto.id),
      parentOf: (p, url) => ({ id: listingOf(p, url).id }),
      fresh: async (w, p, url) =>
        (
          await uploadPhoto(
            w.api,
            p.vendor,
            url.replace(/:photo_id\/$/, '').replace(':id', String(listingOf(p, url).id)),
          )
        ).id,
    },
  },
  {
    // a departure of a scheduled offering (decisions §19): the offering, and the departure's instant
    match: /\/vendor\/offerings\/:id\/departures\//,
    resource: {
      kind: 'listing',
      twoParty: false,
      idOf: (p) => p.tour.id,
      parentOf: (p): Record<string, string> => ({ starts_at: p.departure }),
      fresh: async (w, p) => (await createScheduledTour(w.t.app, p.vendor, 'fresh')).id,
    },
  },
  {
    match: /\/vendor\/slots\/:id\/$/,
    resource: {
      kind: 'slot',
      twoParty: false,
      idOf: (p) => p.slotId,
      fresh: async (w, p) => {
        const res = await w.api({
          method: 'POST',
          url: '/api/v1/booking/vendor/slots/',
          token: p.vendor.token,
          payload: { equipment_item_id: p.slotItem.id, ...freshWindow(w.t) },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id;
      },
    },
  },
  {
    // attendance is recorded for confirmed bookings only
    match: /\/bookings\/:id\/attendance\//,
    resource: { kind: 'booking', twoParty: true, idOf: (p) => p.bookingId, fresh: freshConfirmedBooking },
  },
  {
    match: /\/bookings\/:id\//,
    resource: { kind: 'booking', twoParty: true, idOf: (p) => p.bookingId, fresh: freshBooking },
  },
  {
    match: /\/:payment_id\/refunds\//,
    resource: { kind: 'payment', twoParty: true, idOf: (p) => p.paymentId, fresh: freshPaidPayment },
  },
  {
    match: /\/:payment_id\//,
    resource: { kind: 'payment', twoParty: true, idOf: (p) => p.paymentId, fresh: freshPayment },
  },
  {
    // a webhook endpoint, and its secret rotation and delivery log
    match: /\/notifications\/endpoints\/:id\//,
    resource: {
      kind: 'endpoint',
      twoParty: false,
      idOf: (p) => p.endpointId,
      fresh: async (w, p) => (await createEndpoint(w.t.app, p.vendor)).id,
    },
  },
  {
    match: /\/vendor\/promo-codes\/:id\/$/,
    resource: {
      kind: 'promo_code',
      twoParty: false,
      idOf: (p) => p.promoCodeId,
      fresh: async (w, p) => {
        const res = await w.api({
          method: 'POST',
          url: '/api/v1/booking/vendor/promo-codes/',
          token: p.vendor.token,
          payload: promoCodeBody(),
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id;
      },
    },
  },
  {
    // a shared resource and its usage
    match: /\/vendor\/resources\/:id\//,
    resource: {
      kind: 'resource',
      twoParty: false,
      idOf: (p) => p.resourceId,
      fresh: async (w, p) => {
        const res = await w.api({
          method: 'POST',
          url: '/api/v1/booking/vendor/resources/',
          token: p.vendor.token,
          payload: { name: 'Wetsuit', quantity: 4 },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id;
      },
    },
  },
  {
    // a channel (decisions §24) and its key's rotation
    match: /\/channels\/:id\//,
    resource: {
      kind: 'channel',
      twoParty: false,
      idOf: (p) => p.channelId,
      fresh: async (w, p) => {
        // creating a channel is the owner's (decisions §25), which a hand-over before may have moved
        await restoreOwner(w.t.db, p.vendor.id);
        const res = await w.api({
          method: 'POST',
          url: '/api/v1/channels/',
          token: p.vendor.token,
          payload: { name: `Reseller ${unique()}` },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id;
      },
    },
  },
  {
    match: /\/notifications\/deliveries\/:id\//,
    resource: {
      kind: 'delivery',
      twoParty: false,
      idOf: (p) => p.deliveryId,
      fresh: async (w, p) =>
        (await insertWebhookDelivery(w.t.db, p.endpointId, { createdAt: w.t.clock.now().getTime() }))
          .deliveryId,
    },
  },
  {
    // an invitation to the vendor's team (decisions §25)
    match: /\/accounts\/team\/invitations\/:id\/$/,
    resource: {
      kind: 'invitation',
      twoParty: false,
      idOf: (p) => p.invitationId,
      fresh: async (w, p) => {
        await restoreOwner(w.t.db, p.vendor.id);
        const res = await inviteMember(w.t.app, p.vendor, `fresh-${unique()}@example.com`, 'staff');
        expect(res.statusCode, res.body).toBe(201);
        return res.json().id;
      },
    },
  },
  {
    // a member of the vendor's team
    match: /\/accounts\/team\/:user_id\//,
    resource: {
      kind: 'member',
      twoParty: false,
      idOf: (p) => p.member.id,
      fresh: async (w, p) => {
        // a hand-over before made the party's vendor a manager, who may not invite
        await restoreOwner(w.t.db, p.vendor.id);
        return (await addTeamMember(w.t, p.vendor, 'staff')).id;
      },
    },
  },
];

/** Path parameters naming resources nobody owns (staff-managed or public lookups). */
export const UNOWNED: {
  match: RegExp;
  value: (world: World, param: string, url: string) => string | number;
  /** a new one, for requests that change or consume it */
  fresh?: (world: World) => Promise<number>;
}[] = [
  {
    match: /\/categories\/:id\/$/,
    value: (w) => w.category.id,
    fresh: async (w) => (await createCategory(w.t.app, w.staff.token)).id,
  },
  {
    match: /\/offerings\/:public_id\/departures\/$/,
    value: (w) => w.a.tour.public_id,
  },
  {
    match: /\/:public_id\/$/,
    value: (w, _param, url) => (kindOfUrl(url) === 'equipment' ? w.a.equipment : w.a.adventure).public_id,
  },
  { match: /\/storefront\/:slug\/$/, value: (w) => w.a.vendor.slug },
  { match: /^\/media\/:key$/, value: (w) => w.a.equipmentPhoto.url.slice('/media/'.length) },
  // a feed's secret token: the world's vendors have made none, so this is a token nobody has (404)
  { match: /^\/calendar\/:token\.ics$/, value: () => 'q5Jd0Yb0w8mR3sX1nZk2cV7tLpA4eH6uG9iF0oB3yWs' },
];

export function ownedResource(url: string): OwnedResource | undefined {
  return OWNED.find((o) => o.match.test(url))?.resource;
}

/** A new resource for a request that changes or consumes the one its path names (undefined: none). */
export async function freshTarget(
  world: World,
  party: Party,
  route: RouteEntry,
): Promise<number | undefined> {
  if (route.method === 'GET' || !pathParams(route.url).length) return undefined;
  const owned = ownedResource(route.url);
  if (owned) return owned.fresh(world, party, route.url);
  return UNOWNED.find((u) => u.match.test(route.url))?.fresh?.(world);
}

/** The URL of a route with its path parameters set to the party's own resource (or the shared ones). */
export function sampleUrl(world: World, party: Party, route: RouteEntry, id?: number): string {
  const params = pathParams(route.url);
  if (!params.length) return route.url;
  const owned = ownedResource(route.url);
  const unowned = UNOWNED.find((u) => u.match.test(route.url));
  const values: Record<string, string | number> = {};
  const parent = owned?.parentOf?.(party, route.url) ?? {};
  for (const param of params) {
    if (param in parent) values[param] = parent[param];
    else if (owned) values[param] = id ?? owned.idOf(party, route.url);
    else if (unowned) values[param] = id ?? unowned.value(world, param, route.url);
    else throw new Error(`no sample value for :${param} of ${routeName(route)}: add it to OWNED or UNOWNED`);
  }
  return fillPath(route.url, values);
}

// --- query strings -------------------------------------------------------------------------------------

const WIDE_FROM = '2000-01-01T00:00:00Z';
const WIDE_TO = '2100-01-01T00:00:00Z';
/** The time series answers at most 366 dates: a year instead of a century. */
const YEAR_RANGE = { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };
const isTimeseries = (route: RouteEntry) => route.url.includes('/timeseries/');

function schemaProperties(schema: unknown): Record<string, { type?: unknown }> {
  return ((schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ??
    {}) as Record<string, { type?: unknown }>;
}

export function requiredOf(schema: unknown): string[] {
  return ((schema as { required?: string[] } | undefined)?.required ?? []) as string[];
}

/** A query string satisfying a route's required parameters (by their names), with the party's listing. */
export function sampleQuery(party: Party, route: RouteEntry): string {
  const properties = schemaProperties(route.schema?.querystring);
  const required = new Set(requiredOf(route.schema?.querystring));
  const query = new URLSearchParams();
  const window = { starts_at: '2027-03-01T10:00:00Z', ends_at: '2027-03-02T10:00:00Z' };
  for (const name of Object.keys(properties)) {
    // exactly one listing id is what every route taking these wants (a filter or a target)
    if (name === 'equipment_item_id') query.set(name, String(party.equipment.id));
    // both ends of a window: an equipment item needs ends_at even where an adventure may leave it out
    else if (name in window) query.set(name, window[name as keyof typeof window]);
    else if (!required.has(name)) continue;
    else if (name === 'from') query.set(name, isTimeseries(route) ? YEAR_RANGE.from : WIDE_FROM);
    else if (name === 'to') query.set(name, isTimeseries(route) ? YEAR_RANGE.to : WIDE_TO);
    else throw new Error(`no sample value for required query parameter ${name} of ${routeName(route)}`);
  }
  // list endpoints: the widest page, so that everything the caller may see is in the answer
  if ('page_size' in properties) query.set('page_size', '100');
  const text = query.toString();
  return text ? `?${text}` : '';
}

// --- request bodies ------------------------------------------------------------------------------------

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;
/** A new promo code of the caller's (decisions §21): codes are unique per vendor. */
const promoCodeBody = () => ({
  code: `P-${unique().toUpperCase()}`,
  amount_off: '5.00',
  max_redemptions: 10,
});

/**
 * Marks a sample body sent as multipart/form-data (the photo upload): its other members become form
 * fields, and a tiny PNG the file. A symbol, so that spreading the body into another keeps the mark.
 */
export const MULTIPART = Symbol('multipart');

export type SampleBody = Record<string, unknown> & { [MULTIPART]?: true };

type BodyFactory = (world: World, party: Party, route: RouteEntry) => SampleBody;

/** The inject options that send a sample body: JSON, or multipart/form-data when it is marked so. */
export async function encodedBody(
  body: SampleBody | undefined,
): Promise<{ payload?: Buffer | SampleBody; headers?: Record<string, string> }> {
  if (body === undefined) return {};
  if (!body[MULTIPART]) return { payload: body };
  const fields = Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  return multipartBody(fields, [{ data: TINY_PNG }]);
}

const listingBody = (url: string, world: World): Record<string, unknown> =>
  kindOfUrl(url) === 'equipment'
    ? {
        public_id: uniquePublicId('eq'),
        title: 'Sea kayak',
        description: 'Two seats',
        details: { seats: 2 },
        location: 'Lagos',
        price_per_day: '45.00',
        // decisions §20: rental periods that leave every window the suites book open
        rates: [{ duration_minutes: 60, price: '15.00' }],
        min_duration_minutes: null,
        max_duration_minutes: null,
        buffer_minutes: 0,
        is_active: true,
        category_id: world.category.id,
      }
    : {
        public_id: uniquePublicId('adv'),
        title: 'Cave tour',
        description: 'Two hours',
        meeting_point: 'Marina',
        duration_minutes: 120,
        capacity: 8,
        price_per_person: '35.00',
        is_active: true,
        category_id: world.category.id,
      };

/** A valid body per body-carrying route pattern (method + URL). */
export const SAMPLE_BODIES: { method: string; match: RegExp; body: BodyFactory }[] = [
  {
    method: 'POST',
    match: /\/accounts\/register\/vendor\/$/,
    body: () => ({
      email: `v-${unique()}@example.com`,
      password: PASSWORD,
      business_name: `Shop ${unique()}`,
    }),
  },
  {
    method: 'POST',
    match: /\/accounts\/register\/customer\/$/,
    body: () => ({ email: `c-${unique()}@example.com`, password: PASSWORD, first_name: 'Ana' }),
  },
  {
    method: 'POST',
    match: /\/accounts\/token\/$/,
    body: (_w, p) => ({ email: p.customer.email, password: PASSWORD }),
  },
  { method: 'POST', match: /\/accounts\/token\/refresh\/$/, body: () => ({ refresh: 'not-a-real-token' }) },
  { method: 'POST', match: /\/accounts\/logout\/$/, body: () => ({ refresh: 'not-a-real-token' }) },
  {
    method: 'POST',
    match: /\/accounts\/web-session\/$/,
    body: (_w, p) => ({ email: p.customer.email, password: PASSWORD }),
  },
  { method: 'PATCH', match: /\/accounts\/me\/$/, body: () => ({ first_name: 'Ana' }) },
  // the same password again: the party's later logins keep working (its refresh tokens are revoked)
  {
    method: 'POST',
    match: /\/accounts\/password\/change\/$/,
    body: () => ({ current_password: PASSWORD, new_password: PASSWORD }),
  },
  { method: 'POST', match: /\/accounts\/password\/reset\/$/, body: (_w, p) => ({ email: p.customer.email }) },
  {
    method: 'POST',
    match: /\/accounts\/password\/reset\/confirm\/$/,
    body: () => ({ token: 'not-a-real-token', new_password: 'Harbour-Lights-77' }),
  },
  // null opening hours (always open): the party's bookings must stay requestable at any instant
  {
    method: 'PATCH',
    match: /\/accounts\/vendor-profile\/me\/$/,
    body: () => ({ city: 'Faro', opening_hours: null }),
  },
  { method: 'POST', match: /\/vendor\/(items|offerings)\/$/, body: (w, _p, r) => listingBody(r.url, w) },
  { method: 'PUT', match: /\/vendor\/(items|offerings)\/:id\/$/, body: (w, _p, r) => listingBody(r.url, w) },
  { method: 'PATCH', match: /\/vendor\/(items|offerings)\/:id\/$/, body: () => ({ title: 'Renamed' }) },
  { method: 'POST', match: /\/photos\/$/, body: () => ({ [MULTIPART]: true, alt: 'A kayak' }) },
  { method: 'PATCH', match: /\/photos\/:photo_id\/$/, body: () => ({ alt: 'Renamed', position: 0 }) },
  {
    method: 'POST',
    match: /\/booking\/vendor\/slots\/$/,
    body: (w, p) => ({ equipment_item_id: p.slotItem.id, ...freshWindow(w.t) }),
  },
  { method: 'PATCH', match: /\/booking\/vendor\/slots\/:id\/$/, body: () => ({ is_available: true }) },
  { method: 'PATCH', match: /\/departures\/:starts_at\/$/, body: () => ({ capacity: 10, is_closed: false }) },
  { method: 'POST', match: /\/departures\/:starts_at\/cancel\/$/, body: () => ({ note: 'Gale' }) },
  { method: 'POST', match: /\/booking\/vendor\/promo-codes\/$/, body: () => promoCodeBody() },
  {
    method: 'POST',
    match: /\/booking\/vendor\/resources\/$/,
    body: () => ({ name: 'Paddle board', quantity: 3 }),
  },
  { method: 'PATCH', match: /\/booking\/vendor\/resources\/:id\/$/, body: () => ({ quantity: 7 }) },
  {
    method: 'PATCH',
    match: /\/booking\/vendor\/promo-codes\/:id\/$/,
    body: () => ({ max_redemptions: 20, is_active: true }),
  },
  {
    method: 'POST',
    match: /\/booking\/quote\/$/,
    body: (w, p) => ({ equipment_item_id: p.equipment.id, ...freshWindow(w.t), promo_code: 'welcome10' }),
  },
  {
    method: 'POST',
    match: /\/booking\/(bookings\/request|quote)\/$/,
    body: (w, p) => ({ equipment_item_id: p.equipment.id, ...freshWindow(w.t), customer_notes: 'hi' }),
  },
  {
    method: 'POST',
    match: /\/bookings\/:id\/(approve|decline|cancel|vendor-cancel)\/$/,
    body: () => ({ note: 'ok' }),
  },
  { method: 'POST', match: /\/bookings\/:id\/attendance\/$/, body: () => ({ status: 'pending' }) },
  { method: 'POST', match: /\/payment\/:payment_id\/refunds\/$/, body: () => ({ note: 'ok' }) },
  {
    method: 'POST',
    match: /\/payment\/:payment_id\/mock-checkout\/$/,
    // a declined card: a success would confirm the booking, the very status the mass-assignment sweep
    // plants as a foreign value
    body: () => ({ outcome: 'failed' }),
  },
  { method: 'POST', match: /\/payment\/intents\/$/, body: (_w, p) => ({ booking_id: p.paidBookingId }) },
  {
    method: 'POST',
    match: /\/payment\/webhooks\/gateway\/$/,
    body: (_w, p) => ({
      gateway_event_id: `evt_${unique()}`,
      event_type: 'payment_intent.processing',
      gateway_payment_intent_id: p.intentId,
      payload: {},
    }),
  },
  {
    method: 'POST',
    match: /\/notifications\/endpoints\/$/,
    body: () => ({ url: PUBLIC_HOOK_URL, event_types: ['booking.requested'], description: 'Desk' }),
  },
  {
    method: 'PATCH',
    match: /\/notifications\/endpoints\/:id\/$/,
    body: () => ({ description: 'Renamed', is_active: true }),
  },
  {
    method: 'POST',
    match: /\/accounts\/team\/invitations\/$/,
    body: () => ({ email: `invitee-${unique()}@example.com`, role: 'staff' }),
  },
  {
    method: 'POST',
    match: /\/accounts\/team\/invitations\/accept\/$/,
    body: () => ({ token: 'not-a-real-token', password: PASSWORD, first_name: 'Rui', last_name: 'Costa' }),
  },
  { method: 'PATCH', match: /\/accounts\/team\/:user_id\/$/, body: () => ({ role: 'staff' }) },
  { method: 'POST', match: /\/channels\/$/, body: () => ({ name: `Reseller ${unique()}` }) },
  { method: 'PATCH', match: /\/channels\/:id\/$/, body: () => ({ name: 'Renamed reseller' }) },
  { method: 'POST', match: /\/categories\/$/, body: () => ({ name: `Category ${unique()}` }) },
  { method: 'PATCH', match: /\/categories\/:id\/$/, body: () => ({ description: 'Updated' }) },
  {
    method: 'POST',
    match: /\/marketing\/track\/click\/$/,
    body: (_w, p) => ({ listing_type: 'equipment', public_id: p.equipment.public_id }),
  },
];

export function sampleBody(world: World, party: Party, route: RouteEntry): SampleBody | undefined {
  if (!route.schema?.body) return undefined;
  const sample = SAMPLE_BODIES.find((s) => s.method === route.method && s.match.test(route.url));
  if (!sample) throw new Error(`no sample body for ${routeName(route)}: add it to SAMPLE_BODIES`);
  return sample.body(world, party, route);
}

/**
 * Headers a route needs besides the token: the web session's routes refuse a request without their
 * cross-site guard (src/modules/accounts/web-session.routes.ts), as a browser page always sends it.
 */
export function sampleHeaders(route: RouteEntry): Record<string, string> {
  return /\/accounts\/web-session\//.test(route.url) ? { 'x-waterbook-web': '1' } : {};
}

/** Body fields a route takes (its body schema's properties). */
export function bodyFields(route: RouteEntry): string[] {
  return Object.keys(schemaProperties(route.schema?.body));
}
