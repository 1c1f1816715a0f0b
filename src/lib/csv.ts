import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';

// CSV exports (the click export, the day's manifest): one writer, with one guard against formulas. Rows
// are written by csv-stringify's synchronous form, a slice of records at a time: its streaming form works
// record by record through a transform stream, which made most of a million-row export's time.

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
 * How many records are written as one piece of the stream: some 16 kB of an export's lines (a stream's
 * usual high-water mark); a chunk's thousand lines as one string held the server's RSS about 10 MB higher
 * while an export streamed.
 */
const SLICE = 128;

/**
 * Records, arriving in chunks, as a CSV stream: a header row of `columns`, then one line per record,
 * quoted by csv-stringify where a value needs it, every text cell guarded (guardFormula). Back-pressure
 * flows through: the next piece is written only when the client has taken what was sent before.
 */
export function csvStream<T extends object>(
  chunks: AsyncIterable<readonly T[]>,
  columns: readonly (keyof T & string)[],
): Readable {
  const options = {
    columns: [...columns],
    cast: { string: guardFormula, boolean: (value: boolean) => String(value) },
  };
  return Readable.from(
    (async function* () {
      yield stringify([], { ...options, header: true });
      for await (const chunk of chunks)
        for (let at = 0; at < chunk.length; at += SLICE)
          yield stringify(chunk.slice(at, at + SLICE), options);
    })(),
    { objectMode: false },
  );
}
