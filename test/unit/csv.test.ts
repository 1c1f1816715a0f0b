import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvStream, guardFormula } from '../../src/lib/csv.ts';

// The exports' CSV stream: one header, every record once and in order however the records are chunked and
// sliced, text guarded against formulas, and csv-parse reads back the records.

/** A cell's value as the exports hold them: null is an empty cell. */
type CsvValue = string | number | boolean | null;

const COLUMNS = ['a', 'b', 'c', 'd'] as const;
type Record4 = Record<(typeof COLUMNS)[number], CsvValue>;

/** Text full of the characters that matter: delimiters, quotes, line breaks, formula starts. */
const text = fc.string({
  unit: fc.constantFrom(',', '"', '\n', '\r', '=', '+', '-', '@', '\t', 'a', 'é', ' ', '😀'),
  maxLength: 8,
});
const value: fc.Arbitrary<CsvValue> = fc.oneof(
  text,
  fc.string(),
  fc.integer(),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 100),
  fc.boolean(),
  fc.constant(null),
);
const record = fc.record({ a: value, b: value, c: value, d: value }) as fc.Arbitrary<Record4>;

const viaLibrary = (records: Record4[]) =>
  stringify(records, {
    header: true,
    columns: [...COLUMNS],
    cast: { string: guardFormula, boolean: (v) => String(v) },
  });

async function viaStream(chunks: Record4[][]): Promise<string> {
  let out = '';
  for await (const piece of csvStream(
    (async function* () {
      yield* chunks;
    })(),
    COLUMNS,
  ))
    out += piece.toString();
  return out;
}

describe('csvStream', () => {
  it('writes what csv-stringify writes of all the records at once, however they are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(record, { maxLength: 5 }), { maxLength: 4 }), async (chunks) => {
        expect(await viaStream(chunks)).toBe(viaLibrary(chunks.flat()));
      }),
      { numRuns: 300 },
    );
  });

  it('reads back as the records, text guarded against formulas', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 6 }), async (records) => {
        const csv = await viaStream([records]);
        const cellOf = (v: CsvValue) =>
          v === null || v === undefined ? '' : typeof v === 'string' ? guardFormula(v) : String(v);
        expect(parse(csv, { columns: true })).toEqual(
          records.map((r) => Object.fromEntries(COLUMNS.map((c) => [c, cellOf(r[c])]))),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('sends a large chunk in pieces of a slice of records each, the same bytes', async () => {
    const records = Array.from({ length: 1_000 }, (_, i) => ({
      a: i,
      b: 'x,'.repeat(i % 100),
      c: '=1',
      d: null,
    }));
    const pieces: string[] = [];
    const stream = csvStream(
      (async function* () {
        yield records;
      })(),
      COLUMNS,
    );
    for await (const piece of stream) pieces.push(piece.toString());
    expect(pieces.join('')).toBe(viaLibrary(records));
    // the header, then 1,000 records (no line breaks in their cells) in slices of 128
    expect(pieces.map((piece) => piece.split('\n').length - 1)).toEqual([1, ...Array(7).fill(128), 104]);
    for (const piece of pieces) expect(piece.endsWith('\n')).toBe(true);
  });

  it('is the header alone without records', async () => {
    expect(await viaStream([])).toBe('a,b,c,d\n');
    expect(await viaStream([[], []])).toBe('a,b,c,d\n');
  });
});
