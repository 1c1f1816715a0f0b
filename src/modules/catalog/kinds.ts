import type { ListingKind } from '../../db/database.ts';

/**
 * Equipment items and adventure offerings are one kind of thing with different names: this descriptor
 * is the only place that knows the names, so every handler, query and mapper is written once.
 */
export interface KindDescriptor {
  kind: ListingKind;
  /** first path segment under /api/v1/ ('adventrues' is the spec's spelling) */
  pathSegment: string;
  /** collection segment: /items/ or /offerings/ */
  collection: string;
  /** the booking/slot field naming a listing of this kind */
  idField: 'equipment_item_id' | 'adventure_offering_id';
  /** API name of the price column */
  priceField: 'price_per_day' | 'price_per_person';
  /** API name of the location column */
  locationField: 'location' | 'meeting_point';
  /** human name used in messages */
  noun: string;
}

export const EQUIPMENT: KindDescriptor = {
  kind: 'equipment',
  pathSegment: 'equipment',
  collection: 'items',
  idField: 'equipment_item_id',
  priceField: 'price_per_day',
  locationField: 'location',
  noun: 'Equipment item',
};

export const ADVENTURE: KindDescriptor = {
  kind: 'adventure',
  pathSegment: 'adventrues',
  collection: 'offerings',
  idField: 'adventure_offering_id',
  priceField: 'price_per_person',
  locationField: 'meeting_point',
  noun: 'Adventure offering',
};

export const KINDS: Record<ListingKind, KindDescriptor> = { equipment: EQUIPMENT, adventure: ADVENTURE };
