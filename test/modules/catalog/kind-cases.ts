import type { FastifyInstance } from 'fastify';
import { createAdventure, createEquipment, type ListingOut } from '../../helpers/catalog-factories.ts';
import type { Account } from '../../helpers/factories.ts';

/** What differs between the two listing kinds, so every catalog test runs for both. */
export interface KindCase {
  kind: 'equipment' | 'adventure';
  /** public base, e.g. /api/v1/equipment */
  base: string;
  collection: 'items' | 'offerings';
  price: 'price_per_day' | 'price_per_person';
  location: 'location' | 'meeting_point';
  defaultCategory: string;
  create: (
    app: FastifyInstance,
    vendor: Pick<Account, 'token'>,
    o?: Record<string, unknown>,
  ) => Promise<ListingOut>;
  /** the kind's own fields with valid values, for full-body writes */
  own: Record<string, unknown>;
  /** every field of the output object */
  keys: string[];
}

const COMMON_KEYS = [
  'id',
  'public_id',
  'title',
  'description',
  'is_active',
  'category_id',
  'category',
  'vendor',
  'currency',
  'cancellation_policy',
  // decisions §19: requests close this long before a window starts (both kinds)
  'booking_cutoff_minutes',
  // decisions §21: extras a request may add ([] by default)
  'extras',
  // decisions §23: what a booking request answers ([] by default)
  'questions',
  // decisions §22: shared resources a booking uses ([] by default)
  'resources',
  'created_at',
  'updated_at',
  // decisions §16: the listing's photos, in order (empty until one is uploaded)
  'photos',
];

export const EQUIPMENT_CASE: KindCase = {
  kind: 'equipment',
  base: '/api/v1/equipment',
  collection: 'items',
  price: 'price_per_day',
  location: 'location',
  defaultCategory: 'kayaks',
  create: createEquipment,
  own: { details: { seats: 2, colour: 'red' } },
  keys: [
    ...COMMON_KEYS,
    'details',
    'quantity',
    'location',
    'price_per_day',
    // decisions §20: rental periods ([] / null / 0 by default)
    'rates',
    'min_duration_minutes',
    'max_duration_minutes',
    'buffer_minutes',
  ].sort(),
};

export const ADVENTURE_CASE: KindCase = {
  kind: 'adventure',
  base: '/api/v1/adventrues',
  collection: 'offerings',
  price: 'price_per_person',
  location: 'meeting_point',
  defaultCategory: 'boat-tours',
  create: createAdventure,
  own: { duration_minutes: 90, capacity: 6 },
  keys: [
    ...COMMON_KEYS,
    'meeting_point',
    'duration_minutes',
    'capacity',
    'booking_mode',
    // decisions §19: the departures' rules ([]: unscheduled)
    'schedule',
    // decisions §21: participants priced by category ([]: price_per_person for everyone)
    'price_categories',
    'price_per_person',
  ].sort(),
};

export const KIND_CASES = [EQUIPMENT_CASE, ADVENTURE_CASE];

export const vendorPath = (k: KindCase, id?: number) =>
  `${k.base}/vendor/${k.collection}/${id === undefined ? '' : `${id}/`}`;
export const publicPath = (k: KindCase, publicId?: string) =>
  `${k.base}/${k.collection}/${publicId === undefined ? '' : `${encodeURIComponent(publicId)}/`}`;
