import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
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

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, and the tab and carriage return that some
 * read as one) is prefixed with an apostrophe, which spreadsheets show as text. Every text cell here can
 * come from a visitor (tracking parameters, referrers, titles), so the guard applies to all of them.
 */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * Click objects, arriving in chunks, as a CSV stream: a header row, then one row per click, quoted by
 * csv-stringify where a value needs it. Back-pressure flows through: the next chunk is read only when the
 * client has taken the last one.
 */
export function clicksAsCsv(chunks: AsyncIterable<Click[]>): Readable {
  const rows = Readable.from(
    (async function* () {
      for await (const chunk of chunks) yield* chunk;
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...COLUMNS],
    cast: { string: guardFormula, boolean: (value) => String(value) },
  });
  rows.on('error', (error) => csv.destroy(error));
  return rows.pipe(csv);
}
