import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { vendorProfileId } from '../helpers/booking-factories.ts';
import { type Injector, injector, type TestApp } from '../helpers/build-test-app.ts';
import {
  type CategoryOut,
  createAdventure,
  createCategory,
  createEquipment,
  createStaffAccount,
  type ListingOut,
} from '../helpers/catalog-factories.ts';
import { type Account, registerCustomer, registerVendor } from '../helpers/factories.ts';
import { multipartBody, TINY_PNG } from '../helpers/multipart.ts';
import { createEndpoint, insertWebhookDelivery } from '../helpers/notification-factories.ts';
import { addTeamMember, inviteMember } from '../helpers/team-factories.ts';

// Two unrelated "worlds" (a vendor with listings, slots and clicks; a customer with bookings and a
// payment), a staff account, and forged tokens: the fixtures of the security suites (not a test file).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Vendor extends Account {
  profileId: number;
  slug: string;
}

export interface Party {
  vendor: Vendor;
  customer: Account;
  equipment: ListingOut;
  adventure: ListingOut;
  /** an adventure on a schedule (decisions §19) and the instant of its one departure */
  tour: ListingOut;
  departure: string;
  /** an equipment item that carries the slots (slots change what can be booked, so not on the others) */
  slotItem: ListingOut;
  slotId: number;
  /** a requested booking of the equipment item */
  bookingId: number;
  /** an approved booking of the adventure with an open payment */
  paidBookingId: number;
  paymentId: number;
  intentId: string;
  clientSecret: string;
  clickId: number;
  /** a photo of the equipment item and one of the adventure */
  equipmentPhoto: PhotoOut;
  adventurePhoto: PhotoOut;
  /** the vendor's webhook endpoint (at the webhookUrl marker), its secret, and a delivery in its log */
  endpointId: number;
  webhookSecret: string;
  deliveryId: number;
  /** a staff member of the vendor's team (decisions §25), and an open invitation to it */
  member: Account;
  invitationId: number;
  /** the vendor's promo code (decisions §21) */
  promoCodeId: number;
  /** the vendor's shared resource (decisions §22), used by no listing */
  resourceId: number;
  /** the vendor's channel (decisions §24), nothing booked through it */
  channelId: number;
}

export interface PhotoOut {
  id: number;
  url: string;
}

/** Strings that only one world's own parties may ever see (private data, never on a public page). */
export interface Markers {
  customerEmail: string;
  vendorEmail: string;
  phone: string;
  customerNotes: string;
  vendorNotes: string;
  campaign: string;
  referrer: string;
  webhookUrl: string;
  /** an answer to a listing's question, the name that accepted a waiver, the accepting client's User-Agent */
  answer: string;
  waiverName: string;
  userAgent: string;
}

export interface World {
  t: TestApp;
  api: Injector;
  a: Party;
  b: Party;
  markers: { a: Markers; b: Markers };
  staff: Account;
  category: CategoryOut;
  tokens: ForgedTokens;
}

export interface ForgedTokens {
  expired: string;
  /** a valid token whose payload was changed (sub of another user), signature kept */
  tampered: string;
  /** signature bytes altered */
  badSignature: string;
  /** header alg "none", no signature */
  algNone: string;
  /** signed with another key */
  foreignKey: string;
  /** the customer's refresh token, presented as an access token */
  refreshAsAccess: string;
  /** well-formed but not a JWT */
  garbage: string;
}

let windowDay = 0;
/** A fresh window (whole days, in the future relative to the test clock) no other booking uses. */
export function freshWindow(t: TestApp, hours = 26): { starts_at: string; ends_at: string } {
  windowDay += 3;
  const starts = t.clock.now().getTime() + (10 + windowDay) * DAY;
  return {
    starts_at: new Date(starts).toISOString(),
    ends_at: new Date(starts + hours * HOUR).toISOString(),
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function forgeTokens(t: TestApp, victim: Account, other: Account): Promise<ForgedTokens> {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const key = new TextEncoder().encode(t.config.jwtSecret ?? '');
  const claims = (sub: number) => ({ token_type: 'access', sub: String(sub), jti: `forged-${sub}-${now}` });
  const expired = await new SignJWT(claims(victim.id))
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 3600)
    .setExpirationTime(now - 60)
    .sign(key);
  const [header, , signature] = victim.token.split('.');
  const tampered = `${header}.${b64({ ...claims(other.id), iat: now, exp: now + 600 })}.${signature}`;
  const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
  const algNone = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims(victim.id), iat: now, exp: now + 600 })}.`;
  const foreignKey = await new SignJWT(claims(victim.id))
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(new TextEncoder().encode('another-secret-entirely-0123456789'));
  return {
    expired,
    tampered,
    badSignature: `${victim.token.split('.').slice(0, 2).join('.')}.${flipped}`,
    algNone,
    foreignKey,
    refreshAsAccess: victim.refresh,
    garbage: 'not.a.jwt',
  };
}

async function makeParty(t: TestApp, api: Injector, tag: string, markers: Markers): Promise<Party> {
  const registered = await registerVendor(t.app, { email: markers.vendorEmail, phone_number: markers.phone });
  const vendor: Vendor = {
    ...registered,
    profileId: await vendorProfileId(t.db, registered.id),
    slug: registered.vendorSlug ?? '',
  };
  const customer = await registerCustomer(t.app, {
    email: markers.customerEmail,
    phone_number: markers.phone,
  });
  const equipment = await createEquipment(t.app, vendor, {
    title: `Kayak ${tag}`,
    questions: [{ code: 'health', label: 'Health notes', kind: 'text' }],
  });
  const adventure = await createAdventure(t.app, vendor, { title: `Cave tour ${tag}` });
  const tour = await createScheduledTour(t.app, vendor, tag);

  const [equipmentPhoto, adventurePhoto] = [
    await uploadPhoto(api, vendor, `/api/v1/equipment/vendor/items/${equipment.id}/photos/`),
    await uploadPhoto(api, vendor, `/api/v1/adventrues/vendor/offerings/${adventure.id}/photos/`),
  ];

  const slotItem = await createEquipment(t.app, vendor, { title: `Paddleboard ${tag}` });
  const slot = await api({
    method: 'POST',
    url: '/api/v1/booking/vendor/slots/',
    token: vendor.token,
    payload: { equipment_item_id: slotItem.id, ...freshWindow(t), is_available: false },
  });
  expect(slot.statusCode, slot.body).toBe(201);

  const view = await api({
    method: 'GET',
    url: `/api/v1/equipment/items/${equipment.public_id}/?utm_campaign=${markers.campaign}`,
    headers: { referer: markers.referrer },
  });
  expect(view.statusCode, view.body).toBe(200);

  // the booking accepts a waiver, which the vendor then removes, so the other suites' requests need none
  const waiver = (waiver_text: string) =>
    api({
      method: 'PATCH',
      url: '/api/v1/accounts/vendor-profile/me/',
      token: vendor.token,
      payload: { waiver_text },
    });
  expect((await waiver(`Waiver of ${tag}`)).statusCode).toBe(200);
  const booking = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    headers: { 'user-agent': markers.userAgent },
    payload: {
      equipment_item_id: equipment.id,
      ...freshWindow(t),
      customer_notes: markers.customerNotes,
      marketing_click_id: view.json().marketing_click_id,
      answers: { health: markers.answer },
      waiver_acceptance: { accepted: true, name: markers.waiverName },
    },
  });
  expect(booking.statusCode, booking.body).toBe(201);
  expect((await waiver('')).statusCode).toBe(200);

  const paid = await api({
    method: 'POST',
    url: '/api/v1/booking/bookings/request/',
    token: customer.token,
    payload: {
      adventure_offering_id: adventure.id,
      ...freshWindow(t, 2),
      customer_notes: markers.customerNotes,
    },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  const approved = await api({
    method: 'POST',
    url: `/api/v1/booking/bookings/${paid.json().id}/approve/`,
    token: vendor.token,
    payload: { vendor_notes: markers.vendorNotes },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const intent = await api({
    method: 'POST',
    url: '/api/v1/payment/intents/',
    token: customer.token,
    payload: { booking_id: paid.json().id },
  });
  expect(intent.statusCode, intent.body).toBe(201);

  const endpoint = await createEndpoint(t.app, vendor, { url: markers.webhookUrl });
  const delivery = await insertWebhookDelivery(t.db, endpoint.id, { createdAt: t.clock.now().getTime() });
  const member = await addTeamMember(t, vendor, 'staff');
  const invitation = await inviteMember(
    t.app,
    vendor,
    `invited-${tag}-${markers.phone.slice(-6)}@example.com`,
    'staff',
  );
  expect(invitation.statusCode, invitation.body).toBe(201);

  const promo = await api({
    method: 'POST',
    url: '/api/v1/booking/vendor/promo-codes/',
    token: vendor.token,
    payload: { code: 'WELCOME10', percent_off: 10, max_redemptions: 100 },
  });
  expect(promo.statusCode, promo.body).toBe(201);
  const resource = await api({
    method: 'POST',
    url: '/api/v1/booking/vendor/resources/',
    token: vendor.token,
    payload: { name: 'Kayak', quantity: 6 },
  });
  expect(resource.statusCode, resource.body).toBe(201);
  const channel = await api({
    method: 'POST',
    url: '/api/v1/channels/',
    token: vendor.token,
    payload: { name: 'Harbour Hotel' },
  });
  expect(channel.statusCode, channel.body).toBe(201);

  return {
    vendor,
    customer,
    equipment,
    adventure,
    tour,
    departure: TOUR_DEPARTURE,
    slotItem,
    slotId: slot.json().id,
    bookingId: booking.json().id,
    paidBookingId: paid.json().id,
    paymentId: intent.json().payment.id,
    intentId: intent.json().payment.gateway_payment_intent_id,
    clientSecret: intent.json().client_secret,
    clickId: view.json().marketing_click_id,
    equipmentPhoto,
    adventurePhoto,
    endpointId: endpoint.id,
    webhookSecret: endpoint.secret,
    deliveryId: delivery.deliveryId,
    member,
    invitationId: invitation.json().id,
    promoCodeId: promo.json().id,
    resourceId: resource.json().id,
    channelId: channel.json().id,
  };
}

/** The one departure of every scheduled tour of the worlds (the vendors' zone is UTC). */
export const TOUR_DEPARTURE = '2026-09-01T09:00:00.000Z';

/** A shared adventure with one departure, at TOUR_DEPARTURE. */
export function createScheduledTour(app: TestApp['app'], vendor: Account, tag: string): Promise<ListingOut> {
  return createAdventure(app, vendor, {
    title: `Sunset tour ${tag}`,
    booking_mode: 'shared',
    schedule: [{ weekdays: ['tue'], start_times: ['09:00'], from_date: '2026-09-01', to_date: '2026-09-01' }],
  });
}

/** Uploads a tiny photo to a listing's photos path. */
export async function uploadPhoto(api: Injector, vendor: Account, path: string): Promise<PhotoOut> {
  const res = await api({
    method: 'POST',
    url: path,
    token: vendor.token,
    ...(await multipartBody({}, [{ data: TINY_PNG }])),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

function markersFor(tag: string): Markers {
  const n = `${tag}${Math.random().toString(36).slice(2, 8)}`;
  return {
    customerEmail: `private-customer-${n}@example.com`,
    vendorEmail: `private-vendor-${n}@example.com`,
    phone: `+351-PRIVATE-${n}`,
    customerNotes: `private customer note ${n}`,
    vendorNotes: `private vendor note ${n}`,
    campaign: `private-campaign-${n}`,
    referrer: `https://private-referrer-${n}.example/`,
    // a public address, so the endpoint is accepted without WEBHOOK_ALLOW_PRIVATE_URLS
    webhookUrl: `https://93.184.215.14/private-hook-${n}`,
    answer: `private answer ${n}`,
    waiverName: `Private Signer ${n}`,
    userAgent: `PrivateAgent/${n}`,
  };
}

/** Both worlds, built through the API on a fresh app. */
export async function buildWorld(t: TestApp): Promise<World> {
  const api = injector(t.app);
  const markers = { a: markersFor('a'), b: markersFor('b') };
  const a = await makeParty(t, api, 'A', markers.a);
  const b = await makeParty(t, api, 'B', markers.b);
  const staff = await createStaffAccount(t);
  const category = await createCategory(t.app, staff.token);
  return { t, api, a, b, markers, staff, category, tokens: await forgeTokens(t, a.customer, a.vendor) };
}

/** The path parameters of a route's url (`:id`, `:payment_id`, ...) in order. */
export function pathParams(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
}

/** The url with its parameters replaced (values are URL-encoded unless `raw`). */
export function fillPath(url: string, values: Record<string, string | number>, raw = false): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = String(values[name]);
    return raw ? value : encodeURIComponent(value);
  });
}
