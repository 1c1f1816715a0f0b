import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

// CSV exports (the click export, the day's manifest): one writer, with one guard against formulas.

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, and the tab and carriage return that some
 * read as one) is prefixed with an apostrophe, which spreadsheets show as text. Exported text comes from
 * visitors and customers (tracking parameters, referrers, titles, names, answers), so the guard applies to
 * every text cell.
 */
export function guardFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * Records, arriving in chunks, as a CSV stream: a header row of `columns`, then one row per record, quoted
 * by csv-stringify where a value needs it, every text cell guarded (guardFormula). Back-pressure flows
 * through: the next chunk is read only when the client has taken the last one.
 */
export function csvStream<T extends object>(
  chunks: AsyncIterable<readonly T[]>,
  columns: readonly (keyof T & string)[],
): Readable {
  const rows = Readable.from(
    (async function* () {
      for await (const chunk of chunks) yield* chunk;
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...columns],
    cast: { string: guardFormula, boolean: (value) => String(value) },
  });
  rows.on('error', (error) => csv.destroy(error));
  return rows.pipe(csv);
}
