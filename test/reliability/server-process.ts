import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { adminQuery, databaseUrl } from '../helpers/test-databases.ts';

// The real server as a child process (node src/server.ts), and a database of its own for it: the helpers
// of the reliability suites (not a test file).

export const JWT_SECRET = 'reliability-secret-0123456789';
export const PASSWORD = 'Tidal-Paddle-2024!';

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): { stdout: string; stderr: string };
}

// Servers still running when a test fails half-way are killed, never left behind; the files they wrote
// (photos, development mail) go in a directory of this test process, removed with it.
const running = new Set<ChildProcess>();
const files = mkdtempSync(join(tmpdir(), 'reliability-files-'));
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(files, { recursive: true, force: true });
});

/** Kills every server this process started that is still running (for afterAll). */
export async function killServers(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts the server on the database and waits until /readyz answers 200. */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['src/server.ts'], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_LOGIN: '100000',
      RATE_LIMIT_REFRESH: '100000',
      RATE_LIMIT_REGISTER: '100000',
      MEDIA_DIR: join(files, 'media'),
      MAIL_DIR: join(files, 'mail'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  running.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}${stdout}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 30 s: ${stderr}${stdout}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, child, exited, output: () => ({ stdout, stderr }) };
}

export interface TestDatabase {
  url: string;
  dialect: 'sqlite' | 'postgres';
  open(): DbHandle;
  drop(): Promise<void>;
}

/**
 * A database of its own: a new SQLite file, or (with TEST_DATABASE_URL) a new PostgreSQL database on that
 * server, so that a server process can run its migrations on it and be killed without harm to others.
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (!pgUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'reliability-'));
    const url = `sqlite:${join(dir, 'app.sqlite')}`;
    return {
      url,
      dialect: 'sqlite',
      open: () => createDb(url),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `rel_${randomBytes(5).toString('hex')}`;
  await adminQuery(pgUrl, `create database ${name}`);
  const url = databaseUrl(pgUrl, name);
  return {
    url,
    dialect: 'postgres',
    open: () => createDb(url, { poolSize: 2 }),
    drop: () => adminQuery(pgUrl, `drop database if exists ${name} with (force)`),
  };
}

/**
 * A fresh database for the tests of one file, made before them and dropped after them, once every server
 * they started is killed. Call at the top of a test file; the getter answers inside tests.
 */
export function databaseOfFile(): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await killServers();
    await database?.drop();
  });
  return () => database as TestDatabase;
}

export interface Fixture {
  customerEmail: string;
  customerToken: string;
  customerId: number;
  vendorToken: string;
  listingId: number;
  publicId: string;
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A vendor with one equipment item (45.00 a day) and a customer, made through the API. */
export async function makeFixture(base: string): Promise<Fixture> {
  const n = randomBytes(4).toString('hex');
  await post(base, '/api/v1/accounts/register/vendor/', {
    email: `vendor-${n}@example.com`,
    password: PASSWORD,
    business_name: `Durable Kayaks ${n}`,
  });
  const vendor = await post(base, '/api/v1/accounts/token/', {
    email: `vendor-${n}@example.com`,
    password: PASSWORD,
  });
  const customerUser = await post(base, '/api/v1/accounts/register/customer/', {
    email: `customer-${n}@example.com`,
    password: PASSWORD,
  });
  const customer = await post(base, '/api/v1/accounts/token/', {
    email: `customer-${n}@example.com`,
    password: PASSWORD,
  });
  const listing = await post(
    base,
    '/api/v1/equipment/vendor/items/',
    {
      public_id: `durable-${n}`,
      title: 'Sea kayak',
      price_per_day: '45.00',
      is_active: true,
      category_id: 1,
    },
    vendor.access as string,
  );
  return {
    customerEmail: `customer-${n}@example.com`,
    customerToken: customer.access as string,
    customerId: customerUser.id as number,
    vendorToken: vendor.access as string,
    listingId: listing.id as number,
    publicId: listing.public_id as string,
  };
}

const HOUR = 3_600_000;
const BASE = Date.UTC(2031, 0, 1);
let slot = 0;
/** A one-hour window no other booking of the run uses (far in the future of the real clock). */
export function distinctWindow(): { starts_at: string; ends_at: string } {
  const starts = BASE + slot++ * 2 * HOUR;
  return { starts_at: new Date(starts).toISOString(), ends_at: new Date(starts + HOUR).toISOString() };
}
