// Throughput of the outbox worker (decisions §14): how fast one process fans events out and delivers them.
//   node bench/outbox-delivery.ts [--events 2000] [--endpoints 2]
//   DATABASE_URL=postgres://... node bench/outbox-delivery.ts     (a throwaway schema, dropped after)
// Builds the app on a fresh database (default: a temporary SQLite file) with one vendor whose `endpoints`
// webhook endpoints point at a local HTTP receiver, makes one real booking request, and copies its
// booking.requested event `events` times into the outbox (fresh event ids). Then runs the app's own worker
// until the outbox is empty: every event fanned out to each endpoint and, as decisions §14 says for a
// request, mailed to the customer and the vendor (development mail: .eml files in a temporary MAIL_DIR).
// Prints events and deliveries per second, and checks that every webhook arrived exactly once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { newEventId } from '../src/outbox/events.ts';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    endpoints: { type: 'string', default: '2' },
  },
});
const EVENTS = Number(args.events);
const ENDPOINTS = Number(args.endpoints);

const scratch = mkdtempSync(join(tmpdir(), 'outbox-bench-'));
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
let dropSchema = async () => {};
let handle: ReturnType<typeof createDb>;
let schema: string | undefined;
if (pgUrl) {
  schema = `outbox_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create schema ${schema}`);
  handle = createDb(pgUrl, { searchPath: schema });
  dropSchema = () => admin(`drop schema ${schema} cascade`);
} else {
  handle = createDb(`sqlite:${join(scratch, 'bench.sqlite')}`);
}
await migrateToLatest(handle.db, schema);

const received = new Map<string, number>();
const receiver = createServer((req, res) => {
  // each endpoint gets each event once: counted by endpoint path and webhook-id
  const id = `${req.url} ${String(req.headers['webhook-id'])}`;
  req.resume().on('end', () => {
    received.set(id, (received.get(id) ?? 0) + 1);
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

const config = loadConfig({
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'outbox-bench-secret-0123456789',
  MEDIA_DIR: join(scratch, 'media'),
  MAIL_DIR: join(scratch, 'mail'),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  // the bench runs the worker's passes itself
  NOTIFICATION_POLL_INTERVAL_MS: '0',
  EXPIRY_SWEEP_INTERVAL_MS: '0',
});
const app = await buildApp(config, { db: handle.db });
await app.ready();

async function call(method: string, url: string, payload?: object, token?: string) {
  const res = await app.inject({
    method: method as 'POST',
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}
const PASSWORD = 'Outbox-Bench-2026!';
await call('POST', '/api/v1/accounts/register/vendor/', {
  email: 'vendor@bench.example',
  password: PASSWORD,
  business_name: 'Bench Boats',
});
await call('POST', '/api/v1/accounts/register/customer/', {
  email: 'customer@bench.example',
  password: PASSWORD,
});
const vendor = (
  await call('POST', '/api/v1/accounts/token/', { email: 'vendor@bench.example', password: PASSWORD })
).access as string;
const customer = (
  await call('POST', '/api/v1/accounts/token/', { email: 'customer@bench.example', password: PASSWORD })
).access as string;
const item = await call(
  'POST',
  '/api/v1/equipment/vendor/items/',
  {
    public_id: 'bench-kayak',
    title: 'Bench kayak',
    price_per_day: '45.00',
    is_active: true,
    category_id: 1,
  },
  vendor,
);
for (let i = 0; i < ENDPOINTS; i++)
  await call(
    'POST',
    '/api/v1/notifications/endpoints/',
    { url: `${hookUrl}/${i}`, event_types: ['*'] },
    vendor,
  );
const starts = Date.now() + 7 * 86_400_000;
await call(
  'POST',
  '/api/v1/booking/bookings/request/',
  {
    equipment_item_id: item.id,
    starts_at: new Date(starts).toISOString(),
    ends_at: new Date(starts + 86_400_000).toISOString(),
  },
  customer,
);
const template = await handle.db.selectFrom('notification_events').selectAll().executeTakeFirstOrThrow();
const body = JSON.parse(template.payload);
const copies = Array.from({ length: EVENTS - 1 }, () => {
  const id = newEventId();
  return { ...template, id: undefined, public_id: id, payload: JSON.stringify({ ...body, id }) };
});
for (let i = 0; i < copies.length; i += 500)
  await handle.db
    .insertInto('notification_events')
    .values(copies.slice(i, i + 500).map(({ id: _id, ...row }) => row))
    .execute();

const started = performance.now();
let passes = 0;
for (;;) {
  const done = await app.outbox.runOnce();
  passes++;
  if (done.dispatched + done.attempted === 0) break;
}
const seconds = (performance.now() - started) / 1000;

const deliveries = await handle.db
  .selectFrom('notification_deliveries')
  .select(['channel', 'status'])
  .execute();
const delivered = deliveries.filter((d) => d.status === 'succeeded').length;
const mails = readdirSync(join(scratch, 'mail')).filter((f) => f.endsWith('.eml')).length;
const duplicates = [...received.values()].filter((n) => n > 1).length;
console.log(
  JSON.stringify(
    {
      database: pgUrl ? 'postgres' : 'sqlite',
      events: EVENTS,
      endpoints: ENDPOINTS,
      deliveries: deliveries.length,
      delivered,
      webhooks_received: [...received.values()].reduce((a, b) => a + b, 0),
      webhooks_received_twice: duplicates,
      mail_files: mails,
      seconds: Number(seconds.toFixed(2)),
      events_per_second: Math.round(EVENTS / seconds),
      deliveries_per_second: Math.round(delivered / seconds),
      passes,
    },
    null,
    2,
  ),
);
if (delivered !== EVENTS * (ENDPOINTS + 2) || duplicates > 0) {
  console.error('not every delivery succeeded exactly once');
  process.exitCode = 1;
}

await app.close();
await handle.close();
await dropSchema();
receiver.close();
rmSync(scratch, { recursive: true, force: true });
