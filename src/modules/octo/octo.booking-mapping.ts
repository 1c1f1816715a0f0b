import type { BookingStatus } from '../../db/database.ts';
import { localDateAt } from '../../lib/local-days.ts';
import { type ChannelBookingRow, cutoffAt, inFreeCancellation, statusAt } from '../booking/index.ts';
import { availabilityIdOf, productIdOf } from './octo.mapping.ts';
import { OPTION_ID, unitsOf } from './octo.products.ts';
import { localDateTimeOf, utcOf } from './octo.time.ts';

// A channel booking as OCTO's Booking (decisions §24), and OCTO's unit items as a booking request's demand:
// pure functions over rows, so the service and the tests feed them what they like.

export type OctoBookingStatus = 'ON_HOLD' | 'CONFIRMED' | 'CANCELLED' | 'EXPIRED';

/** OCTO's status of a booking status (a hold, requested, is ON_HOLD; a declined one reads as cancelled). */
export function octoStatusOf(status: BookingStatus): OctoBookingStatus {
  switch (status) {
    case 'requested':
    case 'approved':
      return 'ON_HOLD';
    case 'confirmed':
      return 'CONFIRMED';
    case 'expired':
      return 'EXPIRED';
    default:
      return 'CANCELLED';
  }
}

/** The listing as the unit mapping reads it. */
export type UnitSource = Parameters<typeof unitsOf>[0];

/** The unit ids a listing sells (its product's units). */
const unitIdsOf = (listing: UnitSource) => unitsOf(listing).map((u) => u.id);

/** A request's demand from OCTO unit items: one item is one participant of its unit, or one equipment unit. */
export type UnitDemand =
  | { participants: Record<string, number> }
  | { participants_count: number }
  | { quantity: number };

/**
 * The demand of `unitItems` for the listing, or the first unit id it does not sell. No items: an empty
 * demand (the caller refuses it as OCTO says: UNPROCESSABLE_ENTITY).
 */
export function demandOfUnitItems(
  listing: UnitSource,
  unitItems: readonly { unitId: string }[],
): { demand: UnitDemand | null } | { unknownUnitId: string } {
  const units = unitIdsOf(listing);
  const counts: Record<string, number> = {};
  for (const item of unitItems) {
    if (!units.includes(item.unitId)) return { unknownUnitId: item.unitId };
    counts[item.unitId] = (counts[item.unitId] ?? 0) + 1;
  }
  const total = unitItems.length;
  if (total === 0) return { demand: null };
  if (listing.kind === 'equipment') return { demand: { quantity: total } };
  if (listing.priceCategories.length) return { demand: { participants: counts } };
  return { demand: { participants_count: total } };
}

/** The unit ids a booking holds, one per participant or equipment unit, in price-line order. */
export function bookedUnitIds(
  row: Pick<ChannelBookingRow, 'listing_kind' | 'price_lines' | 'participants_count' | 'quantity'>,
): string[] {
  const [single] = unitsOf({ kind: row.listing_kind, priceCategories: [] });
  if (row.listing_kind === 'equipment') return Array(row.quantity ?? 1).fill(single.id);
  const lines =
    row.price_lines === null
      ? []
      : (JSON.parse(row.price_lines) as { kind: string; code: string | null; quantity: number }[]);
  const categories = lines.filter((l) => l.kind === 'category' && l.code !== null);
  if (categories.length) return categories.flatMap((l) => Array(l.quantity).fill(l.code as string));
  return Array(row.participants_count ?? 1).fill(single.id);
}

const utcOrNull = (ms: number | null) => (ms === null ? null : utcOf(ms));

/** The product id of a booking's listing (productIdOf: its public id, with its kind where ambiguous). */
export const bookingProductId = (row: ChannelBookingRow) =>
  productIdOf({ kind: row.listing_kind, publicId: row.listing_public_id }, row.listing_public_id_shared);

/** OCTO's Contact from a booking's stored contact (OCTO's other members are not kept). */
function contactOf(
  row: Pick<ChannelBookingRow, 'contact_full_name' | 'contact_email' | 'contact_phone'>,
  notes: string | null,
) {
  return {
    fullName: row.contact_full_name,
    firstName: null,
    lastName: null,
    emailAddress: row.contact_email,
    phoneNumber: row.contact_phone,
    locales: [],
    postalCode: null,
    country: null,
    notes,
  };
}

/**
 * The booking's availability as OCTO shows it inside a booking: its id (availabilityIdOf: the departure's
 * local start, or the opening day's date), its local window in the vendor's zone, its cutoff, and whether
 * it is a departure (START_TIME) or a whole opening day (allDay). Its vacancies are POST availability's to
 * tell (they would cost the booking's answer a count of the departure), so they are null here.
 */
function availabilityOf(row: ChannelBookingRow, now: number) {
  const tz = row.vendor_time_zone;
  const startTime = row.listing_kind === 'adventure' && row.listing_scheduled;
  const cutoff = cutoffAt(row.starts_at, row.booking_cutoff_minutes);
  const open = now < cutoff;
  const start = localDateTimeOf(row.starts_at, tz);
  const end = localDateTimeOf(row.ends_at, tz);
  const at = startTime ? { startsAt: row.starts_at } : { date: localDateAt(row.starts_at, tz) };
  return {
    id: availabilityIdOf(bookingProductId(row), at, tz),
    localDateTimeStart: start,
    localDateTimeEnd: end,
    utcCutoffAt: utcOf(cutoff),
    allDay: !startTime,
    available: open,
    status: open ? ('AVAILABLE' as const) : ('CLOSED' as const),
    vacancies: null,
    capacity: null,
    maxUnits: null,
    openingHours: startTime ? [] : [{ from: start.slice(11, 16), to: end.slice(11, 16) }],
  };
}

/** A channel booking as OCTO's Booking at `now`. */
export function toOctoBooking(row: ChannelBookingRow, now: number) {
  const status = octoStatusOf(statusAt(row, now));
  const notes = row.customer_notes === '' ? null : row.customer_notes;
  const policy = { freeCancellationHours: row.free_cancellation_hours };
  const cancellable =
    status === 'ON_HOLD' || (status === 'CONFIRMED' && inFreeCancellation(policy, row.starts_at, now));
  const availability = availabilityOf(row, now);
  const uuid = row.octo_uuid as string;
  const unitStatus = status;
  return {
    id: String(row.id),
    uuid,
    testMode: false,
    resellerReference: row.reseller_reference,
    supplierReference: String(row.id),
    status,
    utcCreatedAt: utcOf(row.created_at),
    utcUpdatedAt: utcOf(row.updated_at),
    utcExpiresAt: status === 'ON_HOLD' ? utcOrNull(row.expires_at) : null,
    utcRedeemedAt: null,
    utcConfirmedAt: utcOrNull(row.confirmed_at),
    productId: bookingProductId(row),
    optionId: OPTION_ID,
    cancellable,
    cancellation:
      status === 'CANCELLED'
        ? { refund: 'FULL' as const, reason: null, utcCancelledAt: utcOf(row.updated_at) }
        : null,
    freesale: false,
    availabilityId: availability.id,
    availability,
    contact: contactOf(row, notes),
    notes,
    deliveryMethods: [],
    voucher: null,
    unitItems: bookedUnitIds(row).map((unitId, index) => ({
      uuid: `${uuid}-${index + 1}`,
      resellerReference: null,
      supplierReference: `${row.id}-${index + 1}`,
      unitId,
      status: unitStatus,
      utcRedeemedAt: null,
      contact: contactOf(row, null),
      ticket: null,
    })),
    pricing: {
      original: row.total_price_cents,
      retail: row.total_price_cents,
      net: null,
      currency: row.currency.toUpperCase(),
      currencyPrecision: 2,
      includedTaxes: [],
    },
  };
}
export type OctoBooking = ReturnType<typeof toOctoBooking>;
