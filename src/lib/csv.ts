import { Readable } from 'node:stream';

// CSV exports (the click export, the day's manifest): one writer, with one guard against formulas. The
// writer is a few string operations per cell rather than a general CSV library: an export of a million
// rows spends most of its time here, and a record-at-a-time transform stream cost several times more
// than joining a chunk's lines into one string (test/unit/csv.test.ts checks it against csv-stringify).

/** A cell's value as the exports hold them: null and undefined are empty cells. */
export type CsvValue = string | number | boolean | null | undefined;

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
 * About how much text is written at a time (a stream's default high-water mark): a chunk's thousand lines
 * as one string of some 130 kB raised the server's RSS by about 10 MB more while an export streamed.
 */
const PIECE = 16_384;

/** A field needs quotes when it holds the delimiter, a quote or a line break (RFC 4180). */
const NEEDS_QUOTES = /[",\n\r]/;

/** One cell: text guarded (guardFormula) and quoted where needed, numbers and booleans as written. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = guardFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record as a line (with its line feed), its cells in the order of `columns`. */
export function csvLine<T extends object>(record: T, columns: readonly (keyof T & string)[]): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(record[columns[i]] as CsvValue);
  }
  return `${line}\n`;
}

/**
 * Records, arriving in chunks, as a CSV stream: a header row of `columns`, then one line per record
 * (csvLine), sent in pieces of about PIECE characters. Back-pressure flows through: the next piece is made
 * only when the client has taken what was sent before.
 */
export function csvStream<T extends object>(
  chunks: AsyncIterable<readonly T[]>,
  columns: readonly (keyof T & string)[],
): Readable {
  return Readable.from(
    (async function* () {
      yield `${columns.map(csvCell).join(',')}\n`;
      for await (const chunk of chunks) {
        let text = '';
        for (const record of chunk) {
          text += csvLine(record, columns);
          if (text.length >= PIECE) {
            yield text;
            text = '';
          }
        }
        if (text) yield text;
      }
    })(),
    { objectMode: false },
  );
}
