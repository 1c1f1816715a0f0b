import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { npmStartCommand, warmCompileCache } from '../scripts/compile-cache.ts';
import { createDb } from '../src/db/create-db.ts';
import { BENCH_CAMPAIGNS, BENCH_VENDOR_EMAIL, benchDataPresent } from '../src/tools/seed-bench.ts';
import {
  bookingRequests,
  DAY,
  freePort,
  HOUR,
  iso,
  jsonBody,
  login,
  procStatusKb,
  serverEnv,
} from './server-process.ts';

// The server's live heap after a long mixed load on a large data set: what a heap cap in `npm start` must
// leave room above. The server runs as `npm start` runs it but without the cap on its old generation (the
// heap grows to what the load keeps alive, not to what a cap squeezes it into) and with the inspector on
// a loopback port, through which this script forces a full garbage collection before each sample: the heap
// in use right after it is the live heap. See docs/performance.md.

const USAGE = `Usage: node bench/heap-soak.ts --db sqlite:<file> [--minutes 5] [--interval 30] [--connections 20]
                                     [--node-args="--max-old-space-size=N"]

Drives a mixed load at the server for --minutes and prints, every --interval seconds, the server's heap in
use after a forced full GC (the live heap), its heap size, external memory and RSS (now and peak).

  --db URL          a database seeded with \`npm run cli -- seed-bench\` (e.g. --clicks 10000000 --bookings
                    1000000). The load writes clicks and bookings into it: use a throwaway copy.
  --minutes M       length of the load (default 5)
  --interval S      seconds between samples (default 30)
  --connections N   concurrent connections (default 20)
  --node-args=A     extra Node flags for the server, e.g. a candidate cap: --node-args="--max-old-space-size=256"

The load, by share of requests: detail views spread over every active listing of both kinds (each records
a click; a quarter with campaign parameters) 45 %, list pages over locations, price ranges, orderings and
pages 15 %, click tracks 10 %, availability checks over every equipment item 15 %, booking requests on
every equipment item (distinct windows after all existing bookings, 50 customers) 10 %, the vendor summary
of ten vendors over 7, 30 and 90 days 5 %.
`;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CUSTOMERS = 50;
const VENDORS = 10;

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    minutes: { type: 'string', default: '5' },
    interval: { type: 'string', default: '30' },
    connections: { type: 'string', default: '20' },
    'node-args': { type: 'string', default: '' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
const minutes = Number(values.minutes);
const interval = Number(values.interval);
const connections = Number(values.connections);
if (values.help || !values.db) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
if (!(minutes > 0) || !(interval >= 1) || !Number.isInteger(connections) || connections < 1) {
  console.error('--minutes, --interval and --connections must be positive numbers');
  process.exit(2);
}
const databaseUrl = values.db;

// --- the data the load asks about --------------------------------------------------------------------

const { db, close } = createDb(databaseUrl);
const fixtures = await (async () => {
  try {
    if (!(await benchDataPresent(db)))
      throw new Error(`${databaseUrl} holds no bench data: run seed-bench first`);
    const listings = await db
      .selectFrom('listings')
      .select(['id', 'kind', 'public_id'])
      .where('is_active', '=', 1)
      .where('archived_at', 'is', null)
      .orderBy('id')
      .execute();
    const latest = await db
      .selectFrom('bookings')
      .select((eb) => eb.fn.max('ends_at').as('m'))
      .executeTakeFirst();
    return { listings, latestBookingEnd: Number(latest?.m ?? 0) };
  } finally {
    await close();
  }
})();
const listings = fixtures.listings;
const items = listings.filter((l) => l.kind === 'equipment');
console.log(`${listings.length} active listings (${items.length} equipment items)`);

// --- the server --------------------------------------------------------------------------------------

await warmCompileCache();
const start = npmStartCommand();
const flags = [
  ...start.flags.filter((flag) => !flag.startsWith('--max-old-space-size')),
  ...values['node-args'].split(/\s+/).filter(Boolean),
  '--inspect=127.0.0.1:0',
];
const port = await freePort();
const server = spawn(process.execPath, [...flags, 'src/server.ts'], {
  cwd: ROOT,
  env: {
    ...process.env,
    ...start.env,
    ...serverEnv(port, databaseUrl),
  },
  stdio: ['ignore', 'inherit', 'pipe'],
});
const stop = () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
};
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
console.log(`server: node ${flags.join(' ')} src/server.ts`);

const inspectorUrl = await new Promise<string>((resolve, reject) => {
  let output = '';
  server.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    output += chunk;
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(output);
    if (match) resolve(match[1]);
  });
  server.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}`;
for (
  let tries = 0;
  !(await fetch(`${base}/healthz`).then(
    (r) => r.ok,
    () => false,
  ));
  tries++
) {
  if (tries > 600) throw new Error('the server did not answer /healthz within 60 s');
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The inspector protocol over its WebSocket: one call at a time. */
const inspector = new WebSocket(inspectorUrl);
await new Promise((resolve, reject) => {
  inspector.onopen = resolve;
  inspector.onerror = reject;
});
let callId = 0;
function call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const id = ++callId;
  return new Promise((resolve, reject) => {
    inspector.onmessage = (event) => {
      const message = JSON.parse(String(event.data));
      if (message.id !== id) return;
      if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
      else resolve(message.result);
    };
    inspector.send(JSON.stringify({ id, method, params }));
  });
}

let started = performance.now();
let sent = 0;
async function sample(label: string): Promise<void> {
  await call('HeapProfiler.collectGarbage');
  const { result } = (await call('Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  })) as { result: { value: string } };
  const usage = JSON.parse(result.value) as NodeJS.MemoryUsage;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).padStart(6);
  const procMb = (field: 'VmRSS' | 'VmHWM') => mb((procStatusKb(server.pid!, field) ?? Number.NaN) * 1024);
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(
    `${label.padEnd(6)} ${String(seconds).padStart(5)} s ${String(sent).padStart(9)} requests  ` +
      `live heap ${mb(usage.heapUsed)} MB  heap ${mb(usage.heapTotal)} MB  external ${mb(usage.external)} MB  ` +
      `RSS ${procMb('VmRSS')} MB (peak ${procMb('VmHWM').trim()} MB)`,
  );
}

// --- the load -----------------------------------------------------------------------------------------

const customerTokens: string[] = [];
for (let c = 1; c <= CUSTOMERS; c++)
  customerTokens.push(await login(base, `bench-customer-${c}@example.com`));
const vendorTokens = [await login(base, BENCH_VENDOR_EMAIL)];
for (let v = 2; v <= VENDORS; v++)
  vendorTokens.push(await login(base, `bench-vendor-${String(v).padStart(4, '0')}@example.com`));
await sample('start');

const now = Date.now();
const dayStart = Math.floor(now / DAY) * DAY;
const bookingRequest = bookingRequests(items, customerTokens, fixtures.latestBookingEnd);
const PLACES = ['lisbon', 'porto', 'belém', 'faro', 'lagos', 'cascais', 'nazaré', 'peniche', ''];
const ORDERINGS = ['', '&ordering=price', '&ordering=-price', '&ordering=title'];
// a stride coprime with the listing count walks every listing before it repeats one, in no obvious order
const STRIDE = 7919;
let bookings = 0;

function next(n: number): AutocannonRequest {
  const listing = listings[(n * STRIDE) % listings.length];
  const item = items[(n * STRIDE) % items.length];
  const share = n % 20;
  if (share < 9) {
    const path = listing.kind === 'equipment' ? 'equipment/items' : 'adventures/offerings';
    const campaign = BENCH_CAMPAIGNS[n % BENCH_CAMPAIGNS.length];
    const query =
      n % 4 === 3
        ? `?utm_source=${campaign.utm_source}&utm_medium=${campaign.utm_medium}&utm_campaign=${campaign.utm_campaign}`
        : '';
    return { method: 'GET', path: `/api/v1/${path}/${listing.public_id}/${query}` };
  }
  if (share < 12) {
    const path = n % 2 ? 'equipment/items' : 'adventures/offerings';
    const place = PLACES[n % PLACES.length];
    const low = 5 * (n % 20);
    return {
      method: 'GET',
      path: `/api/v1/${path}/?location=${encodeURIComponent(place)}&min_price=${low}&max_price=${low + 50 + (n % 250)}${ORDERINGS[n % ORDERINGS.length]}&page=${1 + (n % 5)}`,
    };
  }
  if (share < 14) {
    const campaign = n % 3 === 0 ? {} : BENCH_CAMPAIGNS[n % BENCH_CAMPAIGNS.length];
    return {
      method: 'POST',
      path: '/api/v1/marketing/track/click/',
      ...jsonBody({ listing_type: listing.kind, public_id: listing.public_id, ...campaign }),
    };
  }
  if (share < 17) {
    const starts = dayStart + (1 + (n % 60)) * DAY + (8 + (n % 8)) * HOUR;
    return {
      method: 'GET',
      path: `/api/v1/booking/availability/?equipment_item_id=${item.id}&starts_at=${iso(starts)}&ends_at=${iso(starts + 4 * HOUR)}`,
    };
  }
  if (share < 19) {
    return bookingRequest(bookings++);
  }
  const to = Date.now();
  return {
    method: 'GET',
    path: `/api/v1/marketing/vendor/summary/?from=${iso(to - [7, 30, 90][n % 3] * DAY)}&to=${iso(to)}`,
    headers: { authorization: `Bearer ${vendorTokens[n % vendorTokens.length]}` },
  };
}

console.log(`load: ${minutes} min at ${connections} connections; a sample every ${interval} s`);
started = performance.now();
// autocannon's result is a thenable without finally(): adopted into a real promise
const load = Promise.resolve(
  autocannon({
    url: base,
    connections,
    duration: minutes * 60,
    requests: [{ setupRequest: (request) => ({ ...request, ...next(sent++) }) }],
  }),
);
let running = true;
void load.finally(() => {
  running = false;
});
while (running) {
  await Promise.race([load, new Promise((resolve) => setTimeout(resolve, interval * 1000))]);
  if (running) await sample('load');
}
const result = await load;
await new Promise((resolve) => setTimeout(resolve, 2000));
await sample('idle');
const statuses = Object.entries(result.statusCodeStats)
  .map(([code, s]) => `${code}:${s.count}`)
  .join(' ');
console.log(`answers: ${statuses}; errors ${result.errors}, non-2xx ${result.non2xx}`);
inspector.close();
stop();
