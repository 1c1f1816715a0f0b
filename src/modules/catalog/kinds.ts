import type { ListingKind } from '../../db/database.ts';

/** Kind-specific columns of the listings table, exposed in the API under the column's own name. */
export type ListingAttribute =
  | 'details'
  | 'quantity'
  | 'duration_minutes'
  | 'capacity'
  | 'booking_mode'
  | 'schedule'
  | 'price_categories'
  | 'rates'
  | 'min_duration_minutes'
  | 'max_duration_minutes'
  | 'buffer_minutes';

/**
 * Equipment items and adventure offerings are one kind of thing with different names: this descriptor
 * is the only place that knows the names, so every handler, query and mapper is written once.
 */
export interface KindDescriptor {
  kind: ListingKind;
  /** first path segment under /api/v1/ ('adventrues' is the spec's spelling) */
  pathSegment: string;
  /** further segments serving the same routes; hidden from the OpenAPI document */
  pathAliases: readonly string[];
  /** collection segment: /items/ or /offerings/ */
  collection: string;
  /** the booking/slot field naming a listing of this kind */
  idField: 'equipment_item_id' | 'adventure_offering_id';
  /** API name of the price column */
  priceField: 'price_per_day' | 'price_per_person';
  /** API name of the location column */
  locationField: 'location' | 'meeting_point';
  /** kind-specific columns, in the order the API shows them */
  attributes: readonly ListingAttribute[];
  /** attributes a create (POST) must carry; PUT needs every writable field anyway */
  requiredAttributes: readonly ListingAttribute[];
  /** human name used in messages */
  noun: string;
  /** plural human name, for the OpenAPI summaries */
  plural: string;
  /** OpenAPI tag */
  tag: string;
}

export const EQUIPMENT: KindDescriptor = {
  kind: 'equipment',
  pathSegment: 'equipment',
  pathAliases: [],
  collection: 'items',
  idField: 'equipment_item_id',
  priceField: 'price_per_day',
  locationField: 'location',
  attributes: [
    'details',
    'quantity',
    'rates',
    'min_duration_minutes',
    'max_duration_minutes',
    'buffer_minutes',
  ],
  requiredAttributes: [],
  noun: 'Equipment item',
  plural: 'equipment items',
  tag: 'equipment',
};

export const ADVENTURE: KindDescriptor = {
  kind: 'adventure',
  pathSegment: 'adventrues',
  pathAliases: ['adventures'],
  collection: 'offerings',
  idField: 'adventure_offering_id',
  priceField: 'price_per_person',
  locationField: 'meeting_point',
  attributes: ['duration_minutes', 'capacity', 'booking_mode', 'schedule', 'price_categories'],
  requiredAttributes: ['duration_minutes', 'capacity'],
  noun: 'Adventure offering',
  plural: 'adventure offerings',
  tag: 'adventures',
};

export const KINDS: Record<ListingKind, KindDescriptor> = { equipment: EQUIPMENT, adventure: ADVENTURE };
