// Latency of the public list's search, uncached, beside the unfiltered list:
//   DATABASE_URL=sqlite:/tmp/bench.sqlite node bench/search-latency.ts [--runs 200]
//   DATABASE_URL=postgres://... node bench/search-latency.ts
// The database is one seeded by `npm run cli -- seed-bench` (the bench's data set: 20,000 equipment items
// whose titles, descriptions and locations carry adjectives, category names and Portuguese places, some
// accented). Each query is read as the list route reads a page the cache does not hold (count and page,
// through the catalog service), and p50/p99 are printed in milliseconds, with each query's plan.
import { parseArgs } from 'node:util';
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { dialectOf } from '../src/db/dialect.ts';
import { pageOf } from '../src/http/pagination.ts';
import { systemClock } from '../src/lib/clock.ts';
import { LocalDiskStorage } from '../src/media/storage.ts';
import { EQUIPMENT } from '../src/modules/catalog/index.ts';
import { searchWords } from '../src/modules/catalog/listing-search.ts';
import { countListings } from '../src/modules/catalog/listings.repository.ts';
import { createCatalogDeps, listPublicListings } from '../src/modules/catalog/listings.service.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const RUNS = Number(args.runs);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL: a database seeded by npm run cli -- seed-bench');

/** label → query of the public list (none: the unfiltered list) */
const QUERIES: [string, Record<string, string>][] = [
  ['unfiltered', {}],
  ['search "kayaks" (common)', { search: 'kayaks' }],
  ['search "sunset kay" (two words)', { search: 'sunset kay' }],
  ['search "nazare" (accent folded)', { search: 'nazare' }],
  ['search "funchal sunset" (rare)', { search: 'funchal sunset' }],
  ['search "s" (one letter)', { search: 's' }],
  ['search "kayaks" + price 10-200', { search: 'kayaks', min_price: '10', max_price: '200' }],
  ['location "lisbon" + price 10-200', { location: 'lisbon', min_price: '10', max_price: '200' }],
];

const handle = createDb(url);
const deps = createCatalogDeps({
  db: handle.db,
  clock: systemClock,
  recordClick: async () => {
    throw new Error('no clicks here');
  },
  // the lists only name photos' URLs: nothing is read from or written to the directory
  media: new LocalDiskStorage(loadConfig({}).mediaDir),
});
const page = pageOf({});
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

// the count query's plan: the statement the search adds the most to
let lastNode: RootOperationNode | undefined;
const recorder: KyselyPlugin = {
  transformQuery: (a) => {
    lastNode = a.node;
    return a.node;
  },
  transformResult: async (a) => a.result,
};
async function countPlan(query: Record<string, string>): Promise<string> {
  await countListings(handle.db.withPlugin(recorder), {
    kind: 'equipment',
    activeOnly: true,
    searchWords: searchWords(query.search),
  });
  const compiled = handle.db.getExecutor().compileQuery(lastNode!, { queryId: 'plan' } as never);
  const explain = dialectOf(handle.db) === 'postgres' ? 'explain ' : 'explain query plan ';
  const { rows } = await handle.db.executeQuery(
    CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
  );
  return rows.map((r) => Object.values(r as object).join(' ')).join('\n      ');
}

try {
  console.log(`${url.split('@').pop()}: ${RUNS} runs per query, equipment items, page 1 of 20, newest first`);
  for (const [label, query] of QUERIES) {
    const listings = await listPublicListings(deps, EQUIPMENT, query, page);
    const first = await listings.read();
    for (let i = 0; i < 10; i++) await listings.read();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await listings.read();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 0.5).toFixed(2);
    const p99 = percentile(times, 0.99).toFixed(2);
    console.log(`${label.padEnd(36)} count ${String(first.count).padStart(6)}  p50 ${p50} ms  p99 ${p99} ms`);
    if (query.search) console.log(`      ${await countPlan(query)}`);
  }
} finally {
  await handle.close();
}
