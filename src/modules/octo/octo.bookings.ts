import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/errors.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import {
  type ChannelActor,
  type ChannelBookingRef,
  type ChannelBookingRow,
  type ChannelBookingWhere,
  cancelChannelBooking,
  channelBookingViews,
  channelCaller,
  confirmChannelBooking,
  extendChannelHold,
  requestChannelBooking,
} from '../booking/index.ts';
import type { ListingRef } from '../catalog/index.ts';
import type { ChannelIdentity } from '../channels/index.ts';
import { demandOfUnitItems, toOctoBooking } from './octo.booking-mapping.ts';
import {
  appErrorText,
  badRequest,
  invalidAvailabilityId,
  invalidBookingUuid,
  invalidOptionId,
  invalidUnitId,
  unprocessable,
} from './octo.errors.ts';
import { parseAvailabilityId } from './octo.mapping.ts';
import { availabilityTypeOf, OPTION_ID } from './octo.products.ts';
import { type OctoDeps, productOf } from './octo.service.ts';
import { openingDayOf } from './octo.time.ts';

// OCTO's booking endpoints (decisions §24) over the platform's own booking path: a reserve is the booking
// request (requestChannelBooking) made by the channel's account with a ChannelHold, so capacity, departures,
// resources, prices, expiry, events and the vendor's mail are the same code as any request's.

/** What the booking endpoints use of the OCTO API's deps. */
export type OctoBookingDeps = Pick<OctoDeps, 'db' | 'clock' | 'endpoint' | 'booking'>;

export interface ReserveBody {
  uuid?: string;
  productId: string;
  optionId: string;
  availabilityId?: string;
  expirationMinutes?: number;
  notes?: string | null;
  resellerReference?: string;
  unitItems: { unitId: string }[];
}

export interface ConfirmBody {
  resellerReference?: string;
  contact: {
    fullName?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    emailAddress?: string | null;
    phoneNumber?: string | null;
  };
}

/** How long a hold lasts when the reseller does not say (decisions §24), within the vendor's TTL. */
export const DEFAULT_EXPIRATION_MINUTES = 30;

const actorOf = (channel: ChannelIdentity): ChannelActor => ({
  channelId: channel.id,
  vendorId: channel.vendorId,
  accountId: channel.accountId,
});

const now = (deps: OctoBookingDeps) => deps.booking.clock.now().getTime();

async function findOne(deps: OctoBookingDeps, channel: ChannelIdentity, where: ChannelBookingWhere) {
  const [row] = await channelBookingViews(deps.db, channel.id, where);
  return row;
}

/** The channel's booking of `uuid` as OCTO shows it, or 400 INVALID_BOOKING_UUID. */
async function bookingOfUuid(deps: OctoBookingDeps, channel: ChannelIdentity, uuid: string) {
  const row = await findOne(deps, channel, { uuid });
  if (!row) throw invalidBookingUuid(uuid);
  return row;
}

const answer = (deps: OctoBookingDeps, row: ChannelBookingRow) => toOctoBooking(row, now(deps));

/**
 * The request window an availability id of the product names (START_TIME: a departure's instant, which
 * the request then checks is one; OPENING_HOURS: the opening day of its date), or INVALID_AVAILABILITY_ID.
 */
function askedWindow(listing: ListingRef, productId: string, availabilityId: string | undefined, at: number) {
  const parsed = availabilityId === undefined ? null : parseAvailabilityId(availabilityId);
  const id = availabilityId ?? '';
  if (!parsed || parsed.productId !== productId) throw invalidAvailabilityId(id);
  const startTime = availabilityTypeOf(listing) === 'START_TIME';
  if (startTime !== (parsed.at.startsAt !== undefined)) throw invalidAvailabilityId(id);
  if (parsed.at.startsAt !== undefined) {
    if (parsed.at.startsAt < at)
      throw unprocessable(`The availability ${id} has started: booking has closed.`);
    return { starts_at: formatDateTime(parsed.at.startsAt) };
  }
  const day = openingDayOf(parsed.at.date, listing.openingHours, listing.timeZone);
  if (!day) throw unprocessable(`The availability ${id} is closed all day.`);
  if (day.startsAt < at) throw unprocessable(`The availability ${id} has started: booking has closed.`);
  return { starts_at: formatDateTime(day.startsAt), ends_at: formatDateTime(day.endsAt) };
}

/**
 * POST bookings: a hold of the availability for the unit items, `expirationMinutes` long (default 30, at
 * most the vendor's request TTL). With the reseller's `uuid`, a repeat returns the booking it made: the
 * unique index on (channel, uuid) refuses a second insert, and whatever refused the repeat (the index, or
 * the seats its twin took, also when the two race) it then finds its twin. A first reserve, by far the
 * common case, so costs no look-up beforehand.
 */
export async function reserve(
  deps: OctoBookingDeps,
  channel: ChannelIdentity,
  body: ReserveBody,
  client: { ip: string; userAgent: string },
) {
  const { listing, productId } = await productOf(deps, channel, body.productId);
  if (body.optionId !== OPTION_ID) throw invalidOptionId(body.optionId);
  const window = askedWindow(listing, productId, body.availabilityId, now(deps));
  const units = demandOfUnitItems(listing, body.unitItems);
  if ('unknownUnitId' in units) throw invalidUnitId(units.unknownUnitId);
  if (!units.demand) throw unprocessable('A reservation needs at least one unit item.');
  const uuid = body.uuid ?? randomUUID();
  const input = {
    [listing.kind === 'equipment' ? 'equipment_item_id' : 'adventure_offering_id']: listing.id,
    ...window,
    ...units.demand,
    customer_notes: body.notes ?? '',
  };
  let view: Awaited<ReturnType<typeof requestChannelBooking>>;
  try {
    view = await requestChannelBooking(deps.booking, channelCaller(actorOf(channel)), input, client, {
      channelId: channel.id,
      vendorId: channel.vendorId,
      uuid,
      resellerReference: body.resellerReference ?? null,
      expirationMinutes: body.expirationMinutes ?? DEFAULT_EXPIRATION_MINUTES,
    });
  } catch (error) {
    const twin = body.uuid === undefined ? undefined : await findOne(deps, channel, { uuid: body.uuid });
    if (twin) return answer(deps, twin);
    throw reserveError(error, body.availabilityId ?? '', Date.parse(window.starts_at) < now(deps));
  }
  // the new booking as its view read it, with what the product already told of its listing
  return answer(deps, {
    ...view,
    confirmed_at: null,
    listing_public_id: listing.publicId,
    listing_public_id_shared: productId !== listing.publicId,
    listing_scheduled: availabilityTypeOf(listing) === 'START_TIME',
    booking_cutoff_minutes: listing.bookingCutoffMinutes,
    free_cancellation_hours: listing.freeCancellationHours,
    request_ttl_minutes: listing.requestTtlMinutes,
  });
}

const DEMAND_FIELDS = ['participants', 'participants_count', 'quantity'];

/**
 * What a refused request means in OCTO's terms: an instant that is no departure is an invalid
 * availability; one that has begun meanwhile (`begun`), or a window the listing cannot take, is
 * unprocessable; a uuid that collided with nothing found is already used.
 */
function reserveError(error: unknown, availabilityId: string, begun: boolean): unknown {
  if (isUniqueViolation(error)) return badRequest('The uuid was already used.');
  if (!(error instanceof AppError)) return error;
  // more participants or units than the departure or the item has: it cannot take them
  const fields = Object.keys(error.errors ?? {});
  if (error.code === 'invalid' && fields.some((f) => DEMAND_FIELDS.includes(f)))
    return unprocessable(appErrorText(error));
  if (error.code === 'invalid' && error.errors?.starts_at)
    return begun ? unprocessable(error.errors.starts_at.join(' ')) : invalidAvailabilityId(availabilityId);
  if (error.code === 'booking_conflict' || error.code === 'not_found') return unprocessable(error.message);
  return error;
}

/** GET bookings: the channel's bookings of a reseller reference or of a supplier reference (the id). */
export async function listBookings(
  deps: OctoBookingDeps,
  channel: ChannelIdentity,
  query: { resellerReference?: string; supplierReference?: string },
) {
  const { resellerReference, supplierReference } = query;
  if (resellerReference === undefined && supplierReference === undefined)
    throw badRequest('Give resellerReference or supplierReference.');
  const where: ChannelBookingWhere = { resellerReference };
  if (supplierReference !== undefined) {
    const id = /^[1-9]\d{0,15}$/.test(supplierReference) ? Number(supplierReference) : null;
    if (id === null) return [];
    where.id = id;
  }
  const rows = await channelBookingViews(deps.db, channel.id, where);
  return rows.map((row) => answer(deps, row));
}

export async function getBooking(deps: OctoBookingDeps, channel: ChannelIdentity, uuid: string) {
  return answer(deps, await bookingOfUuid(deps, channel, uuid));
}

const refOf = (row: ChannelBookingRow) => ({
  id: row.id,
  listingKind: row.listing_kind,
  listingId: row.listing_id,
});

/** The contact OCTO sends, as the booking keeps it: the full name, else first and last name joined. */
function contactOf(contact: ConfirmBody['contact']) {
  const joined = [contact.firstName, contact.lastName].filter((p) => p?.trim()).join(' ');
  const fullName = contact.fullName?.trim() || joined || null;
  return {
    fullName,
    email: contact.emailAddress?.trim() || null,
    phone: contact.phoneNumber?.trim() || null,
  };
}

/**
 * A channel's move of its booking of `uuid` (400 INVALID_BOOKING_UUID when it has none), answered with
 * the booking as it then is; the platform's refusal (a lapsed hold, a closed state) is OCTO's
 * UNPROCESSABLE_ENTITY.
 */
async function move(
  deps: OctoBookingDeps,
  channel: ChannelIdentity,
  uuid: string,
  work: (actor: ChannelActor, ref: ChannelBookingRef, row: ChannelBookingRow) => Promise<unknown>,
) {
  const row = await bookingOfUuid(deps, channel, uuid);
  try {
    await work(actorOf(channel), refOf(row), row);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_state') throw unprocessable(error.message);
    throw error;
  }
  return getBooking(deps, channel, uuid);
}

export const confirm = (deps: OctoBookingDeps, channel: ChannelIdentity, uuid: string, body: ConfirmBody) =>
  move(deps, channel, uuid, (actor, ref) =>
    confirmChannelBooking(deps.booking, actor, ref, contactOf(body.contact), body.resellerReference),
  );

export const extend = (
  deps: OctoBookingDeps,
  channel: ChannelIdentity,
  uuid: string,
  minutes: number | undefined,
) =>
  move(deps, channel, uuid, (actor, ref, row) =>
    extendChannelHold(
      deps.booking,
      actor,
      ref,
      minutes ?? DEFAULT_EXPIRATION_MINUTES,
      row.request_ttl_minutes,
    ),
  );

export const cancel = (
  deps: OctoBookingDeps,
  channel: ChannelIdentity,
  uuid: string,
  reason: string | null | undefined,
) =>
  move(deps, channel, uuid, (actor, ref) =>
    cancelChannelBooking(deps.booking, actor, ref, reason ?? undefined),
  );
