import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvValue, csvCell, csvLine, csvStream, guardFormula } from '../../src/lib/csv.ts';

// The exports' CSV writer against csv-stringify, the library it replaced (the files must not change), and
// against csv-parse reading them back.

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

describe('csvCell', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1+1', "'=1+1"],
    ['-5', "'-5"],
    ['=a,b', '"\'=a,b"'],
    [-5, '-5'],
    [12.5, '12.5'],
    [true, 'true'],
    [false, 'false'],
    [null, ''],
    [undefined, ''],
    ['', ''],
  ] as [CsvValue, string][])('writes %j as %j', (input, cell) => {
    expect(csvCell(input)).toBe(cell);
  });
});

describe('csvStream', () => {
  it('writes byte for byte what csv-stringify wrote, however the records are chunked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(record, { maxLength: 5 }), { maxLength: 4 }), async (chunks) => {
        expect(await viaStream(chunks)).toBe(viaLibrary(chunks.flat()));
      }),
      { numRuns: 300 },
    );
  });

  it('reads back as the records, text guarded against formulas', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), (records) => {
        const csv = `${COLUMNS.join(',')}\n${records.map((r) => csvLine(r, COLUMNS)).join('')}`;
        const cellOf = (v: CsvValue) =>
          v === null || v === undefined ? '' : typeof v === 'string' ? guardFormula(v) : String(v);
        expect(parse(csv, { columns: true })).toEqual(
          records.map((r) => Object.fromEntries(COLUMNS.map((c) => [c, cellOf(r[c])]))),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('sends a large chunk in pieces of about 16 kB, the same bytes', async () => {
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
    expect(pieces.length).toBeGreaterThan(5);
    // each piece ends on a line and exceeds 16 kB by less than one line
    for (const piece of pieces) {
      expect(piece.endsWith('\n')).toBe(true);
      expect(piece.length).toBeLessThan(16_384 + 200);
    }
  });

  it('is the header alone without records', async () => {
    expect(await viaStream([])).toBe('a,b,c,d\n');
    expect(await viaStream([[], []])).toBe('a,b,c,d\n');
  });
});
