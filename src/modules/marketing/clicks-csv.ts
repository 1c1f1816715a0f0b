import type { Readable } from 'node:stream';
import { csvStream } from '../../lib/csv.ts';
import type { Click } from './analytics.service.ts';
import { TRACKING_PARAMS } from './traffic.ts';

/** The CSV columns: the click object's fields, in the API's order. */
const COLUMNS = [
  'marketing_click_id',
  'listing_type',
  'public_id',
  'listing_title',
  'equipment_item_id',
  'adventure_offering_id',
  'traffic_type',
  'source',
  ...TRACKING_PARAMS,
  'referrer',
  'user_id',
  'is_bot',
  'created_at',
] as const satisfies readonly (keyof Click)[];

/** Click objects, arriving in chunks, as a CSV stream (csvStream: a header row, formulas guarded). */
export function clicksAsCsv(chunks: AsyncIterable<Click[]>): Readable {
  return csvStream(chunks, COLUMNS);
}
