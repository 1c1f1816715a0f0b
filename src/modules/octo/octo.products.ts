import type { ListingRef } from '../catalog/index.ts';

// A listing as an OCTO product (decisions §24), pure: every active listing is a product with one option
// `DEFAULT`. Scheduled adventures are START_TIME products (their availabilities are the departures);
// equipment and unscheduled adventures OPENING_HOURS products (one availability per local date). Units:
// an adventure's price categories, else one unit `person`; equipment one unit `unit`. No pricing (that is
// OCTO's octo/pricing capability, which this supplier does not offer).

export const OPTION_ID = 'DEFAULT';

type UnitType =
  | 'ADULT'
  | 'YOUTH'
  | 'CHILD'
  | 'INFANT'
  | 'FAMILY'
  | 'SENIOR'
  | 'STUDENT'
  | 'MILITARY'
  | 'OTHER';

const TYPE_WORDS: [RegExp, UnitType][] = [
  [/adult/, 'ADULT'],
  [/child|kid/, 'CHILD'],
  [/youth|teen/, 'YOUTH'],
  [/infant|baby|toddler/, 'INFANT'],
  [/senior|elder/, 'SENIOR'],
  [/student/, 'STUDENT'],
  [/family/, 'FAMILY'],
  [/military|veteran/, 'MILITARY'],
];

/** OCTO's unit type of a price category, read from its code and label; OTHER when they name none. */
export function unitTypeOf(category: { code: string; label: string }): UnitType {
  const words = `${category.code} ${category.label}`.toLowerCase();
  return TYPE_WORDS.find(([pattern]) => pattern.test(words))?.[1] ?? 'OTHER';
}

/** The listing's kind of product: START_TIME for a scheduled adventure, OPENING_HOURS for the rest. */
export const availabilityTypeOf = (listing: Pick<ListingRef, 'kind' | 'schedule'>) =>
  listing.kind === 'adventure' && listing.schedule.length > 0 ? 'START_TIME' : 'OPENING_HOURS';

/** A product's units: id, what it books, and its OCTO type. */
export interface ProductUnit {
  id: string;
  name: string;
  type: UnitType;
}

/** The units of a listing's product (decisions §24). */
export function unitsOf(listing: Pick<ListingRef, 'kind' | 'priceCategories'>): ProductUnit[] {
  if (listing.kind === 'equipment') return [{ id: 'unit', name: 'Unit', type: 'OTHER' }];
  if (listing.priceCategories.length === 0) return [{ id: 'person', name: 'Person', type: 'ADULT' }];
  return listing.priceCategories.map((c) => ({ id: c.code, name: c.label, type: unitTypeOf(c) }));
}

const toOctoUnit = (unit: ProductUnit) => ({
  id: unit.id,
  internalName: unit.name,
  reference: unit.id,
  type: unit.type,
  restrictions: {
    minAge: 0,
    maxAge: 100,
    idRequired: false,
    minQuantity: null,
    maxQuantity: null,
    paxCount: 1,
    accompaniedBy: [],
  },
  requiredContactFields: [],
  title: unit.name,
});

/** The local start times a product's availabilities have: the schedule's, or 00:00 for a whole date. */
function localStartTimesOf(listing: Pick<ListingRef, 'kind' | 'schedule'>): string[] {
  if (availabilityTypeOf(listing) === 'OPENING_HOURS') return ['00:00'];
  return [...new Set(listing.schedule.flatMap((rule) => rule.start_times))].sort();
}

/** The most units one reservation may take: the item's quantity, the offering's capacity (schedule's at most). */
function maxUnitsOf(listing: ListingRef): number | null {
  if (listing.kind === 'equipment') return listing.quantity;
  const capacities = [listing.capacity, ...listing.schedule.map((r) => r.capacity)].filter(
    (c): c is number => c !== null,
  );
  return capacities.length ? Math.max(...capacities) : null;
}

/** A listing as OCTO's product, named `productId`. */
export function toOctoProduct(listing: ListingRef, productId: string) {
  const hours = listing.freeCancellationHours;
  return {
    id: productId,
    internalName: listing.title,
    reference: listing.publicId,
    locale: 'en',
    timeZone: listing.timeZone,
    allowFreesale: false,
    // a reseller's confirmation confirms the booking: no approval by the vendor (decisions §24)
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: availabilityTypeOf(listing),
    // OCTO's validator wants at least one of each: the booking's voucher, its reference as a QR code
    deliveryFormats: ['QRCODE' as const],
    deliveryMethods: ['VOUCHER' as const],
    // the vendor checks guests in on the day's manifest (decisions §23)
    redemptionMethod: 'MANIFEST' as const,
    options: [
      {
        id: OPTION_ID,
        default: true,
        internalName: 'Default',
        reference: null,
        availabilityLocalStartTimes: localStartTimesOf(listing),
        cancellationCutoff: `${hours} ${hours === 1 ? 'hour' : 'hours'}`,
        cancellationCutoffAmount: hours,
        cancellationCutoffUnit: 'hour' as const,
        requiredContactFields: [],
        restrictions: { minUnits: 1, maxUnits: maxUnitsOf(listing) },
        units: unitsOf(listing).map(toOctoUnit),
        title: 'Default',
      },
    ],
    title: listing.title,
    ...(listing.durationMinutes !== null && {
      durationMinutesFrom: listing.durationMinutes,
      durationMinutesTo: listing.durationMinutes,
    }),
  };
}
